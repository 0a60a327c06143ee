/**
 * The delivery queue's bounds and the callback policy in src/sandbox/delivery/deliverer.ts: at most
 * LIMITS.deliveryQueue events waiting per credential and LIMITS.deliveryQueueTotal per mock; a
 * reset or dropped credential's queue cancelled, the attempt in flight included; targets the
 * policy refuses never sent; on a shared sandbox, failures logged without the error or duration
 * that would tell an open port from a closed one; a hosted sandbox's partner held to its own quota,
 * and each delivery's outcome told to the metrics' feed. Receivers hold their answers until
 * released: no sleeps.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { orderPaidEvent } from "../../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { Deliverer } from "../../../../../src/sandbox/delivery/deliverer.js";
import { LIMITS, SandboxBudget } from "../../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../../src/sandbox/store/state.js";
import { TargetPolicy } from "../../../../../src/sandbox/targets.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const servers: Server[] = [];
const deliverers: Deliverer[] = [];
afterEach(async () => {
  for (const d of deliverers.splice(0)) d.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A receiver that answers nothing until `release()` (then 200 to all, later ones at once); `arrived(n)` resolves once n requests are in. */
async function holdingReceiver() {
  const held: Array<{ req: IncomingMessage; res: ServerResponse }> = [];
  const waiters: Array<() => void> = [];
  let open = false;
  const server = createServer((req, res) => {
    held.push({ req, res });
    if (open) res.writeHead(200).end();
    for (const w of waiters.splice(0)) w();
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const arrived = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (held.length >= n ? resolve() : waiters.push(check));
      check();
    });
  const release = () => {
    open = true;
    for (const { res } of held) if (!res.writableEnded && !res.destroyed) res.writeHead(200).end();
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, held, arrived, release };
}

const event = (url: string, resourceId = "o-1") => orderPaidEvent(url, { resourceId });

function deliverer(options: { targets?: TargetPolicy; attempts?: number } = {}) {
  const d = new Deliverer({
    alias: shop.alias,
    registry,
    retry: { attempts: options.attempts ?? 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 30_000 },
    targets: options.targets,
  });
  deliverers.push(d);
  return d;
}

describe("the delivery queue", () => {
  it(`holds at most ${LIMITS.deliveryQueue} events per credential; beyond, the event is logged as failed and not sent`, async () => {
    const target = await holdingReceiver();
    const d = deliverer();
    const state = new CredentialState("k");
    const queued = Array.from({ length: LIMITS.deliveryQueue }, (_, i) => d.enqueue(state, event(target.url, `o-${i}`)));
    expect(queued.every((e) => e.state === "pending")).toBe(true);
    expect(d.queued(state)).toBe(LIMITS.deliveryQueue);
    const refused = d.enqueue(state, event(target.url, "o-over"));
    expect(refused).toMatchObject({ state: "failed", attempts: [] });
    expect(refused.note).toBe(
      `${LIMITS.deliveryQueue} callbacks of this credential are already waiting to be delivered, the sandbox's limit: this one is not sent`,
    );
    // Another credential has its own room.
    expect(d.enqueue(new CredentialState("other"), event(target.url, "o-other")).state).toBe("pending");
    await target.arrived(2);
    target.release();
    await d.idle();
    expect(queued.every((e) => e.state === "delivered")).toBe(true);
    expect(target.held.map((h) => h.req.url)).toHaveLength(LIMITS.deliveryQueue + 1);
  });

  it("holds a hosted sandbox's partner to its own quota of waiting callbacks, and tells each outcome", async () => {
    const target = await holdingReceiver();
    const d = deliverer({ targets: new TargetPolicy({ binding: "127.0.0.1", shared: true, callbackAllow: ["127.0.0.1"] }) });
    const outcomes: string[] = [];
    d.onOutcome = (outcome) => outcomes.push(outcome);
    const budget = new SandboxBudget().withBounds((key) =>
      key === "partner" ? { records: 10, bytes: 10_000, events: 10, queuedCallbacks: 2, named: "this partner's quota" } : undefined,
    );
    const partner = new CredentialState("partner", budget);
    const queued = [d.enqueue(partner, event(target.url, "o-1")), d.enqueue(partner, event(target.url, "o-2"))];
    expect(queued.map((e) => e.state)).toEqual(["pending", "pending"]);
    const refused = d.enqueue(partner, event(target.url, "o-3"));
    expect(refused.note).toBe(
      "2 callbacks of this credential are already waiting to be delivered, this partner's quota: this one is not sent",
    );
    // Another credential of the same budget keeps the sandbox's bound; a target the policy refuses, no URL: their outcomes.
    expect(d.enqueue(new CredentialState("other", budget), event(target.url, "o-4")).state).toBe("pending");
    expect(d.enqueue(partner, event("http://10.0.0.5/hook", "o-5")).state).toBe("failed");
    expect(d.enqueue(partner, { ...event("", "o-6"), url: undefined }).state).toBe("skipped");
    target.release();
    await d.idle();
    expect(outcomes.sort()).toEqual(["delivered", "delivered", "delivered", "failed", "refused", "skipped"]);
  });

  it(`holds at most ${LIMITS.deliveryQueueTotal} events per mock, every credential together`, async () => {
    const target = await holdingReceiver();
    const d = deliverer();
    const lanes = Math.ceil(LIMITS.deliveryQueueTotal / LIMITS.deliveryQueue);
    let sent = 0;
    for (let lane = 0; lane < lanes; lane++) {
      const state = new CredentialState(`k${lane}`);
      for (let i = 0; i < LIMITS.deliveryQueue && sent < LIMITS.deliveryQueueTotal; i++, sent++) d.enqueue(state, event(target.url));
    }
    expect(d.queued()).toBe(LIMITS.deliveryQueueTotal);
    const refused = d.enqueue(new CredentialState("late"), event(target.url));
    expect(refused).toMatchObject({ state: "failed", attempts: [] });
    expect(refused.note).toBe(
      `${LIMITS.deliveryQueueTotal} callbacks are already waiting to be delivered on this mock, the sandbox's limit: this one is not sent`,
    );
  });

  it("holds the bounds it is given (the sandbox's deliveryQueue and deliveryQueueTotal options)", async () => {
    const target = await holdingReceiver();
    const d = new Deliverer({
      alias: shop.alias,
      registry,
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 30_000 },
      queue: { perCredential: 2, total: 3 },
    });
    deliverers.push(d);
    const a = new CredentialState("a");
    expect([1, 2, 3].map((i) => d.enqueue(a, event(target.url, `o-${i}`)).state)).toEqual(["pending", "pending", "failed"]);
    expect(a.deliveries.at(-1)!.note).toBe(
      "2 callbacks of this credential are already waiting to be delivered, the sandbox's limit: this one is not sent",
    );
    const b = new CredentialState("b");
    expect([1, 2].map((i) => d.enqueue(b, event(target.url, `o-${i}`)).state)).toEqual(["pending", "failed"]);
    expect(b.deliveries.at(-1)!.note).toBe(
      "3 callbacks are already waiting to be delivered on this mock, the sandbox's limit: this one is not sent",
    );
    target.release();
    await d.idle();
  });

  it("a cancelled credential's queue is dropped, the attempt in flight aborted, nothing more sent", async () => {
    const target = await holdingReceiver();
    const d = deliverer({ attempts: 3 });
    const state = new CredentialState("k");
    const entries = [1, 2, 3].map((i) => d.enqueue(state, event(target.url, `o-${i}`)));
    await target.arrived(1);
    const inFlight = target.held[0].req;
    const closed = new Promise((resolve) => inFlight.on("close", resolve));
    inFlight.on("error", () => undefined); // the sender's abort reaches the server as "aborted"

    d.cancel(state);
    await d.idle();
    await closed; // the request in flight was aborted
    expect(entries.map((e) => e.state)).toEqual(["failed", "failed", "failed"]);
    for (const entry of entries) expect(entry.note).toBe("the credential's state was reset or dropped before the delivery succeeded");
    expect(target.held).toHaveLength(1);
    expect(d.queued()).toBe(0);
    // The credential starts again with an empty queue.
    const fresh = new CredentialState("k");
    expect(d.enqueue(fresh, event(target.url, "o-4")).state).toBe("pending");
  });
});

