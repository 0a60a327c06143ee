/**
 * The control API's document (src/sandbox/openapi.yaml) says what the control API does: a body the
 * sandbox refuses is one the document's schema refuses, and one it takes the schema takes, so a
 * client or a fuzzer that follows the document never meets a rule it could not read (the control
 * fuzz, control.fuzz.test.ts, judges every answer against the same document). The bodies, and which
 * of them the sandbox takes, are written by hand from docs/guides/sandbox.md ("Forced errors,
 * latency and dropped connections").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../src/document/index.js";
import { closeMocks, type MockServer, startMocks } from "../../../src/mock/index.js";
import { CONTROL_DOCUMENT } from "../../../src/sandbox/control/document.js";
import { validatorForDocument } from "../../../src/validation/contract.js";
import { bundled, named } from "../../helpers/registry.js";

const api = bundled.find((a) => a.entry.alias === "pay@1.3.0")!;
const HEADERS = { authorization: "Bearer control-document", "content-type": "application/json" };

/** Bodies of POST /_sandbox/errors and whether the sandbox queues them (201) or refuses them (400). */
const RULES: Array<{ name: string; body: Record<string, unknown>; queued: boolean }> = [
  { name: "a status", body: { operation_id: "createInvoice", status: 503 }, queued: true },
  { name: "a latency", body: { operation_id: "createInvoice", latency_ms: 10 }, queued: true },
  { name: "a drop", body: { operation_id: "createInvoice", drop: true }, queued: true },
  { name: "a latency and a drop", body: { operation_id: "createInvoice", latency_ms: 10, drop: true }, queued: true },
  { name: "a status, drop false", body: { operation_id: "createInvoice", status: 429, drop: false, retry_after: 2 }, queued: true },
  { name: "nothing to force", body: { operation_id: "createInvoice" }, queued: false },
  { name: "drop false alone", body: { operation_id: "createInvoice", drop: false, count: 2 }, queued: false },
  { name: "a status and a drop", body: { operation_id: "createInvoice", status: 503, drop: true }, queued: false },
];

describe("the control document's ErrorRuleRequest", () => {
  const document = validatorForDocument("sandbox control API", loadDocument(CONTROL_DOCUMENT));
  let mock: MockServer;
  beforeAll(async () => {
    [mock] = await startMocks([api.entry], { freePorts: true, sandbox: true });
  }, 60_000);
  afterAll(() => closeMocks([mock]));

  it.each(named(RULES))("%s: the document and the sandbox agree", async (_, { body, queued }) => {
    await fetch(`${mock.url}/_sandbox/errors`, { method: "DELETE", headers: HEADERS });
    const response = await fetch(`${mock.url}/_sandbox/errors`, { method: "POST", headers: HEADERS, body: JSON.stringify(body) });
    const answer = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(queued ? 201 : 400);
    const judged = document.validateRequest({ operationId: "createError", body });
    expect(judged.valid, JSON.stringify(judged.violations)).toBe(queued);
    // The answer is one the document describes.
    expect(document.validateResponse({ operationId: "createError", status: response.status, body: answer }).violations).toEqual([]);
  });

  it("declares the 400 of a filter over its length limit on GET /_sandbox/events", async () => {
    const response = await fetch(`${mock.url}/_sandbox/events?resource=${"r".repeat(101)}`, { headers: HEADERS });
    const answer = await response.json();
    expect(response.status).toBe(400);
    expect(answer).toMatchObject({ field: "resource" });
    expect(document.validateResponse({ operationId: "listEvents", status: 400, body: answer }).violations).toEqual([]);
  });
});
