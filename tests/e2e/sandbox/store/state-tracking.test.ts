/**
 * What a tracked credential's state hands a durable store (src/sandbox/store/state.ts `track`,
 * `takeChanges`, `row`, `rows`, `nextWork`, `load`; src/sandbox/store/rows.ts's rows): each change
 * marks exactly the rows it touches (the meta row for the clock, callback URLs, error rules,
 * scheduled moves, the wake and the sequence), a change that changes nothing marks none; when the
 * credential next has work due; a state loaded from rows counts its records and events; and what is
 * derived from records (`dataOf`, indexes) follows them.
 */
import { describe, expect, it } from "vitest";
import type { ChangeSet } from "../../../../src/sandbox/store/backend.js";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { entry, event, KEY, pending } from "./state-fixtures.js";

const T = 1_800_000_000_000;
/** The rows a change set puts and deletes, by name, each list sorted. */
const names = (changes: ChangeSet) => ({
  puts: changes.puts.map((r) => `${r.collection}:${r.id}`).sort(),
  deletes: changes.deletes.map((r) => `${r.collection}:${r.id}`).sort(),
});

/** A tracked state with a record, a callback URL, an error rule, a move, an event, a logged and queued delivery; its changes taken. */
function tracked(): CredentialState {
  const state = new CredentialState(KEY);
  state.track();
  state.add("order", "o-1", { order_id: "o-1" });
  state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/a");
  state.addErrorRule({ id: "err_1", operationId: "createOrder", status: 503, remaining: 2 });
  state.scheduleMove({ resource: "order", id: "o-1", seq: 1, action: "pay", at: T + 5000, cause: "test value" });
  state.setWake(T + 5000);
  state.keepEvent(event("evt_1"), 100);
  const logged = entry("dlv_1", "pending");
  state.logDelivery(logged);
  state.queueDelivery({ ...pending("dlv_1", T), entry: logged });
  state.takeChanges();
  return state;
}

/** Each change and the rows it marks (hand-written from src/sandbox/store/rows.ts's layout). */
const MARKS: Array<[string, (state: CredentialState) => void, { puts: string[]; deletes: string[] }]> = [
  ["the clock moved", (s) => s.advanceClock(1000), { puts: ["meta:meta"], deletes: [] }],
  ["a callback URL registered", (s) => s.setCallbackUrl("orderFailed", "http://127.0.0.1:9/b"), { puts: ["meta:meta"], deletes: [] }],
  ["a callback URL deleted", (s) => s.deleteCallbackUrl("orderPaid"), { puts: ["meta:meta"], deletes: [] }],
  ["no callback URL to delete", (s) => s.deleteCallbackUrl("orderFailed"), { puts: [], deletes: [] }],
  [
    "an error rule queued",
    (s) => s.addErrorRule({ id: "err_2", operationId: "x", status: 500, remaining: 1 }),
    { puts: ["meta:meta"], deletes: [] },
  ],
  ["an error rule's call used", (s) => s.useErrorRule(s.errors[0]), { puts: ["meta:meta"], deletes: [] }],
  ["the error rules cleared", (s) => s.clearErrorRules(), { puts: ["meta:meta"], deletes: [] }],
  [
    "a move scheduled",
    (s) => s.scheduleMove({ resource: "order", id: "o-1", seq: 1, action: "x", at: T, cause: "c" }),
    { puts: ["meta:meta"], deletes: [] },
  ],
  ["a due move taken", (s) => s.takeDueMoves(T + 5000), { puts: ["meta:meta"], deletes: [] }],
  ["no move due", (s) => s.takeDueMoves(T + 4999), { puts: [], deletes: [] }],
  ["the wake brought forward", (s) => s.wakeBy(T), { puts: ["meta:meta"], deletes: [] }],
  ["a later wake asked for", (s) => s.wakeBy(T + 6000), { puts: [], deletes: [] }],
  ["the same wake set", (s) => s.setWake(T + 5000), { puts: [], deletes: [] }],
  ["a record added", (s) => s.add("order", "o-2", {}), { puts: ["meta:meta", "record:order/o-2"], deletes: [] }],
  [
    "a record replaced",
    (s) => s.replace(s.get("order", "o-1")!, { order_id: "o-1", paid: true }),
    { puts: ["record:order/o-1"], deletes: [] },
  ],
  ["a record removed", (s) => s.remove(s.get("order", "o-1")!), { puts: [], deletes: ["record:order/o-1"] }],
  ["an event kept", (s) => s.keepEvent(event("evt_2"), 100), { puts: ["meta:meta", "event:evt_2"], deletes: [] }],
  ["a delivery added to an event", (s) => s.addEventDelivery(s.findEvent("evt_1")!, "dlv_2"), { puts: ["event:evt_1"], deletes: [] }],
  ["an event no longer kept grown", (s) => s.growEvent(event("evt_9"), 10), { puts: [], deletes: [] }],
  ["a delivery logged", (s) => s.logDelivery(entry("dlv_2")), { puts: ["meta:meta", "delivery:dlv_2"], deletes: [] }],
  ["a delivery queued", (s) => s.queueDelivery(pending("dlv_3", T)), { puts: ["delivery:dlv_3"], deletes: [] }],
  ["a delivery taken out of the queue", (s) => s.unqueueDelivery(s.queue[0]), { puts: ["delivery:dlv_1"], deletes: [] }],
  ["a delivery's attempt recorded", (s) => s.touchDelivery(s.deliveries[0]), { puts: ["delivery:dlv_1"], deletes: [] }],
];

