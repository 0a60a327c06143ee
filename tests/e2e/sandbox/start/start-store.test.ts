/**
 * The store a sandbox's start is given (src/sandbox/start.ts, the `store` option of
 * src/sandbox/options.ts): a maker of the store (tests) is used as it is, the states shown as
 * `memory`; a durable store that fails once leased (here: a namespace the store refuses, an API alias
 * outside the registry's form) fails the start with the store's own error, naming what is wrong.
 * Which requests a started sandbox is asked about before its engine is made: the control API's on
 * memory; every one on a durable store (so that stopping waits for each whole) and in hosted mode
 * (the credential gate).
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startMock } from "../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type { HostedSandbox } from "../../../../src/sandbox/hosting.js";
import { startSandbox } from "../../../../src/sandbox/start.js";
import { MemoryStore } from "../../../../src/sandbox/store/memory.js";
import type { StateStoreOptions } from "../../../../src/sandbox/store/store.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-start-store-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a maker of the store", () => {
  it("is the store the sandbox keeps its states in, shown as memory", async () => {
    const made: StateStoreOptions[] = [];
    const store = (options: StateStoreOptions) => {
      made.push(options);
      return new MemoryStore(options);
    };
    const mock = await startMock(shop, { port: 0, sandbox: { declarationPath, registry, store } });
    try {
      expect(mock.store).toBe("memory");
      const answer = await fetch(`${mock.url}/v1/order`, {
        method: "POST",
        headers: { authorization: "Bearer start-store-maker", "content-type": "application/json" },
        body: JSON.stringify({ merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } }),
      });
      expect(answer.status).toBe(200);
      expect(made).toHaveLength(1);
      // Once the engine is made, the next request is answered from the same store.
      const { order_id } = await answer.json();
      const read = await fetch(`${mock.url}/v1/order/${order_id}`, { headers: { authorization: "Bearer start-store-maker" } });
      expect(read.status).toBe(200);
      expect((await read.json()).order_id).toBe(order_id);
      expect(made).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });
});

describe("a durable store that fails once leased", () => {
  it("fails the start with the store's error", async () => {
    const entry = { ...shop, alias: "shop/1.0.0" };
    let failure: unknown;
    try {
      const started = await startSandbox(entry, { declarationPath, registry, store: `file:${join(work, "states")}` });
      await started.close();
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe(
      'store namespace: expected 1 to 100 letters, digits, "@", ".", "_" or "-" (an API\'s alias), got "shop/1.0.0"',
    );
  });
});

describe("the requests a started sandbox is asked about", () => {
  const asks = (started: { hooks: { mayIntercept?: (request: IncomingMessage) => boolean } }, url: string) =>
    started.hooks.mayIntercept!({ url } as IncomingMessage);

  it("on memory: the control API's paths only", async () => {
    const started = await startSandbox(shop, { declarationPath, registry, store: "memory" });
    try {
      expect(started.store).toBe("memory");
      expect(asks(started, "/v1/order")).toBe(false);
      expect(asks(started, "/_sandbox/state")).toBe(true);
    } finally {
      await started.close();
    }
  });

  it("on a durable store and in hosted mode: every request", async () => {
    const durable = await startSandbox(shop, { declarationPath, registry, store: `file:${join(work, "asked")}` });
    try {
      expect(asks(durable, "/v1/order")).toBe(true);
    } finally {
      await durable.close();
    }
    const service = { holdings: () => () => {}, delivery: () => {}, boundsOf: () => undefined } as unknown as HostedSandbox;
    const hosted = await startSandbox(shop, { declarationPath, registry, store: "memory", hosted: { service } });
    try {
      expect(asks(hosted, "/v1/order")).toBe(true);
    } finally {
      await hosted.close();
    }
  });
});
