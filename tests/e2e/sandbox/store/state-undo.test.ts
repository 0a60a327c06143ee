/**
 * A request that fails leaves a credential's state as it found it (src/sandbox/store/state.ts
 * `atomically`, src/sandbox/README.md's stage 3): each kind of change, made inside a request that
 * then throws, is put back whole (records, their order, sizes and the budget's use; the clock,
 * callback URLs, error rules, scheduled moves and wake; events, the delivery log and queue; the
 * sequence that orders them), a request inside a request is undone with the one around it, and a
 * tracked state forgets only the rows the failed part marked.
 */
import { describe, expect, it } from "vitest";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { entry, event, KEY, pending, whole } from "./state-fixtures.js";

const T = 1_800_000_000_000;

/** A state holding a little of everything, in a budget of its own. */
function populated(): CredentialState {
  const state = new CredentialState(KEY, new SandboxBudget());
  state.add("order", "o-1", { order_id: "o-1", status: "CREATED" });
  state.add("order", "o-2", { order_id: "o-2", status: "CREATED", note: "second" });
  state.add("merchant", "m-1", { merchant_id: "m-1" });
  state.advanceClock(60_000);
  state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/first");
  state.addErrorRule({ id: "err_1", operationId: "createOrder", status: 503, remaining: 1 });
  state.addErrorRule({ id: "err_2", operationId: "getOrder", status: 500, remaining: 3 });
  state.scheduleMove({ resource: "order", id: "o-1", seq: 1, action: "pay", at: T + 1000, cause: "test value" });
  state.scheduleMove({ resource: "order", id: "o-2", seq: 2, action: "pay", at: T + 5000, cause: "test value" });
  state.setWake(T + 1000);
  const paid = event("evt_1");
  expect(state.keepEvent(paid, 400)).toBe(true);
  state.keepEvent(event("evt_2"), 300);
  const logged = entry("dlv_1", "pending");
  state.logDelivery(logged);
  state.addEventDelivery(paid, "dlv_1");
  state.queueDelivery({ ...pending("dlv_1", T), entry: logged });
  return state;
}

const fails = (state: CredentialState, body: () => void) =>
  expect(() =>
    state.atomically(() => {
      body();
      throw new Error("the request failed");
    }),
  ).toThrow("the request failed");

/** One change of each kind a request makes (what it is, the change). */
const CHANGES: Array<[string, (state: CredentialState) => void]> = [
  ["a record added", (s) => s.add("order", "o-3", { order_id: "o-3" })],
  ["a record replaced", (s) => s.replace(s.get("order", "o-1")!, { order_id: "o-1", status: "PAID", paid: "yes" })],
  ["the first record removed", (s) => s.remove(s.get("order", "o-1")!)],
  ["every record removed", (s) => [...s.list("order"), ...s.list("merchant")].forEach((r) => s.remove(r))],
  ["the clock moved", (s) => s.advanceClock(3_600_000)],
  ["a callback URL registered", (s) => s.setCallbackUrl("orderFailed", "http://127.0.0.1:9/failed")],
  ["a callback URL replaced", (s) => s.setCallbackUrl("orderPaid", "http://127.0.0.1:9/second")],
  ["a callback URL deleted", (s) => expect(s.deleteCallbackUrl("orderPaid")).toBe(true)],
  ["an error rule queued", (s) => s.addErrorRule({ id: "err_3", operationId: "listOrders", status: 502, remaining: 2 })],
  ["an error rule's last call used", (s) => s.useErrorRule(s.errors[0])],
  ["an error rule's call used", (s) => s.useErrorRule(s.errors[1])],
  ["the error rules cleared", (s) => expect(s.clearErrorRules()).toBe(2)],
  [
    "a move scheduled",
    (s) => s.scheduleMove({ resource: "merchant", id: "m-1", seq: 3, action: "close", at: T + 9000, cause: "test value" }),
  ],
  ["the due moves taken", (s) => expect(s.takeDueMoves(T + 1000)).toHaveLength(1)],
  ["the wake brought forward", (s) => s.wakeBy(T)],
  ["the wake cleared", (s) => s.setWake(undefined)],
  ["an event kept", (s) => expect(s.keepEvent(event("evt_3"), 500)).toBe(true)],
  ["a delivery added to an event", (s) => s.addEventDelivery(s.findEvent("evt_1")!, "dlv_2")],
  ["the first delivery added to an event", (s) => s.addEventDelivery(s.findEvent("evt_2")!, "dlv_2")],
  ["an event grown", (s) => s.growEvent(s.findEvent("evt_2")!, 40)],
  ["a delivery logged", (s) => s.logDelivery(entry("dlv_2"))],
  ["a delivery queued", (s) => s.queueDelivery(pending("dlv_3", T + 10))],
];

