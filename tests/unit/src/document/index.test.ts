/**
 * src/document: the one model of an OpenAPI document, on a small hand-written document that has one
 * of each thing the model reads (a path item by $ref, parameters on the item and the operation, a
 * webhook, named examples, security at the root and on an operation, ranges and default responses).
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  authSchemes,
  child,
  type Doc,
  deref,
  describeAuth,
  findOperation,
  HTTP_METHODS,
  isHttpMethod,
  isJsonMediaType,
  jsonRequest,
  loadDocument,
  locate,
  matchMediaType,
  operations,
  parameterContent,
  parseDocument,
  parseMediaType,
  parsePointer,
  pickMediaContent,
  pointer,
  refPointer,
  requestContents,
  requiresCredentials,
  responseContents,
  responseKey,
  securitySchemes,
  successResponse,
  valueAt,
  webhooks,
} from "../../../../src/document/index.js";

const doc: Doc = {
  openapi: "3.1.0",
  security: [{ bearer: [] }],
  paths: {
    "/v1/items/{item_id}": { $ref: "#/components/pathItems/Item" },
    "/v1/a~b": {
      post: {
        operationId: "createAB",
        security: [{ key: [] }, {}],
        requestBody: {
          required: true,
          content: {
            "text/plain": { schema: { type: "string" } },
            "application/json": {
              schema: { $ref: "#/components/schemas/AB" },
              examples: { first: { value: { a: 1 } }, second: { value: { a: 2 } } },
            },
          },
        },
        responses: { "201": { description: "made" }, "4XX": { description: "bad" }, default: { description: "other" } },
      },
      get: { responses: { "2XX": { description: "ok", content: { "application/problem+json": { example: { x: 1 } } } } } },
    },
  },
  webhooks: {
    itemChanged: {
      post: { operationId: "itemChanged", requestBody: { content: { "application/json": { schema: { type: "object" } } } }, responses: {} },
    },
  },
  components: {
    securitySchemes: { bearer: { type: "http", scheme: "bearer" }, key: { type: "apiKey", in: "header", name: "x-api-key" } },
    schemas: { AB: { $ref: "#/components/schemas/AB2" }, AB2: { type: "object", properties: { a: { type: "integer" } } } },
    parameters: { Trace: { name: "X-Trace", in: "header", schema: { type: "string" } } },
    pathItems: {
      Item: {
        parameters: [
          { name: "item_id", in: "path", required: true, schema: { type: "string" } },
          { $ref: "#/components/parameters/Trace" },
        ],
        get: {
          operationId: "getItem",
          parameters: [{ name: "x-trace", in: "header", required: true, schema: { type: "string" }, examples: { one: { value: "t-1" } } }],
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
            "404": { description: "none" },
          },
        },
      },
    },
  },
};

describe("pointers", () => {
  it("escapes ~ and / and parses back", () => {
    expect(pointer("paths", "/v1/a~b", "post")).toBe("/paths/~1v1~1a~0b/post");
    expect(parsePointer("/paths/~1v1~1a~0b/post")).toEqual(["paths", "/v1/a~b", "post"]);
    expect(pointer()).toBe("");
    expect(parsePointer("")).toEqual([]);
    expect(() => parsePointer("paths")).toThrow(/not a JSON pointer/);
  });

  it("reads a $ref's pointer, percent-decoded; undefined for another document's", () => {
    expect(refPointer("#/components/schemas/A%20B")).toBe("/components/schemas/A B");
    expect(refPointer("other.yaml#/x")).toBeUndefined();
  });

  it("finds a value by pointer without following $refs", () => {
    expect(valueAt(doc, "/paths/~1v1~1items~1{item_id}")).toEqual({ $ref: "#/components/pathItems/Item" });
    expect(valueAt(doc, "/paths/nothing/here")).toBeUndefined();
  });
});

describe("$refs", () => {
  it("follows a chain to its end, with the canonical pointer", () => {
    expect(deref(doc, { $ref: "#/components/schemas/AB" }, "/x")).toEqual({
      value: doc.components.schemas.AB2,
      at: "/components/schemas/AB2",
    });
  });

  it("refuses a cycle, a remote and an unresolved reference", () => {
    // Each $ref read is counted: a deref that followed the cycle round and round would never return
    // (a synchronous loop no test timeout can stop); past READS it fails here, at once, by name.
    const READS = 100;
    let reads = 0;
    const counted = (ref: string) =>
      new Proxy(
        { $ref: ref },
        {
          get(target, key: string) {
            if (key === "$ref" && ++reads > READS) throw new Error(`deref read $ref ${READS} times: it follows the cycle`);
            return target[key as "$ref"];
          },
        },
      );
    const cyclic: Doc = { openapi: "3.1.0", a: counted("#/b"), b: counted("#/a") };
    expect(() => deref(cyclic, cyclic.a, "/a")).toThrow(/\$ref cycle through #\/(a|b)/);
    expect(reads).toBeLessThan(10);
    expect(() => deref(doc, { $ref: "other.yaml#/x" }, "/y")).toThrow(
      "/y: only local $refs are supported in a bundled spec, got other.yaml#/x",
    );
    expect(() => deref(doc, { $ref: "#/components/schemas/Nope" }, "/y")).toThrow("unresolved $ref #/components/schemas/Nope");
  });

  it("locates through $refs at every step; a missing token gives undefined with its pointer", () => {
    expect(locate(doc, "paths", "/v1/items/{item_id}", "get").at).toBe("/components/pathItems/Item/get");
    expect(locate(doc, "paths", "/v1/nope")).toEqual({ value: undefined, at: "/paths/~1v1~1nope" });
    expect(child(doc, { value: doc, at: "" }, "components", "schemas", "AB")?.at).toBe("/components/schemas/AB2");
    expect(child(doc, { value: doc, at: "" }, "components", "nope")).toBeUndefined();
  });
});

describe("operations and webhooks", () => {
  it("lists the paths' operations in document and method order, then the webhooks", () => {
    expect(operations(doc).map((op) => `${op.method} ${op.path} ${op.operationId}`)).toEqual([
      "get /v1/items/{item_id} getItem",
      "get /v1/a~b GET /v1/a~b",
      "post /v1/a~b createAB",
    ]);
    expect(webhooks(doc).map((op) => `${op.section} ${op.method} ${op.path}`)).toEqual(["webhooks post itemChanged"]);
    expect(operations(doc, { webhooks: true })).toHaveLength(4);
    expect(findOperation(doc, "itemChanged")?.section).toBe("webhooks");
    expect(findOperation(doc, "nope")).toBeUndefined();
  });

  it("merges the path item's parameters with the operation's, the operation's winning (header names case-insensitive)", () => {
    const op = findOperation(doc, "getItem")!;
    expect(op.parameters.map((p) => [p.value.in, p.value.name, p.value.required ?? false, p.at])).toEqual([
      ["path", "item_id", true, "/components/pathItems/Item/parameters/0"],
      ["header", "x-trace", true, "/components/pathItems/Item/get/parameters/0"],
    ]);
    expect(parameterContent(doc, op.parameters[1]).examples).toEqual([{ name: "one", summary: undefined, value: "t-1" }]);
  });

  it("reads request and response media types with their examples", () => {
    const op = findOperation(doc, "createAB")!;
    expect(requestContents(doc, op).map((c) => c.mediaType)).toEqual(["text/plain", "application/json"]);
    const json = jsonRequest(doc, op)!;
    expect(json.schema?.at).toBe("/components/schemas/AB2");
    expect(json.examples.map((e) => [e.name, e.value])).toEqual([
      ["first", { a: 1 }],
      ["second", { a: 2 }],
    ]);
    const get = findOperation(doc, "GET /v1/a~b")!;
    expect(responseContents(doc, get.responses["2XX"])[0].examples).toEqual([{ name: "example", summary: undefined, value: { x: 1 } }]);
  });

  it("picks the response for a status: exact, then range, then default", () => {
    const op = findOperation(doc, "createAB")!;
    expect([responseKey(op, 201), responseKey(op, 404), responseKey(op, 500), responseKey(findOperation(doc, "getItem")!, 500)]).toEqual([
      "201",
      "4XX",
      "default",
      undefined,
    ]);
    expect(successResponse(op)).toMatchObject({ status: 201, key: "201" });
    expect(successResponse(findOperation(doc, "GET /v1/a~b")!)).toMatchObject({ status: 200, key: "2XX" });
    expect(() => successResponse(findOperation(doc, "itemChanged")!)).toThrow("itemChanged: no 2xx response declared");
  });

  it("answers the per-request questions once per operation: the same frozen lists, the same keys", () => {
    const op = findOperation(doc, "createAB")!;
    expect(findOperation(doc, "createAB")).toBe(op);
    const contents = responseContents(doc, op.responses["201"]);
    expect(responseContents(doc, op.responses["201"])).toBe(contents);
    expect(Object.isFrozen(contents)).toBe(true);
    expect(securitySchemes(doc, op)).toBe(securitySchemes(doc, op));
    expect(Object.isFrozen(securitySchemes(doc, op))).toBe(true);
    expect([responseKey(op, 404), responseKey(op, 404), responseKey(op, "201")]).toEqual(["4XX", "4XX", "201"]);
  });
});

describe("security", () => {
  it("uses the operation's requirements, else the document's", () => {
    expect(securitySchemes(doc, findOperation(doc, "getItem")!).map((s) => [s.name, s.type, s.scheme])).toEqual([
      ["bearer", "http", "bearer"],
    ]);
    expect(securitySchemes(doc, findOperation(doc, "createAB")!).map((s) => [s.name, s.in, s.parameter])).toEqual([
      ["key", "header", "x-api-key"],
    ]);
  });

  it("an empty requirement makes credentials optional", () => {
    expect(requiresCredentials(doc, findOperation(doc, "getItem")!)).toBe(true);
    expect(requiresCredentials(doc, findOperation(doc, "createAB")!)).toBe(false);
  });

  it("describes the document's ways of authenticating", () => {
    expect(authSchemes(doc).map((s) => s.name)).toEqual(["bearer", "key"]);
    expect(describeAuth(doc)).toEqual(["Authorization: Bearer", "x-api-key header"]);
  });

  it("names an undeclared scheme", () => {
    const broken: Doc = { ...doc, security: [{ missing: [] }] };
    expect(() => securitySchemes(broken, operations(broken)[0])).toThrow('getItem: security scheme "missing" is not declared');
  });
});

describe("media types", () => {
  it.each([
    ["application/json", "application/json", {}],
    ["Application/JSON; Charset=UTF-8", "application/json", { charset: "UTF-8" }],
    ['text/plain; charset="utf-8"', "text/plain", { charset: "utf-8" }],
  ])("parses %s", (value, essence, parameters) => {
    expect(parseMediaType(value)).toMatchObject({ essence, parameters });
  });

  it.each(["a", "/", ";", "text/", "/json", "text/plain; charset", "te xt/plain", ""])("refuses %j without throwing", (value) => {
    expect(parseMediaType(value)).toBeUndefined();
  });

  it("tells JSON media types", () => {
    expect(
      ["application/json", "application/problem+json; charset=utf-8", "text/json", "application/jsonx", "a"].map(isJsonMediaType),
    ).toEqual([true, true, false, false, false]);
  });

  it("matches a value to the declared media type: same type, then a range, then */*", () => {
    expect(matchMediaType(["text/plain", "application/json"], "application/json; charset=utf-8")).toBe("application/json");
    expect(matchMediaType(["text/*", "*/*"], "text/csv")).toBe("text/*");
    expect(matchMediaType(["application/json", "*/*"], "image/png")).toBe("*/*");
    expect(matchMediaType(["application/json"], "text/plain")).toBeUndefined();
    expect(matchMediaType(["application/json"], "/")).toBeUndefined();
  });

  it("picks the media content for a body: by its Content-Type, else the JSON one", () => {
    const contents = requestContents(doc, findOperation(doc, "createAB")!);
    expect(pickMediaContent(contents, "text/plain")?.mediaType).toBe("text/plain");
    expect(pickMediaContent(contents, undefined)?.mediaType).toBe("application/json");
    expect(pickMediaContent(contents, "image/png")).toBeUndefined();
  });

  it("HTTP_METHODS is OpenAPI's list", () => {
    expect(HTTP_METHODS).toEqual(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
    expect([isHttpMethod("get"), isHttpMethod("parameters"), isHttpMethod("GET")]).toEqual([true, false, false]);
  });
});

describe("loading", () => {
  const dir = mkdtempSync(join(tmpdir(), "document-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("parses once per file version and re-reads a changed file", () => {
    const path = join(dir, "a.yaml");
    writeFileSync(path, "openapi: 3.1.0\ninfo: { title: one }\n");
    const first = loadDocument(path);
    expect(loadDocument(path)).toBe(first);
    writeFileSync(path, "openapi: 3.1.0\ninfo: { title: two, version: '2' }\n");
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(loadDocument(path).info.title).toBe("two");
  });

  it("names the file when it is missing, not YAML, or not OpenAPI", () => {
    expect(() => loadDocument(join(dir, "none.yaml"))).toThrow(
      `${join(dir, "none.yaml")}: not found (the bundled specs are written by \`npm run generate\`)`,
    );
    expect(() => parseDocument("a: [", "x.yaml")).toThrow(/^x\.yaml: not valid YAML/);
    expect(() => parseDocument("swagger: '2.0'", "y.yaml")).toThrow('y.yaml: not an OpenAPI document (no "openapi" field)');
  });
});
