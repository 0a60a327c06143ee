/**
 * A credential's rows (src/sandbox/store/rows.ts) written and read back, on hand-written values:
 * each kind of row has the collection and id the module header gives it (`meta`, `<resource>/<id>`,
 * the event's id, the delivery's id) and a value that is JSON as it is (no member JSON would leave
 * out); rows stored in any order read back in the order of their sequence; a state with no meta row
 * has a fresh state's meta; a row whose value is not an object is refused naming the credential and
 * the row.
 */
import { describe, expect, it } from "vitest";
import type { Row, StoredCredential } from "../../../../src/sandbox/store/backend.js";
import { deliveryRow, eventRow, META_ID, metaRow, readRows, recordRow, recordRowId } from "../../../../src/sandbox/store/rows.js";
import type { DeliveryEntry, KeptEvent } from "../../../../src/sandbox/store/types.js";
import { entry as loggedEntry } from "./state-fixtures.js";

const KEY = "a".repeat(64);
const credential = (rows: Row[]): StoredCredential => ({ key: KEY, version: 1, rows });
const record = (id: string, seq: number): Row => ({
  collection: "record",
  id: `order/${id}`,
  value: { resource: "order", id, seq, data: { order_id: id } },
});
const event = (id: string, seq: number): Row => ({
  collection: "event",
  id,
  value: { seq, bytes: 10, event: { id, type: "order.pay" } },
});

/** A queued delivery's log entry (state-fixtures.ts), at sequence 1. */
const entry = (id: string): DeliveryEntry => ({ ...loggedEntry(id, "pending"), seq: 1 });

describe("readRows", () => {
  it("reads records and events in the order of their sequence, whatever the order of the rows", () => {
    // Sequences in an order no sort of the rows' own order or ids gives.
    const seqs = [5, 1, 4, 2, 3];
    const rows = [...seqs.map((seq) => record(`o-${6 - seq}`, seq)), ...seqs.map((seq) => event(`evt_${6 - seq}`, seq))];
    const read = readRows(credential(rows));
    expect(read.records.map((r) => [r.seq, r.id])).toEqual([
      [1, "o-5"],
      [2, "o-4"],
      [3, "o-3"],
      [4, "o-2"],
      [5, "o-1"],
    ]);
    expect(read.events.map((e) => [e.seq, e.event.id])).toEqual([
      [1, "evt_5"],
      [2, "evt_4"],
      [3, "evt_3"],
      [4, "evt_2"],
      [5, "evt_1"],
    ]);
    // Two rows, the later one first.
    expect(readRows(credential([record("b", 2), record("a", 1)])).records.map((r) => r.id)).toEqual(["a", "b"]);
    expect(readRows(credential([event("b", 2), event("a", 1)])).events.map((e) => e.event.id)).toEqual(["a", "b"]);
  });

  it("gives a state without a meta row the meta of a fresh state: clock not moved, no callback URL, error rule or move, sequence 0, no wake", () => {
    const read = readRows(credential([record("o-1", 1)]));
    expect(read.meta).toStrictEqual({ clockOffsetMs: 0, callbackUrls: [], errors: [], seq: 0, scheduled: [] });
    expect(readRows(credential([])).meta).toStrictEqual({ clockOffsetMs: 0, callbackUrls: [], errors: [], seq: 0, scheduled: [] });
    // A meta row's members over those defaults.
    expect(readRows(credential([{ collection: "meta", id: "meta", value: { seq: 7, wake: 9 } }])).meta).toStrictEqual({
      clockOffsetMs: 0,
      callbackUrls: [],
      errors: [],
      seq: 7,
      scheduled: [],
      wake: 9,
    });
  });

  it("refuses a row whose value is not an object, naming the credential's label and the row", () => {
    const cases: Array<[Row, string]> = [
      [{ collection: "meta", id: "meta", value: null }, "row meta:meta has no value"],
      [{ collection: "record", id: "order/o-1", value: 5 }, "row record:order/o-1 has no value"],
      [{ collection: "event", id: "evt_1", value: "text" }, "row event:evt_1 has no value"],
      [{ collection: "delivery", id: "dlv_1", value: true }, "row delivery:dlv_1 has no value"],
      [{ collection: "record", id: "order/o-2", value: undefined }, "row record:order/o-2 has no value"],
    ];
    for (const [row, message] of cases) {
      expect(() => readRows(credential([record("o-0", 1), row]))).toThrow(new TypeError(`credential aaaaaaaaaaaa: ${message}`));
    }
  });
});

