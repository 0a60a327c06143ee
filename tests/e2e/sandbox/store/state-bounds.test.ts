/**
 * The bounds a credential's state keeps (src/sandbox/store/state.ts, src/sandbox/store/limits.ts;
 * docs/guides/hosting.md's table of bounds, docs/guides/keeping-state.md): events (200, or a
 * partner's quota; the oldest give way), the bytes of records and events together within the
 * credential's bound and the shared memory budget, the delivery log's newest 200 entries, 1000
 * scheduled moves, each queued error rule's calls, and what a dropped state gives back.
 */
import { describe, expect, it } from "vitest";
import { type CredentialBounds, LimitError, SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import type { ScheduledMove } from "../../../../src/sandbox/store/types.js";
import { entry, event, KEY } from "./state-fixtures.js";

/** A partner's quotas on a hosted sandbox, hand-picked small. */
const quota = (bounds: Partial<CredentialBounds>): SandboxBudget =>
  new SandboxBudget().withBounds(() => ({ records: 10, bytes: 1000, events: 10, named: "your quota", ...bounds }));

const ids = (state: CredentialState) => state.events.map((k) => k.event.id);

describe("events kept", () => {
  it("are the newest 200 of a credential of a local sandbox: the oldest gives way", () => {
    const state = new CredentialState(KEY);
    for (let i = 1; i <= 200; i++) expect(state.keepEvent(event(`evt_${i}`), 100)).toBe(true);
    expect(state.events).toHaveLength(200);
    expect(state.eventBytes).toBe(200 * 100);
    expect(state.keepEvent(event("evt_201"), 100)).toBe(true);
    expect(state.events).toHaveLength(200);
    expect([ids(state)[0], ids(state).at(-1)]).toEqual(["evt_2", "evt_201"]);
    expect(state.eventBytes).toBe(200 * 100);
    expect(state.findEvent("evt_1")).toBeUndefined();
    expect(state.findEvent("evt_2")?.id).toBe("evt_2");
  });

  it("are as many as a partner's quota of events", () => {
    const state = new CredentialState(KEY, quota({ events: 3 }));
    for (const id of ["evt_1", "evt_2", "evt_3", "evt_4"]) expect(state.keepEvent(event(id), 10)).toBe(true);
    expect(ids(state)).toEqual(["evt_2", "evt_3", "evt_4"]);
    expect(state.eventBytes).toBe(30);
  });

  it("fit with the records in the credential's bytes: the oldest give way until one fits, to the byte", () => {
    const budget = quota({ bytes: 1000 });
    const state = new CredentialState(KEY, budget);
    state.add("r", "a", { text: "x".repeat(190) }); // 201 bytes of JSON
    expect(state.bytes).toBe(201);
    expect(state.keepEvent(event("evt_1"), 300)).toBe(true);
    expect(state.keepEvent(event("evt_2"), 300)).toBe(true);
    // 201 + 600 + 199 = 1000: fits exactly.
    expect(state.eventFits(199)).toBe(true);
    expect(state.eventFits(200)).toBe(false);
    expect(state.keepEvent(event("evt_3"), 199)).toBe(true);
    expect(ids(state)).toEqual(["evt_1", "evt_2", "evt_3"]);
    // 1 byte more: the oldest gives way, one is enough.
    expect(state.keepEvent(event("evt_4"), 1)).toBe(true);
    expect(ids(state)).toEqual(["evt_2", "evt_3", "evt_4"]);
    expect(state.eventBytes).toBe(500);
    expect(budget.used).toBe(201 + 500);
  });

  it("leave out one that does not fit even alone, and count only those kept", () => {
    const budget = quota({ bytes: 1000 });
    const state = new CredentialState(KEY, budget);
    state.add("r", "a", { text: "x".repeat(190) }); // 201 bytes
    expect(state.keepEvent(event("evt_1"), 300)).toBe(true);
    expect(state.keepEvent(event("evt_big"), 800)).toBe(false);
    expect(state.findEvent("evt_big")).toBeUndefined();
    expect(ids(state)).not.toContain("evt_big");
    expect(state.eventBytes).toBe(state.events.reduce((sum, k) => sum + k.bytes, 0));
    expect(budget.used).toBe(201 + state.eventBytes);
  });

  it("fit the shared memory budget: an event other credentials' records leave no room for is not kept", () => {
    const budget = new SandboxBudget(10_000);
    const other = new CredentialState("d".repeat(64), budget);
    other.add("r", "big", { text: "x".repeat(9_000) });
    const state = new CredentialState(KEY, budget);
    const room = budget.limit - budget.used;
    expect(state.eventFits(room)).toBe(true);
    expect(state.eventFits(room + 1)).toBe(false);
    expect(state.keepEvent(event("evt_1"), room + 1)).toBe(false);
    expect(state.events).toHaveLength(0);
    expect(state.keepEvent(event("evt_2"), room)).toBe(true);
    expect(budget.used).toBe(budget.limit);
  });

  it("grow by each delivery id added, the id's JSON and a comma, in the credential's bytes and the budget", () => {
    const budget = new SandboxBudget();
    const state = new CredentialState(KEY, budget);
    const evt = event("evt_1");
    state.keepEvent(evt, 100);
    state.addEventDelivery(evt, "dlv_1"); // "dlv_1" and a comma: 8 bytes
    state.addEventDelivery(evt, "dlv_é"); // "dlv_é" is 8 bytes in UTF-8, and a comma
    expect(evt.deliveries).toEqual(["dlv_1", "dlv_é"]);
    expect(state.events[0].bytes).toBe(100 + 8 + 9);
    expect(state.eventBytes).toBe(117);
    expect(budget.used).toBe(117);
    // An event no longer kept is not counted.
    state.growEvent(event("evt_gone"), 50);
    expect(state.eventBytes).toBe(117);
  });

  it("are not kept, nor counted, once the state is dropped", () => {
    const budget = new SandboxBudget();
    const state = new CredentialState(KEY, budget);
    state.add("r", "a", { a: 1 });
    state.keepEvent(event("evt_1"), 100);
    const other = new CredentialState("d".repeat(64), budget);
    other.add("r", "b", { b: 1 });
    const others = budget.used - state.bytes - state.eventBytes;
    state.release();
    expect(budget.used).toBe(others);
    expect([state.bytes, state.eventBytes, state.count]).toEqual([0, 0, 0]);
    expect(state.get("r", "a")).toBeUndefined();
    expect(state.eventFits(1)).toBe(false);
    expect(state.keepEvent(event("evt_2"), 100)).toBe(false);
    expect(budget.used).toBe(others);
    expect(state.eventBytes).toBe(0);
  });
});

describe("records", () => {
  it("are as many as a partner's quota", () => {
    const state = new CredentialState(KEY, quota({ records: 2 }));
    state.add("r", "1", {});
    state.add("s", "2", {});
    expect(() => state.add("r", "3", {})).toThrow(
      new LimitError("this credential holds 2 records, your quota; reset its state (DELETE /_sandbox/state) to make room"),
    );
    expect(state.count).toBe(2);
  });

  it("grow by an update within the credential's bytes to the byte, its events counted", () => {
    const state = new CredentialState(KEY, quota({ bytes: 1000 }));
    const record = state.add("r", "a", { text: "x".repeat(190) }); // 201 bytes
    state.keepEvent(event("evt_1"), 300);
    state.replace(record, { text: "x".repeat(689) }); // 700 bytes: 700 + 300 = 1000
    expect(state.bytes).toBe(700);
    expect(() => state.replace(record, { text: "x".repeat(690) })).toThrow(
      "this credential's records and events would take more than 1000 bytes, your quota; reset its state (DELETE /_sandbox/state)",
    );
    expect([record.bytes, state.bytes]).toEqual([700, 700]);
    // Shrinking always fits.
    state.replace(record, { text: "" });
    expect(state.bytes).toBe(11);
  });

  it("stay within 256 KiB each when an update grows one by less than that", () => {
    const state = new CredentialState(KEY);
    const record = state.add("r", "a", { text: "x".repeat(200 * 1024) });
    const grown = { text: "x".repeat(256 * 1024) }; // 262155 bytes of JSON, 61451 more
    expect(() => state.replace(record, grown)).toThrow(
      new LimitError("a record of 262155 bytes exceeds the sandbox's limit of 262144 bytes per record"),
    );
    expect(record.bytes).toBe(200 * 1024 + 11);
    // To the byte: 262144 bytes of JSON fit.
    state.replace(record, { text: "x".repeat(256 * 1024 - 11) });
    expect(record.bytes).toBe(262_144);
  });

  it("are removed once: a second removal of the same record changes nothing", () => {
    const budget = new SandboxBudget();
    const state = new CredentialState(KEY, budget);
    const a = state.add("r", "a", { a: 1 });
    state.add("r", "b", { b: 2 });
    state.remove(a);
    const after = [state.count, state.bytes, budget.used, state.changes];
    state.remove(a);
    expect([state.count, state.bytes, budget.used, state.changes]).toEqual(after);
    expect(state.list("r").map((r) => r.id)).toEqual(["b"]);
  });
});

describe("the delivery log", () => {
  it("keeps the newest 200 entries, each given the next number of the credential's sequence", () => {
    const state = new CredentialState(KEY);
    const record = state.add("r", "a", {});
    const entries = Array.from({ length: 201 }, (_, i) => entry(`dlv_${i + 1}`));
    for (const e of entries) state.logDelivery(e);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => record.seq + 1 + i));
    expect(state.deliveries).toHaveLength(200);
    expect([state.deliveries[0].id, state.deliveries.at(-1)?.id]).toEqual(["dlv_2", "dlv_201"]);
  });

  it("orders records, events and deliveries in one sequence", () => {
    const state = new CredentialState(KEY);
    const a = state.add("r", "a", {});
    state.keepEvent(event("evt_1"), 10);
    const logged = entry("dlv_1");
    state.logDelivery(logged);
    const b = state.add("r", "b", {});
    expect([a.seq, state.events[0].seq, logged.seq, b.seq]).toEqual([1, 2, 3, 4]);
  });
});

