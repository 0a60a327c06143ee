/**
 * The mock's fast path (src/mock/fast-path.ts) on its own, on hand-made operations: routing as
 * Prism's router matches a path (router/matchPath.js: fragments percent-decoded, a fragment with
 * `{...}` matched by a template, the only operation that fits taken, several left to Prism's
 * ranking, none a miss), the routes remembered within ROUTES_KEPT, a document with a path Prism
 * cannot route left to Prism; a request's kind (Accept and outcome: valid, a 401 by its tags, a 415
 * by its message, invalid) and an operation's answers kept for at most KINDS_KEPT kinds.
 */
import { describe, expect, it } from "vitest";
import { createFastPath, KINDS_KEPT } from "../../../../src/mock/fast-path.js";
import type { Answer, Diagnostic, Operation, RouteFunction } from "../../../../src/mock/types.js";

const op = (method: string, path: string) => ({ id: `${method} ${path}`, method, path }) as unknown as Operation;

const items = op("get", "/items");
const item = op("get", "/items/{id}");
const special = op("get", "/items/special");
const report = op("get", "/reports/{year}-{month}.json");
const create = op("post", "/items");
const operations = [items, item, special, report, create];

/** Prism's ranking, recorded: the operation it answers for each path asked. */
function ranking(answer: Operation | undefined) {
  const asked: string[] = [];
  const route: RouteFunction = ({ input }) => {
    asked.push((input as unknown as { url: { path: string } }).url.path);
    return (answer ? { _tag: "Right", right: answer } : { _tag: "Left", left: new Error("no route") }) as never;
  };
  return { asked, route };
}

describe("route", () => {
  it.each([
    ["get", "/items", items],
    ["get", "/items/i1", item],
    ["get", "/items/a%20b", item],
    ["get", "/items/%E0%A4%A", item],
    ["get", "/reports/2026-11.json", report],
    // A fragment that does not decode is compared as it is (matchPath.js), here against a template.
    ["get", "/reports/%E0%A4-11.json", report],
    ["post", "/items", create],
    ["get", "/items/i1/more", undefined],
    ["get", "/other", undefined],
    ["delete", "/items", undefined],
  ] as const)("%s %s -> the only operation that fits", (method, path, expected) => {
    const { asked, route } = ranking(undefined);
    expect(createFastPath(operations, route).route(method, path)).toBe(expected);
    expect(asked).toEqual([]);
  });

  it("a fragment is decoded before it is compared", () => {
    const { route } = ranking(undefined);
    expect(createFastPath([op("get", "/a b")], route).route("get", "/a%20b")?.path).toBe("/a b");
    expect(createFastPath([op("get", "/a b")], route).route("get", "/a%2")).toBeUndefined();
  });

  it("a path that several operations fit is Prism's ranking to decide", () => {
    const chosen = ranking(special);
    expect(createFastPath(operations, chosen.route).route("get", "/items/special")).toBe(special);
    expect(chosen.asked).toEqual(["/items/special"]);
    const none = ranking(undefined);
    expect(createFastPath(operations, none.route).route("get", "/items/special")).toBeUndefined();
  });

  it("a route found is remembered: Prism is asked once for the same method and path", () => {
    const { asked, route } = ranking(special);
    const fast = createFastPath(operations, route);
    for (let n = 0; n < 3; n++) expect(fast.route("get", "/items/special")).toBe(special);
    expect(asked).toHaveLength(1);
  });

  it("at most 1000 routes are remembered: the 1001st distinct one forgets them all", () => {
    const { asked, route } = ranking(special);
    const fast = createFastPath(operations, route);
    fast.route("get", "/items/special");
    for (let n = 1; n < 1000; n++) fast.route("get", `/miss/${n}`);
    fast.route("get", "/items/special");
    expect(asked).toHaveLength(1); // 1000 kept: still known
    fast.route("get", "/miss/1000");
    fast.route("get", "/items/special");
    expect(asked).toHaveLength(2);
  });

  it("a miss is remembered too, and stays a miss", () => {
    const { route } = ranking(undefined);
    const fast = createFastPath(operations, route);
    expect(fast.route("get", "/other")).toBeUndefined();
    expect(fast.route("get", "/other")).toBeUndefined();
  });

  it("a document with a path that does not start with / is left to Prism's router for every request", () => {
    const { asked, route } = ranking(items);
    const fast = createFastPath([items, op("get", "relative")], route);
    expect(fast.route("get", "/items")).toBeUndefined();
    expect(asked).toEqual([]);
  });
});

