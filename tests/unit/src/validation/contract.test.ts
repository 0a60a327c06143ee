/**
 * The contract validator (src/validation/contract.ts, exported by bank-api-contracts/testing):
 * its rules on a small inline document, then every registered API: each response and request
 * example passes by operationId and status, and a wrong-typed body fails at the property's path.
 */
import { describe, expect, it } from "vitest";
import { createValidator, MAX_VIOLATIONS, OperationNotFoundError, validatorForDocument } from "../../../../src/validation/contract.js";
import { type Doc, type Json, jsonRequest, operations, responseContents } from "../../../../src/document/index.js";
import { requestParams, wrongTypedBody } from "../../../../src/testing/requests.js";
import { bundled, named, registry } from "../../../helpers/registry.js";

const doc = {
  openapi: "3.1.0",
  jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
  info: { title: "fixture", version: "1.0.0" },
  paths: {
    "/items/{item_id}": {
      parameters: [{ name: "item_id", in: "path", required: true, schema: { type: "integer", minimum: 1 } }],
      get: {
        operationId: "getItem",
        parameters: [
          { $ref: "#/components/parameters/Verbose" },
          { name: "X-Request-Id", in: "header", required: true, schema: { type: "string", format: "uuid" } },
        ],
        responses: {
          "200": { $ref: "#/components/responses/Item" },
          "204": { description: "no body" },
          "4XX": {
            description: "client error",
            content: {
              "application/problem+json": { schema: { type: "object", required: ["title"], properties: { title: { type: "string" } } } },
            },
          },
          default: { description: "anything else", content: { "text/plain": { schema: { type: "string" } } } },
        },
      },
      put: {
        operationId: "putItem",
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { $ref: "#/components/schemas/Item" } },
            "text/csv": { schema: { type: "string", pattern: "^id," } },
          },
        },
        responses: { "200": { $ref: "#/components/responses/Item" } },
      },
    },
  },
  webhooks: {
    itemChanged: {
      post: {
        operationId: "itemChanged",
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: {
    parameters: { Verbose: { name: "verbose", in: "query", schema: { type: "boolean" } } },
    responses: { Item: { description: "an item", content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } } },
    schemas: {
      Item: {
        type: "object",
        additionalProperties: false,
        required: ["id", "state"],
        properties: {
          id: { type: "integer" },
          state: { type: "string", enum: ["open", "closed"] },
          "unit-price": { type: "number" },
          tags: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        },
      },
    },
  },
};

const validator = validatorForDocument("fixture@1.0.0", doc);
const item = { id: 1, state: "open", "unit-price": 2.5, tags: [{ name: "a" }] };

describe("validateResponse", () => {
  it("passes a body that matches the status's schema, following $refs", () => {
    expect(validator.validateResponse({ operationId: "getItem", status: 200, body: item })).toEqual({ valid: true, violations: [] });
  });

  it("reports each violation with its JSONPath, array indices and odd keys included", () => {
    const body = { id: "1", state: "gone", "unit-price": "cheap", tags: [{ name: 1 }], extra: true };
    const { valid, violations } = validator.validateResponse({ operationId: "getItem", status: 200, body });
    expect(valid).toBe(false);
    expect(violations).toEqual(
      expect.arrayContaining([
        { in: "body", path: "$.id", message: "must be integer", keyword: "type" },
        { in: "body", path: "$.state", message: 'must be one of "open", "closed"', keyword: "enum" },
        { in: "body", path: '$["unit-price"]', message: "must be number", keyword: "type" },
        { in: "body", path: "$.tags[0].name", message: "must be string", keyword: "type" },
        { in: "body", path: "$.extra", message: "is not allowed here (the schema does not declare it)", keyword: "additionalProperties" },
      ]),
    );
    expect(violations).toHaveLength(5);
  });

  it("names a missing required property by its own path", () => {
    const { violations } = validator.validateResponse({ operationId: "getItem", status: 200, body: { id: 1 } });
    expect(violations).toEqual([{ in: "body", path: "$.state", message: "is required", keyword: "required" }]);
  });

  it("matches the status exactly, then by range (4XX), then default; an undeclared one is a violation", () => {
    expect(validator.validateResponse({ operationId: "getItem", status: 404, body: { title: "Not found" } }).valid).toBe(true);
    expect(validator.validateResponse({ operationId: "getItem", status: 404, body: {} }).violations).toEqual([
      { in: "body", path: "$.title", message: "is required", keyword: "required" },
    ]);
    expect(validator.validateResponse({ operationId: "getItem", status: 503, body: "down" }).valid).toBe(true);
    expect(validator.validateResponse({ operationId: "putItem", status: 500, body: {} }).violations).toEqual([
      { in: "status", path: "$", message: "status 500 is not declared for putItem (declared: 200)" },
    ]);
  });

  it("wants no body where none is declared, and a body where one is", () => {
    expect(validator.validateResponse({ operationId: "getItem", status: 204, body: undefined }).valid).toBe(true);
    expect(validator.validateResponse({ operationId: "getItem", status: 204, body: "" }).valid).toBe(true);
    expect(validator.validateResponse({ operationId: "getItem", status: 204, body: { id: 1 } }).violations[0].message).toBe(
      "must be empty: the contract declares no body for getItem 204",
    );
    expect(validator.validateResponse({ operationId: "getItem", status: 200, body: undefined }).violations[0].message).toBe(
      "is missing: the contract declares application/json for getItem 200",
    );
  });

  it("picks the media type from contentType (parameters ignored) and rejects an undeclared one", () => {
    expect(
      validator.validateResponse({
        operationId: "getItem",
        status: 404,
        body: { title: "x" },
        contentType: "application/problem+json; charset=utf-8",
      }).valid,
    ).toBe(true);
    expect(
      validator.validateResponse({ operationId: "getItem", status: 200, body: "x", contentType: "text/html" }).violations[0].message,
    ).toBe("content type text/html is not declared (declared: application/json) for getItem 200");
  });

  it("throws for an unknown operationId, naming the known ones, and for a status that is no HTTP status", () => {
    expect(() => validator.validateResponse({ operationId: "getItems", status: 200, body: {} })).toThrow(OperationNotFoundError);
    expect(() => validator.validateResponse({ operationId: "getItems", status: 200, body: {} })).toThrow(
      'fixture@1.0.0: unknown operationId "getItems"; known: getItem, putItem, itemChanged',
    );
    expect(() => validator.validateResponse({ operationId: "getItem", status: 42, body: {} })).toThrow(
      "status must be an HTTP status code",
    );
  });
});

describe("validateRequest", () => {
  it("checks parameters only when given", () => {
    expect(validator.validateRequest({ operationId: "getItem" }).valid).toBe(true);
    expect(validator.validateRequest({ operationId: "getItem", params: {} }).violations.map((v) => v.path)).toEqual([
      "path.item_id",
      "header.X-Request-Id",
    ]);
  });

  it("checks parameters, coercing the strings a URL carries, and names missing required ones", () => {
    const ok = validator.validateRequest({
      operationId: "getItem",
      params: { path: { item_id: "7" }, query: { verbose: "true" }, header: { "x-request-id": "6f1c2a8e-4b7d-4e8a-9c3f-1d2e3f4a5b6c" } },
    });
    expect(ok).toEqual({ valid: true, violations: [] });
    const bad = validator.validateRequest({ operationId: "getItem", params: { path: { item_id: "zero" }, query: { verbose: "maybe" } } });
    expect(bad.violations).toEqual([
      { in: "path", path: "path.item_id", message: "must be integer", keyword: "type" },
      { in: "query", path: "query.verbose", message: "must be boolean", keyword: "type" },
      { in: "header", path: "header.X-Request-Id", message: "is required" },
    ]);
  });

  it("checks the body against the JSON media type, or the one named, and wants a required body", () => {
    expect(validator.validateRequest({ operationId: "putItem", body: item }).valid).toBe(true);
    expect(validator.validateRequest({ operationId: "putItem", body: { id: 1, state: "x" } }).violations).toEqual([
      { in: "body", path: "$.state", message: 'must be one of "open", "closed"', keyword: "enum" },
    ]);
    expect(validator.validateRequest({ operationId: "putItem", body: "id,state", contentType: "text/csv" }).valid).toBe(true);
    expect(validator.validateRequest({ operationId: "putItem", body: "state", contentType: "text/csv" }).violations[0].keyword).toBe(
      "pattern",
    );
    expect(validator.validateRequest({ operationId: "putItem" }).violations).toEqual([
      { in: "body", path: "$", message: "is required by putItem" },
    ]);
    expect(validator.validateRequest({ operationId: "getItem", body: {} }).violations).toEqual([
      { in: "body", path: "$", message: "must be empty: getItem takes no request body" },
    ]);
  });

  it("validates a webhook's payload by its operationId", () => {
    expect(validator.validateRequest({ operationId: "itemChanged", body: item }).valid).toBe(true);
    expect(validator.validateRequest({ operationId: "itemChanged", body: { ...item, id: "x" } }).violations.map((v) => v.path)).toEqual([
      "$.id",
    ]);
  });
});

describe("createValidator", () => {
  it("is created once per API: the same validator, with its compiled schemas, on every call", () => {
    const [first] = registry;
    expect(createValidator(first.alias)).toBe(createValidator(first.alias));
    expect(createValidator(first)).toBe(createValidator(first.alias));
  });

  it("names the known aliases for an unknown one", () => {
    expect(() => createValidator("no-such-api@9.9.9")).toThrow(`known: ${registry.map((e) => e.alias).join(", ")}`);
  });
});

/** `$.name`, or `$["odd-name"]`, as the validator writes a top-level property. */
const propertyPath = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `$.${name}` : `$[${JSON.stringify(name)}]`);

