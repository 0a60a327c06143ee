import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { findApi, loadRegistry, repoRoot } from "../../../../src/registry.js";
import { specValidator } from "../../../helpers/ajv.js";
import {
  isJsonMediaType,
  jsonRequest,
  loadDocument,
  operations,
  responseContents,
  successResponse,
} from "../../../../src/document/index.js";
import { responseViolations } from "../../../../src/client/index.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../../src/testing/requests.js";
import { bundled, named } from "../../../helpers/registry.js";
import { mocksOfEveryApi } from "../../../helpers/mocks.js";

const STAMP_EXAMPLE = { at: "2025-11-21T10:00:00.000Z" };
const NAME_EXAMPLE = { name: "example name" };

/** Two operations: one whose generated answer never validates, one whose generated answer does. */
const FIXTURE = join(repoRoot, "tests/fixtures/mock-dynamic/openapi.yaml");

const TRIES = 5;

async function dynamic(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), prefer: "dynamic=true" } });
  const text = await response.text();
  return { status: response.status, violations: response.headers.get("sl-violations"), body: text ? JSON.parse(text) : undefined };
}

describe("a generated answer must validate, or the example is served", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock(loadRegistry()[0], { port: 0, specPath: FIXTURE });
  });
  afterAll(() => mock?.close());

  it("serves the example when the generated data breaks the schema (json-schema-faker ignores the pattern beside date-time)", async () => {
    for (let i = 0; i < TRIES; i++) {
      const answer = await dynamic(`${mock.url}/stamp`);
      expect(answer).toEqual({ status: 200, violations: null, body: STAMP_EXAMPLE });
    }
  });

  it("serves generated data when it validates", async () => {
    const answers = [];
    for (let i = 0; i < TRIES; i++) answers.push(await dynamic(`${mock.url}/name`));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.violations).toBeNull();
      expect(typeof answer.body.name).toBe("string");
    }
    expect(answers.filter((a) => a.body.name !== NAME_EXAMPLE.name).length, "generated, not the example").toBeGreaterThan(0);
  });

  it("leaves static answers alone", async () => {
    const response = await fetch(`${mock.url}/stamp`);
    expect(await response.json()).toEqual(STAMP_EXAMPLE);
  });
});

describe("every operation of the registry: a dynamic answer validates against its own schema", () => {
  const mocks = mocksOfEveryApi();

  const cases = bundled.flatMap((api) => operations(api.doc).map((op) => ({ name: `${api.entry.alias} ${op.operationId}`, api, op })));

  it("covers the 46 operations of the seven APIs", () => {
    // 20 Pay 1.3.0, 8 Pay 1.2.0, 4 payment initiation, 4 statement, 3 balance, 4 disbursement, 3 account opening.
    expect(cases).toHaveLength(46);
  });

  it.each(named(cases))("%s", async (_, { api, op }) => {
    const params = requestParams(api.doc, op);
    const json = jsonRequest(api.doc, op);
    const headers: Record<string, string> = { ...params.header, ...credentialHeaders(api.doc, op) };
    if (json) headers["content-type"] = "application/json";
    const url = mocks.get(api.entry.alias)!.url + requestUrl(op, params);
    const expected = successResponse(op);
    const schema = responseContents(api.doc, expected.response).find((m) => isJsonMediaType(m.mediaType))?.schema;
    const validator = specValidator(api.doc);
    for (let i = 0; i < 3; i++) {
      const answer = await dynamic(url, {
        method: op.method.toUpperCase(),
        headers,
        body: json ? JSON.stringify(json.examples[0].value) : undefined,
      });
      expect(answer.status).toBe(expected.status);
      expect(answer.violations, "the mock served an answer that breaks its own schema").toBeNull();
      if (schema) {
        const result = validator.validate(schema.at, answer.body);
        expect(result.valid, `${schema.at}: ${result.errors}`).toBe(true);
      }
    }
  });

  it("generates the supported-bank map of Pay 1.3.0 (integer-code keys) instead of falling back to the example", async () => {
    const doc = loadDocument(findApi("pay@1.3.0").bundlePath);
    const example = doc.paths["/v1/supported-banks"].get.responses["200"].content["application/json"].examples.indonesia.value;
    const answers = [];
    for (let i = 0; i < TRIES; i++) {
      answers.push(await dynamic(`${mocks.get("pay@1.3.0")!.url}/v1/supported-banks`, { headers: { authorization: "Bearer t" } }));
    }
    for (const answer of answers) {
      expect(answer.violations).toBeNull();
      for (const key of Object.keys(answer.body)) expect(key).toMatch(/^-?[0-9]+$/);
    }
    expect(answers.some((a) => JSON.stringify(a.body) !== JSON.stringify(example))).toBe(true);
  });
});

describe("int64 range through the mock", () => {
  let mock: MockServer;
  const doc = loadDocument(findApi("payment-initiation@1.0.0").bundlePath);
  const example = doc.paths["/v1/checkout"].post.requestBody.content["application/json"].examples;
  const body = structuredClone(Object.values<{ value: Record<string, unknown> }>(example)[0].value);
  beforeAll(async () => {
    mock = await startMock("payment-initiation@1.0.0", { port: 0 });
  });
  afterAll(() => mock?.close());

  const checkout = async (seconds: string) => {
    const raw = JSON.stringify({ ...body, expiry_date_time: { seconds: 0, nanos: 0 } }).replace(
      '"expiry_date_time":{"seconds":0',
      `"expiry_date_time":{"seconds":${seconds}`,
    );
    const response = await fetch(`${mock.url}/v1/checkout`, {
      method: "POST",
      headers: { "x-api-key": "k", "content-type": "application/json" },
      body: raw,
    });
    const text = await response.text();
    return { status: response.status, fields: responseViolations(response.headers, text).map((v) => v.location.join(".")) };
  };

  it.each([["9223372036854775808"], ["1e19"], ["-9223372036854777856"]])(
    "rejects seconds %s with 400, naming the field",
    async (seconds) => {
      const { status, fields } = await checkout(seconds);
      expect(status).toBe(400);
      expect(fields).toContain("request.body.expiry_date_time.seconds");
    },
  );

  it.each([["1767225600"], ["-9223372036854775808"], ["9007199254740993"]])("accepts seconds %s", async (seconds) => {
    expect((await checkout(seconds)).status).toBe(200);
  });
});
