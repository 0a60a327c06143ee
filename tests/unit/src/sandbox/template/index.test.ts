/** The declarations' template language (src/sandbox/template/): evaluation and form checks. */
import { describe, expect, it } from "vitest";
import { sizeOf } from "../../../../../src/sandbox/store/size.js";
import { CredentialState } from "../../../../../src/sandbox/store/state.js";
import { checkTemplate, evaluate, Instant, newId, type TemplateContext, toInstant } from "../../../../../src/sandbox/template/index.js";

const ctx: TemplateContext = {
  id: "inv_1",
  request: { name: "Shop", amounts: [{ amt: "1" }, { amt: "2" }], flag: true, empty: "", nested: { a: { b: 3 } } },
  params: { invoice_id: "inv_9" },
  now: new Instant(Date.UTC(2026, 0, 1)),
  records: [{ id: "a" }, { id: "b" }],
  resource: (name: string) => (name === "merchant" ? { url_expiry: 24 } : undefined),
  all: (name: string) =>
    name === "account"
      ? [
          { id: "acc_1", n: 1 },
          { id: "acc_2", n: 2 },
        ]
      : undefined,
};

describe("evaluate", () => {
  const cases: Array<[string, unknown, unknown]> = [
    ["a literal", { a: 1, b: "x", c: [true] }, { a: 1, b: "x", c: [true] }],
    ["a reference", "$request.name", "Shop"],
    ["a deep reference", "$request.nested.a.b", 3],
    ["a list index", "$request.amounts.1.amt", "2"],
    ["a missing member leaves the key out", { a: "$request.nope", b: 1 }, { b: 1 }],
    ["interpolation", "https://x/{$id}/{$params.invoice_id}", "https://x/inv_1/inv_9"],
    ["interpolation of a missing value", "a{$request.nope}b", "ab"],
    ["$count", "$count", 2],
    ["a singleton's member", "$resource.merchant.url_expiry", 24],
    ["spread", { "...": "$request.nested", z: 1 }, { a: { b: 3 }, z: 1 }],
    [
      "$each",
      { $each: "$request.amounts", as: { v: "$item.amt", i: "$index" } },
      [
        { v: "1", i: 0 },
        { v: "2", i: 1 },
      ],
    ],
    ["$each with a key", { $each: "$all.account", key: "id" }, { acc_1: { id: "acc_1", n: 1 }, acc_2: { id: "acc_2", n: 2 } }],
    ["$each of nothing", { a: { $each: "$request.nope" } }, {}],
    ["$first skips undefined and empty", { $first: ["$request.nope", "$request.empty", "$resource.merchant.url_expiry", 1] }, 24],
    ["$if true", { $if: "$request.flag", value: "yes", otherwise: "no" }, "yes"],
    ["$if false without else", { a: { $if: "$request.nope", value: "yes" } }, {}],
    ["$mask", { $mask: "$params.invoice_id", keep: 2 }, "***_9"],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(17));
  it.each(cases)("%s", (_, template, expected) => expect(evaluate(template, ctx)).toEqual(expected));

  it("reads members by any name a reference can hold, own members of plain objects and list indexes only", () => {
    const odd = {
      'we"ird': { "back\\slash": 1, "2": "two", "é€😀": "ls" },
      list: ["a", "b"],
      text: "abc",
      at: new Instant(5),
      none: null,
      bare: Object.assign(Object.create(null), { x: "bare" }),
      "'$x`;": "quoted",
    };
    const c: TemplateContext = { request: odd, item: [["i0"], "i1"] };
    const cases: Array<[string, unknown]> = [
      ['$request.we"ird.back\\slash', 1],
      ['$request.we"ird.2', "two"],
      ['$request.we"ird.é€😀', "ls"],
      ["$request.'$x`;", "quoted"],
      ["$request.list.1", "b"],
      ["$request.list.2", undefined],
      ["$request.list.x", undefined],
      ["$request.list.length", undefined],
      ["$request.text.length", undefined],
      ["$request.text.0", undefined],
      ["$request.at.ms", undefined],
      ["$request.none.x", undefined],
      ["$request.nope.x.y", undefined],
      ["$request.bare.x", "bare"],
      ["$request.constructor", undefined],
      ["$request.toString", undefined],
      ["$request.__proto__", undefined],
      ["$item.0.0", "i0"],
      ["$item.1", "i1"],
      ["$records.0", undefined],
    ];
    for (const [ref, expected] of cases) expect([ref, evaluate(ref, c)]).toEqual([ref, expected]);
  });

  it("builds objects with members of any name, in order; a member spread in and then undefined is left out", () => {
    const c: TemplateContext = { request: { a: 1, b: 2, 'x"y': 3 } };
    const built = evaluate({ 'q"\\': 1, "\u2028": 2, constructor: 3, "10": 4, "...": "$request", b: "$request.nope", z: "$request.a" }, c);
    expect(JSON.stringify(built)).toBe('{"10":4,"q\\"\\\\":1,"\u2028":2,"constructor":3,"a":1,"x\\"y":3,"z":1}');
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(evaluate({ a: "$request.nope" }, c)).toEqual({});
  });

  it("evaluates the operators each part of a template is compiled to", () => {
    const placeholder = ["$", "{x}"].join(""); // literal text that looks like a JavaScript placeholder
    const c: TemplateContext = {
      request: { code: "PH_UB", Code: "ph_ub", n: 7, list: [{ k: "a" }, { k: "b" }], zero: 0, no: false, nothing: null, blank: "" },
      now: new Instant(Date.UTC(2026, 0, 1)),
    };
    const cases: Array<[unknown, unknown]> = [
      [{ $eq: ["$request.code", "PH_UB"] }, true],
      [{ $eq: ["$request.code", "$request.Code"] }, false],
      [{ $eq: ["$request.code", "$request.Code"], ci: true }, true],
      [{ $eq: ["$request.n", "7"] }, true],
      [{ $eq: ["$request.nope", "$request.nope"] }, false],
      [{ $eq: ["$request.code"] }, false],
      [{ $eq: [] }, false],
      [{ $not: "$request.zero" }, true],
      [{ $not: "$request.code" }, false],
      [{ $match: "$request.code", pattern: "^PH_" }, true],
      [{ $match: "$request.n", pattern: "7" }, false],
      [{ $any: "$request.list", where: { $eq: ["$item.k", "b"] } }, true],
      [{ $any: "$request.list", where: { $eq: ["$index", 1] } }, true],
      [{ $any: "$request.list", where: { $eq: ["$item.k", "z"] } }, false],
      [{ $any: "$request.code", where: true }, false],
      [{ $first: ["$request.nothing", "$request.blank", "$request.nope", "$request.zero", 1] }, 0],
      [{ $first: ["$request.nothing", "$request.no"] }, false],
      [{ $first: ["$request.nothing"] }, undefined],
      [{ $first: [] }, undefined],
      [{ $if: "$request.zero", value: 1 }, undefined],
      [{ $if: "$request.n", value: 1, otherwise: 2 }, 1],
      [{ $if: "$request.no", value: 1, otherwise: { $if: true, value: 3 } }, 3],
      [
        `a "quoted" \\ {$request.code}${placeholder}\`\u2028\ud800|{$request.nothing}|{$request.list}|{$now}|{$request.n}`,
        `a "quoted" \\ PH_UB${placeholder}\`\u2028\ud800||[object Object],[object Object]|2026-01-01T00:00:00.000Z|7`,
      ],
    ];
    for (const [template, expected] of cases) expect([template, evaluate(template, c)]).toEqual([template, expected]);
  });

  it("keeps Instants, and makes fresh ids with a prefix", () => {
    expect(evaluate({ at: "$now" }, ctx).at).toBeInstanceOf(Instant);
    expect(evaluate({ $newId: "trx_" }, ctx)).toMatch(/^trx_[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(newId("o-", true)).toMatch(/^o-\d{16}$/);
    expect(newId()).not.toBe(newId());
  });

  it("reads times from {seconds, nanos}, ISO strings and Instants", () => {
    expect(toInstant({ seconds: 1767225600, nanos: 500_000_000 })?.ms).toBe(1767225600500);
    expect(toInstant("2026-01-01T00:00:00.000Z")?.ms).toBe(Date.UTC(2026, 0, 1));
    expect(toInstant(24)).toBeUndefined();
    expect(toInstant("tomorrow")).toBeUndefined();
  });
});

describe("$percent", () => {
  const percent = (amount: unknown, rate: unknown) =>
    evaluate({ $percent: ["$request.amount", "$request.rate"] }, { request: { amount, rate } });
  it("is rate percent of an integer amount, rounded half up, as a string", () => {
    expect(percent("150000", 1.5)).toBe("2250");
    expect(percent(1100, 1.5)).toBe("17"); // 16.5
    expect(percent("1001", "1.5")).toBe("15"); // 15.015
    expect(percent("999", 0)).toBe("0");
    expect(percent("12345678901234567890", 100)).toBe("12345678901234567890");
  });
  it("is undefined for an amount that is not a whole number or a rate with more than 2 decimal digits", () => {
    expect(percent("1500.50", 2)).toBeUndefined();
    expect(percent("-100", 2)).toBeUndefined();
    expect(percent(undefined, 2)).toBeUndefined();
    expect(percent("100", 1.005)).toBeUndefined();
    expect(percent("100", undefined)).toBeUndefined();
  });
  it("takes a list of two templates", () => {
    expect(checkTemplate({ $percent: ["$request.amount"] })).toEqual([
      ["$percent", "must be a list of two templates: an amount and a rate"],
    ]);
  });
});

describe("$before", () => {
  const earlier = (a: unknown, b: unknown) => evaluate({ $before: ["$request.a", "$request.b"] }, { request: { a, b } });
  const jan1 = Date.UTC(2026, 0, 1);
  it("is true when both are times and the first is earlier: instants, {seconds, nanos} and ISO 8601 alike", () => {
    expect(earlier({ seconds: jan1 / 1000 - 1, nanos: 0 }, new Instant(jan1))).toBe(true);
    expect(earlier("2025-12-31T23:59:59.999Z", { seconds: jan1 / 1000, nanos: 0 })).toBe(true);
    expect(earlier(new Instant(jan1), "2026-01-01T00:00:00.001Z")).toBe(true);
    expect(earlier({ seconds: String(jan1 / 1000), nanos: 999_000_000 }, new Instant(jan1 + 1000))).toBe(true);
  });
  it("is false for the same time, a later one, or anything that is no time (a missing one is before nothing)", () => {
    expect(earlier(new Instant(jan1), { seconds: jan1 / 1000, nanos: 0 })).toBe(false);
    expect(earlier("2026-01-02", new Instant(jan1))).toBe(false);
    expect(earlier(undefined, new Instant(jan1))).toBe(false);
    expect(earlier(new Instant(jan1), undefined)).toBe(false);
    expect(earlier("yesterday", new Instant(jan1))).toBe(false);
    expect(earlier(0, new Instant(jan1))).toBe(false);
  });
  it("compares with the context's clock ($now)", () => {
    const now = new Instant(jan1);
    expect(evaluate({ $before: ["$request.at", "$now"] }, { now, request: { at: "2025-06-01T00:00:00Z" } })).toBe(true);
    expect(evaluate({ $before: ["$request.at", "$now"] }, { now, request: { at: "2026-06-01T00:00:00Z" } })).toBe(false);
  });
  it("takes a list of two templates", () => {
    expect(checkTemplate({ $before: ["$request.at"] })).toEqual([["$before", "must be a list of two templates: two times"]]);
    expect(checkTemplate({ $before: "$request.at" })).toEqual([["$before", "must be a list of two templates: two times"]]);
    expect(checkTemplate({ $before: ["$request.at", "$now"] })).toEqual([]);
  });
});

describe("$outcomes", () => {
  it("is a root references read: each item's record or its error, in order", () => {
    const outcomes = [{ record: { id: "d1" } }, { item: { ref: "r2" }, error: { code: "DUP", message: "used" } }];
    const template = {
      $each: "$outcomes",
      as: { $if: "$item.error", value: { ref: "$item.item.ref", code: "$item.error.code" }, otherwise: "$item.record.id" },
    };
    expect(checkTemplate(template)).toEqual([]);
    expect(evaluate(template, { outcomes })).toEqual(["d1", { ref: "r2", code: "DUP" }]);
  });
});

describe("checkTemplate", () => {
  const cases: Array<[string, unknown, string[]]> = [
    ["a valid template", { a: "$request.x", b: { $each: "$records", as: "$item" }, c: "u/{$id}" }, []],
    ["an unknown root", { a: "$requets.x" }, ["a: unknown reference $requets"]],
    ["an unknown root in a string", "x{$bogus}y", [": unknown reference $bogus"]],
    ["an unknown operator", { $map: 1 }, ["$map: unknown operator $map"]],
    ["two operators", { $first: [], $if: 1, value: 2 }, [": one operator per object, got $first, $if"]],
    ["$first not a list", { $first: "a" }, ["$first: must be a list of templates"]],
    ["$each not a reference", { $each: [1, 2] }, ["$each: must be a reference to a list, e.g. $request.items"]],
    ["spread not a reference", { "...": { a: 1 } }, ["...: must be a reference to an object"]],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(8));
  it.each(cases)("%s", (_, template, expected) => {
    expect(checkTemplate(template).map(([path, message]) => `${path}: ${message.split(" (known")[0]}`)).toEqual(expected);
  });
});

describe("Instant", () => {
  it("renders as Date does, instants of one millisecond and of others in turn; an invalid one throws as Date's does", () => {
    const times = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1), 1, Date.UTC(2026, 0, 1), 8.64e15, -8.64e15, 0, 0.5, 1];
    for (const ms of times) {
      const instant = new Instant(ms);
      expect([ms, instant.toISOString()]).toEqual([ms, new Date(ms).toISOString()]);
      expect(JSON.stringify({ at: instant })).toBe(JSON.stringify({ at: new Date(ms) }));
    }
    for (const ms of [Number.NaN, 8.64e15 + 1]) expect(() => new Instant(ms).toISOString()).toThrow(RangeError);
  });
});

