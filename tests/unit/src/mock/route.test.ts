/**
 * The route stage's reading of a request (src/mock/route.ts) beside prism-http-server's own, which is
 * `new URL(target, "http://example.com")`: for a table of request targets (plain paths, dot
 * segments in every spelling, characters URL encodes, fragments, repeated and empty query keys) the
 * path and query are exactly URL's. Then what makes a request choose its answer (Prefer, and each of
 * prism-http-server's query parameters), the method's default, `__server`, and Prism's router over
 * the fixture API's operations: its answers kept, 404 and 405 told apart, the methods of a path for
 * the 405's Allow.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUTES_KEPT } from "../../../../src/mock/limits.js";
import { choosesAnswer, createRouter, hasCallbacks, type Router, requestElement } from "../../../../src/mock/route.js";
import { prismRoute } from "../../../../src/mock/prism-parts.js";
import { loadOperations } from "../../../../src/mock/server.js";
import { BODY_BYTES, type Operation } from "../../../../src/mock/types.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";

/** prism-http-server's reading of a target, the independent judge. */
function byUrl(target: string) {
  const url = new URL(target, "http://example.com");
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return { path: url.pathname, query };
}

const TARGETS = [
  "/",
  "/v1/order",
  "/v1/order/o-1",
  "/v1/order?limit=2",
  "/v1/order?x=1&x=2&y=",
  "/v1/order?x=1&y=2&x=3",
  "/v1/order?a",
  "/v1/order?=1",
  "/v1/order?",
  "/v1/order?q=a%20b&r=a+b",
  "/v1/order?q=%E2%82%AC",
  "/v1/%7Eorder",
  "/v1/order/./o-1",
  "/v1/order/../order",
  "/v1/order/%2e%2e/order",
  "/v1/order/%2E/o-1",
  "/v1/order/.%2e/x",
  "/v1/order/.",
  "/v1/order/..",
  "/v1/order/.hidden",
  "/v1/order/..x",
  "/v1/order/x..",
  "/v1/order/a b",
  "/v1/order/é",
  "/v1/order/<x>",
  '/v1/order/"x"',
  "/v1/order#fragment",
  "/v1/order?q=1#fragment",
  "/v1/order/a%2Fb",
  "/v1/order:action",
  "/v1/order;matrix=1",
  "/v1/order/(x)*!$&',=@",
  "/v1/order?q=/slash?and?marks",
];

describe("a request target", () => {
  it(`is read as prism-http-server reads it, through URL (${TARGETS.length} targets)`, () => {
    expect(TARGETS).toHaveLength(33);
    for (const target of TARGETS) {
      const element = requestElement("GET", target, {}, 0);
      expect({ path: element.url.path, query: element.url.query }, target).toEqual(byUrl(target));
    }
  });

  it("a missing target is /, a missing method GET, a method in lower case", () => {
    const element = requestElement(undefined, undefined, {}, 0);
    expect(element.method).toBe("get");
    expect(element.url).toEqual({ path: "/", baseUrl: undefined, query: {} });
    expect(requestElement("PATCH", "/x", {}, 0).method).toBe("patch");
  });

  it("carries the headers as given and the body's size", () => {
    const headers = { "content-type": "application/json", "x-many": ["a", "b"] };
    const element = requestElement("POST", "/x", headers, 42);
    expect(element.headers).toBe(headers);
    expect(element[BODY_BYTES]).toBe(42);
  });

  it("takes the server URL from __server, an empty one as none", () => {
    expect(requestElement("GET", "/x?__server=http%3A%2F%2Fa.test%2Fv2", {}, 0).url.baseUrl).toBe("http://a.test/v2");
    expect(requestElement("GET", "/x?__server=", {}, 0).url.baseUrl).toBeUndefined();
    expect(requestElement("GET", "/x?server=http://a.test", {}, 0).url.baseUrl).toBeUndefined();
  });
});

describe("a request that chooses its answer", () => {
  it("does so by a Prefer header or one of prism-http-server's query parameters, even empty", () => {
    expect(choosesAnswer(requestElement("GET", "/x", { prefer: "code=404" }, 0))).toBe(true);
    expect(choosesAnswer(requestElement("GET", "/x", { prefer: "" }, 0))).toBe(true);
    for (const name of ["__code", "__dynamic", "__seed", "__example", "__server"]) {
      expect(choosesAnswer(requestElement("GET", `/x?${name}=1`, {}, 0)), name).toBe(true);
      expect(choosesAnswer(requestElement("GET", `/x?${name}=`, {}, 0)), `${name} empty`).toBe(true);
    }
  });

  it("does not by any other header or parameter", () => {
    expect(choosesAnswer(requestElement("GET", "/x?code=404&_code=1&__codes=2&dynamic=true", { "x-prefer": "code=404" }, 0))).toBe(false);
    expect(choosesAnswer(requestElement("GET", "/x", {}, 0))).toBe(false);
  });
});

