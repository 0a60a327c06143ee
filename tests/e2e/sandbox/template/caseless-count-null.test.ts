/**
 * Three rules of template evaluation (src/sandbox/template/index.ts) at their edges:
 * - `ci: true` compares "without regard to case" (docs/guides/sandbox-test-values.md: every test
 *   value is compared so): two texts match when their Unicode case foldings do. The table below is
 *   taken from the Unicode Character Database's CaseFolding.txt, by hand: KELVIN SIGN (U+212A) folds
 *   to "k", OHM SIGN (U+2126) to "ω" (U+03C9), and LATIN SMALL LETTER DOTLESS I (U+0131) has no
 *   folding, so it is not "i" (only the Turkish "T" mappings, not the default, relate them).
 * - `$count`, the number of records, interpolated in text as any other value.
 * - A null in an element template of `$each` is a value, kept as null (only undefined is left out).
 */
import { describe, expect, it } from "vitest";
import { evaluate, type TemplateContext } from "../../../../src/sandbox/template/index.js";

describe("ci: true compares texts by their Unicode case folding", () => {
  // [left, right, caseless match by CaseFolding.txt]
  const pairs: Array<[string, string, boolean]> = [
    ["\u212A", "k", true],
    ["\u212A", "K", true],
    ["\u2126", "\u03C9", true],
    ["\u2126", "\u03A9", true],
    ["\u0131", "i", false],
    ["\u0131", "I", false],
    ["SANDBOX_PAID", "sandbox_paid", true],
  ];
  it("has the expected number of pairs", () => expect(pairs).toHaveLength(7));
  it.each(pairs)("$eq of %s and %s is %s", (left, right, match) => {
    const ctx: TemplateContext = { request: { left, right } };
    expect(evaluate({ $eq: ["$request.left", "$request.right"], ci: true }, ctx)).toBe(match);
  });
  it.each(pairs)("$in of %s among [%s] is %s", (left, right, match) => {
    expect(evaluate({ $in: "$request.value", values: [right], ci: true }, { request: { value: left } })).toBe(match);
  });

  it("compares exactly without ci: a sign is not the letter it folds to", () => {
    expect(evaluate({ $eq: ["$request.a", "k"] }, { request: { a: "\u212A" } })).toBe(false);
  });
});

describe("$count in text", () => {
  it("is the number of records, and nothing when the context has no records", () => {
    const template = "{$count} record(s) listed";
    expect(evaluate(template, { records: [{ id: "a" }, { id: "b" }, { id: "c" }] })).toBe("3 record(s) listed");
    expect(evaluate(template, { records: [] })).toBe("0 record(s) listed");
    expect(evaluate(template, {})).toBe(" record(s) listed");
  });
});

describe("a null in $each's element template", () => {
  const ctx: TemplateContext = { record: { lines: [{ id: "l1" }, { id: "l2" }] } };

  it("is kept as null in each element, as a member", () => {
    expect(evaluate({ $each: "$record.lines", as: { line: "$item.id", note: null } }, ctx)).toEqual([
      { line: "l1", note: null },
      { line: "l2", note: null },
    ]);
  });

  it("is kept as null in each element, in a list", () => {
    expect(evaluate({ $each: "$record.lines", as: ["$item.id", null] }, ctx)).toEqual([
      ["l1", null],
      ["l2", null],
    ]);
  });
});
