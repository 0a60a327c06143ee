/**
 * The JSON types a union that refers back to itself admits (src/document/schema.ts `admittedTypes`):
 * what its other branches admit, a branch met again while the union is read adding none; a union
 * whose branches only lead back says nothing of its types. The sandbox shapes a record holding such a
 * member (src/sandbox/shape.ts), which asks these types of the member's value.
 */
import { describe, expect, it } from "vitest";
import { admittedTypes } from "../../../../src/document/schema.js";
import { shape } from "../../../../src/sandbox/shape.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const docOf = (schemas: Record<string, unknown>) => ({ openapi: "3.1.0", components: { schemas } });
const typesOf = (schemas: Record<string, unknown>) => {
  const types = admittedTypes(docOf(schemas), ref("Value"), "");
  return types && [...types].sort();
};

describe("the types a union naming itself admits", () => {
  it.each([
    ["itself, last", { Value: { anyOf: [{ type: "string" }, ref("Value")] } }, ["string"]],
    ["itself, first", { Value: { anyOf: [ref("Value"), { type: "string" }] } }, ["string"]],
    [
      "through another union",
      { Value: { anyOf: [{ type: "string" }, ref("Other")] }, Other: { oneOf: [{ type: "integer" }, ref("Value")] } },
      ["integer", "string"],
    ],
    [
      "through two others",
      {
        Value: { oneOf: [ref("Other")] },
        Other: { anyOf: [ref("Third"), { type: "boolean" }] },
        Third: { anyOf: [{ type: "number" }, ref("Value")] },
      },
      ["boolean", "integer", "number"],
    ],
    ["a list of itself", { Value: { anyOf: [{ type: "string" }, { type: "array", items: ref("Value") }] } }, ["array", "string"]],
  ])("%s", (_, schemas, types) => {
    expect(typesOf(schemas)).toEqual(types);
  });

  it("is not said when every branch only leads back, nor when a branch does not constrain the type", () => {
    expect(typesOf({ Value: { anyOf: [ref("Value")] } })).toBeUndefined();
    expect(typesOf({ Value: { anyOf: [{ type: "string" }, ref("Value"), {}] } })).toBeUndefined();
  });

  it("reads a union met twice side by side, not inside itself, both times", () => {
    const schemas = { Value: { anyOf: [ref("Leaf"), ref("Leaf")] }, Leaf: { anyOf: [{ type: "string" }, { type: "null" }] } };
    expect(typesOf(schemas)).toEqual(["null", "string"]);
  });
});

describe("a record holding a member whose schema is a union naming itself", () => {
  it("is answered with the member's value", () => {
    const holder = { type: "object", properties: { id: { type: "string" }, value: ref("Value") } };
    const doc = docOf({ Value: { anyOf: [{ type: "string" }, ref("Value")] }, Holder: holder });
    expect(shape(doc, { id: "h1", value: "v" }, holder, "/components/schemas/Holder")).toEqual({ id: "h1", value: "v" });
  });
});
