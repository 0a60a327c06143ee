/**
 * The Retry-After of a forced status (src/sandbox/engine/forced.ts `forcedAnswer`), on the engine
 * of the fixture API shop@1.0.0 (tests/fixtures/mock, tests/fixtures/sandbox/shop.sandbox.yaml).
 * The control API's document (src/sandbox/openapi.yaml, `retry_after`: an integer from 0 to 86400)
 * and docs/guides/sandbox.md say it: "`retry_after` adds a `Retry-After` header". A rule without
 * one adds none, and a rule of 0 seconds adds `Retry-After: 0` (RFC 9110 10.2.3: delay-seconds is a
 * non-negative integer).
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { forcedAnswer } from "../../../../src/sandbox/engine/forced.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const engine = createEngine(shop, loadDocument(shop.bundlePath), {
  declarationPath: join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"),
  registry: registryPath,
});
afterAll(() => engine.close());

/** The answer a fresh credential gets from createOrder with one status rule queued. */
function forced(credential: string, rule: { status: number; retryAfter?: number }) {
  const state = engine.store.run(credentialKey(credential), (s) => s) as CredentialState;
  state.addErrorRule({ id: "err_1", operationId: "createOrder", remaining: 1, ...rule });
  const op = engine.operation("createOrder");
  if (!op) throw new Error("no operation createOrder in the fixture");
  return forcedAnswer(engine, state, op);
}

describe("a forced status's Retry-After", () => {
  it("is absent when the rule gives no retry_after", () => {
    const answer = forced("forced-retry-none", { status: 503 });
    expect(answer?.status).toBe(503);
    expect(Object.keys(answer?.headers ?? {}).map((name) => name.toLowerCase())).not.toContain("retry-after");
  });

  it("is 0 seconds when the rule gives 0", () => {
    const answer = forced("forced-retry-zero", { status: 429, retryAfter: 0 });
    expect(answer?.status).toBe(429);
    expect(answer?.headers?.["Retry-After"]).toBe("0");
  });
});
