/**
 * The mock's request validation (src/mock/validate.ts) set up as Prism sets up its own
 * (validator/validators/utils.js), judged against Prism's validateInput and validateSecurity on
 * hand-made operations. Each test loads the module anew (tests/helpers/fresh-module.ts), so what
 * it makes as it loads (Ajv's options, its logger, the parameters' default styles, the bearer
 * pattern) is made in that test: parameters are coerced from their text; `date-time` is Prism's own
 * format; every finding of a body is reported, not the first; an unknown format or keyword is
 * passed over without a word; a parameter without a style is read in its location's default
 * (header simple, query form, path simple: @stoplight/http-spec always gives a path one); a
 * deprecated parameter is named as Prism names it; a bearer credential is the word, in any case (a
 * deliberate difference), and a token after one space.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { prismValidateInput, prismValidateSecurity } from "../../../src/mock/prism-parts.js";
import type { Element, Operation } from "../../../src/mock/types.js";
import { freshModule } from "../../helpers/fresh-module.js";
import { elementOf, JSON_HEADERS, operation, outcome } from "../../helpers/hand-made-operation.js";

type Validate = typeof import("../../../src/mock/validate.js");
const fresh = () => freshModule<Validate>("src/mock/validate.ts");
afterEach(() => vi.restoreAllMocks());

/** Prism's outcome and the fresh module's, for the same operation and request. */
async function both(op: Operation, element: () => Element) {
  const { components } = await fresh();
  return {
    theirs: outcome(prismValidateInput({ resource: op, element: element() })),
    mine: outcome(components.validateInput({ resource: op, element: element() })),
  };
}

const bodyOf = (schema: unknown) => operation({ body: { contents: [{ mediaType: "application/json", schema }] } });

describe("Ajv as Prism sets it up", () => {
  it("a parameter is coerced from its text (an integer query value, a boolean header): no finding, as Prism", async () => {
    const op = operation({
      query: [{ name: "page", schema: { type: "integer", maximum: 9 } }],
      headers: [{ name: "X-Dry-Run", schema: { type: "boolean" } }],
    });
    const ok = await both(op, () => elementOf("/v1/things?page=2", { "x-dry-run": "true" }));
    expect(ok.theirs).toEqual({ tag: "Right" });
    expect(ok.mine).toEqual({ tag: "Right" });
    // Coerced, then judged: a value over the maximum is still found.
    const over = await both(op, () => elementOf("/v1/things?page=12", {}));
    expect(over.theirs.findings).toHaveLength(1);
    expect(over.mine).toEqual(over.theirs);
  });

  it("date-time is Prism's format: an offset whose minutes are over 59 is refused, as Prism refuses it", async () => {
    const op = bodyOf({ type: "object", properties: { at: { type: "string", format: "date-time" } } });
    for (const at of ["2025-01-01T10:00:00+05:99", "2025-01-01T10:00:00-00:60"]) {
      const { theirs, mine } = await both(op, () => elementOf("/v1/things", JSON_HEADERS, { at }));
      expect(
        theirs.findings?.map((f: { code: string }) => f.code),
        at,
      ).toEqual(["format"]);
      expect(mine, at).toEqual(theirs);
    }
    expect((await both(op, () => elementOf("/v1/things", JSON_HEADERS, { at: "2025-01-01T10:00:00+05:30" }))).mine).toEqual({
      tag: "Right",
    });
  });

  it("reports every finding of a body, as Prism, not only the first", async () => {
    const op = bodyOf({ type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["c"] });
    const { theirs, mine } = await both(op, () => elementOf("/v1/things", JSON_HEADERS, { a: "x", b: "y" }));
    expect(theirs.findings).toHaveLength(3);
    expect(mine).toEqual(theirs);
  });

  it("passes over a format and a keyword it does not know, without a word, as Prism", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const op = bodyOf({ type: "object", properties: { ref: { type: "string", format: "x-internal-ref", "x-note": "kept" } } });
    const { theirs, mine } = await both(op, () => elementOf("/v1/things", JSON_HEADERS, { ref: "r-1" }));
    expect(theirs).toEqual({ tag: "Right" });
    expect(mine).toEqual(theirs);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("parameters", () => {
  it("read in their location's default style when they name none: a header's list is simple, a query's is form", async () => {
    const list = { type: "array", items: { type: "integer" } };
    const op = operation({ headers: [{ name: "X-Ids", schema: { ...list, minItems: 2 } }], query: [{ name: "id", schema: list }] });
    const ok = await both(op, () => elementOf("/v1/things?id=1&id=2", { "x-ids": "3,4" }));
    expect(ok.theirs).toEqual({ tag: "Right" });
    expect(ok.mine).toEqual(ok.theirs);
    const bad = await both(op, () => elementOf("/v1/things?id=1&id=x", { "x-ids": "3,y" }));
    expect(bad.theirs.findings).toHaveLength(2);
    expect(bad.mine).toEqual(bad.theirs);
  });

  it("a path parameter without a style is read in the path's default style (simple), as Prism", async () => {
    const op = {
      ...operation({ path: [{ id: "p", name: "id", required: true, schema: { type: "integer" } }] }),
      path: "/v1/things/{id}",
    } as Operation;
    const ok = await both(op, () => elementOf("/v1/things/12", {}));
    expect(ok).toEqual({ theirs: { tag: "Right" }, mine: { tag: "Right" } });
    const bad = await both(op, () => elementOf("/v1/things/twelve", {}));
    expect(bad.theirs.findings?.map((f: { path: string[]; message: string }) => `${f.path.join(".")} ${f.message}`)).toEqual([
      "path.id Request path parameter id must be integer",
    ]);
    expect(bad.mine).toEqual(bad.theirs);
  });

  it("a deprecated parameter sent is named as Prism names it", async () => {
    const op = operation({ query: [{ name: "legacy", deprecated: true, schema: { type: "string" } }] });
    const { theirs, mine } = await both(op, () => elementOf("/v1/things?legacy=1", {}));
    expect(theirs.findings?.map((f: { message: string }) => f.message)).toEqual(["Query param legacy is deprecated"]);
    expect(mine).toEqual(theirs);
  });
});

describe("a bearer credential", () => {
  const BEARER = { key: "b", type: "http", scheme: "bearer" };
  it.each([
    ["the word and a token", "Bearer abc.def", "Right"],
    ["the word and a one-character token", "Bearer t", "Right"],
    ["no space after the word", "Bearerabc", "Left"],
    ["the word alone", "Bearer ", "Left"],
    ["something before the word", "xBearer abc", "Left"],
  ])("%s: as Prism", async (_, authorization, tag) => {
    const { components } = await fresh();
    const op = operation({}, [[BEARER]]);
    const element = () => elementOf("/v1/things", { authorization });
    const theirs = prismValidateSecurity({ resource: op, element: element() });
    expect(theirs._tag).toBe(tag);
    expect(outcome(components.validateSecurity({ resource: op, element: element() }))).toEqual(outcome(theirs));
  });

  it("names its scheme in any case, where Prism wants `Bearer` (DEVIATIONS bearerCase), whatever the token's length", async () => {
    const { components } = await fresh();
    const op = operation({}, [[BEARER]]);
    for (const authorization of ["bearer abc.def", "BEARER t"]) {
      const element = () => elementOf("/v1/things", { authorization });
      expect(prismValidateSecurity({ resource: op, element: element() })._tag, authorization).toBe("Left");
      expect(components.validateSecurity({ resource: op, element: element() })._tag, authorization).toBe("Right");
    }
  });
});
