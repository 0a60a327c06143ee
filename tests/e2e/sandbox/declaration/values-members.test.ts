/**
 * The sandbox's value helpers (src/sandbox/values.ts): `merged` and `assignMembers` copy members as
 * the object spread `{ ...a, ...b }` does (a request's own `__proto__` member kept as a plain
 * member, never the prototype), `copy` is a deep copy that keeps Instants, and `toInstant` reads the
 * forms of a time the specs use (`{seconds, nanos}`, ISO 8601). Pure functions: milliseconds.
 */
import { describe, expect, it } from "vitest";
import { assignMembers, copy, Instant, isPlainObject, merged, toInstant } from "../../../../src/sandbox/values.js";

/** A request body as JSON.parse reads it: `__proto__` is then an own member. */
const body = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe("merged and assignMembers", () => {
  it("keep a `__proto__` member as the spread keeps it: an own, enumerable, writable, configurable member", () => {
    const source = body('{"a":1,"__proto__":{"polluted":true},"b":2}');
    const spread = { ...source };
    const out = merged(source);
    expect(Object.keys(out)).toEqual(["a", "__proto__", "b"]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")).toEqual(Object.getOwnPropertyDescriptor(spread, "__proto__"));
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")).toEqual({
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("a later `__proto__` member replaces an earlier one, as in the spread", () => {
    const out = merged(body('{"__proto__":{"x":1}}'), body('{"__proto__":{"x":2}}'));
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ x: 2 });
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":2}}');
  });

  it("later sources win, members keep their first place, and nothing of undefined or null", () => {
    expect(merged({ a: 1, b: 1 }, undefined, { b: 2, c: 3 }, null)).toEqual({ a: 1, b: 2, c: 3 });
    expect(Object.keys(merged({ a: 1, b: 1 }, { c: 3, a: 2 }))).toEqual(["a", "b", "c"]);
    const into = { a: 1 };
    expect(assignMembers(into, { b: 2 })).toBe(into);
    expect(into).toEqual({ a: 1, b: 2 });
  });
});

describe("copy", () => {
  it("copies objects and lists at every depth, and keeps an Instant as it is", () => {
    const at = new Instant(0);
    const record = { list: [{ n: 1 }], at, nested: { deep: { v: "x" } } };
    const out = copy(record);
    expect(out).toEqual(record);
    expect(out.list).not.toBe(record.list);
    expect(out.list[0]).not.toBe(record.list[0]);
    expect(out.nested.deep).not.toBe(record.nested.deep);
    expect(out.at).toBe(at);
    expect(isPlainObject(at)).toBe(false);
  });
});

describe("Instant", () => {
  it("renders as Date renders its milliseconds, in JSON too, each instant its own even in turn", () => {
    const a = new Instant(Date.UTC(2026, 0, 1, 0, 0, 0, 1));
    const b = new Instant(Date.UTC(2030, 5, 15, 12, 30, 45, 999));
    for (let i = 0; i < 2; i++) {
      expect(a.toISOString()).toBe("2026-01-01T00:00:00.001Z");
      expect(b.toISOString()).toBe("2030-06-15T12:30:45.999Z");
      expect(new Instant(b.ms).toISOString()).toBe("2030-06-15T12:30:45.999Z");
    }
    expect(JSON.stringify({ a, b })).toBe('{"a":"2026-01-01T00:00:00.001Z","b":"2030-06-15T12:30:45.999Z"}');
  });

  it("an invalid instant throws as Date's toISOString does", () => {
    expect(() => new Instant(Number.NaN).toISOString()).toThrow(RangeError);
  });
});

describe("toInstant", () => {
  it("reads {seconds, nanos} (seconds as a number or text, nanos optional), an ISO 8601 text and an Instant", () => {
    expect(toInstant({ seconds: 1_700_000_000, nanos: 250_000_000 })?.ms).toBe(1_700_000_000_250);
    expect(toInstant({ seconds: "1700000000" })?.ms).toBe(1_700_000_000_000);
    expect(toInstant({ seconds: 1, nanos: 999_999 })?.ms).toBe(1000);
    expect(toInstant("2026-01-01T00:00:00.500Z")?.ms).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    const at = new Instant(5);
    expect(toInstant(at)).toBe(at);
  });

  it("gives undefined for what is not a time", () => {
    // Date.parse reads "2026-01-1" and "on 2026-01-01", which are not ISO 8601; Number reads null, true and [5] as numbers.
    const notTimes = [
      { seconds: "soon" },
      { seconds: 1, nanos: "x" },
      { nanos: 5 },
      { seconds: null },
      { seconds: true },
      { seconds: [5] },
      "2026-13-45",
      "2026-01-1",
      "on 2026-01-01",
      "tomorrow",
      null,
      true,
      [1],
      ["2026-01-01T00:00:00Z"],
    ];
    for (const value of notTimes) expect(toInstant(value), JSON.stringify(value)).toBeUndefined();
  });
});
