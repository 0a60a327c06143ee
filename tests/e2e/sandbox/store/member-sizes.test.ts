/**
 * The JSON size of what JSON.stringify writes otherwise than as it is (src/sandbox/store/records.ts
 * `measure`, `remeasure`; src/sandbox/store/size.ts `sizeOf`): a record's member whose value is
 * undefined, a function or a symbol is left out, counting no byte, no comma and no member; a plain
 * object with a `toJSON` method is written as what that method gives. The sizes are hand-counted
 * from the JSON text beside each, and checked against JSON.stringify's.
 */
import { describe, expect, it } from "vitest";
import { measure, remeasure } from "../../../../src/sandbox/store/records.js";
import { sizeOf } from "../../../../src/sandbox/store/size.js";
import type { Json } from "../../../../src/sandbox/values.js";

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe("a record's members JSON leaves out", () => {
  // Each: the record, the JSON text it is written as, the members written.
  const CASES: Array<[string, Json, string, number]> = [
    ["undefined", { a: 1, gone: undefined }, '{"a":1}', 1],
    ["a function", { a: 1, f: () => 1 }, '{"a":1}', 1],
    ["a symbol", { a: 1, s: Symbol("s") }, '{"a":1}', 1],
    ["each of them, between two written", { a: 1, gone: undefined, f: () => 1, s: Symbol("s"), b: "x" }, '{"a":1,"b":"x"}', 2],
    ["nothing but them", { gone: undefined, f: () => 1, s: Symbol("s") }, "{}", 0],
  ];

  it.each(CASES)("measure leaves out %s: no byte, no comma, no member", (_, data, text, members) => {
    expect(JSON.stringify(data)).toBe(text);
    expect(measure(data)).toStrictEqual({ bytes: text.length, members });
  });

  it.each(CASES)("remeasure leaves out %s, added to a record or taken from it", (_, data, text, members) => {
    const plain = { a: 1, b: "x" };
    const plainSize = { bytes: '{"a":1,"b":"x"}'.length, members: 2 };
    expect(measure(plain)).toStrictEqual(plainSize);
    // The record with those members, from the plain one; and the plain one back.
    expect(remeasure(data, plain, plainSize.bytes, plainSize.members)).toStrictEqual({ bytes: text.length, members });
    expect(remeasure(plain, data, text.length, members)).toStrictEqual(plainSize);
  });

  it("counts the cases it was given", () => {
    expect(CASES).toHaveLength(5);
  });
});

describe("a plain object with toJSON", () => {
  it("is the size of what its toJSON gives, as JSON.stringify writes it", () => {
    const cases: Array<[unknown, string]> = [
      [{ toJSON: () => "x" }, '"x"'],
      [{ a: 1, toJSON: () => [1, 2] }, "[1,2]"],
      [{ a: "hidden", toJSON: () => ({ b: true }) }, '{"b":true}'],
      [Object.assign(Object.create(null), { secret: 1, toJSON: () => 7 }), "7"],
      [[{ toJSON: () => "x" }, 1], '["x",1]'],
      [{ nested: { toJSON: () => null } }, '{"nested":null}'],
    ];
    for (const [value, text] of cases) {
      expect(JSON.stringify(value)).toBe(text);
      expect([value, sizeOf(value)]).toStrictEqual([value, text.length]);
      expect(sizeOf(value)).toBe(jsonBytes(value));
    }
    expect(cases).toHaveLength(6);
  });

  it("in a record's member, counts what its toJSON gives", () => {
    const data = { at: { toJSON: () => "2026-11-29" }, n: 1 } as unknown as Json;
    expect(JSON.stringify(data)).toBe('{"at":"2026-11-29","n":1}');
    expect(measure(data)).toStrictEqual({ bytes: '{"at":"2026-11-29","n":1}'.length, members: 2 });
  });
});
