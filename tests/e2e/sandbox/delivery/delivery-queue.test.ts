/**
 * The delivery queue's rules in src/sandbox/delivery/deliverer.ts around its edges: each refusal
 * named by its reason, the per-credential bound's note, events and loaded states after a stop, a
 * loaded delivery due later waited for, the count of one credential's queue, `drain`'s time bound,
 * `idle` waiting for a cancelled attempt's record, and a stop that leaves a stale lease to the next
 * start. Receivers hold their answers until told: no sleeps.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHookReceivers } from "../../../helpers/hook-receiver.js";
import { orderPaidEvent, queuedDeliveryState } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer } from "../../../../src/sandbox/delivery/deliverer.js";
import { LIMITS, SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const payload = { order_id: "o-1", status: "PAID" };
const STOPPED = "the sandbox stopped before the delivery succeeded";
const { receiver, closeAfter } = useHookReceivers();

const event = (url: string | undefined) => orderPaidEvent(url);

function deliverer(queue?: { perCredential: number; total: number }) {
  const d = new Deliverer({ alias: shop.alias, registry, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 30_000 }, queue });
  return closeAfter(d);
}

describe("refusals", () => {
  it("each names its reason; the URL rules' refusals end as failed, not as refused by the callback policy", () => {
    const d = deliverer();
    const outcomes: string[] = [];
    d.onOutcome = (outcome) => outcomes.push(outcome);
    const state = new CredentialState("k");
    const notes = ["ftp://127.0.0.1/x", "https://hooks.example.org/x", "https://user:pw@127.0.0.1/x"].map(
      (url) => d.enqueue(state, event(url)).note,
    );
    expect(notes).toEqual([
      "the callback URL is not an http(s) URL",
      "the callback URL's host is a reserved example domain (RFC 2606), which does not exist: nothing is sent",
      "the callback URL carries a user name or password, which the sandbox does not send",
    ]);
    expect(outcomes).toEqual(["failed", "failed", "failed"]);
  });

  it("beyond the per-credential bound the note names the sandbox's limit", async () => {
    const target = await receiver();
    const d = deliverer({ perCredential: 1, total: 10 });
    const state = new CredentialState("k");
    expect(d.enqueue(state, event(target.url)).state).toBe("pending");
    expect(d.enqueue(state, event(target.url))).toMatchObject({
      state: "failed",
      note: "1 callbacks of this credential are already waiting to be delivered, the sandbox's limit: this one is not sent",
    });
    await target.arrived(1);
    target.answer(200);
    await d.idle();
  });

  it("a partner whose quotas set no callback bound is held to the sandbox's, and the note says so", async () => {
    const target = await receiver();
    const d = deliverer({ perCredential: 1, total: 10 });
    const partner = new SandboxBudget().withBounds(() => ({
      records: LIMITS.records,
      bytes: LIMITS.bytes,
      events: 10,
      named: "partner p-1's quota",
    }));
    const state = new CredentialState("k", partner);
    d.enqueue(state, event(target.url));
    expect(d.enqueue(state, event(target.url)).note).toBe(
      "1 callbacks of this credential are already waiting to be delivered, the sandbox's limit: this one is not sent",
    );
    await target.arrived(1);
    target.answer(200);
    await d.idle();
  });
});

describe("after a stop", () => {
  it("an event raised is failed as stopped and nothing is sent", async () => {
    const target = await receiver();
    const d = deliverer();
    d.close();
    const entry = d.enqueue(new CredentialState("k"), event(target.url));
    expect(entry).toMatchObject({ state: "failed", note: STOPPED });
    await d.idle();
    expect(target.seen).toEqual([]);
  });

  it("a state loaded with deliveries queued is not taken into the queue", async () => {
    const target = await receiver();
    const d = deliverer();
    d.close({ keep: true });
    const loaded = queuedDeliveryState(target.url, { name: "loaded", payload });
    d.watch(loaded);
    expect(d.queued()).toBe(0);
    await d.idle();
    expect(loaded.queue).toHaveLength(1);
    expect(target.seen).toEqual([]);
  });

  it("a lease no attempt of this process holds is left as it is for the next start", () => {
    const d = deliverer();
    const lease = Date.now() + 3_600_000;
    const loaded = queuedDeliveryState("http://127.0.0.1:9/hook", { name: "loaded", payload, attempts: 1, lease });
    d.watch(loaded);
    // Stopping makes each watched queue's step at once (synchronously on a state of its own).
    d.close();
    expect(loaded.queue.map((p) => p.lease)).toEqual([lease]);
    expect(loaded.deliveries[0]).toMatchObject({ state: "pending", attempts: [] });
  });
});

describe("the queue", () => {
  it("waits for a loaded delivery's due time", async () => {
    const target = await receiver();
    const due = Date.now() + 250;
    const loaded = queuedDeliveryState(target.url, { name: "loaded", payload, due });
    const d = deliverer();
    d.watch(loaded);
    await target.arrived(1);
    expect(target.seen[0].at).toBeGreaterThanOrEqual(due - 1);
    target.answer(200);
    await d.idle();
  });

  it("counts one credential's waiting events apart from the others'", async () => {
    const target = await receiver();
    const d = deliverer();
    const [a, b] = [new CredentialState("a"), new CredentialState("b")];
    d.enqueue(a, event(target.url));
    d.enqueue(b, event(target.url));
    d.enqueue(b, event(target.url));
    expect([d.queued(a), d.queued(b), d.queued()]).toEqual([1, 2, 3]);
    await target.arrived(2);
    target.answer(200);
    target.answer(200);
    await target.arrived(3);
    target.answer(200);
    await d.idle();
  });

  it("drain gives up after its time while an attempt hangs", async () => {
    const target = await receiver();
    const d = deliverer();
    const state = new CredentialState("k");
    d.enqueue(state, event(target.url));
    await target.arrived(1);
    await d.drain(20);
    expect(state.queue[0].lease).toBeDefined();
    target.answer(200);
    await d.idle();
  }, 5_000);

  it("idle waits for a cancelled delivery's attempt in flight to be recorded", async () => {
    const target = await receiver();
    const d = deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(target.url));
    await target.arrived(1);
    d.cancel(state);
    await d.idle();
    expect(entry.state).toBe("failed");
    expect(entry.attempts).toHaveLength(1);
    expect(entry.attempts[0].status).toBe(0);
  });
});
