/**
 * An object whose member's schema is a union naming itself (src/sandbox/shape.ts): `anyOf` or `oneOf`
 * branches that lead back, through `$ref`, to the union they are in. Building the object's shaper
 * looks at each member's schema ahead, nested unions to a bound, so the shaper is made, and a record
 * without that member is answered with its declared members, whatever branch leads back first; the
 * look ahead reads the document's schemas a bounded number of times (a stack overflow caught on the
 * way, as a `$ref` that does not resolve is, would give the same answer after thousands).
 */
import { describe, expect, it } from "vitest";
import { shape } from "../../../../src/sandbox/shape.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const unions: Record<string, Record<string, unknown>> = {
  "itself, last": { Value: { anyOf: [{ type: "string" }, ref("Value")] } },
  "itself, first": { Value: { anyOf: [ref("Value"), { type: "string" }] } },
  "through another union": { Value: { anyOf: [{ type: "string" }, ref("Other")] }, Other: { oneOf: [{ type: "integer" }, ref("Value")] } },
  "itself, among several": { Value: { oneOf: [{ type: "string" }, ref("Value"), ref("Value")] } },
  "through two others": {
    Value: { oneOf: [ref("Other")] },
    Other: { anyOf: [ref("Third"), { type: "boolean" }] },
    Third: { anyOf: [{ type: "string" }, ref("Value")] },
  },
  "itself, after several": { Value: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }, ref("Value")] } },
};

/**
 * A document of the union's schemas and `Holder`, an object with a member whose schema is the union
 * `Value`. Each call makes a holder of its own: a schema node's shaper is kept per node.
 */
function documentOf(schemas: Record<string, unknown>) {
  const holder = { type: "object", properties: { id: { type: "string" }, value: ref("Value") } };
  return { doc: { openapi: "3.1.0", components: { schemas: { ...schemas, Holder: holder } } }, holder };
}

describe("a member whose schema is a union naming itself", () => {
  it.each(Object.entries(unions))("%s: a record without it is answered with its declared members", (_, schemas) => {
    const { doc, holder } = documentOf(schemas);
    expect(shape(doc, { id: "h1", note: "not declared" }, holder, "/components/schemas/Holder")).toEqual({ id: "h1" });
  });
});

describe("looking ahead at a union naming itself", () => {
  it.each(Object.entries(unions))("%s: reads the document's schemas a bounded number of times", (_, schemas) => {
    const { doc: plain, holder } = documentOf(schemas);
    let reads = 0;
    // Every $ref followed reads `components` of the document first.
    const doc = new Proxy(plain as Record<string, unknown>, {
      get: (target, key) => {
        if (key === "components") reads++;
        return target[key as string];
      },
    });
    expect(shape(doc, { id: "h1" }, holder, "/components/schemas/Holder")).toEqual({ id: "h1" });
    expect(reads).toBeLessThan(200);
  });
});
