/**
 * The retry policy's bounds (src/sandbox/delivery/policy.ts `boundedRetry`) on values that are no
 * number of milliseconds or attempts: missing, NaN or infinite, each takes the sandbox's default
 * (5 attempts, 250 ms doubled up to 4000 ms, a 5000 ms timeout per attempt), never NaN or a bound.
 */
import { describe, expect, it } from "vitest";
import { boundedRetry } from "../../../../src/sandbox/delivery/policy.js";

const DEFAULTS = { attempts: 5, baseDelayMs: 250, maxDelayMs: 4000, timeoutMs: 5000 };

describe("the retry policy's bounds", () => {
  it.each([undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("%s takes every default", (value) => {
    expect(boundedRetry({ attempts: value, baseDelayMs: value, maxDelayMs: value, timeoutMs: value })).toEqual(DEFAULTS);
  });

  it("keeps a finite value inside its bounds, rounded", () => {
    expect(boundedRetry({ attempts: 2.6, baseDelayMs: 60_001, maxDelayMs: -5, timeoutMs: 99.4 })).toEqual({
      attempts: 3,
      baseDelayMs: 60_000,
      maxDelayMs: 1,
      timeoutMs: 100,
    });
  });
});
