/**
 * What the sandbox reads from a request before any state (src/sandbox/engine/resolve.ts), on a tiny
 * hand-written document: the credential an operation's API key carries in the query (the first of a
 * repeated parameter), a cookie's key never read from a query parameter of the same name, and the
 * path's parameters percent-decoded as RFC 3986 writes them, one that does not decode kept as sent.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { credentialOf, paramsOf, resolve, type SandboxRequest } from "../../../../src/sandbox/engine/resolve.js";

const ok = { "200": { description: "ok" } };
const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Credentials (test)", version: "1.0.0" },
  paths: {
    "/v1/things/{thing_id}": { get: { operationId: "getThing", security: [{ queryKey: [] }], responses: ok } },
    "/v1/session": { get: { operationId: "getSession", security: [{ cookieKey: [] }], responses: ok } },
  },
  components: {
    securitySchemes: {
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
      cookieKey: { type: "apiKey", in: "cookie", name: "api_key" },
    },
  },
};

const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...fixture, alias: "credentials@1.0.0" }, doc, {}, "inline");
afterAll(() => engine.close());

const request = (operationId: string, path: string, query: SandboxRequest["query"] = {}): SandboxRequest => ({
  operationId,
  path,
  query,
  headers: {},
  body: undefined,
  status: 200,
});

describe("the credential of an API key", () => {
  it("is the query parameter the scheme names, the first where it is repeated", () => {
    const op = engine.operation("getThing");
    expect(credentialOf(engine, op, {}, { api_key: "key-of-partner-a" })).toBe("key-of-partner-a");
    expect(credentialOf(engine, op, {}, { api_key: ["key-of-partner-a", "key-of-partner-b"] })).toBe("key-of-partner-a");
    expect(credentialOf(engine, op, { api_key: "not-a-header-key" }, {})).toBe("");
  });

  it("keys the state by the query's key: two partners, two keys", () => {
    const a = resolve(engine, request("getThing", "/v1/things/t-1", { api_key: "key-of-partner-a" }))!;
    const b = resolve(engine, request("getThing", "/v1/things/t-1", { api_key: "key-of-partner-b" }))!;
    expect(a.key).not.toBe(b.key);
    expect(resolve(engine, request("getThing", "/v1/things/t-1", { api_key: "key-of-partner-a" }))!.key).toBe(a.key);
  });

  it("is not read from the query for a key the scheme puts in a cookie", () => {
    expect(credentialOf(engine, engine.operation("getSession"), {}, { api_key: "key-of-partner-a" })).toBe("");
  });
});

describe("the path's parameters", () => {
  const params = (path: string) => paramsOf(engine, resolve(engine, request("getThing", path))!);

  it("are percent-decoded", () => {
    expect(params("/v1/things/t%201%2F2")).toEqual({ thing_id: "t 1/2" });
  });

  it("keep a parameter that does not decode as it was sent", () => {
    expect(params("/v1/things/t-%E0%A4%A")).toEqual({ thing_id: "t-%E0%A4%A" });
    expect(params("/v1/things/100%")).toEqual({ thing_id: "100%" });
  });
});
