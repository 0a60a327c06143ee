/**
 * A credential's state as the rows of src/sandbox/store/backend.ts (src/sandbox/store/rows.ts,
 * state.ts `rows`, `load`, `track`, `takeChanges`): every kind of row written as plain JSON and read
 * back into the same state; a tracked state hands over exactly the rows its changes touched, and
 * nothing of a change undone.
 */
import { describe, expect, it } from "vitest";
import type { StoredCredential } from "../../../../../src/sandbox/store/backend.js";
import { LIMITS, SandboxBudget } from "../../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../../src/sandbox/store/state.js";
import type { DeliveryEntry, SandboxEvent } from "../../../../../src/sandbox/store/types.js";
import { Instant } from "../../../../../src/sandbox/values.js";

const entry = (id: string, state: DeliveryEntry["state"]): DeliveryEntry => ({
  id,
  seq: 0,
  webhook: "orderPaid",
  resource: "order",
  resourceId: "o-1",
  event: { from: "CREATED", to: "PAID", cause: "control" },
  url: "http://127.0.0.1:9/hook",
  idempotencyKey: `key-${id}`,
  payload: { order_id: "o-1", status: "PAID" },
  state,
  times: 1,
  deliveredCount: 0,
  attempts: state === "pending" ? [{ at: "2026-01-01T00:00:00.000Z", status: 503, durationMs: 3 }] : [],
  createdAt: "2026-01-01T00:00:00.000Z",
});

const paidEvent = (): SandboxEvent => ({
  id: "evt_1",
  type: "order.pay",
  resource: "order",
  resourceId: "o-1",
  from: "CREATED",
  to: "PAID",
  action: "pay",
  cause: "control",
  createdAt: "2026-01-01T00:00:00.000Z",
  idempotencyKey: "key-evt_1",
  callbacks: [{ webhook: "orderPaid", url: "http://127.0.0.1:9/hook", payload: { order_id: "o-1" } }],
  deliveries: [],
});

/** A state holding every kind of row: meta (clock, callback URL, error rules, a scheduled move, the wake), records, an event, deliveries logged, queued, and queued but out of the log. */
function everyKind(budget = new SandboxBudget()) {
  const state = new CredentialState("f".repeat(64), budget);
  const first = state.add(
    "order",
    "o-1",
    {
      order_id: "o-1",
      status: "CREATED",
      created: new Instant(1_767_225_600_123),
      // Members a partner may send that look like the codec's own forms, and one named __proto__.
      looks: { $instant: 5 },
      wrapped: { $object: { a: 1 } },
      list: [1, "a", null, { at: new Instant(0) }],
      ...JSON.parse('{"__proto__": {"x": 1}}'),
    },
    1_767_232_800_000,
  );
  state.add("merchant", "m-1", { merchant_id: "m-1", name: "Shop" });
  state.advanceClock(3_600_000);
  state.setCallbackUrl("orderPaid", "http://127.0.0.1:9/hook");
  state.addErrorRule({ id: "err_1", operationId: "createOrder", status: 503, remaining: 2, retryAfter: 7 });
  state.addErrorRule({ id: "err_2", operationId: "getOrder", status: 0, remaining: 1, latencyMs: 50 });
  state.scheduleMove({
    resource: "order",
    id: "o-1",
    seq: first.seq,
    action: "pay",
    at: 1_767_229_200_000,
    cause: "test value paid_later",
  });
  state.wakeBy(1_767_229_200_000);
  const paid = paidEvent();
  expect(state.keepEvent(paid, Buffer.byteLength(JSON.stringify(paid)))).toBe(true);
  const skipped = entry("dlv_skipped", "skipped");
  state.logDelivery(skipped);
  state.addEventDelivery(paid, skipped.id);
  // Queued, then pushed out of the log by newer entries: its row stays while it is queued.
  const early = entry("dlv_early", "pending");
  state.logDelivery(early);
  state.queueDelivery({ entry: early, target: "http://127.0.0.1:9/hook", attempts: 1, dueAt: 1_767_225_605_000, next: "attempt" });
  for (let i = 0; i < LIMITS.deliveryLog - 1; i++) state.logDelivery(entry(`dlv_filler_${i}`, "skipped"));
  // Queued and logged, an attempt in flight.
  const late = entry("dlv_late", "pending");
  state.logDelivery(late);
  state.queueDelivery({
    entry: late,
    target: "http://127.0.0.1:9/hook",
    attempts: 2,
    dueAt: 1_767_225_601_000,
    next: "give-up",
    lease: 1_767_225_611_000,
  });
  return state;
}