describe("the queue of deliveries", () => {
  it("is in the order deliveries were queued, and loses only the one taken out", () => {
    const state = new CredentialState(KEY);
    const [one, two, three] = ["dlv_1", "dlv_2", "dlv_3"].map((id) => ({
      entry: entry(id, "pending"),
      target: "http://127.0.0.1:9/hook",
      attempts: 0,
      dueAt: 1,
      next: "attempt" as const,
    }));
    state.queueDelivery(one);
    state.queueDelivery(two);
    state.queueDelivery(three);
    state.unqueueDelivery(two);
    expect(state.queue.map((p) => p.entry.id)).toEqual(["dlv_1", "dlv_3"]);
  });
});

describe("scheduled moves", () => {
  const move = (i: number, at = 1000 + i): ScheduledMove => ({
    resource: "r",
    id: `r_${i}`,
    seq: i,
    action: "pay",
    at,
    cause: "test value",
  });

  it("are 1000 at most: the oldest scheduled gives way", () => {
    const state = new CredentialState(KEY);
    for (let i = 1; i <= 1000; i++) state.scheduleMove(move(i));
    expect(state.scheduled).toHaveLength(1000);
    expect(state.scheduled[0].id).toBe("r_1");
    state.scheduleMove(move(1001));
    expect(state.scheduled).toHaveLength(1000);
    expect([state.scheduled[0].id, state.scheduled.at(-1)?.id]).toEqual(["r_2", "r_1001"]);
  });

  it("are taken out when due, the moment included, earliest first; the others stay in their order", () => {
    const state = new CredentialState(KEY);
    expect(state.takeDueMoves(5000)).toEqual([]);
    state.scheduleMove(move(1, 3000));
    state.scheduleMove(move(2, 2000));
    state.scheduleMove(move(3, 2500));
    state.scheduleMove(move(4, 2001));
    state.scheduleMove(move(5, 1000));
    expect(state.takeDueMoves(999)).toEqual([]);
    expect(state.scheduled).toHaveLength(5);
    expect(state.takeDueMoves(2000).map((m) => m.id)).toEqual(["r_5", "r_2"]);
    expect(state.scheduled.map((m) => m.id)).toEqual(["r_1", "r_3", "r_4"]);
    expect(state.takeDueMoves(10_000).map((m) => m.id)).toEqual(["r_4", "r_3", "r_1"]);
    expect(state.scheduled).toEqual([]);
  });
});

