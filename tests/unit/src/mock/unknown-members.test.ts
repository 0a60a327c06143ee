/**
 * DEVIATIONS unknownMember (src/mock/unknown-members.ts) on hand-written schemas: a member of a JSON
 * body that its schema does not name is a Warning naming its place, where the object's schema names
 * its members and says nothing of others (no additionalProperties, unevaluatedProperties,
 * patternProperties or propertyNames of its own); the parts that apply together (allOf, anyOf,
 * oneOf, then, else, dependentSchemas, a `$ref` into Prism's bundle) name what any of them names; an
 * alternative that names nothing, or a `$ref` not followed, leaves the place silent; arrays by
 * their items, recursive schemas at any depth; at most MAX_UNKNOWN_MEMBERS, then one Information.
 */
import { describe, expect, it } from "vitest";
import { MAX_UNKNOWN_MEMBERS } from "../../../../src/mock/limits.js";
import { isNode, memberPlan, unknownIn } from "../../../../src/mock/unknown-members.js";

/** The places of the unknown members `body` has for `schema` (undefined: none, or no plan). */
function unknown(schema: Record<string, unknown>, body: unknown, bundle: unknown = {}): string[] | undefined {
  const plan = memberPlan(schema, bundle);
  return plan && unknownIn(plan, body)?.map((finding) => finding.path!.join("."));
}
const named = (...names: string[]) => ({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])) });

describe("what is reported", () => {
  it("a member the schema does not name: a Warning naming it", () => {
    const plan = memberPlan(named("a", "b"), {})!;
    expect(unknownIn(plan, { a: "1", b: "2", c: "3" })).toEqual([
      {
        path: ["body", "c"],
        code: "unknown-member",
        message: "Request body property c is not a member its schema names (misspelt?)",
        severity: 1,
      },
    ]);
    expect(unknownIn(plan, { a: "1" })).toBeUndefined();
  });

  it("nested objects and arrays: the place named with its indexes", () => {
    const schema = { type: "object", properties: { a: named("x"), list: { type: "array", items: named("y") } } };
    expect(unknown(schema, { a: { x: "", z: "" }, list: [{ y: "" }, { y: "", w: "" }] })).toEqual(["body.a.z", "body.list.1.w"]);
    const messages = unknownIn(memberPlan(schema, {})!, { list: [{ w: 1 }] })!.map((f) => f.message);
    expect(messages).toEqual(["Request body property list.0.w is not a member its schema names (misspelt?)"]);
  });

  it("a body that is an array of objects", () => {
    expect(unknown({ type: "array", items: named("x") }, [{ x: 1 }, { q: 1 }])).toEqual(["body.1.q"]);
    expect(unknown({ type: "array", items: named("x") }, { q: 1 })).toBeUndefined();
  });

  it("a body that is not an object, or null: nothing", () => {
    for (const body of ["text", 3, null, undefined]) expect(unknown(named("a"), body)).toBeUndefined();
  });

  it("a recursive schema, at any depth", () => {
    const node: Record<string, unknown> = { type: "object", properties: { name: { type: "string" } } };
    (node.properties as Record<string, unknown>).child = node;
    expect(unknown(node, { name: "", child: { name: "", child: { nam: "" } } })).toEqual(["body.child.child.nam"]);
  });
});

describe("what leaves a place silent", () => {
  it.each([
    ["additionalProperties: false", { additionalProperties: false }],
    ["additionalProperties: a schema", { additionalProperties: { type: "string" } }],
    ["unevaluatedProperties: false", { unevaluatedProperties: false }],
    ["patternProperties", { patternProperties: { "^x-": {} } }],
    ["propertyNames", { propertyNames: { maxLength: 3 } }],
  ])("%s", (_, extra) => {
    expect(unknown({ ...named("a"), ...extra }, { a: "", c: "" })).toBeUndefined();
  });

  it("additionalProperties: true or unevaluatedProperties: true says nothing", () => {
    expect(unknown({ ...named("a"), additionalProperties: true, unevaluatedProperties: true }, { a: "", c: "" })).toEqual(["body.c"]);
  });

  it("a schema that names nothing has no plan", () => {
    expect(memberPlan({ type: "object" }, {})).toBeUndefined();
    expect(memberPlan({ type: "array", items: { type: "object" } }, {})).toBeUndefined();
  });

  it("an anyOf or oneOf alternative that names nothing (an object of any members)", () => {
    for (const key of ["anyOf", "oneOf"]) {
      expect(unknown({ [key]: [named("a"), { type: "object" }] }, { a: "", c: "" })).toBeUndefined();
      expect(unknown({ [key]: [named("a"), { type: ["object", "null"] }] }, { a: "", c: "" })).toBeUndefined();
    }
  });

  it("a $ref this reading does not follow (outside Prism's bundle, or to nothing)", () => {
    expect(unknown({ allOf: [named("a"), { $ref: "#/components/schemas/Other" }] }, { a: "", c: "" })).toBeUndefined();
    expect(unknown({ allOf: [named("a"), { $ref: "#/__bundled__/Missing" }] }, { a: "", c: "" }, {})).toBeUndefined();
  });
});

