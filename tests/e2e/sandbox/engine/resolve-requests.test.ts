/**
 * How the sandbox's resolve stage (src/sandbox/engine/resolve.ts) reads a request, on a tiny
 * hand-written document: the credential of each kind of security scheme OpenAPI 3.1 names (an
 * Authorization header's value after its scheme word for http, oauth2 and openIdConnect; an API key
 * by its header or query name), the next accepted scheme tried when one carries nothing, a control
 * call's credential, the operation a method and path go to (a template's literal characters taken
 * literally), and the query's dotted names nested beside their own.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import {
  controlCredential,
  credentialOf,
  operationAt,
  paramsOf,
  resolve,
  type SandboxRequest,
} from "../../../../src/sandbox/engine/resolve.js";

const ok = { "200": { description: "ok" } };
const get = (operationId: string, security: Record<string, string[]>[]) => ({ get: { operationId, security, responses: ok } });
const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Requests (test)", version: "1.0.0" },
  paths: {
    "/v1/bearer": get("withBearer", [{ bearer: [] }]),
    "/v1/oauth": get("withOauth", [{ oauth: [] }]),
    "/v1/oidc": get("withOidc", [{ oidc: [] }]),
    "/v1/either": get("withBearerOrKey", [{ bearer: [] }, { headerKey: [] }]),
    "/v1/keys": get("withKeyThenBearer", [{ headerKey: [] }, { bearer: [] }]),
    "/v1/tls": get("withTls", [{ tls: [] }]),
    "/v1/files/{file_id}.json": get("getFileJson", [{ bearer: [] }]),
    "/v1/items/{item_id}": get("getItem", [{ queryKey: [] }]),
  },
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer" },
      oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://auth.example.test/token", scopes: {} } } },
      oidc: { type: "openIdConnect", openIdConnectUrl: "https://auth.example.test/.well-known/openid-configuration" },
      headerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" },
      queryKey: { type: "apiKey", in: "query", name: "partner_key" },
      tls: { type: "mutualTLS" },
    },
  },
};

const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...fixture, alias: "requests@1.0.0" }, doc, {}, "inline");
afterAll(() => engine.close());

const credential = (operationId: string, headers: SandboxRequest["headers"], query: SandboxRequest["query"] = {}) =>
  credentialOf(engine, engine.operation(operationId), headers, query);

const request = (operationId: string, path: string, query: SandboxRequest["query"] = {}): SandboxRequest => ({
  operationId,
  path,
  query,
  headers: {},
  body: undefined,
  status: 200,
});

describe("the credential of an Authorization header", () => {
  it("is the value after the scheme word, for http, oauth2 and openIdConnect schemes alike", () => {
    for (const operationId of ["withBearer", "withOauth", "withOidc"])
      expect(credential(operationId, { authorization: "Bearer token-a" }), operationId).toBe("token-a");
  });

  it("is the first of a repeated header, trimmed", () => {
    expect(credential("withBearer", { authorization: ["Bearer token-a ", "Bearer token-b"] })).toBe("token-a");
  });

  it("is none without a header, without a value after the scheme word, or without a scheme word", () => {
    const cases: [SandboxRequest["headers"], string][] = [
      [{}, ""],
      [{ authorization: "Bearer" }, ""],
      [{ authorization: "Bearer    " }, ""],
      [{ authorization: " token-a" }, ""],
      [{ authorization: "" }, ""],
    ];
    expect(cases).toHaveLength(5);
    for (const [headers, expected] of cases) expect(credential("withBearer", headers), JSON.stringify(headers)).toBe(expected);
  });

  it("carrying nothing, leaves the next scheme the operation accepts to give it", () => {
    expect(credential("withBearerOrKey", { authorization: "Bearer   ", "x-partner-key": "key-a" })).toBe("key-a");
    expect(credential("withBearerOrKey", { authorization: "Bearer", "x-partner-key": "key-a" })).toBe("key-a");
    expect(credential("withBearerOrKey", { "x-partner-key": "key-a" })).toBe("key-a");
    expect(credential("withBearerOrKey", { authorization: "Bearer token-a", "x-partner-key": "key-a" })).toBe("token-a");
  });
});

describe("the credential of an API key", () => {
  it("is read from the header the scheme names (HTTP header names are case-insensitive: Node gives them lower-cased)", () => {
    expect(credential("withKeyThenBearer", { "x-partner-key": "key-a" })).toBe("key-a");
  });

  it("missing, leaves the next scheme the operation accepts to give it", () => {
    expect(credential("withKeyThenBearer", { authorization: "Bearer token-a" })).toBe("token-a");
    expect(credential("withKeyThenBearer", { "x-partner-key": "", authorization: "Bearer token-a" })).toBe("token-a");
  });

  it("of the query is not read from a header of the same name", () => {
    expect(credential("getItem", { partner_key: "key-a" })).toBe("");
    expect(credential("getItem", {}, { partner_key: "key-a" })).toBe("key-a");
  });

  it("is none for a scheme that carries no value in the request (mutualTLS)", () => {
    expect(credential("withTls", { authorization: "Bearer token-a", "x-partner-key": "key-a" })).toBe("");
  });
});

describe("a request's key in the store", () => {
  it("is the same for no credential whatever the operation, and differs from a credential's", () => {
    const none = resolve(engine, request("withBearer", "/v1/bearer"))!.key;
    expect(resolve(engine, request("getItem", "/v1/items/i-1"))!.key).toBe(none);
    expect(resolve(engine, { ...request("withBearer", "/v1/bearer"), headers: { authorization: "Bearer t" } })!.key).not.toBe(none);
  });

  it("is not made for an operation the API does not have", () => {
    expect(resolve(engine, request("noSuchOperation", "/v1/bearer"))).toBeUndefined();
  });
});

describe("a control call's credential", () => {
  it("is the Authorization header's value after its scheme word, trimmed", () => {
    expect(controlCredential(engine, { authorization: "Bearer token-a " })).toBe("token-a");
    expect(controlCredential(engine, { authorization: ["Bearer token-a", "Bearer token-b"] })).toBe("token-a");
  });

  it("else an API key header of the API, or x-api-key", () => {
    expect(controlCredential(engine, { "x-partner-key": "key-a" })).toBe("key-a");
    expect(controlCredential(engine, { "x-api-key": "key-b" })).toBe("key-b");
    expect(controlCredential(engine, { authorization: "Bearer", "x-partner-key": "key-a" })).toBe("key-a");
    expect(controlCredential(engine, { authorization: "Bearer   ", "x-partner-key": "key-a" })).toBe("key-a");
    expect(controlCredential(engine, { authorization: " token-a", "x-partner-key": "key-a" })).toBe("key-a");
  });

  it("is never a query key's name sent as a header, and none without any", () => {
    expect(controlCredential(engine, { partner_key: "key-a" })).toBeUndefined();
    expect(controlCredential(engine, { "x-partner-key": "" })).toBeUndefined();
    expect(controlCredential(engine, {})).toBeUndefined();
  });
});

describe("the operation a method and path go to", () => {
  it("is the one whose template matches, a template's literal dot taken literally", () => {
    expect(operationAt(engine, "get", "/v1/files/f-1.json")?.operationId).toBe("getFileJson");
    expect(operationAt(engine, "GET", "/v1/files/f-1xjson")).toBeUndefined();
    expect(operationAt(engine, "GET", "/v1/items/i-1")?.operationId).toBe("getItem");
    expect(operationAt(engine, "GET", "/v1/bearer")?.operationId).toBe("withBearer");
  });

  it("is none for a path no template matches, or another method", () => {
    expect(operationAt(engine, "GET", "/v2/elsewhere/i-1")).toBeUndefined();
    expect(operationAt(engine, "POST", "/v1/items/i-1")).toBeUndefined();
  });
});

describe("the request's parameters", () => {
  const params = (operationId: string, path: string, query: SandboxRequest["query"] = {}) =>
    paramsOf(engine, resolve(engine, request(operationId, path, query))!);

  it("take a path parameter up to the template's literal suffix", () => {
    expect(params("getFileJson", "/v1/files/f-1.json")).toEqual({ file_id: "f-1" });
  });

  it("nest a dotted query name under its first part, and keep it under its own", () => {
    expect(params("getItem", "/v1/items/i-1", { "start_date.year": "2026", "start_date.month": "11" })).toEqual({
      item_id: "i-1",
      "start_date.year": "2026",
      "start_date.month": "11",
      start_date: { year: "2026", month: "11" },
    });
  });

  it("do not nest a name that starts with a dot, nor under a parameter that is not an object", () => {
    expect(params("getItem", "/v1/items/i-1", { ".year": "2026" })).toEqual({ item_id: "i-1", ".year": "2026" });
    expect(params("getItem", "/v1/items/i-1", { start: "today", "start.year": "2026" })).toEqual({
      item_id: "i-1",
      start: "today",
      "start.year": "2026",
    });
  });
});
