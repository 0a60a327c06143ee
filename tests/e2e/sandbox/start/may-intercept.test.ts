/**
 * The answer of a sandbox's `mayIntercept` hook (src/sandbox/index.ts `createSandbox`), a boolean as
 * src/mock/types.ts `MockHooks` declares it, for a sandbox made in the test itself: hosted, true for
 * every request (each passes the credential gate); local, true for a target naming `_sandbox` however
 * it is written, false for any other while no latency or drop rule is queued.
 */
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type { HostedSandbox } from "../../../../src/sandbox/hosting.js";
import { createSandbox } from "../../../../src/sandbox/index.js";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Intercept hook (test)", version: "1.0.0" },
  paths: { "/v1/ping": { get: { operationId: "ping", responses: { "204": { description: "pong" } } } } },
};
const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const entry = { ...fixture, alias: "intercept-hook@1.0.0" };

/** The part of hosted mode's service a sandbox uses before any request. */
const service = { holdings: () => () => {}, delivery: () => {}, boundsOf: () => undefined } as unknown as HostedSandbox;

/** What the hook of a sandbox made now answers for each target. */
async function answers(options: Parameters<typeof createSandbox>[2], urls: Array<string | undefined>) {
  const sandbox = createSandbox(entry, doc, options, "inline");
  try {
    return urls.map((url) => sandbox.hooks.mayIntercept!({ url } as IncomingMessage));
  } finally {
    await sandbox.close();
  }
}

describe("mayIntercept of a sandbox made in the test", () => {
  it("hosted: true for every request, whatever its target", async () => {
    expect(await answers({ hosted: { service } }, ["/v1/ping", "/", "/_sandbox/state", undefined])).toEqual([true, true, true, true]);
  });

  it("local: true for a target naming _sandbox, false for the API's own and for none", async () => {
    expect(await answers({}, ["/_sandbox/state", "\\_sandbox", "/v1/../_sandbox/errors", "/v1/ping", "/", undefined])).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
