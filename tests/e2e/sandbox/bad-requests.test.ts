/**
 * Prism judges every request in sandbox mode exactly as in static mode: the same bad requests sent
 * to the static mock and to the sandbox of each API get the same status, the same sl-violations
 * and the same body. Bad requests: no credential, a wrong-typed body, a body of another media type
 * (each operation that has them), an unknown path and a method the path does not have (each API).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Doc, jsonRequest, type Operation, operations, requiresCredentials } from "../../../src/document/index.js";
import { startMock, type MockServer } from "../../../src/mock/index.js";
import { credentialHeaders, requestParams, requestUrl, wrongTypedBody } from "../../../src/testing/requests.js";
import { bundled } from "../../helpers/registry.js";
import { type Answer, call } from "../../helpers/sandbox.js";

interface BadRequest {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  raw?: string;
}

function badRequests(doc: Doc): BadRequest[] {
  const cases: BadRequest[] = [];
  for (const op of operations(doc)) {
    const url = requestUrl(op, requestParams(doc, op));
    const method = op.method.toUpperCase();
    const auth = credentialHeaders(doc, op, { token: "bad-request-token", apiKey: "bad-request-key" });
    const json = jsonRequest(doc, op);
    const example = json?.examples[0]?.value;
    if (requiresCredentials(doc, op))
      cases.push({ name: `${op.operationId}: no credential`, method, path: url, headers: {}, body: example });
    if (json?.schema) {
      cases.push({
        name: `${op.operationId}: wrong-typed body`,
        method,
        path: url,
        headers: auth,
        body: wrongTypedBody(doc, json.schema, example).body,
      });
      cases.push({
        name: `${op.operationId}: text/plain body`,
        method,
        path: url,
        headers: { ...auth, "content-type": "text/plain" },
        raw: "not json",
      });
    }
  }
  const first: Operation = operations(doc)[0];
  const auth = credentialHeaders(doc, first, { token: "bad-request-token", apiKey: "bad-request-key" });
  cases.push({ name: "unknown path", method: "GET", path: "/v1/no-such-path", headers: auth });
  cases.push({
    name: "method the path does not have",
    method: "PATCH",
    path: requestUrl(first, requestParams(doc, first)),
    headers: auth,
    body: {},
  });
  return cases;
}

/**
 * Per API: one per operation (no credential: every operation requires one), two per operation with
 * a JSON body, and two for the API. Pay 1.3.0: 20 operations, 7 without a body (deleteDepositAccount
 * and the six reads); Pay 1.2.0: 8, 3 without (the three reads).
 */
const EXPECTED = {
  "pay@1.3.0": 20 + 2 * 13 + 2,
  "pay@1.2.0": 8 + 2 * 5 + 2,
  "payment-initiation@1.0.0": 4 + 2 * 2 + 2,
  "statement@1.0.0": 4 + 2 * 3 + 2,
  "balance@1.0.0": 3 + 2 * 2 + 2,
  "disbursement@1.0.0": 4 + 2 * 3 + 2,
  "account-opening@1.0.0": 3 + 2 * 2 + 2,
} as Record<string, number>;

it("has a case list for every API", () => expect(bundled.map((b) => b.entry.alias).sort()).toEqual(Object.keys(EXPECTED).sort()));

describe.each(bundled.map((b) => [b.entry.alias, b] as const))("%s", (alias, { entry, doc }) => {
  let staticMock: MockServer;
  let sandbox: MockServer;
  beforeAll(async () => {
    [staticMock, sandbox] = await Promise.all([startMock(entry, { port: 0 }), startMock(entry, { port: 0, sandbox: true })]);
  });
  afterAll(() => Promise.all([staticMock.close(), sandbox.close()]));
  const cases = badRequests(doc);

  it("has the expected number of cases", () => expect(cases).toHaveLength(EXPECTED[alias]));

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const send = (base: string): Promise<Answer> => call(base, c.method, c.path, { headers: c.headers, body: c.body, raw: c.raw });
    const [expected, actual] = await Promise.all([send(staticMock.url), send(sandbox.url)]);
    expect(expected.status).toBeGreaterThanOrEqual(400);
    expect(actual.status).toBe(expected.status);
    expect(actual.violations).toEqual(expected.violations);
    expect(actual.body).toEqual(expected.body);
    expect(actual.headers.get("content-type")).toBe(expected.headers.get("content-type"));
  });
});
