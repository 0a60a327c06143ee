/**
 * What src/sandbox/delivery/deliverer.ts records after each attempt, and its bounds: the lease an
 * attempt holds (its timeout and LEASE_GRACE_MS after), a 3xx answer a failed attempt, a delivery
 * asked twice given its whole attempts again for the second, a stopped process's attempt made again
 * only while attempts are left and never logged past LIMITS.attemptsLogged, and the attempt of a
 * cancelled delivery logged on its own entry, never on the event queued after the reset. Receivers
 * hold their answers until told, or answer a list of statuses: no sleeps.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHookReceivers } from "../../../helpers/hook-receiver.js";
import { orderPaidEvent, queuedDeliveryState } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer, LEASE_GRACE_MS } from "../../../../src/sandbox/delivery/deliverer.js";
import { LIMITS } from "../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const payload = { order_id: "o-1", status: "PAID" };
const { receiver, closeAfter } = useHookReceivers();

const event = (url: string, times = 1, resourceId = "o-1") => orderPaidEvent(url, { times, resourceId });

function deliverer(attempts = 3, timeoutMs = 30_000) {
  const d = new Deliverer({ alias: shop.alias, registry, retry: { attempts, baseDelayMs: 1, maxDelayMs: 2, timeoutMs } });
  return closeAfter(d);
}

describe("an attempt in flight", () => {
  it("holds its delivery by a lease until its timeout and LEASE_GRACE_MS after", async () => {
    const target = await receiver();
    const d = deliverer(3, 7_000);
    const state = new CredentialState("k");
    const before = Date.now();
    d.enqueue(state, event(target.url));
    await target.arrived(1);
    const after = Date.now();
    const { lease } = state.queue[0];
    expect(lease).toBeGreaterThanOrEqual(before + 7_000 + LEASE_GRACE_MS);
    expect(lease).toBeLessThanOrEqual(after + 7_000 + LEASE_GRACE_MS);
    target.answer(200);
    await d.idle();
  });
});

describe("each attempt's outcome", () => {
  it("a 300 answer is a failed attempt (only 2xx delivers)", async () => {
    const target = await receiver([300, 299]);
    const d = deliverer();
    const entry = d.enqueue(new CredentialState("k"), event(target.url));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(entry.attempts.map((a) => a.status)).toEqual([300, 299]);
  });

  it("a delivery asked twice has the policy's attempts again for its second delivery", async () => {
    // attempts 2: the first delivery needs both; so does the second.
    const target = await receiver([500, 200, 500, 200]);
    const d = deliverer(2);
    const entry = d.enqueue(new CredentialState("k"), event(target.url, 2));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", times: 2, deliveredCount: 2 });
    expect(entry.attempts.map((a) => a.status)).toEqual([500, 200, 500, 200]);
    expect(new Set(target.seen.map((s) => s.key))).toEqual(new Set([entry.idempotencyKey]));
  });
});

describe("an attempt a stopped process was making", () => {
  it("is not made again once the policy's attempts are used: failed, nothing sent", async () => {
    const target = await receiver([200]);
    const loaded = queuedDeliveryState(target.url, { name: "abandoned", payload, attempts: 3, logged: 2, lease: Date.now() + 3_600_000 });
    const d = deliverer(3);
    d.watch(loaded);
    await d.idle();
    expect(loaded.deliveries[0]).toMatchObject({ state: "failed", note: "no 2xx answer after 3 attempt(s)", deliveredCount: 0 });
    expect(loaded.deliveries[0].attempts.map((a) => a.status)).toEqual([503, 503, 0]);
    expect(loaded.queue).toEqual([]);
    expect(target.seen).toEqual([]);
  });

  it(`is made again while attempts are left, its log never past ${LIMITS.attemptsLogged} attempts`, async () => {
    const target = await receiver([200]);
    const loaded = queuedDeliveryState(target.url, {
      name: "abandoned",
      payload,
      attempts: 1,
      logged: LIMITS.attemptsLogged,
      lease: Date.now() + 3_600_000,
    });
    const d = deliverer(3);
    d.watch(loaded);
    await d.idle();
    expect(loaded.deliveries[0]).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(loaded.deliveries[0].attempts).toHaveLength(LIMITS.attemptsLogged);
    expect(target.seen.map((s) => s.key)).toEqual(["key-of-the-abandoned-delivery"]);
  });
});

describe("a delivery cancelled during its attempt", () => {
  it("keeps the attempt on its own entry; the event queued after the reset is delivered with its own log", async () => {
    const target = await receiver();
    const d = deliverer();
    const state = new CredentialState("k");
    // An earlier event with no URL: logged before the cancelled one, skipped, no attempt ever.
    const skipped = d.enqueue(state, { ...event(target.url, 1, "o-0"), url: undefined });
    const cancelled = d.enqueue(state, event(target.url, 1, "o-1"));
    await target.arrived(1);
    d.cancel(state);
    const next = d.enqueue(state, event(target.url, 1, "o-2"));
    await target.arrived(2);
    target.answer(200); // the cancelled attempt's request (aborted already)
    target.answer(200);
    await d.idle();
    expect(skipped).toMatchObject({ state: "skipped", attempts: [] });
    expect(cancelled).toMatchObject({ state: "failed", deliveredCount: 0 });
    expect(cancelled.attempts).toHaveLength(1);
    expect(cancelled.attempts[0].status).toBe(0);
    expect(next).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(next.attempts.map((a) => a.status)).toEqual([200]);
    expect(target.seen.map((s) => s.key)).toEqual([cancelled.idempotencyKey, next.idempotencyKey]);
  });
});
