/**
 * A partner's request rate in a hosted sandbox, counted by rate-limiter-flexible: per partner id,
 * `requestsPerSecond` in each one-second window and, over it, up to `burst` more within any 10 s
 * (its BurstyRateLimiter: the rate's limiter first, the burst's when that one is spent). A request
 * over both is answered 429 problem+json with `Retry-After` (`tooManyRequests`), so that one partner
 * never takes the service from the others.
 *
 * The counts live in the limiter's store: memory (one process) by default; the library's Postgres
 * store (RateLimiterPostgres, same interface), given as `limiter`, makes a limit hold across
 * instances on one database.
 */
import { BurstyRateLimiter, type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { rateLimitAnswer } from "../sandbox/engine/answer.js";
import type { SandboxAnswer } from "../sandbox/problem.js";
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

/** What a partner over its rate is told: its rate, its burst, and when to retry. */
export function rateDetail(quotas: Pick<Quotas, "requestsPerSecond" | "burst">, retryAfterSeconds: number): string {
  return (
    `this partner's request rate is ${quotas.requestsPerSecond} per second` +
    `${quotas.burst > 0 ? ` with ${quotas.burst} more within ${BURST_WINDOW_SECONDS} s` : ""}: retry after ${retryAfterSeconds} s`
  );
}

/**
 * The answer to a request over its partner's rate, as the sandbox answers its own 507
 * (src/sandbox/engine/answer.ts `rateLimitAnswer`): 429 problem+json with `Retry-After`; the
 * sandbox's `validateAnswer` names it in `sl-violations` where the operation does not declare 429.
 */
export function tooManyRequests(options: {
  retryAfterSeconds: number;
  quotas: Pick<Quotas, "requestsPerSecond" | "burst">;
}): SandboxAnswer {
  return rateLimitAnswer(rateDetail(options.quotas, options.retryAfterSeconds), options.retryAfterSeconds);
}