describe("callbacks of an operation", () => {
  it("count only when the operation has at least one", () => {
    expect(hasCallbacks(undefined)).toBe(false);
    expect(hasCallbacks({} as Operation)).toBe(false);
    expect(hasCallbacks({ callbacks: [] } as unknown as Operation)).toBe(false);
    expect(hasCallbacks({ callbacks: [{ callbackName: "paid" }] } as unknown as Operation)).toBe(true);
  });
});

describe("Prism's router over the fixture API (tests/fixtures/mock, shop@1.0.0)", () => {
  let operations: Operation[];
  let router: Router;
  beforeAll(async () => {
    const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
    operations = await loadOperations(shop.bundlePath);
    router = createRouter(operations);
  });

  const route = (method: string, target: string) => router.operation(requestElement(method, target, {}, 0));

  it("finds each operation by method and path, templated paths included", () => {
    expect(route("POST", "/v1/order")).toMatchObject({ method: "post", path: "/v1/order" });
    expect(route("GET", "/v1/order")).toMatchObject({ method: "get", path: "/v1/order" });
    expect(route("GET", "/v1/order/o-1")).toMatchObject({ method: "get", path: "/v1/order/{order_id}" });
    expect(route("DELETE", "/v1/order/o-1")).toMatchObject({ method: "delete", path: "/v1/order/{order_id}" });
  });

  it("finds none for an unknown path or a method the path lacks", () => {
    expect(route("GET", "/v1/nothing")).toBeUndefined();
    expect(route("PATCH", "/v1/order")).toBeUndefined();
  });

  it("keeps a route per method, server and path: the same question gets the same answer object", () => {
    const input = requestElement("GET", "/v1/order/o-1", {}, 0);
    const first = router.prism({ resources: operations, input: input as never });
    expect(router.prism({ resources: operations, input: input as never })).toBe(first);
    // Another id is another path, routed to the same operation.
    expect(route("GET", "/v1/order/o-2")).toBe(route("GET", "/v1/order/o-1"));
    // The method is part of the key: the GET's answer is not the DELETE's.
    expect(route("DELETE", "/v1/order/o-1")).not.toBe(route("GET", "/v1/order/o-1"));
  });

  it("answers as Prism's own router does, asked anew each time, whatever was asked before (servers included)", () => {
    const own = createRouter(operations);
    const questions = [
      ["GET", "/v1/order"],
      ["GET", "/v1/order?__server=https%3A%2F%2Fsandbox.shop.example.com"],
      ["GET", "/v1/order?__server=https%3A%2F%2Felsewhere.test"],
      ["GET", "/v1/order"],
      ["GET", "/v1/order?__server=https%3A%2F%2Felsewhere.test"],
      ["PATCH", "/v1/order"],
      ["GET", "/v1/nothing"],
      ["GET", "/v1/order/o-9?__server=https%3A%2F%2Fsandbox.shop.example.com"],
      ["GET", "/v1/order/o-9?__server=https%3A%2F%2Felsewhere.test"],
    ];
    for (const [method, target] of questions) {
      const input = requestElement(method, target, {}, 0) as never;
      const fresh = prismRoute({ resources: operations, input });
      const kept = own.prism({ resources: operations, input });
      expect(kept._tag, `${method} ${target}`).toBe(fresh._tag);
      if (fresh._tag === "Right") expect(kept._tag === "Right" && kept.right, `${method} ${target}`).toBe(fresh.right);
      else expect(kept._tag === "Left" && kept.left.message).toBe(fresh.left.message);
    }
    // The server URL is part of the question: a server the document does not have is refused even after the path was found.
    expect(own.operation(requestElement("GET", "/v1/order?__server=https%3A%2F%2Felsewhere.test", {}, 0))).toBeUndefined();
  });

  it(`keeps at most ${ROUTES_KEPT} routes: the next one starts the kept set again`, () => {
    const own = createRouter(operations);
    const ask = (id: number) => own.prism({ resources: operations, input: requestElement("GET", `/v1/order/o-${id}`, {}, 0) as never });
    const first = ask(0);
    for (let id = 1; id < ROUTES_KEPT; id++) ask(id);
    // Full: the first is still kept.
    expect(ask(0)).toBe(first);
    // One more path empties the set before it is kept: the first is routed anew.
    ask(ROUTES_KEPT);
    const again = ask(0);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("names the methods of every operation whose path fits, for a 405's Allow", () => {
    expect(router.allowed("/v1/order")).toBe("POST, GET");
    expect(router.allowed("/v1/order/o-1").split(", ").sort()).toEqual(["DELETE", "GET", "PUT"]);
    expect(router.allowed("/v1/nothing")).toBe("");
  });
});
