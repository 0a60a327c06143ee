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
import { BurstyRateLimiter, type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { rateLimitAnswer } from "../sandbox/engine/answer.js";
import type { SandboxAnswer } from "../sandbox/problem.js";
import { redactUrl } from "../sandbox/store/url.js";
import type { Quotas } from "./quotas.js";

/** The window of the burst allowance, in seconds. */
export const BURST_WINDOW_SECONDS = 10;

/** Makes one counter of the library (memory by default; `postgresLimiter`'s): `points` per `duration` seconds, keys under `keyPrefix`. */
export type LimiterFactory = (options: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;

const memoryLimiter: LimiterFactory = (options) => new RateLimiterMemory(options);

/** The table of the counters in a Postgres store (beside the sandbox's own tables). */
export const RATE_TABLE = "sandbox_rate_limits";

/** The Postgres counters' pool: a few connections, each step bounded in time (ms). */
const RATE_POOL = { max: 4, connectTimeoutMs: 10_000, statementTimeoutMs: 10_000, idleTimeoutMs: 30_000 };

/**
 * The counters in the Postgres database at `url` (rate-limiter-flexible's RateLimiterPostgres, its
 * table made if missing), on a pool of their own, so that every instance on the database counts a
 * partner's requests together; `close` ends the pool. Fails naming the store, never its password.
 */
export async function postgresLimiter(url: string): Promise<{ limiter: LimiterFactory; close(): Promise<void> }> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: url,
    max: RATE_POOL.max,
    connectionTimeoutMillis: RATE_POOL.connectTimeoutMs,
    idleTimeoutMillis: RATE_POOL.idleTimeoutMs,
    statement_timeout: RATE_POOL.statementTimeoutMs,
    query_timeout: RATE_POOL.statementTimeoutMs + RATE_POOL.connectTimeoutMs,
    application_name: "bank-api-contracts sandbox rate limit",
  });
  // An idle connection that fails is replaced by the pool; the request that next needs one meets the failure.
  pool.on("error", () => {});
  const common = { storeClient: pool, storeType: "pool", tableName: RATE_TABLE, clearExpiredByTimeout: false };
  try {
    await new Promise<void>((resolve, reject) => {
      new RateLimiterPostgres({ ...common, points: 1, duration: 1 }, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  } catch (error) {
    await pool.end().catch(() => {});
    const code = (error as { code?: unknown })?.code;
    throw new Error(
      `postgres store ${redactUrl(url)}: the table of the partners' request rates cannot be made${typeof code === "string" ? ` (${code})` : ""}`,
    );
  }
  return {
    limiter: (options) => new RateLimiterPostgres({ ...common, ...options, tableCreated: true }),
    close: () => pool.end(),
  };
}

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