interface ExampleCase {
  name: string;
  alias: string;
  check: () => { valid: boolean; violations: unknown[] };
}

interface WrongCase {
  name: string;
  alias: string;
  operationId: string;
  status: number;
  body: Json;
  field?: string;
}

function statusOf(code: string, declared: string[]): number | undefined {
  if (/^\d{3}$/.test(code)) return Number(code);
  if (/^[1-5]XX$/i.test(code)) return Number(code[0]) * 100 + 99;
  return declared.includes("500") ? undefined : 500; // default
}

const exampleCases: ExampleCase[] = [];
const wrongCases: WrongCase[] = [];
for (const { entry, doc } of bundled) {
  for (const op of operations(doc as Doc, { webhooks: true })) {
    const label = `${entry.alias} ${op.operationId}`;
    const declared = Object.keys(op.responses);
    for (const [code, response] of Object.entries(op.responses)) {
      const status = statusOf(code, declared);
      if (status === undefined) continue;
      for (const media of responseContents(doc, response)) {
        for (const example of media.examples) {
          exampleCases.push({
            name: `${label} ${code} ${media.mediaType} "${example.name}"`,
            alias: entry.alias,
            check: () =>
              createValidator(entry.alias).validateResponse({
                operationId: op.operationId,
                status,
                body: example.value,
                contentType: media.mediaType,
              }),
          });
        }
        const first = media.examples[0];
        if (first && media.schema && /json/.test(media.mediaType) && wrongCases.every((c) => c.alias !== entry.alias)) {
          try {
            const { body, field } = wrongTypedBody(doc, media.schema, first.value);
            wrongCases.push({ name: `${label} ${code}`, alias: entry.alias, operationId: op.operationId, status, body, field });
          } catch {
            // this schema constrains no type; another response of the API gives the case
          }
        }
      }
    }
    const request = jsonRequest(doc, op);
    for (const example of request?.examples ?? []) {
      const params = requestParams(doc, op);
      exampleCases.push({
        name: `${label} request ${request!.mediaType} "${example.name}"`,
        alias: entry.alias,
        check: () =>
          createValidator(entry.alias).validateRequest({
            operationId: op.operationId,
            body: example.value,
            params,
            contentType: request!.mediaType,
          }),
      });
    }
  }
}

