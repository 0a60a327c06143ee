/**
 * Contract tests, generic over the registry: one Prism mock per API (in-process, free port,
 * started once for this file), every operation called through its generated client with its spec
 * example and the answer validated by Ajv against the bundled document; then the negative cases.
 * All the contract tests that need a mock live in this file so the mocks start once per run.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { specValidator, type SpecValidator } from "../../helpers/ajv.js";
import {
  jsonRequest,
  type Json,
  type Operation,
  operations,
  requestContents,
  requiresCredentials,
  responseContents,
  successResponse,
  isJsonMediaType,
} from "../../../src/document/index.js";
import { credentialHeaders, declaredErrorStatus, requestParams, requestUrl, wrongTypedBody } from "../../../src/testing/requests.js";
import { responseViolations } from "../../../src/client/index.js";
import { type BundledApi, bundled, createTestClient, named, registry, sourceAlias } from "../../helpers/registry.js";
import { mocksOfEveryApi } from "../../helpers/mocks.js";

const mocks = mocksOfEveryApi();
const validators = new Map<string, SpecValidator>();

function mockUrl(api: BundledApi): string {
  const mock = mocks.get(api.entry.alias);
  if (!mock) throw new Error(`no mock running for ${api.entry.alias}`);
  return mock.url;
}

function validator(api: BundledApi): SpecValidator {
  let v = validators.get(api.entry.alias);
  if (!v) validators.set(api.entry.alias, (v = specValidator(api.doc)));
  return v;
}

interface Case {
  name: string;
  api: BundledApi;
  op: Operation;
}

const cases: Case[] = bundled.flatMap((api) =>
  operations(api.doc).map((op) => ({ name: `${api.entry.alias} ${op.operationId}`, api, op })),
);

/**
 * How many cases each list must hold, counted by hand from the source documents' endpoint tables:
 * the operations, and those that take a JSON request body. Every operation of every API requires
 * credentials; none accepts text/plain.
 */
const EXPECTED: Record<string, { operations: number; jsonBody: number }> = {
  "pay@1.3.0": { operations: 20, jsonBody: 13 },
  "pay@1.2.0": { operations: 8, jsonBody: 5 },
  "payment-initiation@1.0.0": { operations: 4, jsonBody: 2 },
  "statement@1.0.0": { operations: 4, jsonBody: 3 },
  "balance@1.0.0": { operations: 3, jsonBody: 2 },
  "disbursement@1.0.0": { operations: 4, jsonBody: 3 },
  "account-opening@1.0.0": { operations: 3, jsonBody: 2 },
};

/** Asserts that `list` holds `expected(alias)` cases of every API of the registry, and their sum in total. */
function expectSizes(list: Case[], field: keyof (typeof EXPECTED)[string]) {
  it(`holds the expected number of cases per API (${field}, from the sources)`, () => {
    const counts = Object.fromEntries(bundled.map((api) => [api.entry.alias, list.filter((c) => c.api === api).length]));
    const expected = Object.fromEntries(
      bundled.map((api) => [api.entry.alias, EXPECTED[sourceAlias(api.entry)]?.[field] ?? "no expected count: add the API to EXPECTED"]),
    );
    expect(counts).toEqual(expected);
    expect(list.length).toBe(bundled.reduce((n, api) => n + (EXPECTED[sourceAlias(api.entry)]?.[field] ?? 0), 0));
  });
}

/** The first named example of the JSON request body (undefined when the operation has no JSON body). */
function requestExample({ api, op }: Case): { body: Json; hasBody: boolean } {
  const json = jsonRequest(api.doc, op);
  if (!json) return { body: undefined, hasBody: false };
  if (json.examples.length === 0) throw new Error(`${op.operationId}: the JSON request body has no example`);
  return { body: json.examples[0].value, hasBody: true };
}