const stored = (state: CredentialState): StoredCredential => ({
  key: state.key,
  version: 1,
  // Through JSON text: a row's value is plain JSON.
  rows: JSON.parse(JSON.stringify(state.rows())),
});

describe("a state's rows", () => {
  it("hold every kind of row, each once, as plain JSON", () => {
    const rows = everyKind().rows();
    const count = (collection: string) => rows.filter((r) => r.collection === collection).length;
    expect(count("meta")).toBe(1);
    expect(count("record")).toBe(2);
    expect(count("event")).toBe(1);
    // The log's newest LIMITS.deliveryLog entries, and the queued one the log no longer shows.
    expect(count("delivery")).toBe(LIMITS.deliveryLog + 1);
    expect(new Set(rows.map((r) => `${r.collection}:${r.id}`)).size).toBe(rows.length);
    expect(rows.find((r) => r.id === "order/o-1")?.value).toMatchObject({
      data: { created: { $instant: 1_767_225_600_123 }, looks: { $object: { $instant: 5 } }, wrapped: { $object: { $object: { a: 1 } } } },
    });
    expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
  });

  it("rebuild the same state: its records, clock, callback URLs, error rules, scheduled move, wake, event, log and queue", () => {
    const budget = new SandboxBudget();
    const state = everyKind(budget);
    const usedBefore = budget.used;
    const loaded = CredentialState.load(stored(state), budget);
    expect(loaded.rows()).toEqual(state.rows());
    // Its records and events counted in the budget as the original's are.
    expect([loaded.bytes, loaded.eventBytes, loaded.count]).toEqual([state.bytes, state.eventBytes, state.count]);
    expect(budget.used).toBe(2 * usedBefore);
    const order = loaded.get("order", "o-1")!;
    expect(order.data.created).toBeInstanceOf(Instant);
    expect(order.data.created.ms).toBe(1_767_225_600_123);
    expect(order.data.list[3].at).toBeInstanceOf(Instant);
    expect(order.data.looks).toEqual({ $instant: 5 });
    expect(order.data.wrapped).toEqual({ $object: { a: 1 } });
    expect(Object.hasOwn(order.data, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(order.data)).toBe(Object.prototype);
    expect(order.expiresAt).toBe(1_767_232_800_000);
    expect(loaded.list("order").map((r) => r.id)).toEqual(["o-1"]);
    expect(loaded.clockOffsetMs).toBe(3_600_000);
    expect([...loaded.callbackUrls]).toEqual([["orderPaid", "http://127.0.0.1:9/hook"]]);
    expect(loaded.errors.map((e) => e.id)).toEqual(["err_1", "err_2"]);
    expect(loaded.scheduled).toEqual(state.scheduled);
    expect(loaded.wake).toBe(1_767_229_200_000);
    expect(loaded.findEvent("evt_1")?.deliveries).toEqual(["dlv_skipped"]);
    expect(loaded.deliveries).toHaveLength(LIMITS.deliveryLog);
    expect(loaded.deliveries.at(-1)?.id).toBe("dlv_late");
    expect(loaded.queue.map((p) => [p.entry.id, p.attempts, p.next, p.lease])).toEqual([
      ["dlv_early", 1, "attempt", undefined],
      ["dlv_late", 2, "give-up", 1_767_225_611_000],
    ]);
    // A delivery both logged and queued is one entry in both.
    expect(loaded.queue[1].entry).toBe(loaded.deliveries.at(-1));
    // When it next has work due without a request: the in-flight attempt's lease is later than the other's due time.
    expect(loaded.nextWork()).toBe(Math.min(1_767_225_605_000, 1_767_225_611_000, 1_767_229_200_000 - 3_600_000));
  });

  it("name the row they cannot read", () => {
    const rows = [{ collection: "nonsense", id: "x", value: {} }] as unknown as StoredCredential["rows"];
    expect(() => CredentialState.load({ key: "a".repeat(64), version: 1, rows })).toThrow(
      "credential aaaaaaaaaaaa: row nonsense:x is of no collection of a state",
    );
  });
});

describe("the changes of a tracked state", () => {
  it("are exactly the rows its changes touched since they were last taken", () => {
    const state = everyKind();
    state.track();
    // Nothing changed: no row, and no wakeAt (the stored one stays).
    expect(state.takeChanges()).toEqual({ puts: [], deletes: [] });
    const record = state.get("order", "o-1")!;
    state.replace(record, { ...record.data, status: "PAID" });
    state.remove(state.get("merchant", "m-1")!);
    const changes = state.takeChanges();
    expect(changes.puts.map((r) => `${r.collection}:${r.id}`)).toEqual(["record:order/o-1"]);
    expect(changes.puts[0].value).toMatchObject({ data: { status: "PAID" } });
    expect(changes.deletes).toEqual([{ collection: "record", id: "merchant/m-1" }]);
    // A delivery's attempt recorded, an error rule used: its row, and the meta row.
    state.touchDelivery(state.queue[0].entry);
    state.useErrorRule(state.errors[0]);
    expect(
      state
        .takeChanges()
        .puts.map((r) => `${r.collection}:${r.id}`)
        .sort(),
    ).toEqual(["delivery:dlv_early", "meta:meta"]);
  });

  it("read each row alone as the whole state writes it, and carry the next wake once a row changed", () => {
    const state = everyKind();
    const rows = state.rows();
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect([row.collection, row.id, state.row(row.collection, row.id)]).toEqual([row.collection, row.id, row]);
    for (const [collection, id] of [
      ["meta", "other"],
      ["record", "order/o-404"],
      ["record", "no-slash"],
      ["event", "evt_404"],
      ["delivery", "dlv_404"],
    ] as const)
      expect(state.row(collection, id)).toBeUndefined();
    state.track();
    state.advanceClock(1000);
    expect(state.takeChanges()).toEqual({ puts: [state.row("meta", "meta")], deletes: [], wakeAt: state.nextWork() });
  });

  it("leave nothing behind of a change undone", () => {
    const state = everyKind();
    state.track();
    const before = JSON.stringify(state.rows());
    const record = state.get("order", "o-1")!;
    expect(() =>
      state.atomically(() => {
        state.add("order", "o-3", { order_id: "o-3" });
        state.replace(record, { ...record.data, status: "PAID" });
        state.remove(state.get("merchant", "m-1")!);
        state.keepEvent({ ...paidEvent(), id: "evt_2" }, 300);
        state.logDelivery(entry("dlv_new", "skipped"));
        state.setCallbackUrl("orderPaid", "http://127.0.0.1:10/other");
        state.advanceClock(1000);
        state.setWake(undefined);
        throw new Error("the request failed");
      }),
    ).toThrow("the request failed");
    expect(JSON.stringify(state.rows())).toBe(before);
    expect(state.takeChanges()).toEqual({ puts: [], deletes: [] });
  });

  it("are asked only of a tracked state", () => {
    expect(() => new CredentialState("b".repeat(64)).takeChanges()).toThrow("credential bbbbbbbbbbbb: takeChanges() needs a tracked state");
  });
});
