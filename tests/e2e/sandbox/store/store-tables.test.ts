/**
 * The store's definitions made when its modules load, each module loaded as a new instance by the
 * test (tests/helpers/fresh-module.ts): the rows' stored form (the `meta` row's id, a record's row id
 * `<resource>/<id>`, the rows of a record and an event, the defaults of a `meta` row written before
 * one of its members existed), the codec's `$instant` and `$object` forms, a record's JSON size
 * (members left out as JSON leaves them out; a string's escapes), a state's line in a listing, and
 * the store's address: its environment variable and the forms a refusal lists. Rows written by one
 * instance are read by another: these forms are what a durable store keeps.
 */
import { describe, expect, it } from "vitest";
import type * as Codec from "../../../../src/sandbox/store/codec.js";
import type * as Open from "../../../../src/sandbox/store/open.js";
import type * as Records from "../../../../src/sandbox/store/records.js";
import type * as Rows from "../../../../src/sandbox/store/rows.js";
import type * as Size from "../../../../src/sandbox/store/size.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import type * as Store from "../../../../src/sandbox/store/store.js";
import { Instant } from "../../../../src/sandbox/values.js";
import { freshModule } from "../../../helpers/fresh-module.js";
import { event } from "./state-fixtures.js";

const store = (name: string) => `src/sandbox/store/${name}.ts`;

describe("rows", () => {
  it("names the meta row `meta` and a record's row `<resource>/<id>`, and writes a record's and an event's rows", async () => {
    const rows = await freshModule<typeof Rows>(store("rows"));
    expect(rows.META_ID).toBe("meta");
    expect(rows.recordRowId("order", "o-1")).toBe("order/o-1");
    const meta = { clockOffsetMs: 5, callbackUrls: [], errors: [], seq: 2, scheduled: [] };
    expect(rows.metaRow(meta)).toStrictEqual({ collection: "meta", id: "meta", value: meta });
    expect(rows.recordRow({ resource: "order", id: "o-1", seq: 3, data: { order_id: "o-1" }, bytes: 18, members: 1 })).toStrictEqual({
      collection: "record",
      id: "order/o-1",
      value: { resource: "order", id: "o-1", seq: 3, data: { order_id: "o-1" } },
    });
    const kept = event("evt_1");
    expect(rows.eventRow({ event: kept, bytes: 40, seq: 4 })).toStrictEqual({
      collection: "event",
      id: "evt_1",
      value: { seq: 4, bytes: 40, event: JSON.parse(JSON.stringify(kept)) },
    });
  });

  it("reads a credential with no meta row, or a meta row missing members, with the meta's defaults", async () => {
    const rows = await freshModule<typeof Rows>(store("rows"));
    const defaults = { clockOffsetMs: 0, callbackUrls: [], errors: [], seq: 0, scheduled: [] };
    expect(rows.readRows({ key: "k".repeat(64), version: 1, rows: [] }).meta).toStrictEqual(defaults);
    const read = rows.readRows({ key: "k".repeat(64), version: 1, rows: [{ collection: "meta", id: "meta", value: { seq: 7 } }] });
    expect(read.meta).toStrictEqual({ ...defaults, seq: 7 });
  });
});

describe("codec", () => {
  it("writes an instant as {$instant: ms}, and data with only a `$instant` or `$object` member inside {$object}", async () => {
    const { encode } = await freshModule<typeof Codec>(store("codec"));
    expect(encode({ at: new Instant(5) })).toStrictEqual({ at: { $instant: 5 } });
    expect(encode({ $instant: 1 })).toStrictEqual({ $object: { $instant: 1 } });
    expect(encode({ $object: 1 })).toStrictEqual({ $object: { $object: 1 } });
  });
});

describe("sizes", () => {
  it("counts a record's members as JSON writes them, one left out counting nothing", async () => {
    const { measure } = await freshModule<typeof Records>(store("records"));
    // {"a":1,"bc":"x"}: 16 bytes, 2 members; an undefined member and a function are not written.
    expect(measure({ a: 1, bc: "x", gone: undefined, f: (() => 1) as never })).toStrictEqual({ bytes: 16, members: 2 });
  });

  it("counts a string's bytes as JSON writes them: escapes and UTF-8", async () => {
    const { sizeOf } = await freshModule<typeof Size>(store("size"));
    expect(sizeOf("ab")).toBe(4); // "ab"
    expect(sizeOf('a"b')).toBe(6); // "a\"b"
    expect(sizeOf("é")).toBe(4); // "é": two bytes in UTF-8
    expect(sizeOf("\n")).toBe(4); // "\n"
  });
});

describe("a state's line in a listing", () => {
  it("gives its label, records, clock offset, error rules and logged deliveries", async () => {
    const { summaryOf } = await freshModule<typeof Store>(store("store"));
    const state = new CredentialState("0123456789abcdef".repeat(4));
    state.add("order", "o-1", { order_id: "o-1" });
    state.advanceClock(1000);
    expect(summaryOf(state)).toStrictEqual({ label: "0123456789ab", records: 1, clockOffsetMs: 1000, errors: 0, deliveries: 0 });
  });
});

describe("the store's address", () => {
  it("is read from BANK_API_CONTRACTS_SANDBOX_STORE, and a refusal lists the forms it takes", async () => {
    const open = await freshModule<typeof Open>(store("open"));
    expect(open.STORE_ENV).toBe("BANK_API_CONTRACTS_SANDBOX_STORE");
    expect(open.storeAddressFrom(undefined, { BANK_API_CONTRACTS_SANDBOX_STORE: "file:/srv/sandbox" }, "--sandbox-store")).toStrictEqual({
      kind: "file",
      dir: "/srv/sandbox",
    });
    expect(() => open.storeAddressFrom(undefined, { BANK_API_CONTRACTS_SANDBOX_STORE: "ftp://x" })).toThrow(
      /^BANK_API_CONTRACTS_SANDBOX_STORE "ftp:\/\/x\/": unknown kind of store "ftp:"; accepted: memory, file:<dir>, postgres:\/\/user:password@host:port\/database$/,
    );
  });
});