describe("a request that fails", () => {
  it.each(CHANGES)("puts back %s", (_, change) => {
    const state = populated();
    const before = whole(state);
    fails(state, () => change(state));
    expect(whole(state)).toBe(before);
    expect(state.journal).toBeUndefined();
  });

  it("puts back every kind of change together, in reverse order, and gives the budget back what they took", () => {
    const state = populated();
    const before = whole(state);
    const used = state.budget.used;
    fails(state, () => {
      for (const [, change] of CHANGES) change(state);
    });
    expect(whole(state)).toBe(before);
    expect(state.budget.used).toBe(used);
  });

  it("hands out the same sequence numbers again: what it took is not skipped", () => {
    const state = populated();
    fails(state, () => {
      state.add("order", "o-3", {});
      state.logDelivery(entry("dlv_2"));
      state.keepEvent(event("evt_3"), 10);
    });
    // The same state without the request: the next numbers follow on from it.
    const expected = populated();
    const one = state.add("order", "o-4", {});
    const two = expected.add("order", "o-4", {});
    expect(one.seq).toBe(two.seq);
    const logged = entry("dlv_9");
    state.logDelivery(logged);
    const expectedLogged = entry("dlv_9");
    expected.logDelivery(expectedLogged);
    expect(logged.seq).toBe(expectedLogged.seq);
    expect(logged.seq).toBe(one.seq + 1);
  });

  it("lists a record it removed in its place again, in creation order", () => {
    const state = populated();
    fails(state, () => {
      state.remove(state.get("order", "o-1")!);
      state.remove(state.get("order", "o-2")!);
    });
    expect(state.list("order").map((r) => r.id)).toEqual(["o-1", "o-2"]);
    expect(state.dataOf("order").map((d) => (d as { order_id: string }).order_id)).toEqual(["o-1", "o-2"]);
    fails(state, () => state.remove(state.get("order", "o-1")!));
    expect(state.list("order").map((r) => r.id)).toEqual(["o-1", "o-2"]);
  });

  it("takes out of an event the delivery id it added, the newest, not an earlier one equal to it", () => {
    const state = populated();
    const paid = state.findEvent("evt_1")!;
    state.addEventDelivery(paid, "dlv_2");
    expect(paid.deliveries).toEqual(["dlv_1", "dlv_2"]);
    fails(state, () => state.addEventDelivery(paid, "dlv_1"));
    expect(paid.deliveries).toEqual(["dlv_1", "dlv_2"]);
  });

  it("leaves a record's size and the byte count as they were after an update it made", () => {
    const state = populated();
    const record = state.get("order", "o-2")!;
    const [bytes, total, used] = [record.bytes, state.bytes, state.budget.used];
    fails(state, () => state.replace(record, { ...record.data, note: "x".repeat(1000) }));
    expect([record.bytes, state.bytes, state.budget.used]).toEqual([bytes, total, used]);
    expect(record.data).toEqual({ order_id: "o-2", status: "CREATED", note: "second" });
  });
});

describe("a request inside a request", () => {
  it("that succeeded is undone with the request around it, and what the outer one did after it too", () => {
    const state = populated();
    const before = whole(state);
    fails(state, () => {
      state.atomically(() => {
        state.add("order", "o-3", { order_id: "o-3" });
        state.advanceClock(1000);
      });
      state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/after");
      state.remove(state.get("order", "o-1")!);
    });
    expect(whole(state)).toBe(before);
  });

  it("that failed is undone alone: the outer request keeps what it did before and after it", () => {
    const state = populated();
    state.atomically(() => {
      state.advanceClock(1000);
      expect(() =>
        state.atomically(() => {
          state.add("order", "o-3", { order_id: "o-3" });
          state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/inner");
          throw new Error("inner");
        }),
      ).toThrow("inner");
      state.add("order", "o-4", { order_id: "o-4" });
    });
    expect(state.clockOffsetMs).toBe(61_000);
    expect(state.list("order").map((r) => r.id)).toEqual(["o-1", "o-2", "o-4"]);
    expect(state.callbackUrls.get("orderPaid")).toBe("http://127.0.0.1:9/first");
    expect(state.journal).toBeUndefined();
  });

  it("that failed, in a request that then fails too: both undone, the outer one's later changes included", () => {
    const state = populated();
    const before = whole(state);
    fails(state, () => {
      state.advanceClock(1000);
      expect(() =>
        state.atomically(() => {
          state.add("order", "o-3", {});
          throw new Error("inner");
        }),
      ).toThrow("inner");
      state.add("order", "o-4", {});
      state.setWake(T);
    });
    expect(whole(state)).toBe(before);
  });

  it("that failed makes a tracked state forget its own marks, not the outer request's", () => {
    const state = populated();
    state.track();
    state.takeChanges();
    state.atomically(() => {
      state.replace(state.get("order", "o-2")!, { order_id: "o-2", status: "PAID" });
      expect(() =>
        state.atomically(() => {
          state.add("order", "o-3", {});
          state.logDelivery(entry("dlv_2"));
          throw new Error("inner");
        }),
      ).toThrow("inner");
    });
    const changes = state.takeChanges();
    expect(changes.puts.map((r) => `${r.collection}:${r.id}`)).toEqual(["record:order/o-2"]);
    expect(changes.deletes).toEqual([]);
  });
});
