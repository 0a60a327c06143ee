/**
 * What `sl-violations` says of a sandbox answer (src/sandbox/engine/answer.ts), on a tiny
 * hand-written document: the contract validator's findings in the form Prism writes them (the
 * location a path of tokens under `response.body`, or `response.status`; severity Error; the JSON
 * Schema keyword as the code, `status` for an undeclared status), and the sandbox's own answers (a
 * bound's 507, a hosted rate's 429, a durable store's 503) named as deviations only where the
 * operation does not declare their status, by the titles the control API's document gives them.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import {
  jsonPathTokens,
  limitAnswer,
  rateLimitAnswer,
  storeAnswer,
  toSlViolations,
  validateAnswer,
} from "../../../../src/sandbox/engine/answer.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { problem } from "../../../../src/sandbox/problem.js";
import { LimitError } from "../../../../src/sandbox/store/limits.js";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Violations (test)", version: "1.0.0" },
  paths: {
    "/v1/items": {
      get: {
        operationId: "listItems",
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["items"],
                  additionalProperties: false,
                  properties: {
                    items: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } },
                    "next page": { type: "string" },
                  },
                },
              },
            },
          },
        },
      },
    },
    // An operation that declares the statuses of the sandbox's own answers.
    "/v1/jobs": {
      post: {
        operationId: "createJob",
        responses: {
          "201": { description: "created" },
          "429": { description: "too many" },
          "503": { description: "unavailable" },
          "507": { description: "full" },
        },
      },
    },
  },
};

const [tiny] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...tiny, alias: "violations@1.0.0" }, doc, {}, "inline");
afterAll(() => engine.close());

describe("a JSONPath of the contract validator as location tokens", () => {
  it.each([
    ["$", []],
    ["$.items", ["items"]],
    ["$.items[12].id", ["items", "12", "id"]],
    ["$.a_b$1.c", ["a_b$1", "c"]],
    ['$["next page"]', ["next page"]],
    ['$.items[0]["say \\"hi\\""]', ["items", "0", 'say "hi"']],
  ])("%s", (path, tokens) => {
    expect(jsonPathTokens(path)).toEqual(tokens);
  });
});

describe("the contract validator's findings as sl-violations", () => {
  it("locates a body's finding by its path under response.body, the keyword its code", () => {
    expect(validateAnswer(engine, "listItems", { status: 200, body: { items: [{ id: "a" }, { id: 7 }] } })).toEqual([
      { location: ["response", "body", "items", "1", "id"], severity: "Error", code: "type", message: "must be string" },
    ]);
    expect(validateAnswer(engine, "listItems", { status: 200, body: { items: [], "next page": 2 } })).toEqual([
      { location: ["response", "body", "next page"], severity: "Error", code: "type", message: "must be string" },
    ]);
  });

  it("has no code for a finding no keyword made, as a missing body", () => {
    const [found] = validateAnswer(engine, "listItems", { status: 200 });
    expect(found).toEqual({
      location: ["response", "body"],
      severity: "Error",
      code: undefined,
      message: expect.stringMatching(/missing/),
    });
  });

  it("locates an undeclared status at response.status, with the code status", () => {
    const [found] = validateAnswer(engine, "listItems", { status: 418 });
    expect(found).toEqual({ location: ["response", "status"], severity: "Error", code: "status", message: expect.stringMatching(/418/) });
  });

  it("locates a parameter's finding by where it is, without a code where no keyword made it", () => {
    expect(toSlViolations([{ in: "header", path: "header.x-request-id", message: "is required" }])).toEqual([
      { location: ["response", "header"], severity: "Error", code: undefined, message: "is required" },
    ]);
  });
});

describe("the sandbox's own answers", () => {
  // The titles the sandbox's control API document gives its own 429 and 503 (src/sandbox/openapi.yaml
  // TooManyRequests, StoreUnavailable), and the 507 of a bound.
  it("are problem+json with their own titles and the reason as detail", () => {
    expect(limitAnswer(new LimitError("this credential holds 1000 records, its limit"))).toEqual({
      status: 507,
      headers: { "Content-Type": "application/problem+json" },
      body: { type: "about:blank", title: "Sandbox limit reached", status: 507, detail: "this credential holds 1000 records, its limit" },
    });
    expect(storeAnswer(new StoreUnavailable("the sandbox is stopping: its store is closed"))).toEqual({
      status: 503,
      headers: { "Content-Type": "application/problem+json", "Retry-After": "1" },
      body: {
        type: "about:blank",
        title: "Sandbox store unavailable",
        status: 503,
        detail: "the sandbox is stopping: its store is closed",
      },
    });
    expect(rateLimitAnswer("over the rate", 2).body).toMatchObject({ title: "Sandbox rate limit reached", status: 429 });
  });

  it("name a store's 503 a deviation where the operation does not declare 503, and leave a forced 503 to the contract", () => {
    const detail = "the sandbox is stopping: its store is closed";
    expect(validateAnswer(engine, "listItems", storeAnswer(new StoreUnavailable(detail)))).toEqual([
      {
        location: ["response", "status"],
        severity: "Error",
        code: "sandbox-store",
        message: `503 is the sandbox's own answer when its store cannot keep a request's changes (not a status listItems declares): ${detail}`,
      },
    ]);
    const forced = validateAnswer(engine, "listItems", problem(503, "forced by the sandbox's control API (error rule err_1)"));
    expect(forced.map((v) => v.code)).toEqual(["status"]);
  });

  it("are no deviation where the operation declares their status", () => {
    expect(validateAnswer(engine, "createJob", limitAnswer(new LimitError("full")))).toEqual([]);
    expect(validateAnswer(engine, "createJob", storeAnswer(new StoreUnavailable("closed")))).toEqual([]);
    expect(validateAnswer(engine, "createJob", rateLimitAnswer("over the rate", 1))).toEqual([]);
  });

  it("name a 507 without a body with an empty reason", () => {
    expect(validateAnswer(engine, "listItems", { status: 507 })).toEqual([
      {
        location: ["response", "status"],
        severity: "Error",
        code: "sandbox-limit",
        message: "507 is the sandbox's own answer when one of its bounds is reached (not a status listItems declares): ",
      },
    ]);
  });
});
