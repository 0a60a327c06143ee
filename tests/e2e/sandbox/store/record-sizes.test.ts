/**
 * The JSON size of records as the store keeps them (src/sandbox/store/records.ts `measure`,
 * `remeasure`; src/sandbox/store/size.ts `sizeOf`) on what the quick tier leaves out: data that is
 * not an object (a list, a string, null) on either side of an update, and objects whose prototype
 * is not Object's. The reference is the byte length of what JSON.stringify writes, and the members
 * it writes.
 */
import { describe, expect, it } from "vitest";
import { measure, remeasure } from "../../../../src/sandbox/store/records.js";
import { sizeOf } from "../../../../src/sandbox/store/size.js";
import type { Json } from "../../../../src/sandbox/values.js";

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));
/** What a record's JSON form is: its bytes, and its members when it is an object (none otherwise). */
const reference = (data: Json) => ({
  bytes: jsonBytes(data),
  members: data !== null && typeof data === "object" && !Array.isArray(data) ? Object.keys(JSON.parse(JSON.stringify(data))).length : 0,
});

const SHAPES: Json[] = ["abc", "", 42, null, true, [1, "a"], [], { a: 1 }, { a: 1, b: "é", c: [null] }, {}];

describe("measure", () => {
  it("measures data that is not an object as its JSON text, with no member", () => {
    expect(measure("abc")).toStrictEqual({ bytes: 5, members: 0 });
    expect(measure(null)).toStrictEqual({ bytes: 4, members: 0 });
    expect(measure([1, "a"])).toStrictEqual({ bytes: 7, members: 0 });
    for (const data of SHAPES) expect(measure(data)).toStrictEqual(reference(data));
  });
});

describe("remeasure", () => {
  it("gives what JSON writes of the new data for every pair of shapes, an object or not on either side", () => {
    let pairs = 0;
    for (const previous of SHAPES) {
      const { bytes, members } = reference(previous);
      for (const data of SHAPES) {
        expect([previous, data, remeasure(data, previous, bytes, members)]).toStrictEqual([previous, data, reference(data)]);
        pairs++;
      }
    }
    expect(pairs).toBe(SHAPES.length ** 2);
  });
});

describe("sizeOf", () => {
  it("counts only an object's own members, as JSON.stringify writes them, whatever its prototype holds", () => {
    const inherits = Object.create({ inherited: 1, also: "x" });
    expect(sizeOf(inherits)).toBe(jsonBytes(inherits));
    expect(sizeOf(inherits)).toBe(2);
    const both = Object.assign(Object.create({ inherited: 1 }), { a: 1 });
    expect(sizeOf(both)).toBe(jsonBytes(both));
    expect(sizeOf([both, inherits])).toBe(jsonBytes([both, inherits]));
    // Without a prototype: its own members.
    const bare = Object.assign(Object.create(null), { a: [1, { b: "c" }] });
    expect(sizeOf(bare)).toBe(jsonBytes(bare));
  });
});
