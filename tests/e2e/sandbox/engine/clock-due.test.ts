/**
 * What falls due on a credential's clock (src/sandbox/engine/clock.ts), on one engine of the fixture
 * API shop@1.0.0 and its declaration (tests/fixtures/sandbox/shop.sandbox.yaml: `pay` takes an order
 * from CREATED to PAID, `expire` to Created, an expiry from CREATED), without HTTP: several moves
 * scheduled at different times are each made at their own time, not on a record changed since; the
 * next wake is the earliest expiry still due; an API without a declaration (the same engine with none)
 * has nothing due; a failure of a due move that is not a refused move reaches the caller; a wake in
 * real time makes what is due, and one whose durable store fails is tried again a second later.
 * The process's clock (`Date` only) is held still and moved by the test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { scheduleMove, tick, wake } from "../../../../src/sandbox/engine/clock.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { withShopSandbox } from "../../../helpers/shop.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";

/** One engine for the file; each test has credentials of its own. */
let engine: EngineContext;
withShopSandbox((sandbox) => {
  engine = sandbox.engine;
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-01T10:00:00.000Z"));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const stateOf = (token: string) => engine.store.run(credentialKey(token), (state: CredentialState) => state) as CredentialState;
const order = (state: CredentialState, id: string) => state.add("order", id, { order_id: id, status: "CREATED" });
const status = (state: CredentialState, id: string) => state.get("order", id)?.data.status;

describe("moves scheduled at different times", () => {
  it("each is made at its own time: the first at 5 s, the second waits until 10 s", () => {
    const state = stateOf("token-of-two-scheduled-moves");
    scheduleMove(engine, state, order(state, "o-1"), "pay", 5, "test value paid_later");
    scheduleMove(engine, state, order(state, "o-2"), "pay", 10, "test value paid_later");
    const start = state.now();

    state.advanceClock(5_000);
    expect(tick(engine, state, "clock").map((m) => [m.record.id, m.from, m.to])).toEqual([["o-1", "CREATED", "PAID"]]);
    expect([status(state, "o-1"), status(state, "o-2")]).toEqual(["PAID", "CREATED"]);
    // Its orderPaid callback is logged once (no URL registered: skipped), not twice.
    expect(state.deliveries.map((d) => [d.webhook, d.resourceId, d.times, d.state])).toEqual([["orderPaid", "o-1", 1, "skipped"]]);
    // The clock next has something due when the second move is.
    expect(state.wake).toBe(start + 10_000);

    state.advanceClock(5_000 - 1);
    expect(tick(engine, state, "clock")).toEqual([]);
    state.advanceClock(1);
    expect(tick(engine, state, "clock").map((m) => [m.record.id, m.to])).toEqual([["o-2", "PAID"]]);
    expect(status(state, "o-2")).toBe("PAID");
    expect(state.wake).toBeUndefined();
  });
});

describe("the clock's wake", () => {
  it("governs: before it nothing is looked at, at it what is due is made", () => {
    const state = stateOf("token-of-the-wake-first");
    // An expiry the clock was not told of (no wakeBy): not looked at while nothing is due.
    state.add("order", "o-1", { order_id: "o-1", status: "CREATED" }, state.now());
    expect(tick(engine, state, "expiry")).toEqual([]);
    expect(status(state, "o-1")).toBe("CREATED");
    state.wakeBy(state.now() + 1_000);
    expect(tick(engine, state, "expiry")).toEqual([]);
    state.advanceClock(1_000);
    expect(tick(engine, state, "expiry").map((m) => [m.record.id, m.to])).toEqual([["o-1", "Created"]]);
  });
});

describe("a scheduled move whose record changed since", () => {
  it("is not made on a record deleted since, nor on another record made since with the same id", () => {
    const state = stateOf("token-of-a-record-made-again");
    const first = order(state, "o-1");
    scheduleMove(engine, state, first, "pay", 5, "test value paid_later");
    scheduleMove(engine, state, order(state, "o-2"), "pay", 5, "test value paid_later");
    state.remove(first);
    state.remove(state.get("order", "o-2")!);
    order(state, "o-1");
    state.advanceClock(5_000);
    expect(tick(engine, state, "clock")).toEqual([]);
    expect([status(state, "o-1"), state.get("order", "o-2")]).toEqual(["CREATED", undefined]);
  });
});

describe("expiries", () => {
  it("the next wake is the earliest expiry of a record in a status that expires: not a paid one's, not one without expiry", () => {
    const state = stateOf("token-of-the-next-expiry");
    const now = state.now();
    state.add("order", "o-due", { order_id: "o-due", status: "CREATED" }, now);
    state.add("order", "o-paid", { order_id: "o-paid", status: "PAID" }, now + 60_000);
    state.add("order", "o-later", { order_id: "o-later", status: "CREATED" }, now + 120_000);
    state.add("order", "o-never", { order_id: "o-never", status: "CREATED" });
    state.wakeBy(now);
    expect(tick(engine, state, "expiry").map((m) => [m.record.id, m.to, m.event?.cause])).toEqual([["o-due", "Created", "expiry"]]);
    expect(state.wake).toBe(now + 120_000);
    state.remove(state.get("order", "o-later")!);
    state.advanceClock(120_000);
    expect(tick(engine, state, "expiry")).toEqual([]);
    expect(state.wake).toBeUndefined();
  });

  it("a record kept with an expiry time, of a resource whose declaration no longer expires it, does not move", () => {
    const { expiry: _, ...withoutExpiry } = engine.declaration!.resources.order;
    const changed = { ...engine, declaration: { ...engine.declaration!, resources: { order: withoutExpiry } } } as unknown as EngineContext;
    const state = stateOf("token-of-an-expiry-no-longer-declared");
    state.add("order", "o-1", { order_id: "o-1", status: "CREATED" }, state.now());
    state.wakeBy(state.now());
    expect(tick(changed, state, "expiry")).toEqual([]);
    expect(status(state, "o-1")).toBe("CREATED");
  });
});

describe("an API without a declaration", () => {
  it("has nothing due on its clock: no move is made", () => {
    const state = stateOf("token-of-an-api-without-declaration");
    const record = order(state, "o-1");
    state.scheduleMove({ resource: "order", id: "o-1", seq: record.seq, action: "pay", at: state.now(), cause: "test value paid_at_once" });
    state.wakeBy(state.now());
    const undeclared = { ...engine, declaration: undefined } as unknown as EngineContext;
    expect(tick(undeclared, state, "clock")).toEqual([]);
    expect(status(state, "o-1")).toBe("CREATED");
  });
});

describe("a due move that fails", () => {
  it("for another reason than a refused move: the failure reaches the caller, not dropped in silence", () => {
    const state = stateOf("token-of-a-failing-move");
    scheduleMove(engine, state, order(state, "o-1"), "pay", 5, "test value paid_later");
    vi.spyOn(engine.deliverer, "enqueue").mockImplementation(() => {
      throw new Error("the delivery queue failed");
    });
    state.advanceClock(5_000);
    expect(() => tick(engine, state, "clock")).toThrow("the delivery queue failed");
  });
});

describe("a wake", () => {
  it("makes what is due on the credential's clock in real time (cause clock) and sets the next scheduled move's", () => {
    const state = stateOf("token-of-a-wake");
    state.add("order", "o-expiring", { order_id: "o-expiring", status: "CREATED" }, state.now() + 1_000);
    scheduleMove(engine, state, order(state, "o-1"), "pay", 1, "test value paid_later");
    scheduleMove(engine, state, order(state, "o-2"), "pay", 30, "test value paid_later");
    vi.setSystemTime(Date.now() + 1_000);
    wake(engine, state.key);
    expect([status(state, "o-expiring"), status(state, "o-1"), status(state, "o-2")]).toEqual(["Created", "PAID", "CREATED"]);
    expect(state.events.map((kept) => [kept.event.resourceId, kept.event.cause])).toEqual([
      ["o-1", "test value paid_later"],
      ["o-expiring", "clock"],
    ]);
    // Woken again a little after the second move falls due, in real time (the credential's clock is the process's here).
    const next = engine.wakes.when(state.key)!;
    expect(next).toBeGreaterThanOrEqual(Date.now() + 29_000);
    expect(next).toBeLessThan(Date.now() + 30_000 + 1_000);
    vi.setSystemTime(next);
    wake(engine, state.key);
    expect(status(state, "o-2")).toBe("PAID");
    // Nothing is scheduled any more: no wake is left for the credential.
    expect(engine.wakes.when(state.key)).toBeUndefined();
  });

  it("of a credential the store no longer holds does nothing", () => {
    expect(() => wake(engine, credentialKey("token-never-seen"))).not.toThrow();
    expect(engine.wakes.when(credentialKey("token-never-seen"))).toBeUndefined();
  });

  it("whose durable store cannot run it is tried again a second later", async () => {
    const key = credentialKey("token-of-a-failed-wake");
    const failed = Promise.reject(new StoreUnavailable("the store is unreachable"));
    vi.spyOn(engine.store, "runExisting").mockReturnValue(failed);
    wake(engine, key);
    await failed.catch(() => {});
    expect(engine.wakes.when(key)).toBe(Date.parse("2026-03-01T10:00:01.000Z"));
  });
});
