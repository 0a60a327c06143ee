import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { findApi, loadRegistry, repoRoot } from "../../../../src/registry.js";
import { loadDocument } from "../../../../src/document/index.js";
import { responseViolations } from "../../../../src/client/index.js";
import { DYNAMIC_TRIES as TRIES, dynamic } from "../../../helpers/mocks.js";

const STAMP_EXAMPLE = { at: "2025-11-21T10:00:00.000Z" };
const NAME_EXAMPLE = { name: "example name" };

/** Two operations: one whose generated answer never validates, one whose generated answer does. */
const FIXTURE = join(repoRoot, "tests/fixtures/mock-dynamic/openapi.yaml");

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