describe("a tracked state's changes", () => {
  it.each(MARKS)("of %s are its rows", (_, change, rows) => {
    const state = tracked();
    change(state);
    expect(names(state.takeChanges())).toEqual({ puts: [...rows.puts].sort(), deletes: rows.deletes });
    expect(state.takeChanges()).toEqual({ puts: [], deletes: [] });
  });

  it("hand over an event the bound pushed out as gone, and the new one", () => {
    const state = new CredentialState(
      KEY,
      new SandboxBudget().withBounds(() => ({ records: 10, bytes: 10_000, events: 2, named: "q" })),
    );
    state.track();
    state.keepEvent(event("evt_1"), 10);
    state.keepEvent(event("evt_2"), 10);
    state.takeChanges();
    state.keepEvent(event("evt_3"), 10);
    expect(names(state.takeChanges())).toEqual({ puts: ["event:evt_3", "meta:meta"], deletes: ["event:evt_1"] });
  });

  it("hand over log entries pushed out as gone, but keep a queued one's row", () => {
    const state = new CredentialState(KEY);
    state.track();
    const queued = entry("dlv_queued", "pending");
    state.logDelivery(queued);
    state.queueDelivery({ ...pending("dlv_queued", T), entry: queued });
    state.logDelivery(entry("dlv_old"));
    for (let i = 0; i < 198; i++) state.logDelivery(entry(`dlv_${i}`));
    state.takeChanges();
    state.logDelivery(entry("dlv_new_1"));
    state.logDelivery(entry("dlv_new_2"));
    const changes = state.takeChanges();
    expect(names(changes)).toEqual({
      puts: ["delivery:dlv_new_1", "delivery:dlv_new_2", "delivery:dlv_queued", "meta:meta"],
      deletes: ["delivery:dlv_old"],
    });
    expect(changes.puts.find((r) => r.id === "dlv_queued")?.value).toMatchObject({
      logged: false,
      pending: { target: "http://127.0.0.1:9/hook", dueAt: T },
    });
  });

  it("keep what was marked when tracking is asked for again", () => {
    const state = new CredentialState(KEY);
    state.track();
    state.advanceClock(1000);
    state.track();
    expect(state.isTracked).toBe(true);
    expect(names(state.takeChanges())).toEqual({ puts: ["meta:meta"], deletes: [] });
    expect(new CredentialState(KEY).isTracked).toBe(false);
  });

  it("carry when the credential next has work due, on the real clock", () => {
    const state = tracked();
    state.advanceClock(2000);
    // The queued delivery is due at T, the move at T + 5000 on the sandbox clock (T + 3000 real).
    expect(state.takeChanges().wakeAt).toBe(T);
  });
});