describe("sizeOf", () => {
  it("is the byte length of the value's JSON, for scalars as for objects", () => {
    const values = [
      "",
      "plain text 123",
      'with "quotes"',
      "back\\slash",
      "tab\tnew\nline\u0001",
      "ñandú €",
      "emoji 😀",
      "lone \ud800",
      "del \u007f, tilde ~, space",
      0,
      -0,
      12.5,
      -3e21,
      1e-7,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      false,
      null,
      undefined,
      new Instant(Date.UTC(2026, 0, 1)),
      { a: 1, b: ["x", null, { c: "ñ" }], t: new Instant(0) },
      [1, "two", undefined],
      { 'ké"y\n': [[], {}], u: undefined, f: () => 1, d: new Date(0), s: Symbol("x") },
      Object.assign(Object.create(null), { x: [1, undefined, () => 1, Symbol("y")], "": "" }),
      new Instant(8.64e15), // +275760-09-13T00:00:00.000Z: the longest text an instant renders
      new Instant(-8.64e15),
      [new Instant(5), { deep: { deeper: [1e21, "€", -0, Number.NaN] } }],
      JSON.parse('{"__proto__": {"a": 1}, "b": [{"__proto__": null}]}'),
      // member names measured once and remembered: the same names again, plain and not
      [
        { ü: 1, 'q"': 2, plain: 3 },
        { ü: "x", 'q"': "y", plain: "z" },
      ],
    ];
    for (const value of values) expect([value, sizeOf(value)]).toEqual([value, Buffer.byteLength(JSON.stringify(value) ?? "")]);
  });
});