/** A raw request built from the spec example, for the cases the generated client cannot express. */
async function send(c: Case, init: { credentials?: boolean; body?: string; contentType?: string; method?: string; path?: string }) {
  const params = requestParams(c.api.doc, c.op);
  const headers: Record<string, string> = { ...params.header, ...(init.credentials === false ? {} : credentialHeaders(c.api.doc, c.op)) };
  if (init.body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
  const response = await fetch(mockUrl(c.api) + (init.path ?? requestUrl(c.op, params)), {
    method: (init.method ?? c.op.method).toUpperCase(),
    headers,
    body: init.body,
  });
  const text = await response.text();
  return { response, text, violations: responseViolations(response.headers, text) };
}

describe("registry", () => {
  it.each(registry.map((entry) => [entry.alias, entry] as const))("%s has a bundled spec (npm run generate)", (_, entry) => {
    expect(existsSync(entry.bundlePath), `${entry.bundlePath} is missing; run npm run generate`).toBe(true);
  });
});

describe("every operation answers its spec example through the generated client", () => {
  expectSizes(cases, "operations");
  it.each(named(cases))("%s", async (_, c) => {
    const { api, op } = c;
    const client = await createTestClient(api.entry, mockUrl(api));
    const example = requestExample(c);
    const call = client[op.method.toUpperCase()];
    const { data, error, response } = await call(op.path, {
      params: requestParams(api.doc, op),
      ...(example.hasBody ? { body: example.body } : {}),
    });

    const expected = successResponse(op);
    expect(response.status, `sl-violations: ${response.headers.get("sl-violations")}; body: ${JSON.stringify(error)}`).toBe(
      expected.status,
    );
    expect(response.headers.get("sl-violations"), "Prism found the request or its own answer invalid").toBeNull();
    const contents = responseContents(api.doc, expected.response);
    const content = contents.find((m) => isJsonMediaType(m.mediaType));
    if (contents.length === 0) {
      // The spec declares no body (a gap the source leaves): the answer has none.
      expect(response.headers.get("content-length")).toBe("0");
    } else {
      expect(content?.schema, `${op.operationId}: the success response declares no JSON schema`).toBeDefined();
      const result = validator(api).validate(content!.schema!.at, data);
      expect(result.valid, `${content!.schema!.at}: ${result.errors}`).toBe(true);
    }
  });
});

describe("missing credentials -> 401", () => {
  const secured = cases.filter((c) => requiresCredentials(c.api.doc, c.op));
  expectSizes(secured, "operations");
  it.each(named(secured))("%s", async (_, c) => {
    const example = requestExample(c);
    const { response } = await send(c, { credentials: false, body: example.hasBody ? JSON.stringify(example.body) : undefined });
    expect(response.status).toBe(401);
  });
});

const withJsonBody = cases.filter((c) => jsonRequest(c.api.doc, c.op)?.schema);

describe("a body with a wrong-typed field -> the declared bad-request status, the field named in sl-violations", () => {
  expectSizes(withJsonBody, "jsonBody");
  it.each(named(withJsonBody))("%s", async (_, c) => {
    const json = jsonRequest(c.api.doc, c.op)!;
    const { body, field } = wrongTypedBody(c.api.doc, json.schema!, requestExample(c).body);
    expect(validator(c.api).validate(json.schema!.at, body).valid, "the derived body must be invalid").toBe(false);

    const { response, violations } = await send(c, { body: JSON.stringify(body) });
    expect(response.status).toBe(declaredErrorStatus(c.op, [422, 400], 422));
    const location = field === undefined ? ["request", "body"] : ["request", "body", field];
    expect(
      violations.some((v) => location.every((part, i) => v.location[i] === part)),
      `no violation at ${location.join(".")}: ${JSON.stringify(violations)}`,
    ).toBe(true);
  });
});

describe("broken JSON -> 400", () => {
  expectSizes(withJsonBody, "jsonBody");
  it.each(named(withJsonBody))("%s", async (_, c) => {
    const { response } = await send(c, { body: '{"unterminated": ' });
    expect(response.status).toBe(400);
  });
});

describe("wrong content type (text/plain) -> rejected with a 415 violation", () => {
  const textRejected = withJsonBody.filter(
    (c) => !requestContents(c.api.doc, c.op).some((m) => /^(text\/plain|text\/\*|\*\/\*)$/.test(m.mediaType)),
  );
  expectSizes(textRejected, "jsonBody");
  it.each(named(textRejected))("%s", async (_, c) => {
    const { response, violations } = await send(c, { body: "plain text", contentType: "text/plain" });
    expect(response.status).toBe(declaredErrorStatus(c.op, [415, 422, 400], 415));
    expect(response.status === 415 || violations.some((v) => v.code === 415), JSON.stringify(violations)).toBe(true);
  });
});

describe.each(bundled.map((api) => [api.entry.alias, api] as const))("%s routing", (_, api) => {
  const apiCases = cases.filter((c) => c.api === api);

  it("unknown path -> 404", async () => {
    expect(apiCases.length, "the API has operations").toBeGreaterThan(0);
    const { response } = await send(apiCases[0], { path: "/__no_such_path__/x", method: "get" });
    expect(response.status).toBe(404);
  });

  it("method the path does not have -> 405", async () => {
    // Every API has a path without one of these methods (each source lists one or two methods per path).
    const found = apiCases
      .map((c) => ({
        c,
        method: ["get", "post", "put", "patch", "delete"].find((m) => !Object.keys(api.doc.paths[c.op.path]).includes(m)),
      }))
      .find((x) => x.method !== undefined);
    expect(found, "a path without one of GET, POST, PUT, PATCH, DELETE").toBeDefined();
    const { response } = await send(found!.c, { method: found!.method });
    expect(response.status).toBe(405);
  });
});