describe("the parts that apply together name what any of them names", () => {
  it.each([
    ["allOf", { allOf: [named("a"), named("b")] }],
    ["anyOf", { anyOf: [named("a"), named("b")] }],
    ["oneOf", { oneOf: [named("a"), named("b")] }],
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's then keyword, not a promise
    ["then and else", { ...named("a"), if: named("a"), then: named("b"), else: named("b") }],
    ["dependentSchemas", { ...named("a"), dependentSchemas: { a: named("b") } }],
    ["an anyOf branch of another type", { anyOf: [named("a", "b"), { type: "string" }] }],
  ])("%s", (_, schema) => {
    expect(unknown(schema, { a: "", b: "", c: "" })).toEqual(["body.c"]);
  });

  it("a $ref into Prism's bundle, its pointer's escapes read (~1 /, ~0 ~, percent)", () => {
    const bundle = { "a/b~c d": { Thing: named("a", "b") } };
    expect(unknown({ $ref: "#/__bundled__/a~1b~0c%20d/Thing" }, { a: "", b: "", c: "" }, bundle)).toEqual(["body.c"]);
  });

  it("a member named by two parts is walked by both", () => {
    const schema = { allOf: [{ properties: { a: named("x") } }, { properties: { a: named("y") } }] };
    expect(unknown(schema, { a: { x: "", y: "", z: "" } })).toEqual(["body.a.z"]);
  });
});

describe(`at most ${MAX_UNKNOWN_MEMBERS}`, () => {
  const body = (n: number) => Object.fromEntries([["a", ""], ...Array.from({ length: n }, (_, i) => [`u${i}`, ""])]);

  it(`${MAX_UNKNOWN_MEMBERS} unknown members: all listed`, () => {
    expect(unknown(named("a"), body(MAX_UNKNOWN_MEMBERS))).toHaveLength(MAX_UNKNOWN_MEMBERS);
  });

  it(`more: the first ${MAX_UNKNOWN_MEMBERS}, then one Information`, () => {
    const found = unknownIn(memberPlan(named("a"), {})!, body(MAX_UNKNOWN_MEMBERS + 5))!;
    expect(found).toHaveLength(MAX_UNKNOWN_MEMBERS + 1);
    expect(found.at(-1)).toEqual({
      path: ["body"],
      code: "unknown-members-capped",
      message: `Request body has more members its schema does not name; the first ${MAX_UNKNOWN_MEMBERS} are listed`,
      severity: 2,
    });
    expect(found[MAX_UNKNOWN_MEMBERS - 1].path).toEqual(["body", `u${MAX_UNKNOWN_MEMBERS - 1}`]);
  });

  it("the cap stops the walk below too: nested and in arrays", () => {
    const schema = { type: "array", items: { type: "object", properties: { in: named("a") } } };
    const found = unknownIn(memberPlan(schema, {})!, [{ in: body(MAX_UNKNOWN_MEMBERS) }, { in: body(3) }])!;
    expect(found).toHaveLength(MAX_UNKNOWN_MEMBERS + 1);
    expect(found.at(-1)?.code).toBe("unknown-members-capped");
  });

  it("each call starts a new list", () => {
    const plan = memberPlan(named("a"), {})!;
    unknownIn(plan, body(MAX_UNKNOWN_MEMBERS + 5));
    expect(unknownIn(plan, { a: "", q: "" })).toHaveLength(1);
  });
});

describe("the walk goes on past what it cannot walk", () => {
  // Each body has its unknown member `c` after a member the plan cannot walk into: the walk must reach it.
  it.each([
    ["a text where an object was planned", { ...named("b"), properties: { a: named("x"), b: { type: "string" } } }, { a: "text", c: 1 }],
    [
      "an array where an object was planned",
      { ...named("b"), properties: { a: named("x"), b: { type: "string" } } },
      { a: [{ z: 1 }], c: 1 },
    ],
    [
      "an object where an array was planned",
      { type: "object", properties: { a: { type: "array", items: named("x") }, b: { type: "string" } } },
      { a: { z: 1 }, c: 1 },
    ],
    [
      "an array walked to its end",
      { type: "object", properties: { a: { type: "array", items: named("x") }, b: { type: "string" } } },
      { a: [{ x: "" }], c: 1 },
    ],
  ])("%s", (_, schema, body) => {
    expect(unknown(schema, body)).toEqual(["body.c"]);
  });

  it("an array body where the schema plans an object: nothing", () => {
    expect(unknown(named("a"), [{ q: 1 }])).toBeUndefined();
  });
});

