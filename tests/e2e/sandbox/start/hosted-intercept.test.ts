/**
 * Which requests a hosted sandbox's control API is asked about (src/sandbox/index.ts `mayIntercept`
 * with `hosted`): every one, since each passes the credential gate first (src/sandbox/hosting.ts),
 * whatever its target; a local sandbox, over the same tiny document, only those naming `/_sandbox`.
 * And what a hosted sandbox feeds hosted mode's metrics: what it holds, read at each scrape, and
 * each delivery's outcome, until it is closed.
 */
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type { DeliveryOutcome } from "../../../../src/sandbox/delivery/deliverer.js";
import type { Holdings, HostedSandbox } from "../../../../src/sandbox/hosting.js";
import { createSandbox } from "../../../../src/sandbox/index.js";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Hosted hooks (test)", version: "1.0.0" },
  paths: { "/v1/ping": { get: { operationId: "ping", responses: { "204": { description: "pong" } } } } },
};
const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const entry = { ...fixture, alias: "hosted-hooks@1.0.0" };

/** The part of hosted mode's service a sandbox uses before any request: where it reports what it holds and how deliveries end. */
const sources: Array<() => Holdings[]> = [];
const outcomes: Array<[string, DeliveryOutcome]> = [];
let removals = 0;
const service = {
  holdings: (source: () => Holdings[]) => {
    sources.push(source);
    return () => removals++;
  },
  delivery: (api: string, outcome: DeliveryOutcome) => outcomes.push([api, outcome]),
  boundsOf: () => undefined,
} as unknown as HostedSandbox;

const hosted = createSandbox(entry, doc, { hosted: { service } }, "inline");
const local = createSandbox(entry, doc, {}, "inline");
afterAll(async () => {
  await hosted.close();
  await local.close();
});
const asks = (sandbox: typeof hosted, url: string | undefined) => sandbox.hooks.mayIntercept!({ url } as IncomingMessage);

describe("mayIntercept of a hosted sandbox", () => {
  it.each(["/v1/ping", "/", "/_sandbox/state", undefined])("asks about %s (the credential gate sees every request)", (url) =>
    expect(asks(hosted, url)).toBe(true),
  );

  it("where a local sandbox asks only about the control API's paths", () => {
    expect(asks(local, "/v1/ping")).toBe(false);
    expect(asks(local, undefined)).toBe(false);
    expect(asks(local, "/_sandbox/state")).toBe(true);
  });
});

describe("a hosted sandbox's metrics", () => {
  it("reports what it holds, by API, at each read", () => {
    expect(sources).toHaveLength(1);
    expect(sources[0]()).toEqual([{ api: "hosted-hooks@1.0.0", records: 0, bytes: 0, queuedCallbacks: 0 }]);
  });

  it("counts each delivery's outcome under its API, and stops both when closed", async () => {
    const other = createSandbox(entry, doc, { hosted: { service } }, "inline");
    other.engine.deliverer.onOutcome?.("delivered");
    other.engine.deliverer.onOutcome?.("refused");
    expect(outcomes).toEqual([
      ["hosted-hooks@1.0.0", "delivered"],
      ["hosted-hooks@1.0.0", "refused"],
    ]);
    const before = removals;
    await other.close();
    expect(removals).toBe(before + 1);
    expect(other.engine.deliverer.onOutcome).toBeUndefined();
  });
});