describe("when a credential next has work due", () => {
  it("is a queued delivery's due time, or its lease while an attempt is in flight, or a move's time on the real clock", () => {
    const state = new CredentialState(KEY);
    expect(state.nextWork()).toBeNull();
    state.advanceClock(10_000);
    state.scheduleMove({ resource: "r", id: "a", seq: 1, action: "pay", at: T + 20_000, cause: "c" });
    expect(state.nextWork()).toBe(T + 10_000);
    state.queueDelivery(pending("dlv_1", T + 9_000));
    expect(state.nextWork()).toBe(T + 9_000);
    state.queueDelivery(pending("dlv_2", T, T + 12_000));
    // A lease later than its due time: the lease is when it is looked at again.
    expect(state.nextWork()).toBe(T + 9_000);
    state.unqueueDelivery(state.queue[0]);
    expect(state.nextWork()).toBe(T + 10_000);
    state.takeDueMoves(T + 20_000);
    expect(state.nextWork()).toBe(T + 12_000);
  });
});

describe("a state's rows", () => {
  it("give a queued delivery the log no longer shows as not logged, and a logged one out of the queue without a place in it", () => {
    const state = new CredentialState(KEY);
    const inQueue = pending("dlv_q", T);
    state.queueDelivery(inQueue);
    state.logDelivery(entry("dlv_l"));
    expect(state.row("delivery", "dlv_q")?.value).toMatchObject({ logged: false, pending: { dueAt: T, next: "attempt" } });
    expect(state.row("delivery", "dlv_l")?.value).not.toHaveProperty("pending");
    expect(state.row("delivery", "dlv_l")?.value).toMatchObject({ logged: true });
    expect(
      state
        .rows()
        .filter((r) => r.collection === "delivery")
        .map((r) => r.id),
    ).toEqual(["dlv_l", "dlv_q"]);
  });

  it("write no wake in the meta row when nothing is due, and the wake when one is", () => {
    const state = new CredentialState(KEY);
    expect(state.row("meta", "meta")?.value).not.toHaveProperty("wake");
    state.setWake(T);
    expect(state.row("meta", "meta")?.value).toMatchObject({ wake: T });
  });

  it("find a record whose id holds a slash by its resource's name, the part before the first slash", () => {
    const state = new CredentialState(KEY);
    state.add("order", "a/b", { x: 1 });
    expect(state.row("record", "order/a/b")?.value).toMatchObject({ resource: "order", id: "a/b" });
    expect(state.row("record", "order/a")).toBeUndefined();
    // A row id without a slash names no record, whatever the records are called.
    state.add("orde", "order", {});
    expect(state.row("record", "order")).toBeUndefined();
    // The part before the first slash, even when it is empty.
    state.add("", "x", { y: 1 });
    expect(state.row("record", "/x")?.value).toMatchObject({ resource: "", id: "x" });
  });

  it("load into a state in a budget of its own when none is given, its events counted", () => {
    const state = new CredentialState(KEY);
    state.add("order", "o-1", { order_id: "o-1" });
    state.keepEvent(event("evt_1"), 120);
    state.keepEvent(event("evt_2"), 80);
    const loaded = CredentialState.load({ key: KEY, version: 3, rows: JSON.parse(JSON.stringify(state.rows())) });
    expect(loaded.eventBytes).toBe(200);
    expect(loaded.budget.used).toBe(state.bytes + 200);
    expect(loaded.budget).not.toBe(state.budget);
    expect(loaded.label).toBe("cccccccccccc");
  });
});

