/**
 * The form check (src/sandbox/template/check.ts) reads every operand of an operator as a template:
 * only the members src/sandbox/template/index.ts names as flags, member names, tables or patterns
 * (`key` of `$each`, `keep` of `$mask`, `ci` of `$eq` and `$in`, `pattern` of `$match`, `in` of
 * `$lookup`, `end` of `$date`, a literal list of `values` of `$in`) are left unread. An unknown root
 * in the operand itself, beside such a member, is a problem named at the operand's place.
 */
import { describe, expect, it } from "vitest";
import { checkTemplate } from "../../../../src/sandbox/template/index.js";

// The roots of the template language as src/sandbox/template/index.ts documents them.
const KNOWN_ROOTS =
  "$id, $record, $records, $outcomes, $count, $view, $request, $params, $item, $index, $now, $expiry, $status, $event, $shared, $callbackUrl, $next, $resource, $all";
const unknown = (at: string): [string, string] => [at, `unknown reference $nope (known: ${KNOWN_ROOTS})`];

describe("checkTemplate reads each operator's operands beside the members it leaves unread", () => {
  // [operator, template, where the unknown root is named]
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["$each's list", { $each: "$nope.items", key: "id" }, "answer.$each"],
    ["$each's element", { $each: "$request.items", as: "$nope.x", key: "id" }, "answer.as"],
    ["$mask's value", { $mask: "$nope.pan", keep: 4 }, "answer.$mask"],
    ["$match's value", { $match: "$nope.ref", pattern: "^ID_" }, "answer.$match"],
    ["$lookup's key", { $lookup: "$nope.kind", in: { a: "Alpha" } }, "answer.$lookup"],
    ["$lookup's otherwise", { $lookup: "$request.kind", in: { a: "Alpha" }, otherwise: "$nope" }, "answer.otherwise"],
    ["$date's day", { $date: "$nope.day", end: true }, "answer.$date"],
    ["$in's list of values to look for", { $in: ["$nope.code"], values: ["EUR"] }, "answer.$in.0"],
    ["$in's value beside ci", { $in: "$nope.code", values: ["EUR"], ci: true }, "answer.$in"],
    ["$eq's operands beside ci", { $eq: ["$request.a", "$nope.b"], ci: true }, "answer.$eq.1"],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(10));
  it.each(cases)("%s", (_, template, at) => expect(checkTemplate(template as never, "answer")).toEqual([unknown(at)]));

  it("checks text with references in an operand as well", () => {
    expect(checkTemplate({ $mask: "card {$nope.pan}", keep: 2 })).toEqual([unknown("$mask")]);
  });
});
