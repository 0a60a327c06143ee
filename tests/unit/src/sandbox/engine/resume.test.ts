/**
 * A state brought in from a store's rows (src/sandbox/engine/resume.ts): what it has due without a
 * request is taken into the engine's schedulers (its queued delivery, its scheduled move), and the
 * latency or drop rule it holds is armed, as a durable store's states are at start.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { resume } from "../../../../../src/sandbox/engine/resume.js";
import { createSandbox, type Sandbox } from "../../../../../src/sandbox/index.js";
import { CredentialState, credentialKey } from "../../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.close();
});

/** A state with a queued delivery (due in an hour), a move scheduled a minute ahead on its clock, and a latency rule: as its rows, loaded. */
function loadedState() {
  const original = new CredentialState(credentialKey("token-of-the-resume-test"));
  original.advanceClock(5_000);
  const order = original.add("order", "o-1", { order_id: "o-1", status: "CREATED" });
  const at = original.now() + 60_000;
  original.scheduleMove({ resource: "order", id: "o-1", seq: order.seq, action: "pay", at, cause: "test value paid_later" });
  original.wakeBy(at);
  original.addErrorRule({ id: "err_1", operationId: "getOrder", status: 0, remaining: 1, latencyMs: 10 });
  const entry = {
    id: "dlv_1",
    seq: 0,
    webhook: "orderPaid",
    resource: "order",
    resourceId: "o-1",
    event: { to: "PAID", cause: "control" },
    url: "http://127.0.0.1:9/hook",
    idempotencyKey: "key-1",
    payload: {},
    state: "pending" as const,
    times: 1,
    deliveredCount: 0,
    attempts: [],
    createdAt: new Date().toISOString(),
  };
  original.logDelivery(entry);
  original.queueDelivery({ entry, target: "http://127.0.0.1:9/hook", attempts: 0, dueAt: Date.now() + 3_600_000, next: "attempt" });
  const loaded = CredentialState.load({ key: original.key, version: 3, rows: JSON.parse(JSON.stringify(original.rows())) });
  return { loaded, at };
}

describe("resume", () => {
  it("takes a loaded state's queued delivery and scheduled move into the schedulers, and arms its transport rule", () => {
    const sandbox = createSandbox(shop, loadDocument(shop.bundlePath), { declarationPath, registry });
    sandboxes.push(sandbox);
    const { engine } = sandbox;
    const { loaded, at } = loadedState();
    expect([engine.deliverer.queued(), engine.wakes.when(loaded.key), engine.transportArmed]).toEqual([0, undefined, false]);
    resume(engine, loaded);
    expect(engine.deliverer.queued()).toBe(1);
    // The move is due at `at` on the credential's clock, 5 s ahead of the real one; its wake a little after.
    const wake = engine.wakes.when(loaded.key)!;
    expect(wake).toBeGreaterThan(at - 5_000);
    expect(wake).toBeLessThan(at - 5_000 + 1_000);
    expect(engine.transportArmed).toBe(true);
  });
});
