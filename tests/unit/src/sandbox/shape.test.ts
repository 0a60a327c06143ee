/** Shaping state to a schema (src/sandbox/shape.ts), over a small hand-written document. */
import { describe, expect, it } from "vitest";
import { shape } from "../../../../src/sandbox/shape.js";
import { Instant } from "../../../../src/sandbox/values.js";

const doc = {
  openapi: "3.1.0",
  components: {
    schemas: {
      Timestamp: { type: "object", properties: { seconds: { type: "integer" }, nanos: { type: "integer" } } },
      Item: {
        type: "object",
        properties: {
          id: { type: "string" },
          at: { $ref: "#/components/schemas/Timestamp" },
          when: { type: "string", format: "date-time" },
          either: { anyOf: [{ type: "string" }, { $ref: "#/components/schemas/Timestamp" }] },
          tags: { type: "array", items: { type: "string" } },
        },
      },
      List: { type: "object", properties: { items: { type: "array", items: { $ref: "#/components/schemas/Item" } } } },
      Map: { type: "object", properties: { name: { type: "string" } }, unevaluatedProperties: { $ref: "#/components/schemas/Item" } },
      Empty: { type: "object", additionalProperties: false },
      Open: { type: "object" },
      Merged: { allOf: [{ $ref: "#/components/schemas/Item" }, { properties: { extra: { type: "boolean" } } }] },
      Result: {
        oneOf: [
          { type: "object", properties: { success: { type: "boolean" }, message: { type: "string" } } },
          { type: "object", properties: { error: { type: "array" } } },
        ],
      },
      Tree: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
      },
      Union: { anyOf: [{ type: "array", items: { $ref: "#/components/schemas/Item" } }, { $ref: "#/components/schemas/Item" }] },
    },
  },
};
const at = (name: string) => `/components/schemas/${name}`;
const of = (name: string, value: unknown) => shape(doc, value, (doc.components.schemas as Record<string, unknown>)[name], at(name));
const t = new Instant(Date.UTC(2026, 0, 1, 0, 0, 0, 250));

describe("shape", () => {
  it("leaves out members the schema does not declare", () => {
    expect(of("Item", { id: "a", secret: "x", tags: ["t"] })).toEqual({ id: "a", tags: ["t"] });
  });
  it("renders times as the schema at their place asks", () => {
    expect(of("Item", { at: t, when: t, either: t })).toEqual({
      at: { seconds: 1767225600, nanos: 250_000_000 },
      when: "2026-01-01T00:00:00.250Z",
      either: { seconds: 1767225600, nanos: 250_000_000 },
    });
  });
  it("shapes list items and map values (unevaluatedProperties)", () => {
    expect(of("List", { items: [{ id: "a", x: 1 }], other: 2 })).toEqual({ items: [{ id: "a" }] });
    expect(of("Map", { name: "n", acc_1: { id: "acc_1", x: 1 } })).toEqual({ name: "n", acc_1: { id: "acc_1" } });
  });
  it("keeps nothing for additionalProperties false, everything for an unconstrained object", () => {
    expect(of("Empty", { a: 1 })).toEqual({});
    expect(of("Open", { a: 1, at: t })).toEqual({ a: 1, at: "2026-01-01T00:00:00.250Z" });
  });
  it("merges allOf parts", () => {
    expect(of("Merged", { id: "a", extra: true, no: 1 })).toEqual({ id: "a", extra: true });
  });
  it("follows the oneOf/anyOf branch that fits the value", () => {
    expect(of("Result", { success: true })).toEqual({ success: true });
    expect(of("Result", { error: [{ code: "x" }] })).toEqual({ error: [{ code: "x" }] });
    expect(of("Union", [{ id: "a", x: 1 }])).toEqual([{ id: "a" }]);
    expect(of("Union", { id: "b", x: 1 })).toEqual({ id: "b" });
  });
  it("shapes a recursive schema to any depth, and the same again on the next call", () => {
    const tree = { name: "a", x: 1, children: [{ name: "b", children: [{ name: "c", at: t, children: [] }] }] };
    const shaped = { name: "a", children: [{ name: "b", children: [{ name: "c", children: [] }] }] };
    expect(of("Tree", tree)).toEqual(shaped);
    expect(of("Tree", tree)).toEqual(shaped);
  });
});

