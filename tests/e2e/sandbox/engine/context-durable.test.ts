/**
 * What the engine's context (src/sandbox/engine/context.ts) does with a store by its kind
 * (src/sandbox/README.md, "The one path to a state"): stopping with the memory store fails the
 * callbacks that wait, with a durable store keeps them for the next start; and on a store other
 * instances share (Postgres), a delivery another instance holds the lease of is left to it until
 * the lease ends, where on a store of its own it is made again at once. The store here is the memory
 * store standing in for a durable one (`durable`, `backend.shared`: all the context reads of it), on
 * vitest's fake clock; the real stores under the engine: tests/unit/src/sandbox/store/durable.test.ts.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { MemoryStore } from "../../../../src/sandbox/store/memory.js";
import type { CredentialState } from "../../../../src/sandbox/store/state.js";
import type { StateStore, StateStoreOptions } from "../../../../src/sandbox/store/store.js";

const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Stores (test)", version: "1.0.0" },
  paths: { "/v1/ping": { get: { operationId: "ping", responses: { "204": { description: "pong" } } } } },
};
const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const entry = { ...fixture, alias: "stores@1.0.0" };
const HOUR = 3_600_000;

/** The memory store as a durable one: closing keeps every state (nothing to write here), its backend shared with other instances or not. */
const durable =
  (shared: boolean) =>
  (options: StateStoreOptions): StateStore =>
    Object.assign(new MemoryStore(options), { durable: true, backend: { shared }, close() {} }) as unknown as StateStore;

/** An engine over `store` with one attempt per delivery: a delivery found abandoned has none left, so nothing is sent. */
const engineOn = (store?: (options: StateStoreOptions) => StateStore) =>
  createEngine(entry, doc, { store, retry: { attempts: 1 } }, "inline");

/** A credential's state with one callback waiting: due in an hour, or its attempt leased until `lease` by an instance. */
function waiting(engine: EngineContext, lease?: number): CredentialState {
  const state = engine.store.run("key-of-the-context-test", (s) => s) as CredentialState;
  const entry = {
    id: "dlv_waiting",
    seq: 0,
    webhook: "pinged",
    resource: "ping",
    resourceId: "p-1",
    event: { to: "DONE", cause: "control" },
    url: "http://127.0.0.1:9/hook",
    idempotencyKey: "key-of-the-waiting-delivery",
    payload: {},
    state: "pending" as const,
    times: 1,
    deliveredCount: 0,
    attempts: [],
    createdAt: new Date().toISOString(),
  };
  state.logDelivery(entry);
  state.queueDelivery({
    entry,
    target: entry.url,
    attempts: lease === undefined ? 0 : 1,
    dueAt: Date.now() + HOUR,
    next: "attempt",
    lease,
  });
  engine.deliverer.watch(state);
  return state;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("stopping", () => {
  it("fails the callbacks that wait in memory", async () => {
    const engine = engineOn();
    const state = waiting(engine);
    await engine.close();
    // Failed for the stop (not as a state reset or dropped).
    expect(state.deliveries[0]).toMatchObject({ state: "failed", note: expect.stringMatching(/sandbox stopped/) });
    expect(state.queue).toHaveLength(0);
  });

  it("keeps them, still pending, in a durable store", async () => {
    const engine = engineOn(durable(false));
    const state = waiting(engine);
    await engine.close();
    expect(state.deliveries[0]).toMatchObject({ state: "pending", attempts: [] });
    expect(state.queue.map((p) => p.entry.id)).toEqual(["dlv_waiting"]);
  });
});

describe("a delivery leased by an instance that is not this process", () => {
  it("is made again at once on a store of its own (the instance stopped during its attempt)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const engine = engineOn(durable(false));
    const state = waiting(engine, Date.now() + HOUR);
    await vi.advanceTimersByTimeAsync(1);
    // Its one attempt abandoned: failed, nothing sent.
    expect(state.deliveries[0]).toMatchObject({ state: "failed", attempts: [{ status: 0 }] });
    await engine.close();
  });

  it("is left to that instance until its lease ends on a store instances share", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const engine = engineOn(durable(true));
    const lease = Date.now() + HOUR;
    const state = waiting(engine, lease);
    await vi.advanceTimersByTimeAsync(HOUR - 1_000);
    expect(state.deliveries[0]).toMatchObject({ state: "pending", attempts: [] });
    expect(state.queue[0].lease).toBe(lease);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(state.deliveries[0]).toMatchObject({ state: "failed", attempts: [{ status: 0 }] });
    await engine.close();
  });
});