describe("the clock's next wake", () => {
  it("is the earliest asked for; a later or equal one leaves it", () => {
    const state = new CredentialState(KEY);
    expect(state.wake).toBeUndefined();
    state.wakeBy(5000);
    expect(state.wake).toBe(5000);
    state.wakeBy(6000);
    expect(state.wake).toBe(5000);
    state.wakeBy(4000);
    expect(state.wake).toBe(4000);
    state.setWake(7000);
    expect(state.wake).toBe(7000);
    state.setWake(undefined);
    expect(state.wake).toBeUndefined();
  });
});

describe("queued error rules", () => {
  it("go once their calls are used, one call at a time", () => {
    const state = new CredentialState(KEY);
    const twice = { id: "err_1", operationId: "createOrder", status: 503, remaining: 2 };
    const once = { id: "err_2", operationId: "getOrder", status: 500, remaining: 1 };
    state.addErrorRule(twice);
    state.addErrorRule(once);
    state.useErrorRule(twice);
    expect(state.errors.map((r) => [r.id, r.remaining])).toEqual([
      ["err_1", 1],
      ["err_2", 1],
    ]);
    state.useErrorRule(once);
    expect(state.errors.map((r) => r.id)).toEqual(["err_1"]);
    state.useErrorRule(twice);
    expect(state.errors).toEqual([]);
    expect(state.clearErrorRules()).toBe(0);
    state.addErrorRule({ ...once, id: "err_3" });
    expect(state.clearErrorRules()).toBe(1);
    expect(state.errors).toEqual([]);
  });
});

describe("callback URLs", () => {
  it("are registered per webhook, replaced, and deleted once", () => {
    const state = new CredentialState(KEY);
    expect(state.deleteCallbackUrl("orderPaid")).toBe(false);
    state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/a");
    state.setCallbackUrl("orderFailed", "http://127.0.0.1:9/b");
    state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/c");
    expect([...state.callbackUrls]).toEqual([
      ["orderPaid", "http://127.0.0.1:9/c"],
      ["orderFailed", "http://127.0.0.1:9/b"],
    ]);
    expect(state.deleteCallbackUrl("orderPaid")).toBe(true);
    expect(state.deleteCallbackUrl("orderPaid")).toBe(false);
    expect([...state.callbackUrls.keys()]).toEqual(["orderFailed"]);
  });
});
