/**
 * Callback delivery (src/sandbox/delivery/deliverer.ts, its policy in policy.ts) through the package's sender, to local receivers: one
 * Idempotency-Key per event, retries with a bounded backoff, delivery twice, no redirects, the log.
 * `idle()` resolves when the queued deliveries are done: no sleeps.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useHookReceivers } from "../../../../helpers/hook-receiver.js";
import { orderPaidEvent, queuedDeliveryState } from "../../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { Deliverer } from "../../../../../src/sandbox/delivery/deliverer.js";
import { backoff, boundedRetry, isExampleHost } from "../../../../../src/sandbox/delivery/policy.js";
import { LIMITS } from "../../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const payload = { order_id: "o-1", status: "PAID" };
const { receiver } = useHookReceivers();

const event = (url: string | undefined, times = 1) => orderPaidEvent(url, { times });

const deliverer = (retry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 }) => new Deliverer({ alias: shop.alias, registry, retry });

describe("Deliverer", () => {
  it("delivers once with a fresh Idempotency-Key and logs the attempt", async () => {
    const target = await receiver([200]);
    const d = deliverer();
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(target.url));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1, url: target.url });
    expect(entry.attempts.map((a) => a.status)).toEqual([200]);
    expect(target.seen).toEqual([{ key: entry.idempotencyKey, body: JSON.stringify(payload), at: expect.any(Number) }]);
    expect(entry.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(state.deliveries).toEqual([entry]);
  });

  it("retries non-2xx answers with the same key, then succeeds", async () => {
    const target = await receiver([500, 503, 204]);
    const d = deliverer();
    const entry = d.enqueue(new CredentialState("k"), event(target.url));
    await d.idle();
    expect(entry.attempts.map((a) => a.status)).toEqual([500, 503, 204]);
    expect(entry.state).toBe("delivered");
    expect(new Set(target.seen.map((s) => s.key))).toEqual(new Set([entry.idempotencyKey]));
  });

  it("gives up after the policy's attempts when the receiver is down", async () => {
    const closed = await receiver([200]);
    await closed.close();
    const d = deliverer();
    const entry = d.enqueue(new CredentialState("k"), event(closed.url));
    await d.idle();
    expect(entry).toMatchObject({ state: "failed", note: "no 2xx answer after 3 attempt(s)", deliveredCount: 0 });
    expect(entry.attempts).toHaveLength(3);
    for (const attempt of entry.attempts) expect(attempt).toMatchObject({ status: 0, error: expect.any(String) });
  });

  it("delivers twice with the same key when asked", async () => {
    const target = await receiver([200]);
    const d = deliverer();
    const entry = d.enqueue(new CredentialState("k"), event(target.url, 2));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", times: 2, deliveredCount: 2 });
    expect(target.seen.map((s) => s.key)).toEqual([entry.idempotencyKey, entry.idempotencyKey]);
  });

  it("does not follow a redirect", async () => {
    const elsewhere = await receiver([200]);
    const redirecting = await receiver([307], { location: elsewhere.url });
    const d = deliverer();
    const entry = d.enqueue(new CredentialState("k"), event(redirecting.url));
    await d.idle();
    expect(entry.state).toBe("failed");
    expect(entry.attempts.map((a) => a.status)).toEqual([307, 307, 307]);
    expect(elsewhere.seen).toEqual([]);
  });

  it("logs an event without URL as skipped and a non-http URL as failed, sending nothing", async () => {
    const d = deliverer();
    const state = new CredentialState("k");
    expect(d.enqueue(state, event(undefined))).toMatchObject({ state: "skipped", attempts: [] });
    expect(d.enqueue(state, event("file:///etc/passwd"))).toMatchObject({
      state: "failed",
      note: "the callback URL is not an http(s) URL",
    });
    await d.idle();
    expect(state.deliveries).toHaveLength(2);
  });

  it("sends nothing to a URL with userinfo, and shows it without", async () => {
    const target = await receiver([200]);
    const d = deliverer();
    const entry = d.enqueue(new CredentialState("k"), event(target.url.replace("http://", "http://user:s3cr3t@")));
    await d.idle();
    expect(entry).toMatchObject({ state: "failed", url: target.url, attempts: [] });
    expect(entry.note).toMatch(/carries a user name or password/);
    expect(JSON.stringify(entry)).not.toContain("s3cr3t");
    expect(target.seen).toEqual([]);
  });

  it("sends nothing to the reserved example domains the specs' examples use", async () => {
    const d = deliverer();
    const state = new CredentialState("k");
    for (const url of [
      "https://merchant.example.com/webhooks",
      "http://example.org/",
      "https://hooks.shop.example/x",
      "http://a.invalid/",
    ]) {
      expect(d.enqueue(state, event(url))).toMatchObject({ state: "failed", attempts: [], note: expect.stringContaining("RFC 2606") });
    }
    await d.idle();
    expect(isExampleHost("https://example.community/")).toBe(false);
    expect(isExampleHost("http://127.0.0.1:3000/")).toBe(false);
  });

  it("stops waiting retries on close()", async () => {
    const target = await receiver([500]);
    const d = deliverer({ attempts: 10, baseDelayMs: 60_000, maxDelayMs: 60_000 });
    const entry = d.enqueue(new CredentialState("k"), event(target.url));
    await target.arrived(1); // the first attempt has reached the receiver
    d.close();
    await d.idle();
    expect(entry).toMatchObject({ state: "failed", note: "the sandbox stopped before the delivery succeeded" });
  });

  it("keeps the log bounded", async () => {
    const d = deliverer();
    const state = new CredentialState("k");
    for (let i = 0; i < LIMITS.deliveryLog + 5; i++) d.enqueue(state, event(undefined));
    expect(state.deliveries).toHaveLength(LIMITS.deliveryLog);
  });
});

describe("retry policy", () => {
  it("is bounded", () => {
    expect(boundedRetry({ attempts: 0, baseDelayMs: 0, maxDelayMs: 1e9, timeoutMs: 1 })).toEqual({
      attempts: 1,
      baseDelayMs: 1,
      maxDelayMs: 60_000,
      timeoutMs: 100,
    });
    expect(boundedRetry({ attempts: 1000 }).attempts).toBe(10);
    expect(boundedRetry()).toEqual({ attempts: 5, baseDelayMs: 250, maxDelayMs: 4000, timeoutMs: 5000 });
  });
  it("doubles the wait up to its maximum", () => {
    const policy = boundedRetry({ attempts: 6, baseDelayMs: 250, maxDelayMs: 1500 });
    expect([2, 3, 4, 5, 6].map((n) => backoff(policy, n))).toEqual([250, 500, 1000, 1500, 1500]);
  });
});

describe("the queue as data in the credential's state", () => {
  it("holds each pending delivery: leased while its attempt is in flight, then due again after the backoff, gone once delivered", async () => {
    const { url, arrived, answer } = await receiver();
    const d = deliverer({ attempts: 3, baseDelayMs: 50, maxDelayMs: 50 });
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(url));
    expect(state.queue).toEqual([{ entry, target: url, attempts: 0, dueAt: expect.any(Number), next: "attempt" }]);
    await arrived(1);
    const [inFlight] = state.queue;
    expect(inFlight.attempts).toBe(1);
    expect(inFlight.lease).toBeGreaterThan(Date.now());
    const failedAt = Date.now();
    answer(503);
    await arrived(2);
    // The second attempt waited its backoff after the first failed.
    expect(entry.attempts.map((a) => a.status)).toEqual([503]);
    expect(Date.parse(entry.attempts[0].at)).toBeLessThanOrEqual(failedAt);
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(50 - 2);
    expect(state.queue[0]).toMatchObject({ attempts: 2, lease: expect.any(Number) });
    answer(200);
    await d.idle();
    expect(state.queue).toEqual([]);
    expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
  });

  it("is picked up from the rows of a state: a state rebuilt from them has its queued delivery made", async () => {
    const target = await receiver([200]);
    const loaded = queuedDeliveryState(target.url, { name: "queued", payload });
    const d = deliverer();
    expect(d.queued()).toBe(0);
    d.watch(loaded);
    expect(d.queued()).toBe(1);
    await d.idle();
    expect(loaded.deliveries[0]).toMatchObject({ id: "dlv_queued", state: "delivered", deliveredCount: 1 });
    expect(loaded.queue).toEqual([]);
    expect(target.seen).toEqual([{ key: "key-of-the-queued-delivery", body: JSON.stringify(payload), at: expect.any(Number) }]);
  });

  it("keeps what waits when closed for a durable store: the attempt in flight records its outcome and its next step; nothing fails", async () => {
    const { url, arrived, answer } = await receiver();
    const d = deliverer({ attempts: 3, baseDelayMs: 50, maxDelayMs: 50 });
    const state = new CredentialState("k");
    const entry = d.enqueue(state, event(url));
    const waiting = d.enqueue(state, event(url));
    await arrived(1);
    d.close({ keep: true });
    const drained = d.drain(60_000);
    answer(503);
    await drained;
    // The first: its failed attempt logged, its next attempt queued; the second: still waiting, never tried.
    expect(entry).toMatchObject({ state: "pending", attempts: [expect.objectContaining({ status: 503 })] });
    expect(state.queue.map((p) => [p.entry.id, p.attempts, p.next, p.lease])).toEqual([
      [entry.id, 1, "attempt", undefined],
      [waiting.id, 0, "attempt", undefined],
    ]);
    // An event raised while stopping is queued too (it is kept for the next start).
    expect(d.enqueue(state, event(url)).state).toBe("pending");
  });

  it("makes again, with the event's key, an attempt whose lease is no attempt of this process's: at once on a store of its own", async () => {
    const target = await receiver([200]);
    // A lease an hour ahead: the process that took it (this store's last one) stopped during its attempt.
    const loaded = queuedDeliveryState(target.url, { name: "queued", payload, attempts: 1, lease: Date.now() + 3_600_000 });
    const d = deliverer();
    d.watch(loaded);
    await d.idle();
    expect(loaded.deliveries[0]).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(loaded.deliveries[0].attempts.map((a) => [a.status, a.error])).toEqual([
      [0, "no outcome: the sandbox process making this attempt stopped during it; it is made again"],
      [200, undefined],
    ]);
    expect(target.seen.map((r) => r.key)).toEqual(["key-of-the-queued-delivery"]);
  });

  it("waits out another instance's lease when leases are shared, then makes the attempt with the same key", async () => {
    const target = await receiver([200]);
    const lease = Date.now() + 300;
    const loaded = queuedDeliveryState(target.url, { name: "queued", payload, attempts: 1, lease });
    const d = new Deliverer({ alias: shop.alias, registry, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 }, leases: "shared" });
    d.watch(loaded);
    await target.arrived(1);
    // Not before the lease ended (the scheduler's timer fires at its end).
    expect(Date.now()).toBeGreaterThanOrEqual(lease - 1);
    await d.idle();
    expect(loaded.deliveries[0]).toMatchObject({
      state: "delivered",
      attempts: [expect.objectContaining({ status: 0 }), expect.objectContaining({ status: 200 })],
    });
    expect(target.seen.map((r) => r.key)).toEqual(["key-of-the-queued-delivery"]);
  });
});
