/**
 * DEVIATIONS unknownMember (src/mock/unknown-members.ts) on hand-written schemas, where a place is
 * open and where the walk stops: an anyOf or oneOf alternative that states no type and names no
 * member (only `required`, or only a bound on the count of members) lets an object hold any member,
 * so its place reports none; and once MAX_UNKNOWN_MEMBERS are listed inside an array's item, the
 * Information closes the list: nothing after it (a later item, a later member of the object that
 * holds the array) adds to it.
 */
import { describe, expect, it } from "vitest";
import { MAX_UNKNOWN_MEMBERS } from "../../../../src/mock/limits.js";
import { memberPlan, unknownIn } from "../../../../src/mock/unknown-members.js";

const string = { type: "string" };

describe("an alternative without a type that names no member", () => {
  it.each([
    ["anyOf", { required: ["a"] }],
    ["oneOf", { minProperties: 1 }],
  ])("%s %j: the place reports no member", (key, alternative) => {
    const schema = { type: "object", properties: { a: string }, [key]: [alternative, { properties: { b: string } }] };
    const plan = memberPlan(schema, {});
    expect(plan && unknownIn(plan, { a: "1", c: "3" })).toBeUndefined();
  });

  it("beside alternatives that each name members, the place reports the others", () => {
    const schema = {
      type: "object",
      properties: { a: string },
      anyOf: [{ properties: { b: string } }, { type: "object", properties: { d: string } }],
    };
    expect(unknownIn(memberPlan(schema, {})!, { a: "1", c: "3" })?.map((f) => f.path)).toEqual([["body", "c"]]);
  });
});

describe("the list's cap reached inside an array's item", () => {
  it.each([
    ["a later item", (crowded: object) => ({ list: [crowded, { y: "", z: 1 }] })],
    ["a later member of the object holding the array", (crowded: object) => ({ list: [crowded], z: 1 })],
  ])("ends the list with the Information: %s's unknown member is not added", (_, bodyOf) => {
    const schema = { type: "object", properties: { list: { type: "array", items: { type: "object", properties: { y: string } } } } };
    const crowded = Object.fromEntries(Array.from({ length: MAX_UNKNOWN_MEMBERS + 1 }, (_, i) => [`m${i}`, i]));
    const found = unknownIn(memberPlan(schema, {})!, bodyOf(crowded))!;
    expect(found).toHaveLength(MAX_UNKNOWN_MEMBERS + 1);
    expect(found.slice(0, -1).map((f) => f.path)).toEqual(
      Array.from({ length: MAX_UNKNOWN_MEMBERS }, (_, i) => ["body", "list", "0", `m${i}`]),
    );
    expect(found.at(-1)).toMatchObject({ code: "unknown-members-capped", severity: 2 });
  });
});

describe("a recursive schema of many parts", () => {
  it("each place is judged by the members its own parts name, however many parts come before", () => {
    // More than ten parts, met in this order (root, a, y, the shared text, eight fillers, b): the set of
    // parts at b, its 1st and 13th, and the set at a, its 1st, 2nd and 3rd, differ only in where a number ends.
    const text = () => ({ type: "string" });
    const shared = text();
    const root: Record<string, unknown> = { type: "object" };
    const y = { type: "object", properties: { y: shared } };
    const fillers = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, text()]));
    const a = { type: "object", allOf: [root, y], properties: { x: shared, ...fillers } };
    const b = { type: "object", allOf: [root], properties: { n: shared } };
    root.properties = { a, b };
    const plan = memberPlan(root, {})!;
    // At a: a's own members, the root's and y's. At a.b and at b: b's own and the root's, not y.
    expect(unknownIn(plan, { a: { x: "", y: "", f7: "", a: {}, b: {} } })).toBeUndefined();
    expect(unknownIn(plan, { a: { b: { n: "", y: "" } }, b: { y: "", x: "" } })?.map((f) => f.path!.join("."))).toEqual([
      "body.a.b.y",
      "body.b.y",
      "body.b.x",
    ]);
  });
});