describe("the callback policy at delivery", () => {
  it("sends nothing to a target the policy refuses, saying why", async () => {
    const target = await holdingReceiver();
    const local = deliverer();
    const state = new CredentialState("k");
    const metadata = local.enqueue(state, event("http://[::ffff:a9fe:a9fe]/latest/meta-data/"));
    expect(metadata).toMatchObject({ state: "failed", attempts: [] });
    expect(metadata.note).toMatch(/link-local or cloud metadata address, which the sandbox never reaches/);
    const shared = deliverer({ targets: new TargetPolicy({ binding: "0.0.0.0" }) });
    const refused = shared.enqueue(state, event(target.url));
    expect(refused).toMatchObject({ state: "failed", attempts: [] });
    expect(refused.note).toMatch(/shared .* allows no callback targets/);
    await Promise.all([local.idle(), shared.idle()]);
    expect(target.held).toEqual([]);
  });

  it("on a shared sandbox, a failed attempt shows neither its error nor its duration; on a local one it does", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/hook`; // nothing listens: connection refused at once
    const retry = { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 100 };
    const shared = new Deliverer({
      alias: shop.alias,
      registry,
      retry,
      targets: new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["127.0.0.1"] }),
    });
    const local = new Deliverer({ alias: shop.alias, registry, retry });
    deliverers.push(shared, local);
    const opaque = shared.enqueue(new CredentialState("a"), event(url));
    const detailed = local.enqueue(new CredentialState("b"), event(url));
    await Promise.all([shared.idle(), local.idle()]);
    expect(opaque).toMatchObject({ state: "failed", note: "no 2xx answer after 2 attempt(s)" });
    expect(opaque.attempts).toEqual([
      { at: expect.any(String), status: 0 },
      { at: expect.any(String), status: 0 },
    ]);
    // The next attempt waited the whole timeout, as after a target that never answers.
    expect(Date.parse(opaque.attempts[1].at) - Date.parse(opaque.attempts[0].at)).toBeGreaterThanOrEqual(retry.timeoutMs - 2);
    expect(detailed.attempts).toHaveLength(2);
    for (const attempt of detailed.attempts)
      expect(attempt).toMatchObject({ status: 0, error: expect.any(String), durationMs: expect.any(Number) });
  });
});