describe("$in over a member of every record ($each $all)", () => {
  const values = [
    { reference: "a" },
    { reference: "B" },
    { reference: 7 },
    { reference: { nested: true } },
    { reference: null },
    { other: "x" },
    { reference: ["a", "q"] },
  ];
  const probes = ["a", "b", "B", 7, "7", "q", undefined, null, { x: 1 }, ["z", "a"], ["z"], true];
  it("answers as the walk of the records does, from the store's index kept as records change", () => {
    for (const ci of [false, true]) {
      const template = { $in: "$request.value", values: { $each: "$all.thing", as: "$item.reference" }, ...(ci ? { ci } : {}) };
      const state = new CredentialState("k");
      const asked: string[] = [];
      const walked = (request: unknown, records: unknown[]) => evaluate(template, { request, all: () => records });
      const indexed = (request: unknown) =>
        evaluate(template, {
          request,
          all: () => state.dataOf("thing"),
          recordIndex: (resource, name, keyOf) => {
            asked.push(resource);
            return state.index(resource, name, keyOf);
          },
        });
      for (const [i, data] of values.entries()) {
        state.add("thing", String(i), data);
        const records = values.slice(0, i + 1);
        for (const value of probes) expect([ci, i, value, indexed({ value })]).toEqual([ci, i, value, walked({ value }, records)]);
      }
      state.remove(state.get("thing", "0")!);
      expect(indexed({ value: "a" })).toBe(walked({ value: "a" }, values.slice(1)));
      expect(asked.every((resource) => resource === "thing")).toBe(true);
      expect(asked.length).toBeGreaterThan(0);
    }
  });
});