describe("kind", () => {
  const fast = createFastPath(operations, ranking(undefined).route);
  const finding = (code: string | number, severity = 0, extra: Partial<Diagnostic> = {}): Diagnostic => ({
    code,
    severity,
    message: `finding ${code}`,
    ...extra,
  });

  it("a request without errors is valid: warnings change nothing", () => {
    expect(fast.kind("application/json", [finding("x", 1)])).toBe(fast.kind("application/json", []));
    expect(fast.kind("application/json", undefined)).toBe(fast.kind("application/json", []));
  });

  it("the Accept value is part of the kind", () => {
    expect(fast.kind("application/json", [])).not.toBe(fast.kind("text/plain", []));
  });

  it("errors make it invalid; which errors does not matter, unless one is a 401 or a 415", () => {
    const invalid = fast.kind("*/*", [finding("required")]);
    expect(invalid).not.toBe(fast.kind("*/*", []));
    expect(fast.kind("*/*", [finding("type"), finding("enum")])).toBe(invalid);
  });

  it("a 401 finding chooses by its tags: the first one, whatever follows; over a 415", () => {
    const bearer = finding(401, 0, { tags: ["Bearer"] });
    const key = finding(401, 0, { tags: ["ApiKey"] });
    const first = fast.kind("*/*", [bearer]);
    expect(fast.kind("*/*", [bearer, key])).toBe(first);
    expect(fast.kind("*/*", [key])).not.toBe(first);
    expect(fast.kind("*/*", [finding(415), bearer])).toBe(first);
    expect(fast.kind("*/*", [finding(401)])).not.toBe(fast.kind("*/*", [finding("required")]));
    expect(fast.kind("*/*", [finding(401, 1, { tags: ["Bearer"] })])).toBe(fast.kind("*/*", []));
  });

  it("a 415 finding chooses by its message: the first one", () => {
    const json = finding(415, 0, { message: "Supported content types: application/json" });
    const form = finding(415, 0, { message: "Supported content types: application/x-www-form-urlencoded" });
    expect(fast.kind("*/*", [json, form])).toBe(fast.kind("*/*", [json]));
    expect(fast.kind("*/*", [form])).not.toBe(fast.kind("*/*", [json]));
    expect(fast.kind("*/*", [json])).not.toBe(fast.kind("*/*", [finding("required")]));
  });
});

describe("answers kept", () => {
  const answer = (status: number) => ({ status }) as unknown as Answer;

  it(`at most ${KINDS_KEPT} kinds per operation, each operation its own`, () => {
    const fast = createFastPath(operations, ranking(undefined).route);
    for (let n = 0; n < KINDS_KEPT; n++) fast.keep(items, `kind ${n}`, answer(n));
    fast.keep(items, "one more", answer(999));
    expect(fast.answer(items, "kind 0")).toEqual(answer(0));
    expect(fast.answer(items, `kind ${KINDS_KEPT - 1}`)).toEqual(answer(KINDS_KEPT - 1));
    expect(fast.answer(items, "one more")).toBeUndefined();
    expect(fast.answer(item, "kind 0")).toBeUndefined();
    fast.keep(item, "kind 0", answer(7));
    expect(fast.answer(item, "kind 0")).toEqual(answer(7));
  });
});