describe("the rows written", () => {
  it("name each row by its collection and id: meta, <resource>/<id>, the event's id, the delivery's id", () => {
    expect([META_ID, recordRowId("order", "o-1")]).toEqual(["meta", "order/o-1"]);
    const meta = {
      clockOffsetMs: 5,
      callbackUrls: [["orderPaid", "http://127.0.0.1:9/hook"]] as Array<[string, string]>,
      errors: [],
      seq: 3,
      scheduled: [],
    };
    expect(metaRow(meta)).toStrictEqual({ collection: "meta", id: "meta", value: meta });
    expect(recordRow({ resource: "order", id: "o-1", seq: 2, data: { order_id: "o-1" }, bytes: 18, members: 1 })).toStrictEqual({
      collection: "record",
      id: "order/o-1",
      value: { resource: "order", id: "o-1", seq: 2, data: { order_id: "o-1" } },
    });
    const kept = { seq: 4, bytes: 40, event: { id: "evt_1", type: "order.pay" } } as unknown as KeptEvent;
    expect(eventRow(kept)).toStrictEqual({
      collection: "event",
      id: "evt_1",
      value: { seq: 4, bytes: 40, event: { id: "evt_1", type: "order.pay" } },
    });
    expect(deliveryRow(entry("dlv_1"), false, undefined)).toMatchObject({ collection: "delivery", id: "dlv_1", value: { logged: false } });
    // Each reads back as it was written.
    const read = readRows(
      credential([metaRow(meta), eventRow(kept), recordRow({ resource: "order", id: "o-1", seq: 2, data: {}, bytes: 2, members: 0 })]),
    );
    expect(read.meta).toStrictEqual(meta);
    expect(read.events).toStrictEqual([kept]);
    expect(read.records.map((r) => [r.resource, r.id, r.seq])).toEqual([["order", "o-1", 2]]);
  });
});

describe("a row's value", () => {
  it("is JSON as it is: a record without an expiry and a delivery queued without a lease have no such member", () => {
    const plain = recordRow({ resource: "order", id: "o-1", seq: 1, data: { order_id: "o-1" }, bytes: 18, members: 1 });
    expect(plain.value).toStrictEqual(JSON.parse(JSON.stringify(plain.value)));
    expect(Object.keys(plain.value as object)).toEqual(["resource", "id", "seq", "data"]);
    const expiring = recordRow({ resource: "order", id: "o-1", seq: 1, data: {}, expiresAt: 60_000, bytes: 2, members: 0 });
    expect(expiring.value).toMatchObject({ expiresAt: 60_000 });

    const queued = deliveryRow(entry("dlv_1"), true, {
      entry: entry("dlv_1"),
      target: "http://127.0.0.1:9/hook",
      attempts: 0,
      dueAt: 5,
      next: "attempt",
    });
    expect(queued.value).toStrictEqual(JSON.parse(JSON.stringify(queued.value)));
    expect(Object.keys((queued.value as { pending: object }).pending)).toEqual(["target", "attempts", "dueAt", "next"]);
    const leased = deliveryRow(entry("dlv_1"), true, {
      entry: entry("dlv_1"),
      target: "http://127.0.0.1:9/hook",
      attempts: 1,
      dueAt: 5,
      next: "attempt",
      lease: 9,
    });
    expect((leased.value as { pending: object }).pending).toMatchObject({ lease: 9 });
    const logged = deliveryRow(entry("dlv_1"), true, undefined);
    expect(Object.keys(logged.value as object)).toEqual(["logged", "entry"]);
  });
});
