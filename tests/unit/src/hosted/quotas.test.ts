/**
 * A partner's quotas (src/hosted/quotas.ts): the documented defaults, the operator's overrides
 * (in the control API's names) checked against their bounds with the member at fault named, a merge
 * patch of them, and the quotas in force.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_QUOTAS,
  effectiveQuotas,
  parseQuotas,
  patchQuotas,
  QuotaError,
  QUOTAS,
  quotasView,
} from "../../../../src/hosted/quotas.js";
import { LIMITS } from "../../../../src/sandbox/store/limits.js";

describe("the defaults", () => {
  it("are one table of six quotas, each within its own bounds", () => {
    // The quotas the hosted sandbox documents, by name (hand-written: a quota added or dropped fails here).
    expect(Object.keys(QUOTAS).sort()).toEqual(["burst", "bytes", "events", "queuedCallbacks", "records", "requestsPerSecond"]);
    // Their names in the control API (src/sandbox/openapi.yaml's Quotas), snake_case as its every member.
    expect(Object.values(QUOTAS).map((q) => q.field)).toEqual([
      "records",
      "bytes",
      "events",
      "queued_callbacks",
      "requests_per_second",
      "burst",
    ]);
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
  it("keeps the quotas it names, by their control API names", () => {
    expect(parseQuotas({ records: 10, requests_per_second: 2, burst: 0 })).toEqual({ records: 10, requestsPerSecond: 2, burst: 0 });
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
      "not a quota; the quotas are records, bytes, events, queued_callbacks, requests_per_second, burst",
    ],
    [
      "a quota by its name in the code",
      { requestsPerSecond: 5 },
      "quotas.requestsPerSecond",
      "not a quota; the quotas are records, bytes, events, queued_callbacks, requests_per_second, burst",
    ],
    ["a string", { records: "5" }, "quotas.records", "must be an integer from 1 to 100000"],
    ["a fraction", { bytes: 2048.5 }, "quotas.bytes", "must be an integer from 1024 to 1073741824"],
    ["below its bound", { requests_per_second: 0 }, "quotas.requests_per_second", "must be an integer from 1 to 10000"],
    ["above its bound", { events: 10_001 }, "quotas.events", "must be an integer from 1 to 10000"],
    ["a negative burst", { burst: -1 }, "quotas.burst", "must be an integer from 0 to 100000"],
    ["infinity", { queued_callbacks: Number.POSITIVE_INFINITY }, "quotas.queued_callbacks", "must be an integer from 1 to 10000"],
    ["null (only a patch takes it)", { records: null }, "quotas.records", "must be an integer from 1 to 100000"],
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

describe("an operator's merge patch", () => {
  it("sets the quotas given, puts those given as null back to their default, keeps the others", () => {
    const current = { records: 5, burst: 0, events: 9 };
    expect(patchQuotas(current, { records: 50, burst: null, requests_per_second: 3 })).toEqual({
      records: 50,
      events: 9,
      requestsPerSecond: 3,
    });
    expect(current).toEqual({ records: 5, burst: 0, events: 9 });
    expect(patchQuotas(undefined, { bytes: 2048 })).toEqual({ bytes: 2048 });
  });

  it("null for the whole object puts every quota back to its default", () => {
    expect(patchQuotas({ records: 5 }, null)).toEqual({});
  });

  it.each([
    ["not an object", [1], "quotas", "must be an object of quota names and integers (null: back to a default)"],
    [
      "an unknown quota",
      { rows: null },
      "quotas.rows",
      "not a quota; the quotas are records, bytes, events, queued_callbacks, requests_per_second, burst",
    ],
    ["out of its bounds", { events: 0 }, "quotas.events", "must be an integer from 1 to 10000"],
  ])("%s is refused, naming the member", (_, patch, field, message) => {
    expect(() => patchQuotas({}, patch)).toThrow(new QuotaError(field, message));
  });
});

describe("the quotas as the control API shows them", () => {
  it("are named as it names them, in the table's order, only those given", () => {
    expect(quotasView(DEFAULT_QUOTAS)).toEqual({
      records: 1000,
      bytes: 4 * 1024 * 1024,
      events: 200,
      queued_callbacks: 20,
      requests_per_second: 10,
      burst: 50,
    });
    expect(quotasView({ requestsPerSecond: 2 })).toEqual({ requests_per_second: 2 });
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
