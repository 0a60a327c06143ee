/**
 * Why a delivery in flight when the sandbox stops is failed (src/sandbox/delivery/deliverer.ts
 * `close`: "what waits fails at once; deliveries in flight end with their current attempt"): an
 * attempt that fails after the stop fails its delivery as stopped, its last attempt included (not as
 * out of attempts: the stop, not the receiver, ended it); with `keep` (a durable store) it stays
 * queued for the next start, its next attempt due. Receivers hold their answers until told: no sleeps.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { orderPaidEvent } from "../../../helpers/queued-delivery.js";
import { useHookReceivers } from "../../../helpers/hook-receiver.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const STOPPED = "the sandbox stopped before the delivery succeeded";
const { receiver, closeAfter } = useHookReceivers();

const event = (url: string) => orderPaidEvent(url, { idempotencyKey: "key-of-the-event" });

const deliverer = (attempts: number) =>
  closeAfter(new Deliverer({ alias: shop.alias, registry, retry: { attempts, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 30_000 } }));

describe("an attempt that fails after the sandbox stopped", () => {
  for (const attempts of [1, 3]) {
    it(`fails its delivery as stopped (${attempts === 1 ? "its last attempt" : "attempts left"}), once`, async () => {
      const target = await receiver();
      const d = deliverer(attempts);
      const outcomes: string[] = [];
      d.onOutcome = (outcome) => outcomes.push(outcome);
      const state = new CredentialState("k");
      const entry = d.enqueue(state, event(target.url));
      await target.arrived(1);
      d.close();
      target.answer(503);
      await d.idle();
      expect(entry).toMatchObject({ state: "failed", note: STOPPED, deliveredCount: 0 });
      expect(entry.attempts.map((a) => a.status)).toEqual([503]);
      expect(outcomes).toEqual(["failed"]);
      expect(state.queue).toEqual([]);
    }, 10_000);
  }

  it("stays queued with its next attempt due when what waits is kept (a durable store), its last attempt not", async () => {
    const target = await receiver();
    const d = deliverer(2);
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(target.url));
    await target.arrived(1);
    d.close({ keep: true });
    target.answer(503);
    await d.drain(10_000);
    expect(entry).toMatchObject({ state: "pending", deliveredCount: 0 });
    expect(state.queue).toHaveLength(1);
    expect(state.queue[0]).toMatchObject({ attempts: 1, next: "attempt", lease: undefined });
  }, 10_000);
});