describe("shape without copies", () => {
  it("answers a part that shapes to itself as it is, and copies only the parts that change", () => {
    const tags = ["t", "u"];
    const kept = { id: "a", tags };
    const list = { items: [kept, { id: "b", at: t, secret: "x" }] };
    const shaped = of("List", list);
    expect(shaped).toStrictEqual({
      items: [
        { id: "a", tags: ["t", "u"] },
        { id: "b", at: { seconds: 1767225600, nanos: 250_000_000 } },
      ],
    });
    expect(shaped.items[0]).toBe(kept); // nothing to leave out or render: not copied
    expect(shaped).not.toBe(list); // its second item changed: the list and the object holding it are copies
    expect(list.items[1]).toEqual({ id: "b", at: t, secret: "x" }); // the value shaped is never changed
    const whole = { id: "c", tags };
    expect(of("Item", whole)).toBe(whole);
  });
  it("keeps the members' order in a copy, whichever members render otherwise or are left out, before or after one that changes", () => {
    const later = new Instant(Date.UTC(2026, 0, 2));
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["one time rendered", { id: "a", when: t, tags: ["x"] }, '{"id":"a","when":"2026-01-01T00:00:00.250Z","tags":["x"]}'],
      [
        "times first and last",
        { when: t, id: "a", at: later },
        '{"when":"2026-01-01T00:00:00.250Z","id":"a","at":{"seconds":1767312000,"nanos":0}}',
      ],
      ["left out after a change", { when: t, id: "a", secret: "s", tags: [] }, '{"when":"2026-01-01T00:00:00.250Z","id":"a","tags":[]}'],
      ["left out before a change", { secret: "s", id: "a", when: t }, '{"id":"a","when":"2026-01-01T00:00:00.250Z"}'],
      ["undefined after a change", { when: t, id: undefined, tags: ["y"] }, '{"when":"2026-01-01T00:00:00.250Z","tags":["y"]}'],
      ["a time as an object", { id: "a", either: later, tags: ["z"] }, '{"id":"a","either":{"seconds":1767312000,"nanos":0},"tags":["z"]}'],
    ];
    for (const [name, value, json] of cases) {
      const before = JSON.stringify(Object.entries(value));
      const shaped = of("Item", value);
      expect([name, JSON.stringify(shaped)]).toEqual([name, json]);
      expect([name, Object.keys(shaped).every((k) => shaped[k] !== undefined)]).toEqual([name, true]);
      expect([name, JSON.stringify(Object.entries(value))]).toEqual([name, before]); // the value shaped is never changed
    }
    const merged = of("Merged", JSON.parse('{"id": "m", "extra": true, "__proto__": {"b": 2}, "when": 1}'));
    expect(JSON.stringify(of("Merged", { when: t, extra: false, ...{ id: "m" } }))).toBe(
      '{"when":"2026-01-01T00:00:00.250Z","extra":false,"id":"m"}',
    );
    expect(JSON.stringify(merged)).toBe('{"id":"m","extra":true,"when":1}');
  });
  it("leaves out undefined members and list items, and keeps a member named __proto__ as shaping always did", () => {
    expect(of("Item", { id: "a", when: undefined })).toStrictEqual({ id: "a" });
    expect(of("Item", { tags: ["t", undefined, "u"] })).toStrictEqual({ tags: ["t", "u"] });
    const open = JSON.parse('{"a": 1, "__proto__": {"b": 2}}');
    // Assigned, as always: it sets the copy's prototype, so the JSON form has no such member.
    expect(JSON.stringify(of("Open", open))).toBe('{"a":1}');
    expect(of("Open", open)).not.toBe(open);
    const nullPrototype = Object.assign(Object.create(null), { id: "n" });
    const copied = of("Item", nullPrototype);
    expect(copied).toStrictEqual({ id: "n" });
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
  });
});

describe("shape of scalar members", () => {
  // Scalars are answered as they are, without their member's shaper, except where a `false` schema
  // leaves them out: the member's own schema, or a branch of its anyOf/oneOf that the value may take.
  const scalars = {
    openapi: "3.1.0",
    components: {
      schemas: {
        Never: false,
        Mixed: {
          type: "object",
          properties: {
            kept: { type: "string" },
            number: { $ref: "#/components/schemas/Amount" },
            never: false,
            refNever: { $ref: "#/components/schemas/Never" },
            maybe: { anyOf: [false, { type: "string" }] },
            either: { oneOf: [{ type: "string" }, { type: "integer" }] },
            open: {},
          },
        },
        Amount: { type: "integer" },
      },
    },
  };
  const mixed = (value: unknown) => shape(scalars, value, scalars.components.schemas.Mixed, "/components/schemas/Mixed");

  it("keeps strings, numbers and booleans, leaves out a member whose schema is false, and takes an anyOf's false branch as before", () => {
    const value = { kept: "a", number: 5, never: "x", refNever: "y", maybe: "z", either: 7, open: true };
    // `maybe`: its first branch (false) admits any type and is taken, as it always was; `refNever`:
    // a $ref to a false schema resolves to an unconstrained one, as it always did.
    expect(mixed(value)).toStrictEqual({ kept: "a", number: 5, refNever: "y", either: 7, open: true });
    const whole = { kept: "a", number: 5, either: "s", open: false };
    expect(mixed(whole)).toBe(whole);
  });
});
