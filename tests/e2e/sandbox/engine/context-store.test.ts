/**
 * The engine's context (src/sandbox/engine/context.ts) as its options make it: a store address is
 * opened when the mock starts, so createSandbox refuses one with an error that names the API and the
 * address, never a Postgres password (src/sandbox/README.md: the store's address "without its
 * password"); `memory`, the default, is taken as it is; and a resource the declaration does not have
 * is named with the API.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Context (test)", version: "1.0.0" },
  paths: { "/v1/ping": { get: { operationId: "ping", responses: { "204": { description: "pong" } } } } },
};
const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const entry = { ...fixture, alias: "context@1.0.0" };
const make = (store?: string) => createEngine(entry, doc, { store }, "inline");

describe("the store option of createSandbox", () => {
  it("refuses an address, which the mock's start opens, naming the API and the address", () => {
    expect(() => make("file:.tmp/sandbox-states")).toThrow(
      new TypeError(
        'context@1.0.0: the sandbox\'s store "file:.tmp/sandbox-states" is opened when the mock starts (startMock, or startSandbox): createSandbox takes a store made already',
      ),
    );
  });

  it("never repeats a Postgres password", () => {
    let message = "";
    try {
      make("postgres://sandbox:pa55-w0rd@db.internal:5432/states?sslpassword=k3y-s3cret");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^context@1\.0\.0: the sandbox's store "postgres:\/\/sandbox:\*\*\*@db\.internal:5432\/states\?sslpassword=\*\*\*" is opened/,
    );
    expect(message).not.toMatch(/pa55-w0rd|k3y-s3cret/);
  });

  it("takes memory, and no store, as the memory store", async () => {
    for (const store of ["memory", undefined]) {
      const engine = make(store);
      expect(engine.store.durable).toBe(false);
      await engine.close();
    }
  });
});

describe("a resource of the declaration", () => {
  it("is named with the API when the declaration has none of that name", async () => {
    const engine = make();
    expect(() => engine.resource("invoice")).toThrow(new Error('context@1.0.0: no resource "invoice" in the sandbox declaration'));
    await engine.close();
  });
});
