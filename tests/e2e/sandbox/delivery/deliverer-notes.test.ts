/**
 * The deliverer's definitions made when its module loads, the module loaded as a new instance by the
 * test (tests/helpers/fresh-module.ts): the notes of a delivery ended by the sandbox (stopped, its
 * credential's state reset), the attempt logged without an outcome when the process making it
 * stopped, the store's path taken directly when no other is given, and a store's path that answers
 * later (a durable store's) awaited before the attempt it starts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type * as DelivererModule from "../../../../src/sandbox/delivery/deliverer.js";
import type { DelivererOptions } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { freshModule } from "../../../helpers/fresh-module.js";
import { useHookReceivers } from "../../../helpers/hook-receiver.js";
import { orderPaidEvent, queuedDeliveryState } from "../../../helpers/queued-delivery.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const { receiver, closeAfter } = useHookReceivers();

const deliverer = async (options: Partial<DelivererOptions> = {}) => {
  const { Deliverer } = await freshModule<typeof DelivererModule>("src/sandbox/delivery/deliverer.ts");
  return closeAfter(
    new Deliverer({ alias: shop.alias, registry, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 30_000 }, ...options }),
  );
};

describe("a delivery the sandbox ends", () => {
  it("is failed as stopped when the sandbox stops during its attempt", async () => {
    const target = await receiver();
    const d = await deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, orderPaidEvent(target.url));
    await target.arrived(1);
    d.close();
    target.answer(503);
    await d.idle();
    expect(entry).toMatchObject({ state: "failed", note: "the sandbox stopped before the delivery succeeded" });
  });

  it("is failed as cancelled when its credential's state is reset", async () => {
    const target = await receiver();
    const d = await deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, orderPaidEvent(target.url));
    await target.arrived(1);
    d.cancel(state);
    await d.idle();
    expect(entry).toMatchObject({
      state: "failed",
      note: "the credential's state was reset or dropped before the delivery succeeded",
    });
  });
});

describe("an attempt whose maker stopped during it", () => {
  it("is logged without an outcome, saying so, and made again", async () => {
    const target = await receiver([200]);
    const loaded = queuedDeliveryState(target.url, {
      name: "queued",
      payload: { order_id: "o-1", status: "PAID" },
      attempts: 1,
      lease: Date.now() + 3_600_000,
    });
    const d = await deliverer();
    d.watch(loaded);
    await d.idle();
    expect(loaded.deliveries[0].attempts.map((a) => [a.status, a.error])).toEqual([
      [0, "no outcome: the sandbox process making this attempt stopped during it; it is made again"],
      [200, undefined],
    ]);
  });
});

describe("the store's path", () => {
  it("is taken directly when no other is given: the delivery is made and recorded", async () => {
    const target = await receiver([200]);
    const d = await deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, orderPaidEvent(target.url));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(target.seen).toHaveLength(1);
  });

  it("is awaited when it answers later, as a durable store's does, before the attempt it starts", async () => {
    const target = await receiver([200]);
    const runs: string[] = [];
    const d = await deliverer({
      run: async (state, work) => {
        runs.push("run");
        await Promise.resolve();
        return work(state);
      },
    });
    const state = new CredentialState("k");
    const entry = d.enqueue(state, orderPaidEvent(target.url));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(target.seen).toHaveLength(1);
    expect(runs.length).toBeGreaterThanOrEqual(2); // the step that starts the attempt, then its outcome
  });
});
