/**
 * The form check of a template (src/sandbox/template/check.ts): every problem it names, with its
 * place and its whole message, and the members of an operator that are not templates (a flag, a
 * member name, a table of literal values, a pattern, a literal list) left unread.
 */
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../../../src/sandbox/template/index.js";

// The roots and operators of the template language as src/sandbox/template/index.ts documents them.
const KNOWN_ROOTS =
  "$id, $record, $records, $outcomes, $count, $view, $request, $params, $item, $index, $now, $expiry, $status, $event, $shared, $callbackUrl, $next, $resource, $all";
const KNOWN_OPERATORS =
  "$each, $first, $if, $mask, $newId, $eq, $in, $not, $any, $match, $add, $sub, $percent, $size, $lookup, $date, $before";

describe("checkTemplate's messages", () => {
  it("names every known root after an unknown one, and every known operator after an unknown one", () => {
    expect(checkTemplate({ a: "$bogus.x" })).toEqual([["a", `unknown reference $bogus (known: ${KNOWN_ROOTS})`]]);
    expect(checkTemplate({ b: { $map: "$id" } }, "answer")).toEqual([
      ["answer.b.$map", `unknown operator $map (known: ${KNOWN_OPERATORS})`],
    ]);
  });

  it("takes $count as a root, and a string that starts with $ but is no reference is one problem", () => {
    expect(checkTemplate("$count")).toEqual([]);
    expect(checkTemplate({ a: "$1st" })).toEqual([["a", '"$1st" is not a reference ($root or $root.path)']]);
  });

  const cases: Array<[string, unknown, Array<[string, string]>]> = [
    [
      "$each of a list holding a reference",
      { $each: ["$request.items"] },
      [["$each", "must be a reference to a list, e.g. $request.items"]],
    ],
    ["$eq of one template", { $eq: ["$id"] }, [["$eq", "must be a list of two templates"]]],
    ["$eq not a list", { $eq: "$id" }, [["$eq", "must be a list of two templates"]]],
    ["$eq of two", { $eq: ["$id", "x"] }, []],
    ["$before of three", { $before: ["$now", "$now", "$now"] }, [["$before", "must be a list of two templates: two times"]]],
    ["$before of two", { $before: ["$now", "$expiry"] }, []],
    ["$add not a list", { $add: "$request.a" }, [["$add", "must be a list of templates"]]],
    ["$sub not a list", { $sub: 5 }, [["$sub", "must be a list of templates"]]],
    ["$add of three", { $add: ["1", "$request.a", 2] }, []],
    ["$percent of one", { $percent: ["100"] }, [["$percent", "must be a list of two templates: an amount and a rate"]]],
    ["$percent of two", { $percent: ["100", "1.5"] }, []],
    ["$lookup without in", { $lookup: "$id" }, [["", "$lookup needs `in`, an object of values by key"]]],
    ["$lookup with a list in", { $lookup: "$id", in: ["a"] }, [["", "$lookup needs `in`, an object of values by key"]]],
    ["$match without a pattern", { $match: "$id" }, [["", "$match needs `pattern`, a regular expression"]]],
    [
      "$match with a pattern that is no regular expression",
      { $match: "$id", pattern: "([" },
      [["", "$match needs `pattern`, a regular expression"]],
    ],
    ["$match with a number for a pattern", { $match: "$id", pattern: 12 }, [["", "$match needs `pattern`, a regular expression"]]],
    ["$match with a pattern", { $match: "$id", pattern: "^ID_" }, []],
    ["$any without where", { $any: "$records" }, [["", "$any needs a reference to a list and a `where` template ($item is each element)"]]],
    [
      "$any of a literal list",
      { $any: ["a"], where: true },
      [["", "$any needs a reference to a list and a `where` template ($item is each element)"]],
    ],
    ["$any with where", { $any: "$records", where: "$item.ok" }, []],
    ["$in without values", { $in: "$id" }, [["", "$in needs `values` (a list, or a template giving one)"]]],
    ["$if without value", { $if: "$id" }, [["", "$if needs a `value` template"]]],
    ["$if with value", { $if: "$id", value: 1 }, []],
    ["$mask without keep", { $mask: "$id" }, []],
    ["$mask keeping none", { $mask: "$id", keep: 0 }, []],
    ["$mask keeping a negative count", { $mask: "$id", keep: -1 }, [["keep", "must be a non-negative integer"]]],
    ["$mask keeping a fraction", { $mask: "$id", keep: 2.5 }, [["keep", "must be a non-negative integer"]]],
    // The one problem of keep: its text is not read as a reference as well.
    ["$mask keeping a reference", { $mask: "$id", keep: "$bogus" }, [["keep", "must be a non-negative integer"]]],
    ["$newId of no prefix", { $newId: 1 }, [["$newId", "must be the id's prefix, a string"]]],
  ];
  it("has the expected number of operator cases", () => expect(cases).toHaveLength(29));
  it.each(cases)("%s", (_, template, expected) => expect(checkTemplate(template as never)).toEqual(expected));
});

describe("checkTemplate and the members of an operator that are not templates", () => {
  // Each member is read by its operator as it is (ci and end as flags, key as a member name, in as a
  // table of literal values, pattern as a regular expression, a list of values as literals): text
  // in it that looks like a reference is no problem there, and is one in any other object.
  const members: Array<[string, Record<string, unknown>]> = [
    ["key of $each", { $each: "$records", key: "$bogus" }],
    ["keep of $mask", { $mask: "$id", keep: 4 }],
    ["ci of $eq", { $eq: ["$id", "x"], ci: "$bogus" }],
    ["ci of $in", { $in: "$id", values: ["x"], ci: "$bogus" }],
    ["pattern of $match", { $match: "$id", pattern: "$bogus" }],
    ["in of $lookup", { $lookup: "$id", in: { a: "$bogus" } }],
    ["end of $date", { $date: "$request.day", end: "$bogus" }],
    ["a list of values of $in", { $in: "$id", values: ["$bogus"] }],
  ];
  it("has the expected number of cases", () => expect(members).toHaveLength(8));
  it.each(members)("%s is not checked as a template", (_, template) => expect(checkTemplate(template as never)).toEqual([]));

  const plain: Array<[string, Record<string, unknown>, string]> = [
    ["key", { key: "$bogus" }, "key"],
    ["keep", { keep: "$bogus" }, "keep"],
    ["ci", { ci: "$bogus" }, "ci"],
    ["ci beside $not", { $not: "$id", ci: "$bogus" }, "ci"],
    ["pattern", { pattern: "$bogus" }, "pattern"],
    ["in", { in: { a: "$bogus" } }, "in.a"],
    ["end", { end: "$bogus" }, "end"],
    ["values", { values: ["$bogus"] }, "values.0"],
  ];
  it("has the expected number of plain cases", () => expect(plain).toHaveLength(8));
  it.each(plain)("%s in a plain object is checked as a template", (_, template, at) =>
    expect(checkTemplate(template as never)).toEqual([[at, `unknown reference $bogus (known: ${KNOWN_ROOTS})`]]),
  );

  it("checks $in's values when they are a template giving a list", () => {
    expect(checkTemplate({ $in: "$id", values: "$bogus.list" })).toEqual([["values", `unknown reference $bogus (known: ${KNOWN_ROOTS})`]]);
  });
});
