/**
 * The delivery queue's steps in src/sandbox/delivery/deliverer.ts beyond the quick tier's files: a
 * step the store fails to run (tried again after an attempt's timeout, the delivery never stranded),
 * another instance's lease taken after the queue was watched (waited out on shared leases), a
 * delivery asked twice whose first delivery ends while the sandbox stops (failed, or kept for the
 * next start), an event whose URL is empty (skipped, no key), one refused by the URL rules (failed,
 * keeping its event's key) and an attempt the sender refuses before sending (its reason logged).
 * Receivers hold their answers until told: no sleeps.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHookReceivers } from "../../../helpers/hook-receiver.js";
import { orderPaidEvent, queuedDeliveryState } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer, type StateRunner } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const payload = { order_id: "o-1", status: "PAID" };
const STOPPED = "the sandbox stopped before the delivery succeeded";
const { receiver, closeAfter } = useHookReceivers();

const event = (url: string | undefined, times = 1, body: unknown = payload) =>
  orderPaidEvent(url, { times, payload: body, idempotencyKey: "key-of-the-event" });

function deliverer(options: { attempts?: number; timeoutMs?: number; run?: StateRunner; leases?: "own" | "shared" } = {}) {
  const d = new Deliverer({
    alias: shop.alias,
    registry,
    retry: { attempts: options.attempts ?? 3, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: options.timeoutMs ?? 30_000 },
    run: options.run,
    leases: options.leases,
  });
  return closeAfter(d);
}

describe("a step the store fails to run", () => {
  /**
   * A store whose first run fails after the work ran (its write failed): `keep` says whether what the
   * work changed stays in memory (a store that drops the state reads it back as stored, without it).
   */
  function failingOnce(keep: boolean) {
    const failures: number[] = [];
    const run: StateRunner = async (state, work) => {
      if (failures.length > 0) return work(state);
      const copy = keep ? state : CredentialState.load({ key: state.key, version: 1, rows: JSON.parse(JSON.stringify(state.rows())) });
      work(copy);
      failures.push(Date.now());
      throw new Error("the store could not write");
    };
    return { run, failures };
  }

  for (const keep of [false, true]) {
    it(`is tried again after an attempt's timeout, and the delivery is made once with its key (the failed step's lease ${keep ? "left in memory" : "dropped"})`, async () => {
      const target = await receiver();
      const { run, failures } = failingOnce(keep);
      const d = deliverer({ timeoutMs: 200, run });
      const state = new CredentialState("k");
      const entry = d.enqueue(state, event(target.url));
      await target.arrived(1);
      expect(failures).toHaveLength(1);
      // Not at once: the step waits an attempt's timeout after the failure.
      expect(target.seen[0].at - failures[0]).toBeGreaterThanOrEqual(200 - 2);
      target.answer(200);
      await d.idle();
      expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
      expect(target.seen.map((s) => s.key)).toEqual(["key-of-the-event"]);
      expect(state.queue).toEqual([]);
    }, 10_000);
  }
});

describe("another instance's lease on shared leases", () => {
  it("taken after the queue was watched, is waited out before the attempt is made again with the same key", async () => {
    const target = await receiver();
    const loaded = queuedDeliveryState(target.url, { name: "queued", payload });
    const d = deliverer({ leases: "shared" });
    d.watch(loaded);
    // Before the step due now runs, another instance takes the delivery for 300 ms.
    const lease = Date.now() + 300;
    loaded.queue[0].lease = lease;
    loaded.queue[0].attempts = 1;
    await target.arrived(1);
    expect(target.seen[0].at).toBeGreaterThanOrEqual(lease - 1);
    target.answer(200);
    await d.idle();
    expect(loaded.deliveries[0]).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(loaded.deliveries[0].attempts.map((a) => a.status)).toEqual([0, 200]);
    expect(target.seen.map((s) => s.key)).toEqual(["key-of-the-queued-delivery"]);
  });
});

describe("a delivery asked twice when the sandbox stops after its first delivery", () => {
  it("fails as stopped, delivered once, when what waits is not kept", async () => {
    const target = await receiver();
    const d = deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(target.url, 2));
    await target.arrived(1);
    d.close();
    target.answer(200);
    await d.idle();
    expect(entry).toMatchObject({ state: "failed", note: STOPPED, times: 2, deliveredCount: 1 });
    expect(target.seen).toHaveLength(1);
    expect(state.queue).toEqual([]);
  });

  it("stays queued for its second delivery, its attempts counted afresh, when what waits is kept (a durable store)", async () => {
    const target = await receiver();
    const d = deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(target.url, 2));
    await target.arrived(1);
    d.close({ keep: true });
    const drained = d.drain(60_000);
    target.answer(200);
    await drained;
    expect(entry).toMatchObject({ state: "pending", deliveredCount: 1 });
    expect(entry.note).toBeUndefined();
    expect(state.queue.map((p) => [p.entry.id, p.attempts, p.next, p.lease])).toEqual([[entry.id, 0, "attempt", undefined]]);
    expect(target.seen).toHaveLength(1);
  });
});

describe("events not sent", () => {
  it("an empty URL is no URL: skipped, with no key, nothing queued", () => {
    const d = deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(""));
    expect(entry).toMatchObject({ state: "skipped", attempts: [], note: expect.stringContaining("no callback URL is known") });
    expect(entry).not.toHaveProperty("idempotencyKey");
    expect(entry.url).toBeUndefined();
    expect(state.queue).toEqual([]);
  });

  it("one the URL rules refuse is failed and keeps its event's key (the key a resend carries)", () => {
    const d = deliverer();
    const state = new CredentialState("k");
    for (const url of ["https://hooks.example.com/x", "https://user:pw@127.0.0.1/x", "ftp://127.0.0.1/x"]) {
      const entry = d.enqueue(state, event(url));
      expect(entry).toMatchObject({ state: "failed", idempotencyKey: "key-of-the-event", attempts: [] });
    }
    expect(state.queue).toEqual([]);
  });

  it("a payload the webhook's schema refuses: each attempt logged with the sender's reason, nothing reaches the receiver", async () => {
    const target = await receiver();
    const d = deliverer({ attempts: 2 });
    const entry = d.enqueue(new CredentialState("k"), event(target.url, 1, { order_id: 5, status: "PAID" }));
    await d.idle();
    expect(entry).toMatchObject({ state: "failed", note: "no 2xx answer after 2 attempt(s)", deliveredCount: 0 });
    expect(entry.attempts).toHaveLength(2);
    for (const attempt of entry.attempts)
      expect(attempt).toMatchObject({ status: 0, error: expect.stringContaining("does not match the webhook's schema") });
    expect(target.seen).toEqual([]);
  });
});