describe("what is derived from a credential's records", () => {
  it("is the same list of data until a record changes, then the data in creation order", () => {
    const state = new CredentialState(KEY);
    const a = state.add("r", "a", { n: 1 });
    state.add("r", "b", { n: 2 });
    const first = state.dataOf("r");
    expect(first).toEqual([{ n: 1 }, { n: 2 }]);
    expect(state.dataOf("r")).toBe(first);
    state.replace(a, { n: 3 });
    expect(state.dataOf("r")).toEqual([{ n: 3 }, { n: 2 }]);
    state.remove(state.get("r", "b")!);
    expect(state.dataOf("r")).toEqual([{ n: 3 }]);
    state.add("r", "c", { n: 4 });
    expect(state.dataOf("r")).toEqual([{ n: 3 }, { n: 4 }]);
    state.release();
    expect(state.dataOf("r")).toEqual([]);
    expect(state.dataOf("none")).toEqual([]);
  });

  it("is a new list after any two changes of records, whatever they are", () => {
    const pairs: Array<[string, (state: CredentialState) => void, (state: CredentialState) => void]> = [
      ["an update, then a create", (s) => s.replace(s.get("r", "a")!, { n: 10 }), (s) => s.add("r", "c", { n: 3 })],
      ["a create, then an update", (s) => s.add("r", "c", { n: 3 }), (s) => s.replace(s.get("r", "a")!, { n: 10 })],
      ["a removal, then a create", (s) => s.remove(s.get("r", "b")!), (s) => s.add("r", "c", { n: 3 })],
      // A request in flight when its state was dropped still runs on it.
      ["a reset, then a create", (s) => s.release(), (s) => s.add("r", "c", { n: 3 })],
    ];
    for (const [what, first, second] of pairs) {
      const state = new CredentialState(KEY);
      state.add("r", "a", { n: 1 });
      state.add("r", "b", { n: 2 });
      state.dataOf("r");
      first(state);
      second(state);
      expect(state.dataOf("r"), what).toEqual(state.list("r").map((r) => r.data));
    }
  });

  it("removes nothing of a resource the state holds no records of (a record from before a reset)", () => {
    const state = new CredentialState(KEY);
    const record = state.add("r", "a", { n: 1 });
    state.release();
    state.remove(record);
    expect([state.count, state.bytes, state.list("r")]).toEqual([0, 0, []]);
  });

  it("counts in an index only the records of its resource, as they are added after it was built", () => {
    const state = new CredentialState(KEY);
    const key = (data: unknown) => (data as { ref?: string }).ref;
    const index = state.index("r", "ref", key);
    expect(index.size).toBe(0);
    state.add("r", "1", { ref: "a" });
    state.add("s", "2", { ref: "a" });
    state.add("r", "3", { ref: "a" });
    expect(Object.fromEntries(index)).toEqual({ a: 2 });
    const other = state.index("s", "ref", key);
    expect(Object.fromEntries(other)).toEqual({ a: 1 });
    expect(state.index("r", "other", key)).not.toBe(index);
    expect(Object.fromEntries(state.index("r", "other", key))).toEqual({ a: 2 });
    // keyOf is given a record's data, never nothing: a record removed is counted out.
    state.remove(state.get("r", "1")!);
    expect(Object.fromEntries(index)).toEqual({ a: 1 });
  });
});

describe("a credential's key", () => {
  it('is the SHA-256 of its value in hex (FIPS 180-4\'s example of "abc")', () => {
    expect(credentialKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("a credential's clock", () => {
  it("runs its offset ahead of the real clock", () => {
    const state = new CredentialState(KEY);
    state.advanceClock(3_600_000);
    state.advanceClock(1000);
    expect(state.clockOffsetMs).toBe(3_601_000);
    const before = Date.now();
    const now = state.now();
    expect(now - 3_601_000).toBeGreaterThanOrEqual(before);
    expect(now - 3_601_000).toBeLessThanOrEqual(Date.now());
  });
});
