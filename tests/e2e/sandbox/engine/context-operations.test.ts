/**
 * What the engine's context (src/sandbox/engine/context.ts) takes from the document it is given, on a
 * tiny hand-written one: its operations are the API's paths alone (a webhook is an operation the
 * provider calls, never one a partner's request reaches), and its contract validator judges that
 * document, not the registry entry's bundle.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Context operations (test)", version: "1.0.0" },
  paths: {
    "/v1/things/{thing_id}": {
      get: {
        operationId: "getThing",
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { type: "object", required: ["id"] } } } },
        },
      },
    },
  },
  webhooks: {
    thingDone: {
      post: {
        operationId: "thingDone",
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: { "204": { description: "received" } },
      },
    },
  },
};

const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...fixture, alias: "context-operations@1.0.0" }, doc, {}, "inline");
afterAll(() => engine.close());

describe("the engine's operations", () => {
  it("are the API's paths: a webhook is none, nor an unknown id", () => {
    expect(engine.operation("getThing")?.path).toBe("/v1/things/{thing_id}");
    expect(engine.operation("thingDone")).toBeUndefined();
    expect(engine.operation("noSuchOperation")).toBeUndefined();
    expect(engine.operations.map((op) => op.operationId)).toEqual(["getThing"]);
  });
});

describe("the engine's contract validator", () => {
  it("judges the document the engine was given", () => {
    expect(engine.validator.validateResponse({ operationId: "getThing", status: 200, body: { id: "t-1" } }).violations).toEqual([]);
    expect(engine.validator.validateResponse({ operationId: "getThing", status: 200, body: {} }).violations).toEqual([
      { in: "body", path: "$.id", keyword: "required", message: "is required" },
    ]);
  });
});