describe("every example of every registered API passes by operationId and status", () => {
  it("covers every API", () => {
    expect(new Set(exampleCases.map((c) => c.alias))).toEqual(new Set(bundled.map((b) => b.entry.alias)));
  });
  it.each(named(exampleCases))("%s", (_, { check }) => {
    const result = check();
    expect(result.violations).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe("a wrong-typed response body fails at the property's path, on every API", () => {
  it("has a case for every API", () => {
    expect(wrongCases.map((c) => c.alias).sort()).toEqual(bundled.map((b) => b.entry.alias).sort());
  });
  it.each(named(wrongCases))("%s", (_, { alias, operationId, status, body, field }) => {
    const { valid, violations } = createValidator(alias).validateResponse({ operationId, status, body });
    expect(valid).toBe(false);
    expect(violations.map((v) => v.path)).toContain(field === undefined ? "$" : propertyPath(field));
  });
});

describe("bodies of any size, and schemas the validator inlines", () => {
  const sized = validatorForDocument("sized@1.0.0", {
    openapi: "3.1.0",
    info: { title: "sized", version: "1.0.0" },
    paths: {
      "/things": {
        post: {
          operationId: "postThings",
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Things" } } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Tree" } } } } },
        },
      },
    },
    components: {
      schemas: {
        Things: {
          type: "object",
          properties: {
            items: { type: "array", items: { $ref: "#/components/schemas/Thing" } },
            file: { type: "string", format: "byte" },
            // A $ref beside other keywords: both apply.
            limited: { $ref: "#/components/schemas/Thing", required: ["name"] },
          },
        },
        Thing: { type: "object", properties: { id: { type: "string" }, price: { $ref: "#/components/schemas/Price" } } },
        Price: { type: "object", required: ["amount"], properties: { amount: { type: "string" } } },
        // Recursive: a tree of nodes.
        Tree: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
        },
      },
    },
  });
  const post = (body: unknown) => sized.validateRequest({ operationId: "postThings", body });

  it("checks a 4.5 MB byte string without overflowing the stack, and still refuses one that is not base64", () => {
    expect(post({ file: "QUJD".repeat(1_125_000) })).toEqual({ valid: true, violations: [] });
    const bad = post({ file: `${"QUJD".repeat(1_125_000)}Q=B=` });
    expect(bad.violations).toEqual([{ in: "body", path: "$.file", message: 'must match format "byte"', keyword: "format" }]);
  });

  it("accepts exactly what ajv-formats' byte pattern accepts", () => {
    const pattern = /^(?:[a-z0-9+/]{4})*(?:[a-z0-9+/]{2}==|[a-z0-9+/]{3}=)?$/i;
    const samples = [
      "",
      "QQ==",
      "QUI=",
      "QUJD",
      "qujd",
      "QUJDRA==",
      "Q",
      "QQ",
      "QQ=",
      "Q===",
      "====",
      "QQ==QQ==",
      "QU=D",
      "QUJD=",
      "QU J",
      "QU-_",
      "QUJD\n",
    ];
    for (const sample of samples) expect([sample, post({ file: sample }).valid]).toEqual([sample, pattern.test(sample)]);
  });

  it("follows references through nested, sibling and recursive schemas", () => {
    expect(post({ items: [{ id: "a", price: {} }], limited: { id: 1 } }).violations).toEqual([
      { in: "body", path: "$.items[0].price.amount", message: "is required", keyword: "required" },
      { in: "body", path: "$.limited.id", message: "must be string", keyword: "type" },
      { in: "body", path: "$.limited.name", message: "is required", keyword: "required" },
    ]);
    const tree = { name: "root", children: [{ name: "a", children: [{ name: 1 }, { children: [] }] }] };
    expect(sized.validateResponse({ operationId: "postThings", status: 200, body: tree }).violations).toEqual([
      { in: "body", path: "$.children[0].children[0].name", message: "must be string", keyword: "type" },
      { in: "body", path: "$.children[0].children[1].name", message: "is required", keyword: "required" },
    ]);
  });

  it(`lists the first ${MAX_VIOLATIONS} violations of a body with 200,000 and bounds the count of the others`, () => {
    const result = post({ items: Array.from({ length: 200_000 }, () => ({ id: 1 })) });
    expect(result.valid).toBe(false);
    expect(result.violations).toHaveLength(MAX_VIOLATIONS);
    expect(result.violations[0]).toEqual({ in: "body", path: "$.items[0].id", message: "must be string", keyword: "type" });
    expect(result.violations[MAX_VIOLATIONS - 2].path).toBe(`$.items[${MAX_VIOLATIONS - 2}].id`);
    expect(result.violations.at(-1)).toEqual({
      in: "body",
      path: "$",
      message: `and up to ${200_000 - (MAX_VIOLATIONS - 1)} more violation(s), not listed`,
      keyword: "maxViolations",
    });
  });

  it(`counts exactly when every finding was worded: ${MAX_VIOLATIONS + 1} wrong items`, () => {
    const result = post({ items: Array.from({ length: MAX_VIOLATIONS + 1 }, () => 1) });
    expect(result.violations).toHaveLength(MAX_VIOLATIONS);
    expect(result.violations.at(-1)!.message).toBe("and up to 2 more violation(s), not listed");
    const exact = post({ items: Array.from({ length: MAX_VIOLATIONS }, () => 1) });
    expect(exact.violations).toHaveLength(MAX_VIOLATIONS);
    expect(exact.violations.at(-1)).toEqual({
      in: "body",
      path: `$.items[${MAX_VIOLATIONS - 1}]`,
      message: "must be object",
      keyword: "type",
    });
  });

  it(`stops wording findings at ${MAX_VIOLATIONS}: the items past them are read once, by the schema's check alone`, () => {
    // 100,000 wrong items, each read through a proxy that counts the reads. Ajv reads each item
    // once to judge it; wording a finding reads its item again to name its path, which is done
    // for the listed ones only.
    const count = 100_000;
    let reads = 0;
    const items = new Proxy(
      Array.from({ length: count }, () => 1),
      {
        get(target, key, receiver) {
          if (typeof key === "string" && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver);
        },
      },
    );
    const result = post({ items });
    expect(result.violations).toHaveLength(MAX_VIOLATIONS);
    expect(result.violations[MAX_VIOLATIONS - 2]).toEqual({
      in: "body",
      path: `$.items[${MAX_VIOLATIONS - 2}]`,
      message: "must be object",
      keyword: "type",
    });
    expect(result.violations.at(-1)!.message).toBe(`and up to ${count - (MAX_VIOLATIONS - 1)} more violation(s), not listed`);
    expect(reads).toBeGreaterThanOrEqual(count);
    expect(reads).toBeLessThanOrEqual(count + MAX_VIOLATIONS);
  });
});
