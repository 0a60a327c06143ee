/**
 * Shaping (src/sandbox/shape.ts) at its edges, over a tiny hand-written document: a list rendered
 * without touching the state it came from, a schema node that is neither an object nor a boolean
 * (`null`, a string: shaped as an object schema with no members, times as ISO 8601 strings), a
 * schema that admits any type (times as strings), an integer matched to a branch of numbers, and a
 * `$ref` that resolves nowhere (an error naming it, never a value answered unshaped).
 */
import { describe, expect, it } from "vitest";
import { plain, shape } from "../../../../src/sandbox/shape.js";
import { Instant } from "../../../../src/sandbox/values.js";

const doc = {
  openapi: "3.1.0",
  components: { schemas: { Named: { type: "object", properties: { id: { type: "string" } } } } },
};
const t = new Instant(Date.UTC(2026, 0, 1, 0, 0, 0, 250));
const ISO = "2026-01-01T00:00:00.250Z";

describe("plain", () => {
  it("gives a list or plain object with no time in it back as it is (no copy)", () => {
    const list = [1, "x", { a: [true, null] }];
    expect(plain(list)).toBe(list);
    const object = { a: 1, b: ["x"], c: { d: null } };
    expect(plain(object)).toBe(object);
  });

  it("renders the times of an object and of the lists and objects in it", () => {
    const object = { at: t, nested: { list: [t, 2] }, id: "x" };
    expect(plain(object)).toEqual({ at: ISO, nested: { list: [ISO, 2] }, id: "x" });
    expect(object.at).toBe(t);
  });

  it("renders the times of a list in a new list, leaving the list it was given as it was", () => {
    const list = [1, t, "x", t];
    expect(plain(list)).toEqual([1, ISO, "x", ISO]);
    expect(list).toEqual([1, t, "x", t]);
    expect(list[1]).toBe(t);
  });
});

describe("a schema node that is neither an object nor a boolean", () => {
  it("null: an object's members are kept as they are, times rendered as ISO 8601 strings", () => {
    expect(shape(doc, { a: 1, b: t, c: [t] }, null, "/paths/x")).toEqual({ a: 1, b: ISO, c: [ISO] });
    expect(shape(doc, t, null, "/paths/x")).toBe(ISO);
    expect(shape(doc, "text", null, "/paths/x")).toBe("text");
    expect(shape(doc, undefined, null, "/paths/x")).toBeUndefined();
  });

  it("a string: a time is an ISO 8601 string, a list keeps its items", () => {
    expect(shape(doc, t, "not a schema", "/paths/x")).toBe(ISO);
    expect(shape(doc, [1, t], "not a schema", "/paths/x")).toEqual([1, ISO]);
  });

  it("as a list's items: each item shaped so", () => {
    const list = { type: "array", items: null };
    expect(shape(doc, [{ a: t }, 2], list, "/paths/x")).toEqual([{ a: ISO }, 2]);
  });
});

describe("times where the schema admits any type", () => {
  it("are ISO 8601 strings (an object only where the schema admits an object)", () => {
    expect(shape(doc, t, { description: "any value" }, "/paths/x")).toBe(ISO);
    const holder = { type: "object", properties: { at: { description: "any value" } } };
    expect(shape(doc, { at: t }, holder, "/paths/x")).toEqual({ at: ISO });
  });
});

describe("an integer and the branches of anyOf", () => {
  it("is matched to a branch of numbers (an integer is a number), before a branch that admits nothing", () => {
    expect(shape(doc, 1, { anyOf: [{ enum: [0.5, 1.5] }, false] }, "/paths/x")).toBe(1);
    expect(shape(doc, 1, { oneOf: [{ const: 0.25 }, false] }, "/paths/x")).toBe(1);
  });
});

