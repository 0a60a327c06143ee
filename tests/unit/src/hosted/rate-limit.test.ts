/**
 * A partner's request rate (src/hosted/rate-limit.ts) on rate-limiter-flexible's memory store, on
 * vitest's fake clock (the library counts by Date.now and expires by setTimeout): the rate per
 * second, the burst over it within 10 s, Retry-After, one partner's limit leaving the others alone;
 * and the 429 answer with its sl-violations entry, shaped as the sandbox's own 507.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PartnerRateLimiter, tooManyRequests } from "../../../../src/hosted/rate-limit.js";

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00.000Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** How many of `n` requests of `partner` are let through now. */
async function allowed(limiter: PartnerRateLimiter, partner: string, n: number, quotas: { requestsPerSecond: number; burst: number }) {
  let count = 0;
  for (let i = 0; i < n; i++) if ((await limiter.take(partner, quotas)).allowed) count++;
  return count;
}

describe("the rate", () => {
  it("lets requestsPerSecond through in a second, refuses the next with Retry-After, and lets more through a second later", async () => {
    const limiter = new PartnerRateLimiter();
    const quotas = { requestsPerSecond: 3, burst: 0 };
    expect(await allowed(limiter, "ptn_a", 3, quotas)).toBe(3);
    expect(await limiter.take("ptn_a", quotas)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await allowed(limiter, "ptn_a", 4, quotas)).toBe(3);
  });

  it("lets a burst over the rate through, at most `burst` within 10 s", async () => {
    const limiter = new PartnerRateLimiter();
    const quotas = { requestsPerSecond: 2, burst: 3 };
    // Second 0: the rate's 2 and the burst's 3.
    expect(await allowed(limiter, "ptn_a", 10, quotas)).toBe(5);
    await vi.advanceTimersByTimeAsync(1000);
    // Second 1: the rate's 2 only, the burst spent for the 10 s.
    expect(await allowed(limiter, "ptn_a", 10, quotas)).toBe(2);
    await vi.advanceTimersByTimeAsync(9000);
    // Second 10: the burst is there again.
    expect(await allowed(limiter, "ptn_a", 10, quotas)).toBe(5);
  });

  it("says to retry when the first of the two windows opens again, in whole seconds, at least 1", async () => {
    const limiter = new PartnerRateLimiter();
    const quotas = { requestsPerSecond: 1, burst: 1 };
    expect(await allowed(limiter, "ptn_a", 2, quotas)).toBe(2);
    await vi.advanceTimersByTimeAsync(400);
    expect(await limiter.take("ptn_a", quotas)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("counts each partner apart: one at its rate leaves the others answered", async () => {
    const limiter = new PartnerRateLimiter();
    const quotas = { requestsPerSecond: 2, burst: 0 };
    expect(await allowed(limiter, "ptn_noisy", 100, quotas)).toBe(2);
    expect(await allowed(limiter, "ptn_quiet", 2, quotas)).toBe(2);
    expect(await allowed(limiter, "ptn_other", 1, quotas)).toBe(1);
  });

  it("follows a partner's own rate (an operator's override)", async () => {
    const limiter = new PartnerRateLimiter();
    expect(await allowed(limiter, "ptn_a", 20, { requestsPerSecond: 2, burst: 0 })).toBe(2);
    expect(await allowed(limiter, "ptn_b", 20, { requestsPerSecond: 15, burst: 0 })).toBe(15);
  });

  it("keeps its counters in the store it is given, and passes a store's failure on", async () => {
    const made: Array<{ keyPrefix: string; points: number; duration: number }> = [];
    const failing = new PartnerRateLimiter((options) => {
      made.push(options);
      return { consume: () => Promise.reject(new Error("store unreachable")) } as never;
    });
    await expect(failing.take("ptn_a", { requestsPerSecond: 4, burst: 6 })).rejects.toThrow("store unreachable");
    expect(made).toEqual([
      { keyPrefix: "sandbox-rate-4.6", points: 4, duration: 1 },
      { keyPrefix: "sandbox-burst-4.6", points: 6, duration: 10 },
    ]);
  });
});

describe("the 429 answer", () => {
  it("is problem+json with Retry-After, titled as the sandbox's own (src/sandbox/engine/answer.ts names it in sl-violations)", () => {
    const answer = tooManyRequests({ retryAfterSeconds: 3, quotas: { requestsPerSecond: 10, burst: 50 } });
    const detail = "this partner's request rate is 10 per second with 50 more within 10 s: retry after 3 s";
    expect(answer).toEqual({
      status: 429,
      headers: { "Content-Type": "application/problem+json", "Retry-After": "3" },
      body: { type: "about:blank", title: "Sandbox rate limit reached", status: 429, detail },
    });
  });

  it("names no burst when there is none", () => {
    const answer = tooManyRequests({ retryAfterSeconds: 1, quotas: { requestsPerSecond: 2, burst: 0 } });
    expect((answer.body as { detail: string }).detail).toBe("this partner's request rate is 2 per second: retry after 1 s");
  });
});
