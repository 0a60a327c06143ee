/**
 * `$in` whose `values` is a template (src/sandbox/template/index.ts: "`values` (a list, or a
 * template giving one)"), evaluated as the declarations' templates are: the list it gives is the
 * list looked in; a template that gives no list (a text, a number, an object, nothing) gives
 * nothing to look in, so no value is found there, not even a value equal to the text it gave, with
 * or without `ci`. The texts are of any kind: spaces, case, and the text StrykerJS fills a list with.
 */
import { describe, expect, it } from "vitest";
import { evaluate, type TemplateContext } from "../../../../src/sandbox/template/index.js";

const inAllowed = (ci: boolean) => ({ $in: "$request.value", values: "$request.allowed", ...(ci ? { ci: true } : {}) });

describe("$in of values given by a template", () => {
  it("looks in the list it gives, by text, case-insensitively with ci", () => {
    const ctx: TemplateContext = { request: { value: "Stryker was here", allowed: ["open", "Stryker was here"] } };
    expect(evaluate(inAllowed(false), ctx)).toBe(true);
    expect(evaluate(inAllowed(true), { request: { value: "STRYKER WAS HERE", allowed: ["stryker was here"] } })).toBe(true);
  });

  // [what the values template gives, the value looked for]
  const notLists: Array<[string, unknown, string]> = [
    ["a text", "Stryker was here", "Stryker was here"],
    ["a text, value in another case", "Stryker was here", "stryker was here"],
    ["a number", 7, "7"],
    ["an object", { "Stryker was here": "Stryker was here" }, "Stryker was here"],
    ["nothing", undefined, "Stryker was here"],
  ];
  it("has the expected number of cases", () => expect(notLists).toHaveLength(5));

  it.each(notLists)("finds nothing when it gives %s, with or without ci", (_what, allowed, value) => {
    const ctx = { request: { value, allowed } } as TemplateContext;
    expect(evaluate(inAllowed(false), ctx)).toBe(false);
    expect(evaluate(inAllowed(true), ctx)).toBe(false);
  });
});