describe("the branches of anyOf and oneOf", () => {
  const closedFirst = { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object" }] };
  const openFirst = { anyOf: [{ type: "object" }, { type: "object", properties: { a: { type: "string" } } }] };

  it("follows, among branches that declare as many of the value's members, the first", () => {
    expect(shape(doc, { z: 1 }, closedFirst, "/paths/x")).toEqual({});
    expect(shape(doc, { z: 1 }, openFirst, "/paths/x")).toEqual({ z: 1 });
  });

  it("follows the branch declaring most of the value's members, wherever it is", () => {
    const schema = {
      oneOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } } },
      ],
    };
    expect(shape(doc, { a: "1", b: "2", c: "3", d: "4" }, schema, "/paths/x")).toEqual({ a: "1", b: "2", c: "3" });
  });

  it("are none when the list is empty: the schema's own members are followed", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, anyOf: [] };
    expect(shape(doc, { a: "1", z: 2 }, schema, "/paths/x")).toEqual({ a: "1" });
  });

  it("matches a string to no branch of numbers", () => {
    const holder = { type: "object", properties: { x: { anyOf: [{ type: "number" }, false] } } };
    expect(shape(doc, { x: "a" }, holder, "/paths/x")).toEqual({});
    expect(shape(doc, { x: 2 }, holder, "/paths/x")).toEqual({ x: 2 });
  });

  it("matches a list to the first branch admitting lists (the members a branch declares count for objects only)", () => {
    const schema = {
      anyOf: [
        { type: "array", items: false },
        { type: "array", properties: { "0": { type: "string" } } },
      ],
    };
    expect(shape(doc, ["a"], schema, "/paths/x")).toEqual([]);
  });

  it("renders a value no branch admits as plain() does", () => {
    const schema = { anyOf: [{ type: "string" }, { type: "object", properties: { a: { type: "string" } } }] };
    expect(shape(doc, [t, { z: t }], schema, "/paths/x")).toEqual([ISO, { z: ISO }]);
  });

  it("leaves out a scalar member whose first branch admits nothing (a false schema)", () => {
    const holder = { type: "object", properties: { x: { anyOf: [false, { type: "string" }] }, y: { type: "string" } } };
    expect(shape(doc, { x: "a", y: "b" }, holder, "/paths/x")).toEqual({ y: "b" });
  });
});

describe("members beyond those declared", () => {
  it("are kept as they are under additionalProperties: true, left out under false", () => {
    const open = { type: "object", properties: { a: { type: "string" } }, additionalProperties: true };
    expect(shape(doc, { a: "1", z: 2, at: t }, open, "/paths/x")).toEqual({ a: "1", z: 2, at: ISO });
    const closed = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    expect(shape(doc, { a: "1", z: 2 }, closed, "/paths/x")).toEqual({ a: "1" });
  });
});

describe("list items", () => {
  it("that shape to nothing are left out of the list", () => {
    expect(shape(doc, [1, "a"], { type: "array", items: false }, "/paths/x")).toEqual([]);
    const some = { type: "array", items: { anyOf: [{ type: "string" }, false] } };
    expect(shape(doc, ["a", 1, "b", { z: 1 }], some, "/paths/x")).toEqual(["a", "b"]);
  });
});

describe("a $ref that resolves nowhere", () => {
  it("fails the shaping of a member it describes, naming the reference, whatever the member's value", () => {
    const broken = { type: "object", properties: { x: { $ref: "#/components/schemas/Missing" } } };
    for (const value of ["a", 1, true])
      expect(() => shape(doc, { x: value }, broken, "/paths/x"), String(value)).toThrow("unresolved $ref #/components/schemas/Missing");
    expect(shape(doc, { y: "a" }, broken, "/paths/x")).toEqual({});
  });
});

describe("a $ref outside the document", () => {
  // A new node each time: a document's node is at one place, and its shaper is kept per node.
  const outside = () => ({ $ref: "other.yaml#/components/schemas/X" });
  const fails = (value: unknown, schema: unknown) => () => shape(doc, value, schema, "/paths/x");
  const message = (at: string) => `${at}: only local $refs are supported in a bundled spec, got other.yaml#/components/schemas/X`;

  it("fails naming where it is: a member, a list's items, a branch, the members beyond those declared", () => {
    expect(fails({ m: "a" }, { type: "object", properties: { m: outside() } })).toThrow(message("/paths/x/properties/m"));
    expect(fails(["a"], { type: "array", items: outside() })).toThrow(message("/paths/x/items"));
    expect(fails("a", { anyOf: [{ type: "number" }, outside()] })).toThrow(message("/paths/x/anyOf/1"));
    expect(fails({ z: "a" }, { type: "object", additionalProperties: outside() })).toThrow(message("/paths/x/additionalProperties"));
    expect(fails({ z: "a" }, { type: "object", unevaluatedProperties: outside() })).toThrow(message("/paths/x/unevaluatedProperties"));
  });
});
