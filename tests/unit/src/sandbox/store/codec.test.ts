/** The codec of a state's rows (src/sandbox/store/codec.ts): the sandbox's values as plain JSON and back, nothing read as something else. */
import { describe, expect, it } from "vitest";
import { decode, encode } from "../../../../../src/sandbox/store/codec.js";
import { Instant } from "../../../../../src/sandbox/values.js";

describe("encode and decode", () => {
  it("write an Instant as {$instant: ms} and read it back as an Instant", () => {
    expect(encode(new Instant(1_767_225_600_123))).toEqual({ $instant: 1_767_225_600_123 });
    const back = decode({ $instant: 1_767_225_600_123 });
    expect(back).toBeInstanceOf(Instant);
    expect(back.toISOString()).toBe("2026-01-01T00:00:00.123Z");
    expect(decode(encode({ at: [new Instant(0), { deep: new Instant(-1) }] }))).toEqual({
      at: [new Instant(0), { deep: new Instant(-1) }],
    });
  });

  it("wrap an object of the data whose only member looks like one of the codec's forms, so that it reads back as it was", () => {
    const cases: unknown[] = [{ $instant: 5 }, { $object: 1 }, { $object: { $instant: 5 } }, { $instant: { $instant: 1 } }];
    for (const value of cases) {
      const written = JSON.parse(JSON.stringify(encode(value)));
      expect(written).toHaveProperty("$object");
      const back = decode(written);
      expect(back).toEqual(value);
      expect(back).not.toBeInstanceOf(Instant);
    }
    // With other members beside it, such a member is data as it is.
    expect(encode({ $instant: 5, other: 1 })).toEqual({ $instant: 5, other: 1 });
    expect(decode({ $instant: 5, other: 1 })).toEqual({ $instant: 5, other: 1 });
  });

  it("keep a member named __proto__ as a member, and leave out what JSON leaves out", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const back = decode(JSON.parse(JSON.stringify(encode(value))));
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(encode({ a: undefined, b: () => 1, c: Number.NaN, d: [undefined, Number.POSITIVE_INFINITY] })).toEqual({
      c: null,
      d: [null, null],
    });
    expect(encode(new Date(0))).toBe("1970-01-01T00:00:00.000Z");
  });
});
