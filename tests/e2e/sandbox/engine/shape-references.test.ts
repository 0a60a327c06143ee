/**
 * Shaping (src/sandbox/shape.ts) through references and branches, over a tiny hand-written document:
 * an error names the place in the document where a broken reference is (inside the schema a `$ref`
 * leads to, not the place that refers to it); a member whose schema refers to itself through its
 * branches, without end, is shaped all the same (what is followed of the schema is bounded); an
 * empty `anyOf` gives way to the `oneOf` beside it, whose first branch (a `false` schema) leaves a
 * scalar out; a list item that is not there is left out without its schema being read.
 */
import { describe, expect, it } from "vitest";
import { shape } from "../../../../src/sandbox/shape.js";

const doc = {
  openapi: "3.1.0",
  components: {
    schemas: {
      Holder: { type: "object", properties: { m: { $ref: "other.yaml#/components/schemas/X" } } },
      // An object whose first branch refers to itself, a chain with no end: shaping walks only values.
      Loop: { type: "object", anyOf: [{ $ref: "#/components/schemas/Loop" }, { type: "object" }] },
    },
  },
};

describe("a broken reference inside a referenced schema", () => {
  it("fails naming its place in the document", () => {
    const outside = "only local $refs are supported in a bundled spec, got other.yaml#/components/schemas/X";
    const schema = { $ref: "#/components/schemas/Holder" };
    expect(() => shape(doc, { m: "a" }, schema, "/paths/x")).toThrow(`/components/schemas/Holder/properties/m: ${outside}`);
    const list = { type: "array", items: { $ref: "#/components/schemas/Holder" } };
    expect(() => shape(doc, [{ m: "a" }], list, "/paths/x")).toThrow(`/components/schemas/Holder/properties/m: ${outside}`);
  });
});

describe("a member whose schema refers to itself through its branches", () => {
  const holder = () => ({ type: "object", properties: { x: { $ref: "#/components/schemas/Loop" }, y: { type: "string" } } });

  it("is shaped: a scalar kept as it is, beside the other members", () => {
    expect(shape(doc, { x: "a", y: "b" }, holder(), "/paths/x")).toEqual({ x: "a", y: "b" });
    expect(shape(doc, { x: 1 }, holder(), "/paths/x")).toEqual({ x: 1 });
  });

  it("is shaped however deep the stack of the code that asks (the schema is followed a few levels only)", () => {
    /** `shape` called with `frames` more calls on the stack. */
    const deeper = (frames: number): unknown => (frames > 0 ? deeper(frames - 1) : shape(doc, { x: "a" }, holder(), "/paths/x"));
    // A new holder each time: a schema node is compiled once, on its first use.
    for (let frames = 0; frames < 20; frames++) expect(deeper(frames), `${frames} frames deeper`).toEqual({ x: "a" });
  });
});

describe("an empty anyOf beside a oneOf", () => {
  it("gives way to the oneOf: a scalar its first branch (false) admits nothing of is left out", () => {
    const holder = { type: "object", properties: { x: { anyOf: [], oneOf: [false, { type: "string" }] }, y: { type: "string" } } };
    expect(shape(doc, { x: "a", y: "b" }, holder, "/paths/x")).toEqual({ y: "b" });
  });
});

describe("a list item that is not there", () => {
  it("is left out without its schema being read", () => {
    const broken = { type: "array", items: { $ref: "#/components/schemas/Missing" } };
    expect(shape(doc, [undefined], broken, "/paths/x")).toEqual([]);
    expect(() => shape(doc, [undefined, "a"], broken, "/paths/x")).toThrow("unresolved $ref #/components/schemas/Missing");
  });
});
