/**
 * A partner's quotas (src/hosted/quotas.ts): the documented defaults, the operator's overrides
 * checked against their bounds with the member at fault named, and the quotas in force.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_QUOTAS, effectiveQuotas, parseQuotas, QuotaError, QUOTAS } from "../../../../src/hosted/quotas.js";
import { LIMITS } from "../../../../src/sandbox/store/limits.js";

describe("the defaults", () => {
  it("are one table of six quotas, each within its own bounds", () => {
    // The quotas the hosted sandbox documents, by name (hand-written: a quota added or dropped fails here).
    expect(Object.keys(QUOTAS).sort()).toEqual(["burst", "bytes", "events", "queuedCallbacks", "records", "requestsPerSecond"]);
    for (const [name, spec] of Object.entries(QUOTAS)) {
      expect(spec.default, name).toBeGreaterThanOrEqual(spec.min);
      expect(spec.default, name).toBeLessThanOrEqual(spec.max);
      expect(spec.what, name).not.toBe("");
    }
  });

  it("hold no more than the sandbox's own bounds per credential", () => {
    expect(DEFAULT_QUOTAS.records).toBeLessThanOrEqual(LIMITS.records);
    expect(DEFAULT_QUOTAS.bytes).toBeLessThanOrEqual(LIMITS.bytes);
    expect(DEFAULT_QUOTAS.events).toBeLessThanOrEqual(LIMITS.deliveryLog);
    expect(DEFAULT_QUOTAS.queuedCallbacks).toBeLessThanOrEqual(LIMITS.deliveryQueue);
  });

  it("let more than one partner at its byte quota fit the default memory budget", () => {
    expect(LIMITS.memoryBytes / DEFAULT_QUOTAS.bytes).toBeGreaterThanOrEqual(32);
  });

  it("cannot be changed in place", () => {
    expect(() => {
      (DEFAULT_QUOTAS as { records: number }).records = 1;
    }).toThrow(TypeError);
  });
});

describe("an operator's override", () => {
  it("keeps the quotas it names", () => {
    expect(parseQuotas({ records: 10, requestsPerSecond: 2, burst: 0 })).toEqual({ records: 10, requestsPerSecond: 2, burst: 0 });
    expect(parseQuotas({})).toEqual({});
  });

  it.each([
    ["not an object", 5, "quotas", "must be an object of quota names and integers"],
    ["an array", [1], "quotas", "must be an object of quota names and integers"],
    ["null", null, "quotas", "must be an object of quota names and integers"],
    [
      "an unknown quota",
      { rows: 5 },
      "quotas.rows",
      "not a quota; the quotas are records, bytes, events, queuedCallbacks, requestsPerSecond, burst",
    ],
    ["a string", { records: "5" }, "quotas.records", "must be an integer from 1 to 100000"],
    ["a fraction", { bytes: 2048.5 }, "quotas.bytes", "must be an integer from 1024 to 1073741824"],
    ["below its bound", { requestsPerSecond: 0 }, "quotas.requestsPerSecond", "must be an integer from 1 to 10000"],
    ["above its bound", { events: 10_001 }, "quotas.events", "must be an integer from 1 to 10000"],
    ["a negative burst", { burst: -1 }, "quotas.burst", "must be an integer from 0 to 100000"],
    ["infinity", { queuedCallbacks: Number.POSITIVE_INFINITY }, "quotas.queuedCallbacks", "must be an integer from 1 to 10000"],
  ])("%s is refused, naming the member", (_, input, field, message) => {
    let error: unknown;
    try {
      parseQuotas(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(QuotaError);
    expect((error as QuotaError).field).toBe(field);
    expect((error as QuotaError).message).toBe(`${field}: ${message}`);
  });

  it("names a long unknown member by its first 64 characters only", () => {
    expect(() => parseQuotas({ ["x".repeat(10_000)]: 1 })).toThrow(`quotas.${"x".repeat(64)}: not a quota`);
  });

  it("takes no inherited member as a quota", () => {
    expect(() => parseQuotas({ constructor: 1 })).toThrow("quotas.constructor: not a quota");
    expect(() => parseQuotas(JSON.parse('{"__proto__": {"records": 1}}'))).toThrow("quotas.__proto__: not a quota");
  });
});

describe("the quotas in force", () => {
  it("are the defaults without overrides, and each override over its default", () => {
    expect(effectiveQuotas(undefined)).toEqual(DEFAULT_QUOTAS);
    expect(effectiveQuotas({ records: 5 })).toEqual({ ...DEFAULT_QUOTAS, records: 5 });
  });

  it("ignore a stored member that is not a quota", () => {
    expect(effectiveQuotas({ legacy: 9 })).toEqual(DEFAULT_QUOTAS);
  });
});
