/**
 * The codec of a state's rows (src/sandbox/store/codec.ts) on the values its quick-tier file leaves
 * out: what JSON does not write (functions, symbols, undefined, a `toJSON` that gives nothing) is
 * left out as JSON leaves it out, so that no member left out changes how its neighbours read back;
 * an object without a prototype is the data it holds; a `$object` member beside others is data; a
 * member named `__proto__` reads back as JSON.parse makes it. The reference is JSON's own text.
 */
import { describe, expect, it } from "vitest";
import { decode, encode } from "../../../../src/sandbox/store/codec.js";
import { Instant, type Json } from "../../../../src/sandbox/values.js";

/** A value as a durable store keeps it: encoded, written as JSON text, read and decoded. */
const roundTrip = (value: Json): Json => decode(JSON.parse(JSON.stringify(encode(value))));

describe("encode", () => {
  it("leaves out a member JSON leaves out (undefined, a function, a symbol), as JSON.stringify does", () => {
    const value = { a: 1, gone: undefined, f: () => 1, s: Symbol("s"), b: "x" };
    const written = encode(value);
    // Not only equal once written: the encoded object has no such member at all.
    expect(Object.keys(written)).toEqual(["a", "b"]);
    expect(written).toStrictEqual(JSON.parse(JSON.stringify(value)));
    expect(encode(() => 1)).toBeUndefined();
    expect(encode(Symbol("s"))).toBeUndefined();
    // In a list, each is written null, as JSON writes it.
    const list = [undefined, () => 1, Symbol("s"), 2];
    expect(encode(list)).toStrictEqual(JSON.parse(JSON.stringify(list)));
    expect(encode(list)).toStrictEqual([null, null, null, 2]);
  });

  it("does not let a member left out unwrap a codec form beside it: {$instant} with an undefined member reads back as data", () => {
    for (const value of [
      { gone: undefined, $instant: 5 },
      { $object: { a: 1 }, f: () => 1 },
    ]) {
      const back = roundTrip(value);
      expect(back).not.toBeInstanceOf(Instant);
      expect(back).toStrictEqual(JSON.parse(JSON.stringify(value)));
    }
  });

  it("writes an object without a prototype as the plain object it is: its Instants as instants, its codec-like member wrapped", () => {
    const bare = Object.assign(Object.create(null), { at: new Instant(5), n: 1 });
    expect(encode(bare)).toStrictEqual({ at: { $instant: 5 }, n: 1 });
    const back = roundTrip(bare);
    expect(back.at).toBeInstanceOf(Instant);
    expect(back.at.ms).toBe(5);
    const lookalike = Object.assign(Object.create(null), { $instant: 7 });
    expect(encode(lookalike)).toStrictEqual({ $object: { $instant: 7 } });
    expect(roundTrip(lookalike)).toStrictEqual({ $instant: 7 });
  });

  it("writes an object whose toJSON gives nothing as JSON does in a list: null", () => {
    const nothing = { toJSON: () => undefined };
    const instance = new (class {
      toJSON() {
        return undefined;
      }
    })();
    expect(JSON.stringify([nothing, instance])).toBe("[null,null]");
    expect(encode(instance)).toBeNull();
    expect(encode([instance])).toStrictEqual([null]);
  });
});

describe("decode", () => {
  it("reads a `$object` member beside others, and any other single member, as data", () => {
    for (const json of [{ $object: { a: 1 }, other: 2 }, { other: 2, $object: 1 }, { single: { a: 1 } }, { a: 1 }]) {
      expect(decode(json)).toStrictEqual(json);
    }
  });

  it("reads a member named __proto__ back as JSON.parse makes it: an own member that can be changed and removed", () => {
    const text = '{"__proto__": {"x": 1}, "a": 1}';
    const reference = JSON.parse(text);
    for (const back of [decode(JSON.parse(text)), roundTrip(reference)]) {
      expect(Object.getOwnPropertyDescriptor(back, "__proto__")).toStrictEqual(Object.getOwnPropertyDescriptor(reference, "__proto__"));
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
      expect(Reflect.set(back, "__proto__", 2)).toBe(true);
      expect(Object.getOwnPropertyDescriptor(back, "__proto__")?.value).toBe(2);
      expect(Reflect.deleteProperty(back, "__proto__")).toBe(true);
      expect(Object.keys(back)).toEqual(["a"]);
    }
    // The same of encode's own output.
    const written = encode(reference);
    expect(Object.getOwnPropertyDescriptor(written, "__proto__")).toStrictEqual(Object.getOwnPropertyDescriptor(reference, "__proto__"));
  });
});