describe("a silent place still walks the members it names", () => {
  it("members below a place that reports nothing (additionalProperties of its own)", () => {
    const schema = { type: "object", additionalProperties: { type: "integer" }, properties: { a: named("x") } };
    expect(unknown(schema, { a: { x: "", z: "" }, c: 1 })).toEqual(["body.a.z"]);
  });
});

describe("the cap stops the whole walk", () => {
  const filled = (n: number) => Object.fromEntries([["a", ""], ...Array.from({ length: n }, (_, i) => [`u${i}`, ""])]);
  it("a nested place overflowing, members after it", () => {
    const schema = { type: "object", properties: { in: named("a") } };
    const found = unknownIn(memberPlan(schema, {})!, { in: filled(MAX_UNKNOWN_MEMBERS + 1), z1: "", z2: "" })!;
    expect(found.map((f) => f.code)).toEqual([...Array(MAX_UNKNOWN_MEMBERS).fill("unknown-member"), "unknown-members-capped"]);
  });
  it("an array item overflowing, items after it", () => {
    const schema = { type: "array", items: { type: "object", properties: { in: named("a") } } };
    const found = unknownIn(memberPlan(schema, {})!, [{ in: filled(MAX_UNKNOWN_MEMBERS + 1) }, { in: filled(3) }])!;
    expect(found.map((f) => f.code)).toEqual([...Array(MAX_UNKNOWN_MEMBERS).fill("unknown-member"), "unknown-members-capped"]);
  });
});

describe("schemas read as they are", () => {
  it("a schema is an object: not an array, not null", () => {
    expect([isNode({}), isNode([]), isNode(null), isNode("s")]).toEqual([true, false, false, false]);
  });

  it("what is not a schema object (null, an array) among properties and parts is passed over", () => {
    const schema = {
      type: "object",
      properties: { a: null, b: { type: "string" } },
      allOf: [null, ["x"]],
      anyOf: [null, named("a", "b")],
      dependentSchemas: { a: null },
    };
    expect(unknown(schema, { a: "", b: "", c: "" })).toEqual(["body.c"]);
  });

  it("an anyOf alternative that allows any other member (additionalProperties: true) names nothing", () => {
    expect(unknown({ anyOf: [named("a"), { type: "object", additionalProperties: true }] }, { a: "", c: "" })).toBeUndefined();
  });

  it("an anyOf alternative that is a $ref not followed leaves the place silent", () => {
    expect(unknown({ anyOf: [named("a"), { $ref: "#/components/schemas/Other" }] }, { a: "", c: "" })).toBeUndefined();
  });

  it("only `#/__bundled__/` references are followed, even where another pointer would find a schema in the bundle", () => {
    // "#/definitions/" is as long as "#/__bundled__/": the rest of it names a key of the bundle.
    expect(unknown({ $ref: "#/definitions/Thing" }, { a: "", c: "" }, { Thing: named("a") })).toBeUndefined();
  });

  it("a pointer through something that is not an object finds nothing", () => {
    expect(unknown({ allOf: [named("a"), { $ref: "#/__bundled__/Missing/deeper" }] }, { a: "", c: "" }, {})).toBeUndefined();
    expect(unknown({ allOf: [named("a"), { $ref: "#/__bundled__/Text/deeper" }] }, { a: "", c: "" }, { Text: "x" })).toBeUndefined();
  });

  it("a $ref cycle among the parts of one place", () => {
    const bundle: Record<string, unknown> = {};
    bundle.A = { allOf: [{ $ref: "#/__bundled__/B" }], properties: { a: { type: "string" } } };
    bundle.B = { allOf: [{ $ref: "#/__bundled__/A" }], properties: { b: { type: "string" } } };
    expect(unknown({ $ref: "#/__bundled__/A" }, { a: "", b: "", c: "" }, bundle)).toEqual(["body.c"]);
  });

  it("the same schema at two places, then another: each place by its own schema", () => {
    const a = named("a");
    const c = named("c");
    const schema = { type: "object", properties: { x: a, y: a, z: c } };
    expect(unknown(schema, { x: { a: "" }, y: { a: "", q: "" }, z: { c: "" } })).toEqual(["body.y.q"]);
  });
});
