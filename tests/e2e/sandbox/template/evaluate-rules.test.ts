/**
 * Rules of template evaluation (src/sandbox/template/) as src/sandbox/template/index.ts documents
 * them: references (digits index a list, $resource and $all need a name, an unknown root fails
 * naming the known ones), an undefined value left out of a list, `$each` built again from the same
 * list for another context (another `$id`, fresh ids), `$in` over every record of a resource
 * answered from the store's index as the walk answers, and each operator case by case at its edges.
 * Expectations are worked out by hand from the documented rules.
 */
import { describe, expect, it } from "vitest";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { evaluate, fullContext, Instant, newId, resolveReference, type TemplateContext } from "../../../../src/sandbox/template/index.js";

// The roots of the template language as src/sandbox/template/index.ts documents them.
const KNOWN_ROOTS =
  "$id, $record, $records, $outcomes, $count, $view, $request, $params, $item, $index, $now, $expiry, $status, $event, $shared, $callbackUrl, $next, $resource, $all";

describe("references", () => {
  it("resolves a reference string, and refuses a string that is none, naming it", () => {
    expect(resolveReference("$request.name", { request: { name: "Shop" } })).toBe("Shop");
    expect(() => resolveReference("request.name", { request: { name: "Shop" } })).toThrow('not a reference: "request.name"');
  });

  it("fails on an unknown root, with or without a path, naming the known roots", () => {
    expect(() => evaluate("$bogus", {})).toThrow(`unknown reference $bogus (known: ${KNOWN_ROOTS})`);
    expect(() => evaluate({ a: "$nope.x.y" }, {})).toThrow(`unknown reference $nope (known: ${KNOWN_ROOTS})`);
  });

  it("reads a list's element by an index of digits only", () => {
    const ctx: TemplateContext = { request: { list: ["a", "b"] } };
    const cases: Array<[string, unknown]> = [
      ["$request.list.1", "b"],
      ["$request.list.1e0", undefined],
      ["$request.list.0x1", undefined],
      ["$request.list.1a", undefined],
      ["$request.list.a1", undefined],
      ["$request.list.-1", undefined],
    ];
    for (const [ref, expected] of cases) expect([ref, evaluate(ref, ctx)]).toEqual([ref, expected]);
  });

  it("reads an index of two digits and more", () => {
    const long = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"];
    expect(evaluate("$request.long.10", { request: { long } })).toBe("k");
  });

  it("reads $count, $resource and $all as undefined when the context has no records or lookups", () => {
    expect([evaluate("$count", {}), evaluate("$resource.merchant", {}), evaluate("$all.account", {})]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("reads $resource and $all by a name only: alone they are undefined, whatever the context answers", () => {
    const ctx: TemplateContext = { resource: () => ({ x: 1 }), all: () => [{ x: 1 }] };
    expect([evaluate("$resource", ctx), evaluate("$all", ctx)]).toEqual([undefined, undefined]);
    expect([evaluate("$resource.any.x", ctx), evaluate("$all.any.0.x", ctx)]).toEqual([1, 1]);
  });

  it("compares booleans as their text", () => {
    const ctx: TemplateContext = { request: { flag: true, off: false } };
    expect(evaluate({ $eq: ["$request.flag", "true"] }, ctx)).toBe(true);
    expect(evaluate({ $in: "$request.off", values: ["false"] }, ctx)).toBe(true);
    expect(evaluate({ $eq: ["$request.off", "true"] }, ctx)).toBe(false);
  });

  it("keeps a value that is neither a list nor a plain object as it is: an Instant in a template is that Instant", () => {
    const at = new Instant(Date.UTC(2026, 0, 1));
    const built = evaluate({ at, list: [at] }, {}) as { at: unknown; list: unknown[] };
    expect(built.at).toBe(at);
    expect(built.list[0]).toBe(at);
  });

  it("makes a full context: every member of TemplateContext, in one order, the given ones set", () => {
    // TemplateContext's members as src/sandbox/template/context.ts declares them.
    const members = ["id", "record", "records", "outcomes", "view", "request", "params", "item", "index", "now", "expiry"].concat([
      "status",
      "event",
      "shared",
      "callbackUrl",
      "next",
      "resource",
      "all",
      "recordIndex",
    ]);
    const full = fullContext({ id: "inv_1", next: "inv_2" });
    expect(Object.keys(full)).toEqual(members);
    expect(Object.entries(full).filter(([, value]) => value !== undefined)).toEqual([
      ["id", "inv_1"],
      ["next", "inv_2"],
    ]);
  });

  it("leaves an undefined element out of a list, and keeps null, false and empty text", () => {
    const ctx: TemplateContext = { id: "inv_1", request: { none: null, no: false, empty: "" } };
    expect(evaluate(["$request.missing", 1, "$id", "$request.none", "$request.no", "$request.empty"], ctx)).toStrictEqual([
      1,
      "inv_1",
      null,
      false,
      "",
    ]);
  });
});

describe("$each built again from the same list", () => {
  // A record's own list: the same array each time the record is read.
  const record = { lines: [{ id: "l1" }, { id: "l2" }] };
  const first: TemplateContext = { id: "inv_1", record };
  const second: TemplateContext = { id: "inv_2", record };

  const cases: Array<[string, Record<string, unknown>, unknown, unknown]> = [
    ["a reference to another root", { $each: "$record.lines", as: "$id" }, ["inv_1", "inv_1"], ["inv_2", "inv_2"]],
    [
      "text with $item and another root",
      { $each: "$record.lines", as: "{$item.id}@{$id}" },
      ["l1@inv_1", "l2@inv_1"],
      ["l1@inv_2", "l2@inv_2"],
    ],
    [
      "a list of $item and another root",
      { $each: "$record.lines", as: ["$item.id", "$id"] },
      [
        ["l1", "inv_1"],
        ["l2", "inv_1"],
      ],
      [
        ["l1", "inv_2"],
        ["l2", "inv_2"],
      ],
    ],
    [
      "an object of $index and another root",
      { $each: "$record.lines", as: { at: "$index", of: "$id" } },
      [
        { at: 0, of: "inv_1" },
        { at: 1, of: "inv_1" },
      ],
      [
        { at: 0, of: "inv_2" },
        { at: 1, of: "inv_2" },
      ],
    ],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(4));
  it.each(cases)("reads the context of each evaluation: %s", (_, template, once, again) => {
    expect(evaluate(template as never, first)).toEqual(once);
    expect(evaluate(template as never, second)).toEqual(again);
  });

  it("reads only $item's members the same way each time", () => {
    const template = { $each: "$record.lines", as: { line: "$item.id", n: "$index" } };
    const expected = [
      { line: "l1", n: 0 },
      { line: "l2", n: 1 },
    ];
    expect(evaluate(template, first)).toEqual(expected);
    expect(evaluate(template, second)).toEqual(expected);
  });

  it("makes fresh ids each time", () => {
    const template = { $each: "$record.lines", as: { line: "$item.id", id: { $newId: "ln_" } } };
    const once = evaluate(template, first) as Array<{ id: string }>;
    const again = evaluate(template, first) as Array<{ id: string }>;
    const ids = [...once, ...again].map((line) => line.id);
    expect(ids.every((id) => id.startsWith("ln_"))).toBe(true);
    expect(new Set(ids).size).toBe(4);
  });
});

describe("operators at their edges", () => {
  it("$each keyed by a member that is a number or a string; an element without it is left out", () => {
    const ctx: TemplateContext = { request: { items: [{ n: 1, v: "a" }, { n: "b", v: "c" }, { v: "none" }, { n: true, v: "flag" }] } };
    expect(evaluate({ $each: "$request.items", key: "n" }, ctx)).toEqual({ "1": { n: 1, v: "a" }, b: { n: "b", v: "c" } });
  });

  it("$lookup gives the table's value, else `otherwise`, else the key itself", () => {
    const table = { a: "Alpha" };
    const ctx = (kind: string): TemplateContext => ({ request: { kind } });
    expect(evaluate({ $lookup: "$request.kind", in: table, otherwise: "unknown" }, ctx("a"))).toBe("Alpha");
    expect(evaluate({ $lookup: "$request.kind", in: table, otherwise: "unknown" }, ctx("b"))).toBe("unknown");
    expect(evaluate({ $lookup: "$request.kind", in: table }, ctx("b"))).toBe("b");
    expect(evaluate({ $lookup: "$request.kind", in: table }, ctx("a"))).toBe("Alpha");
  });

  it("$newId without a prefix gives a bare id", () => {
    const id = evaluate({ $newId: null }, {}) as string;
    expect(id).toHaveLength(newId("").length);
    expect(id).toMatch(/^[0-9A-Z]+$/);
  });

  it("$in over every record of a resource (no `as`) is answered from the store's index as the walk answers it", () => {
    const template = { $in: "$request.value", values: { $each: "$all.thing" } };
    const records = [{ reference: "a" }, "b", 7];
    const state = new CredentialState("k");
    for (const [i, data] of records.entries()) state.add("thing", String(i), data as never);
    const asked: string[] = [];
    const indexed = (value: unknown) =>
      evaluate(template, {
        request: { value },
        all: () => state.dataOf("thing"),
        recordIndex: (resource, name, keyOf) => {
          asked.push(resource);
          return state.index(resource, name, keyOf);
        },
      });
    const walked = (value: unknown) => evaluate(template, { request: { value }, all: () => records as never });
    for (const value of ["a", "b", 7, "7", { x: 1 }, undefined]) expect([value, indexed(value)]).toEqual([value, walked(value)]);
    expect(indexed("b")).toBe(true);
    expect(asked).toEqual(["thing", "thing", "thing", "thing", "thing", "thing", "thing"]);
  });

  it("$in walks every other form of values, the store's index unasked", () => {
    const state = new CredentialState("k");
    state.add("thing", "0", { r: "a" });
    state.add("thing", "1", { r: "b" });
    const asked: string[] = [];
    const ctx: TemplateContext = {
      id: "x",
      request: { value: "a", things: [{ r: "q" }] },
      all: () => state.dataOf("thing"),
      recordIndex: (resource, name, keyOf) => {
        asked.push(resource);
        return state.index(resource, name, keyOf);
      },
    };
    // Each gives no list holding "a": none, the request's list, the ids, lists of members, a list of lists, no list, a record.
    const forms: unknown[] = [
      null,
      { $each: "$request.things", as: "$item.r" },
      { $each: "$all.thing", as: "$id" },
      { $each: "$all.thing", as: ["$item.r"] },
      { $each: ["$all.thing"], as: "$item.r" },
      { $each: 5, as: "$item.r" },
      { $each: "$all.thing.0", as: "$item.r" },
    ];
    expect(forms).toHaveLength(7);
    for (const values of forms) expect([values, evaluate({ $in: "$request.value", values } as never, ctx)]).toEqual([values, false]);
    expect(asked).toEqual([]);
    expect(evaluate({ $in: "$request.value", values: { $each: "$all.thing", as: "$item.r" } }, ctx)).toBe(true);
    expect(asked).toEqual(["thing"]);
  });

  it("$in keeps one index per member and per case rule: each answers as the walk of the records does", () => {
    const records = [{ r: "a", s: "B" }, { s: "c" }];
    const state = new CredentialState("k");
    for (const [i, data] of records.entries()) state.add("thing", String(i), data);
    // With the index, no record is walked.
    const indexed: TemplateContext = {
      all: () => {
        throw new Error("the records were walked");
      },
      recordIndex: (resource, name, keyOf) => state.index(resource, name, keyOf),
    };
    const walked: TemplateContext = { all: () => records };
    // [member, ci, value, answer], in turn on one store: an index kept for one is not the other's.
    const asks: Array<[string, boolean, unknown, boolean]> = [
      ["r", false, "a", true],
      ["s", false, "a", false],
      ["s", false, "B", true],
      ["s", true, "b", true],
      ["s", false, "b", false],
      ["r", false, { x: 1 }, false],
      ["r", true, "A", true],
      ["r", false, "A", false],
    ];
    expect(asks).toHaveLength(8);
    for (const [member, ci, value, answer] of asks) {
      const template = { $in: "$request.value", values: { $each: "$all.thing", as: `$item.${member}` }, ci };
      const asked = [member, ci, value];
      expect([...asked, evaluate(template, { ...indexed, request: { value } })]).toEqual([...asked, answer]);
      expect([...asked, evaluate(template, { ...walked, request: { value } })]).toEqual([...asked, answer]);
    }
  });
});

describe("operators by case", () => {
  const ctx: TemplateContext = {
    records: [{ id: "a" }, { id: "b" }],
    request: {
      cur: "EUR",
      low: "eur",
      n: 7,
      list: ["x", "EUR"],
      codes: ["USD", "EUR"],
      obj: { a: 1 },
      lines: [{ k: "p" }, { j: "q" }, { k: "r" }],
      day: { year: 2026, month: 2, day: 3 },
      text: { year: "2026", month: "12", day: "31" },
    },
    resource: (name) => (name === "merchant" ? { url_expiry: 24 } : undefined),
    all: (name) => (name === "account" ? [{ id: "acc_1" }, { id: "acc_2" }] : undefined),
  };
  // A time as the instant's ISO 8601 text, anything else as it is.
  const shown = (value: unknown) => (value instanceof Instant ? value.toISOString() : value);
  const cases: Array<[string, unknown, unknown]> = [
    ["$in of a fixed list", { $in: "$request.cur", values: ["USD", "EUR"] }, true],
    ["$in is case-sensitive", { $in: "$request.low", values: ["USD", "EUR"] }, false],
    ["$in with ci", { $in: "$request.low", values: ["USD", "EUR"], ci: true }, true],
    ["$in of a number as text", { $in: "$request.n", values: ["7"] }, true],
    ["$in of a number among numbers", { $in: "$request.n", values: [7] }, true],
    ["$in of a list: any element", { $in: "$request.list", values: ["EUR"] }, true],
    ["$in of a list: no element", { $in: "$request.list", values: ["y"] }, false],
    ["$in of a template's list", { $in: "$request.cur", values: "$request.codes" }, true],
    ["$in of a template's list, ci", { $in: "$request.low", values: "$request.codes", ci: true }, true],
    ["$in of a template's list, case-sensitive", { $in: "$request.low", values: "$request.codes" }, false],
    ["$in of a list in a template's list", { $in: "$request.list", values: "$request.codes" }, true],
    ["$in of a template that is no list", { $in: "$request.cur", values: "$request.cur" }, false],
    ["$in of an object", { $in: "$request.obj", values: ["[object Object]"] }, false],
    ["$add of integers and integer text", { $add: ["1", 2, "-3", "40"] }, "40"],
    ["$add beyond 2^53", { $add: ["9007199254740993", "1"] }, "9007199254740994"],
    ["$add of a decimal text", { $add: ["10", "1.5"] }, undefined],
    ["$add of a decimal number", { $add: ["10", 1.5] }, undefined],
    ["$add of text ending in a letter", { $add: ["12a"] }, undefined],
    ["$add of text starting with a letter", { $add: ["a12"] }, undefined],
    ["$add of a boolean", { $add: [true] }, undefined],
    ["$add of a missing value", { $add: ["1", "$request.nope"] }, undefined],
    ["$add of nothing", { $add: [] }, "0"],
    ["$sub: the first minus the others", { $sub: ["10", "3", 2] }, "5"],
    ["$sub of one", { $sub: ["5"] }, "5"],
    ["$sub below zero", { $sub: ["5", "7"] }, "-2"],
    ["$sub of nothing", { $sub: [] }, "0"],
    ["$percent of a rate with 2 decimal digits", { $percent: ["10000", "1.25"] }, "125"],
    ["$percent of a rate with 1 decimal digit", { $percent: ["10000", "1.2"] }, "120"],
    ["$percent of a rate with 3 decimal digits", { $percent: ["10000", "1.255"] }, undefined],
    ["$date of numbers", { $date: "$request.day" }, "2026-02-03T00:00:00.000Z"],
    ["$date's end", { $date: "$request.day", end: true }, "2026-02-03T23:59:59.999Z"],
    ["$date's end only when true", { $date: "$request.day", end: "yes" }, "2026-02-03T00:00:00.000Z"],
    ["$date of text", { $date: "$request.text" }, "2026-12-31T00:00:00.000Z"],
    ["$date of a year", { $date: { year: 2026 } }, "2026-01-01T00:00:00.000Z"],
    ["$date of month 0", { $date: { year: 2026, month: 0, day: 1 } }, undefined],
    ["$date of month 13", { $date: { year: 2026, month: 13, day: 1 } }, undefined],
    ["$date of day 0", { $date: { year: 2026, month: 1, day: 0 } }, undefined],
    ["$date of day 32", { $date: { year: 2026, month: 1, day: 32 } }, undefined],
    ["$date of a fractional day", { $date: { year: 2026, month: 1, day: 1.5 } }, undefined],
    ["$date without a year", { $date: { month: 1, day: 1 } }, undefined],
    ["$date past the last time", { $date: { year: 300000 } }, undefined],
    ["$date of text that is no object", { $date: "2026-01-01" }, undefined],
    ["$size of a list", { $size: "$request.list" }, 2],
    ["$size of text", { $size: "$request.cur" }, 0],
    ["$size of nothing", { $size: "$request.nope" }, 0],
    ["$mask keeps 4 by default", { $mask: "abcdef" }, "**cdef"],
    ["$mask keeping 2", { $mask: "abcdef", keep: 2 }, "****ef"],
    ["$mask keeping none", { $mask: "abcdef", keep: 0 }, "******"],
    ["$mask keeping more than there is", { $mask: "abc", keep: 10 }, "abc"],
    ["$mask keeping a negative count (the form check refuses it) masks it all, as long as it was", { $mask: "abc", keep: -1 }, "***"],
    ["$mask of a number", { $mask: "$request.n" }, 7],
    ["$lookup of an inherited name", { $lookup: "toString", in: { a: 1 } }, "toString"],
    ["$lookup of a number", { $lookup: "$request.n", in: { "7": "seven" } }, 7],
    ["$each leaves out the elements its template leaves out", { $each: "$request.lines", as: "$item.k" }, ["p", "r"]],
    ["$each of a condition", { $each: "$request.list", as: { $if: { $eq: ["$item", "EUR"] }, value: "$index" } }, [1]],
    ["$each of a template no element gives", { $each: "$request.list", as: { $if: false, value: "$index" } }, []],
    ["$each keyed by a member no element has", { $each: "$request.list", key: "length" }, {}],
    ["$count", "$count", 2],
    ["$count's member", "$count.x", undefined],
    ["$resource without a name", "$resource", undefined],
    ["$resource's record", "$resource.merchant", { url_expiry: 24 }],
    ["$resource of no record", "$resource.nope.x", undefined],
    ["$all without a name", "$all", undefined],
    ["$all's member", "$all.account.1.id", "acc_2"],
    ["$all of no records", "$all.nope.0", undefined],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(65));
  it.each(cases)("%s", (_, template, expected) => expect(shown(evaluate(template as never, ctx))).toEqual(expected));
});
