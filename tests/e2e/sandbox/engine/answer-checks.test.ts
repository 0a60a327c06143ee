/**
 * The check of a sandbox answer against its operation (src/sandbox/engine/answer.ts validateAnswer)
 * where its shortcut for a body the schema accepts must agree with the contract validator
 * (src/validation/contract.ts), on a tiny hand-written document: an empty body (none, null, "") is a
 * missing body even where the schema would take it, a JSON body without a schema is anything, a
 * status with several media types and none JSON cannot be picked without a Content-Type, a status
 * that is no HTTP status is refused even where a default response would answer it, and a refusal's
 * reason travels beside a body the schema accepts. Also: a body is shaped by the JSON media type of
 * its status, whatever the order the status lists its media types in.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { RATE_LIMIT_TITLE, shapeAnswer, validateAnswer } from "../../../../src/sandbox/engine/answer.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";

const get = (operationId: string, responses: Record<string, unknown>) => ({ get: { operationId, responses } });
const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Answer checks (test)", version: "1.0.0" },
  paths: {
    // A schema that takes any value, null and "" included: only the validator's empty-body rule tells them apart.
    "/v1/anything": get("getAnything", { "200": { description: "ok", content: { "application/json": { schema: {} } } } }),
    "/v1/text": get("getText", { "200": { description: "ok", content: { "application/json": { schema: { type: "string" } } } } }),
    "/v1/unschemed": get("getUnschemed", { "200": { description: "ok", content: { "application/json": {} } } }),
    "/v1/report": get("getReport", {
      "200": { description: "ok", content: { "application/xml": { schema: {} }, "text/csv": { schema: {} } } },
    }),
    "/v1/fallback": get("getFallback", {
      default: { description: "any", content: { "application/json": { schema: { type: "object" } } } },
    }),
    "/v1/thing": get("getThing", {
      "200": {
        description: "ok",
        content: {
          "text/plain": { schema: { type: "string" } },
          "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } },
        },
      },
    }),
  },
};

const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...fixture, alias: "answer-checks@1.0.0" }, doc, {}, "inline");
afterAll(() => engine.close());

const missing = { location: ["response", "body"], severity: "Error", code: undefined, message: expect.stringMatching(/is missing/) };

describe("an empty body", () => {
  it("is a missing body where the schema takes any value, null and the empty text alike", () => {
    for (const body of [undefined, null, ""])
      expect(validateAnswer(engine, "getAnything", { status: 200, body }), JSON.stringify(body)).toEqual([missing]);
  });

  it("is a missing body where the schema takes a text", () => {
    expect(validateAnswer(engine, "getText", { status: 200, body: "" })).toEqual([missing]);
    expect(validateAnswer(engine, "getText", { status: 200, body: "a text" })).toEqual([]);
  });

  it("is the only finding: a body that is there and taken has none, the same asked twice", () => {
    for (let i = 0; i < 2; i++) {
      expect(validateAnswer(engine, "getAnything", { status: 200, body: 0 })).toEqual([]);
      expect(validateAnswer(engine, "getAnything", { status: 200, body: false })).toEqual([]);
      expect(validateAnswer(engine, "getAnything", { status: 200, body: null })).toEqual([missing]);
    }
  });
});

describe("a status's media types", () => {
  it("a JSON body without a schema is any body, but not none", () => {
    expect(validateAnswer(engine, "getUnschemed", { status: 200, body: { any: ["thing"] } })).toEqual([]);
    expect(validateAnswer(engine, "getUnschemed", { status: 200 })).toEqual([missing]);
  });

  it("several, none JSON, cannot be picked for a body without its Content-Type", () => {
    expect(validateAnswer(engine, "getReport", { status: 200, body: "a,b" })).toEqual([
      { location: ["response", "body"], severity: "Error", code: undefined, message: expect.stringMatching(/several media types/) },
    ]);
  });
});

describe("a status that is no HTTP status", () => {
  it("is refused by the contract validator, even where the operation's default response would answer it", () => {
    for (const status of [99, 600, 200.5])
      expect(() => validateAnswer(engine, "getFallback", { status, body: {} }), String(status)).toThrow(
        /status must be an HTTP status code/,
      );
  });

  it("is not any status from 100 to 599, which the default response answers", () => {
    for (const status of [100, 204, 599]) {
      expect(validateAnswer(engine, "getFallback", { status, body: {} }), String(status)).toEqual([]);
      expect(validateAnswer(engine, "getFallback", { status, body: [] }), String(status)).toEqual([
        { location: ["response", "body"], severity: "Error", code: "type", message: "must be object" },
      ]);
    }
  });
});

describe("the answer checks kept", () => {
  it("are bounded: statuses an odd caller makes up fill 10,000 pairs at most", () => {
    const fresh = createEngine({ ...fixture, alias: "answer-checks-bound@1.0.0" }, doc, {}, "inline");
    try {
      let refused = 0;
      for (let status = 10_000; status < 20_050; status++) {
        try {
          validateAnswer(fresh, "getAnything", { status, body: {} });
        } catch (error) {
          if (error instanceof TypeError) refused++;
        }
      }
      expect(refused).toBe(10_050);
      expect(fresh.answerChecks.size).toBe(10_000);
    } finally {
      fresh.close();
    }
  });
});

describe("a refusal's reason", () => {
  it("travels beside a body the schema accepts", () => {
    const reason = { detail: "the account is closed" };
    expect(validateAnswer(engine, "getAnything", { status: 200, body: { code: "CLOSED" }, reason })).toEqual([
      { location: ["request"], severity: "Information", code: "sandbox-refusal", message: "the account is closed" },
    ]);
  });
});

describe("the sandbox's own answers", () => {
  it("are told by their status and title together: another status with the same title is the contract's to judge", () => {
    // The titles of the control API's TooManyRequests and StoreUnavailable (src/sandbox/openapi.yaml).
    for (const title of [RATE_LIMIT_TITLE, "Sandbox store unavailable"])
      expect(validateAnswer(engine, "getAnything", { status: 400, body: { title } }), title).toEqual([
        {
          location: ["response", "status"],
          severity: "Error",
          code: "status",
          message: expect.stringMatching(/status 400 is not declared/),
        },
      ]);
  });
});

describe("a body shaped to its status", () => {
  it("follows the JSON media type's schema where a text one is listed first", () => {
    expect(shapeAnswer(engine, engine.operation("getThing")!, 200, { id: "t-1", secret: "kept out" })).toEqual({ id: "t-1" });
  });
});
