/**
 * A partner's request rate in a hosted sandbox, counted by rate-limiter-flexible: per partner id,
 * `requestsPerSecond` in each one-second window and, over it, up to `burst` more within any 10 s
 * (its BurstyRateLimiter: the rate's limiter first, the burst's when that one is spent). A request
 * over both is answered 429 problem+json with `Retry-After` (`tooManyRequests`), so that one partner
 * never takes the service from the others.
 *
 * The counts live in the limiter's store: memory now (one process); the library's Postgres store
 * (RateLimiterPostgres, same interface) makes a limit hold across instances, given as `limiter`.
 */
import { BurstyRateLimiter, type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { HookAnswer, Violation } from "../mock/types.js";
import type { Quotas } from "./quotas.js";

/** The window of the burst allowance, in seconds. */
export const BURST_WINDOW_SECONDS = 10;

/** Makes one counter of the library (memory by default; the Postgres one later): `points` per `duration` seconds, keys under `keyPrefix`. */
export type LimiterFactory = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

const memoryLimiter: LimiterFactory = (options) => new RateLimiterMemory(options);

/** A request within its partner's rate, or over it with the seconds to wait. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Rate settings kept at most (one per distinct rate and burst in use): past it, the kept ones are dropped and made again. */
const MAX_SETTINGS = 2048;

export class PartnerRateLimiter {
  private readonly bySetting = new Map<string, { consume(key: string): Promise<RateLimiterRes> }>();

  constructor(private readonly limiter: LimiterFactory = memoryLimiter) {}

  /** Counts one request of `partnerId` against its rate; resolves whether it may go on. Store failures reject. */
  async take(partnerId: string, quotas: Pick<Quotas, "requestsPerSecond" | "burst">): Promise<RateDecision> {
    try {
      await this.counter(quotas.requestsPerSecond, quotas.burst).consume(partnerId);
      return { allowed: true };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
    }
  }

  private counter(perSecond: number, burst: number) {
    const setting = `${perSecond}.${burst}`;
    let counter = this.bySetting.get(setting);
    if (!counter) {
      const rate = this.limiter({ keyPrefix: `sandbox-rate-${setting}`, points: perSecond, duration: 1 });
      counter =
        burst === 0
          ? rate
          : new BurstyRateLimiter(
              rate,
              this.limiter({ keyPrefix: `sandbox-burst-${setting}`, points: burst, duration: BURST_WINDOW_SECONDS }),
            );
      if (this.bySetting.size >= MAX_SETTINGS) this.bySetting.clear();
      this.bySetting.set(setting, counter);
    }
    return counter;
  }
}

/**
 * The answer to a request over its partner's rate, and its `sl-violations` entry, as the sandbox
 * reports its own 507 (src/sandbox/engine/answer.ts `limitAnswer`, `validateAnswer`): problem+json with
 * `Retry-After`; the entry names 429 as the sandbox's own answer unless the operation declares it
 * (`declared`), when it keeps the contract and there is none.
 */
export function tooManyRequests(options: {
  operationId: string;
  retryAfterSeconds: number;
  quotas: Pick<Quotas, "requestsPerSecond" | "burst">;
  declared: boolean;
}): { answer: HookAnswer; violations: Violation[] } {
  const { operationId, retryAfterSeconds, quotas, declared } = options;
  const detail =
    `this partner's request rate is ${quotas.requestsPerSecond} per second` +
    `${quotas.burst > 0 ? ` with ${quotas.burst} more within ${BURST_WINDOW_SECONDS} s` : ""}: retry after ${retryAfterSeconds} s`;
  return {
    answer: {
      status: 429,
      headers: { "Content-Type": "application/problem+json", "Retry-After": String(retryAfterSeconds) },
      body: { type: "about:blank", title: "Sandbox rate limit reached", status: 429, detail },
    },
    violations: declared
      ? []
      : [
          {
            location: ["response", "status"],
            severity: "Error",
            code: "sandbox-rate-limit",
            message: `429 is the sandbox's own answer when a partner's request rate is reached (not a status ${operationId} declares): ${detail}`,
          },
        ],
  };
}
