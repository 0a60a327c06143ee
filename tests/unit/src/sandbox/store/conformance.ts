/**
 * The DurableBackend contract (src/sandbox/store/backend.ts) as one list of tests, run against each
 * durable store: `file:` (file.test.ts) and Postgres (postgres.spawn.test.ts). A subject gives a
 * fresh database before each test and new backend instances on it; two instances on one database
 * stand for two sandbox processes (for `file:`, two instances of one process, which share its
 * environment). Expectations are the hand-written rows, counts and orders below.
 */
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ChangeSet,
  DuplicatePartnerCredential,
  type DurableBackend,
  type PartnerRow,
  type Row,
  type StoredCredential,
} from "../../../../../src/sandbox/store/backend.js";

export interface ConformanceSubject {
  /** Prepares an empty database for the next test. */
  fresh(): Promise<void>;
  /** A new backend instance, not opened, on the current test's database. */
  make(): DurableBackend;
}

/** A credential key (SHA-256 hex), as the sandbox makes them. */
export const credentialKey = (name: string) => createHash("sha256").update(name).digest("hex");

const T = 1_800_000_000_000;

/** A row of every collection, with values JSON can say in every shape (member order matters: it is kept). */
export const ROWS: Row[] = [
  {
    collection: "meta",
    id: "meta",
    value: {
      clockOffset: 3600,
      callbackUrls: { invoicePaid: "http://127.0.0.1:9/cb" },
      errorRules: [],
      sequence: 7,
      delayed: [{ id: "inv_1", move: "pay", at: T }],
    },
  },
  { collection: "meta", id: "flag", value: true },
  { collection: "meta", id: "nothing", value: null },
  {
    collection: "record",
    id: "invoice/inv_0000000000000001",
    value: {
      invoice_id: "inv_0000000000000001",
      amount: 12.5,
      status: "Created",
      items: [{ name: "café ☕ 𝄞", qty: 2 }],
      paid_date: null,
      flagged: false,
    },
  },
  {
    collection: "record",
    id: "invoice/inv_2",
    value: JSON.parse(
      '{"z":1,"a":2,"__proto__":{"polluted":true},"n":-0.5,"big":9007199254740991,"tiny":1e-300,"huge":1e300,"text":"line\\nbreak \\u0000 nul \\"quote\\" \\\\ back \\ud800 lone"}',
    ),
  },
  { collection: "record", id: "ünïcödé id / with spaces", value: "a bare string" },
  { collection: "record", id: "numbers", value: [0, 1, -1, 3.14, 1e21] },
  { collection: "record", id: "empty", value: {} },
  { collection: "event", id: "evt_1", value: { type: "invoice.paid", idempotencyKey: "idem-1", at: "2026-11-28T10:00:00.000Z" } },
  { collection: "delivery", id: "evt_1/invoicePaid", value: { attempts: [{ at: T, status: 500 }], nextAttemptAt: T + 500, pending: true } },
];

const byRow = (a: Row, b: Row) => (a.collection === b.collection ? (a.id < b.id ? -1 : 1) : a.collection < b.collection ? -1 : 1);
/** Rows in one order, as JSON text: equal texts mean equal values with their members in the same order. */
export const rowsText = (rows: Row[]) => JSON.stringify([...rows].sort(byRow));

const change = (puts: Row[], deletes: ChangeSet["deletes"] = [], wakeAt: number | null = null): ChangeSet => ({ puts, deletes, wakeAt });
/** A change set without a wakeAt (it leaves the stored one as it is). */
const keepingWake = (puts: Row[]): ChangeSet => ({ puts, deletes: [] });

/** Puts `rows` on `key` and returns the version it got. */
async function putRows(backend: DurableBackend, key: string, rows: Row[], wakeAt: number | null = null): Promise<number> {
  return (await backend.transact(key, undefined, () => ({ changes: change(rows, [], wakeAt), result: undefined }))).version;
}

/** The stored credential as a caller without a copy gets it; nothing changes (`wakeAt`: the credential's). */
async function read(backend: DurableBackend, key: string, wakeAt: number | null = null): Promise<StoredCredential> {
  const { result } = await backend.transact(key, undefined, (stored) => ({ changes: change([], [], wakeAt), result: stored }));
  return result!;
}

async function loadAll(backend: DurableBackend): Promise<StoredCredential[]> {
  const all: StoredCredential[] = [];
  for await (const stored of backend.loadAll()) all.push(stored);
  return all.sort((a, b) => (a.key < b.key ? -1 : 1));
}

const partner = (id: string, credential: string, createdAt: string, quotas?: Record<string, number>): PartnerRow => ({
  id,
  name: `Partner ${id}`,
  credentialKey: credentialKey(credential),
  createdAt,
  ...(quotas ? { quotas } : {}),
});

export function describeConformance(name: string, subject: ConformanceSubject): void {
  describe(`${name}: the DurableBackend contract`, () => {
    const opened: DurableBackend[] = [];
    const open = async () => {
      const backend = subject.make();
      await backend.open();
      opened.push(backend);
      return backend;
    };

    beforeEach(() => subject.fresh());
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((backend) => backend.close()));
    });

    it("keeps rows of every collection as they were put: values, member order, ids", async () => {
      const store = await open();
      const key = credentialKey("round trip");
      expect(await putRows(store, key, ROWS)).toBe(1);
      const stored = await read(store, key);
      expect(stored.key).toBe(key);
      expect(stored.version).toBe(1);
      expect(stored.rows).toHaveLength(10);
      expect(rowsText(stored.rows)).toBe(rowsText(ROWS));
      const all = await loadAll(store);
      expect(all.map((s) => [s.key, s.version, s.rows.length])).toEqual([[key, 1, 10]]);
      expect(rowsText(all[0]!.rows)).toBe(rowsText(ROWS));
      // The own member "__proto__" is a member, not a prototype.
      const tricky = stored.rows.find((row) => row.id === "invoice/inv_2")!.value as Record<string, unknown>;
      expect(Object.keys(tricky)).toEqual(["z", "a", "__proto__", "n", "big", "tiny", "huge", "text"]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("hands work the stored credential only when the caller's version is another, and bumps the version on each change", async () => {
      const store = await open();
      const key = credentialKey("versions");
      const seen: (StoredCredential | undefined)[] = [];
      const run = (known: number | undefined, changes: ChangeSet) =>
        store.transact(key, known, (stored) => {
          seen.push(stored);
          return { changes, result: stored?.version };
        });

      // Never stored: version 0, no rows, to a caller without a copy and to one that thinks it has version 3.
      expect(await run(undefined, change([]))).toEqual({ result: 0, version: 0 });
      expect(await run(3, change([]))).toEqual({ result: 0, version: 0 });
      expect(seen.splice(0)).toEqual([
        { key, version: 0, rows: [] },
        { key, version: 0, rows: [] },
      ]);
      // A copy at version 0 is current.
      expect(await run(0, change([ROWS[0]!]))).toEqual({ result: undefined, version: 1 });
      expect(seen.splice(0)).toEqual([undefined]);
      // The same version: current; an older one: the stored rows.
      expect((await run(1, change([ROWS[1]!]))).version).toBe(2);
      expect(await run(1, change([]))).toEqual({ result: 2, version: 2 });
      expect(rowsText(seen.splice(0)[1]!.rows)).toBe(rowsText([ROWS[0]!, ROWS[1]!]));
      // Nothing changed (no put, no delete, the same wakeAt): the version stays.
      expect(await run(2, change([]))).toEqual({ result: undefined, version: 2 });
      // wakeAt alone is a change.
      expect((await run(2, change([], [], T))).version).toBe(3);
      expect((await run(3, change([], [], T))).version).toBe(3);
      expect((await run(3, change([], [], null))).version).toBe(4);
      // A delete, a delete of a row that is not there, and a row both deleted and put (it is put).
      const replaced: Row = { collection: "meta", id: "flag", value: false };
      expect(
        (
          await run(
            4,
            change(
              [replaced],
              [
                { collection: "meta", id: "meta" },
                { collection: "event", id: "absent" },
                { collection: "meta", id: "flag" },
              ],
            ),
          )
        ).version,
      ).toBe(5);
      expect(rowsText((await read(store, key)).rows)).toBe(rowsText([replaced]));
      // The last put of a row wins.
      await run(
        5,
        change([
          { collection: "record", id: "r", value: 1 },
          { collection: "record", id: "r", value: 2 },
        ]),
      );
      expect((await read(store, key)).rows.find((row) => row.id === "r")!.value).toBe(2);
    });

    it("changes nothing when work throws, or when its change set is refused, and rejects with work's own error", async () => {
      const store = await open();
      const key = credentialKey("throws");
      await putRows(store, key, [ROWS[0]!], T);
      const before = rowsText((await read(store, key, T)).rows);
      const mine = new Error("refused by the engine");
      await expect(
        store.transact(key, 1, () => {
          throw mine;
        }),
      ).rejects.toBe(mine);
      // A change set with a value JSON cannot write is refused whole: its other puts and deletes are not made.
      const refused: [ChangeSet, RegExp][] = [
        [change([ROWS[3]!, { collection: "record", id: "big", value: 1n }], [{ collection: "meta", id: "meta" }]), /puts\[1\].*JSON/],
        [
          change([{ collection: "records" as Row["collection"], id: "x", value: 1 }]),
          /collection must be one of meta, record, event, delivery/,
        ],
        [change([{ collection: "record", id: "", value: 1 }]), /puts\[0\]\.id/],
        [change([{ collection: "record", id: "x".repeat(513), value: 1 }]), /at most 512 bytes/],
        [change([{ collection: "record", id: "nul\0", value: 1 }]), /of Unicode without NUL/],
        [change([{ collection: "record", id: "lone \ud800 surrogate", value: 1 }]), /puts\[0\]\.id: .* of Unicode without NUL/],
        [change([{ collection: "record", id: "u", value: undefined }]), /cannot be written as JSON/],
        [change([ROWS[3]!], [], -1), /wakeAt/],
        [change([ROWS[3]!], [], 1.5), /wakeAt/],
      ];
      for (const [changes, message] of refused)
        await expect(
          store.transact(key, 1, () => ({ changes, result: undefined })),
          String(message),
        ).rejects.toThrow(message);
      const after = await read(store, key, T);
      expect(after.version).toBe(1);
      expect(rowsText(after.rows)).toBe(before);
      // wakeAt unchanged too: still due.
      expect(await store.claimDue(T, "checker", 1000, 10)).toEqual([key]);
    });

    it("refuses a key that is not a SHA-256 in hex, and claimDue's arguments out of bounds", async () => {
      const store = await open();
      for (const bad of ["", "ABC", credentialKey("x").toUpperCase(), `${credentialKey("x")}0`])
        await expect(
          store.transact(bad, undefined, () => ({ changes: change([]), result: 1 })),
          bad,
        ).rejects.toThrow(/64 lowercase hex digits/);
      await expect(store.remove("nope")).rejects.toThrow(/64 lowercase hex digits/);
      await expect(store.claimDue(T, "a", 0, 1)).rejects.toThrow(/leaseMs must be an integer from 1 to 3600000/);
      await expect(store.claimDue(T, "a", 1000, 0)).rejects.toThrow(/limit must be an integer from 1 to 1000/);
      await expect(store.claimDue(T, "a", 1000, 1001)).rejects.toThrow(/limit must be an integer from 1 to 1000/);
      await expect(store.claimDue(T, "", 1000, 1)).rejects.toThrow(/owner/);
      await expect(store.claimDue(-1, "a", 1000, 1)).rejects.toThrow(/now/);
    });

    it("serialises transactions on one key from two instances: 2 x 20 increments make 40, none lost", async () => {
      const [a, b] = [await open(), await open()];
      const key = credentialKey("counter");
      const increment = (store: DurableBackend) =>
        store.transact(key, undefined, (stored) => {
          const value = (stored!.rows.find((row) => row.id === "counter")?.value as number | undefined) ?? 0;
          return { changes: change([{ collection: "meta", id: "counter", value: value + 1 }]), result: value + 1 };
        });
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? a : b)));
      // Each saw the one before it: the results are 1..40, once each, and so are the versions.
      const numbers = Array.from({ length: 40 }, (_, i) => i + 1);
      expect(outcomes.map((o) => o.result).sort((x, y) => x - y)).toEqual(numbers);
      expect(outcomes.map((o) => o.version).sort((x, y) => x - y)).toEqual(numbers);
      expect((await read(b, key)).rows).toEqual([{ collection: "meta", id: "counter", value: 40 }]);
    });

    it("lets one of 20 concurrent pays of one invoice through two instances succeed, and refuses the 19 others", async () => {
      const [a, b] = [await open(), await open()];
      const key = credentialKey("pay");
      const invoice: Row = { collection: "record", id: "invoice/inv_1", value: { status: "Created" } };
      await putRows(a, key, [invoice]);
      const pay = (store: DurableBackend, n: number) =>
        store.transact(key, undefined, (stored) => {
          const current = stored!.rows.find((row) => row.id === invoice.id)!.value as { status: string };
          if (current.status !== "Created") throw new Error(`409: invoice is ${current.status}`);
          return { changes: change([{ ...invoice, value: { status: "Success", by: n } }]), result: n };
        });
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, n) => pay(n % 2 ? a : b, n)));
      const paid = outcomes.filter((o) => o.status === "fulfilled");
      expect(paid).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason.message)).toEqual(
        Array(19).fill("409: invoice is Success"),
      );
      const winner = (paid[0] as PromiseFulfilledResult<{ result: number }>).value.result;
      expect((await read(a, key)).rows).toEqual([{ ...invoice, value: { status: "Success", by: winner } }]);
    });

    it("brings a copy up to date when another instance changed the credential", async () => {
      const [a, b] = [await open(), await open()];
      const key = credentialKey("two copies");
      const v1 = await putRows(a, key, [ROWS[0]!]);
      const seen: (StoredCredential | undefined)[] = [];
      const look = (store: DurableBackend, known: number) =>
        store.transact(key, known, (stored) => {
          seen.push(stored);
          return { changes: change([]), result: undefined };
        });
      await look(b, v1);
      await putRows(a, key, [ROWS[1]!]);
      await look(b, v1);
      await look(b, v1 + 1);
      expect(seen[0]).toBeUndefined();
      expect(seen[1]!.version).toBe(2);
      expect(rowsText(seen[1]!.rows)).toBe(rowsText([ROWS[0]!, ROWS[1]!]));
      expect(seen[2]).toBeUndefined();
    });

    it("hands each due credential to one owner until its lease ends, then to another, earliest wakeAt first", async () => {
      const [a, b] = [await open(), await open()];
      const [early, late, future, never] = ["early", "late", "future", "never"].map(credentialKey) as [string, string, string, string];
      await putRows(a, late, [ROWS[0]!], T - 10);
      await putRows(a, early, [ROWS[0]!], T - 500);
      await putRows(a, future, [ROWS[0]!], T + 60_000);
      await putRows(a, never, [ROWS[0]!], null);
      expect(await a.claimDue(T, "a", 1000, 10)).toEqual([early, late]);
      // Leased to "a": another owner gets nothing, through either instance, until the lease ends.
      expect(await b.claimDue(T, "b", 1000, 10)).toEqual([]);
      expect(await a.claimDue(T + 999, "b", 1000, 10)).toEqual([]);
      // "a" may renew its own.
      expect(await b.claimDue(T + 500, "a", 1000, 1)).toEqual([early]);
      // The lease of `late` ends at T + 1000; `early`'s was renewed to T + 1500.
      expect(await b.claimDue(T + 1000, "b", 1000, 10)).toEqual([late]);
      // "b" is handed `early` now, and its own `late` again.
      expect(await b.claimDue(T + 1500, "b", 2000, 10)).toEqual([early, late]);
      // A wakeAt moved later, or cleared: not due until then, or ever.
      await a.transact(early, undefined, () => ({ changes: change([], [], T + 120_000), result: undefined }));
      await b.transact(late, undefined, () => ({ changes: change([], [], null), result: undefined }));
      expect(await a.claimDue(T + 60_000, "c", 1000, 10)).toEqual([future]);
      // The limit: the earliest of those due (and not leased to another) first.
      expect(await a.claimDue(T + 200_000, "d", 1000, 1)).toEqual([future]);
      expect(await b.claimDue(T + 200_000, "e", 1000, 1)).toEqual([early]);
      expect(await b.claimDue(T + 200_000, "f", 1000, 10)).toEqual([]);
    });

    it("removes a credential's rows, wakeAt and lease, its version going on; loadAll leaves it out", async () => {
      const store = await open();
      const [gone, kept] = [credentialKey("gone"), credentialKey("kept")];
      await putRows(store, gone, ROWS, T);
      await putRows(store, gone, [ROWS[0]!], T);
      await putRows(store, kept, [ROWS[1]!]);
      expect(await store.claimDue(T, "a", 1000, 10)).toEqual([gone]);
      await store.remove(gone);
      await store.remove(credentialKey("never stored"));
      const after = await read(store, gone);
      expect(after.rows).toEqual([]);
      expect(after.version).toBe(3);
      expect(await store.claimDue(T + 5000, "b", 1000, 10)).toEqual([]);
      expect((await loadAll(store)).map((s) => s.key)).toEqual([kept]);
      // A caller holding version 2 from before the reset gets the empty state, not "current".
      const { result } = await store.transact(gone, 2, (stored) => ({ changes: change([]), result: stored }));
      expect(result).toEqual({ key: gone, version: 3, rows: [] });
      expect((await putRows(store, gone, [ROWS[2]!])) > 3).toBe(true);
    });

    it("keeps partners with one partner per credential: put, replace, list, find, delete", async () => {
      const store = await open();
      const acme = partner("acme", "acme credential", "2026-11-01T00:00:00.000Z", { records: 500, requestsPerSecond: 2.5 });
      const beta = partner("beta", "beta credential", "2026-10-01T00:00:00.000Z");
      const gamma = partner("gamma", "gamma credential", "2026-10-01T00:00:00.000Z");
      await store.putPartner(acme);
      await store.putPartner(gamma);
      await store.putPartner(beta);
      expect(await store.listPartners()).toEqual([beta, gamma, acme]);
      expect(await store.partnerByCredential(credentialKey("acme credential"))).toEqual(acme);
      expect(await store.partnerByCredential(credentialKey("nobody"))).toBeUndefined();
      expect(Object.keys((await store.partnerByCredential(beta.credentialKey))!)).toEqual(["id", "name", "credentialKey", "createdAt"]);
      // Another partner with acme's credential: refused, naming both.
      const thief = partner("thief", "acme credential", "2026-11-02T00:00:00.000Z");
      const refusal = await store.putPartner(thief).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(DuplicatePartnerCredential);
      expect((refusal as Error).message).toBe(`partner "thief": its credential is partner "acme"'s already`);
      expect((await store.listPartners()).map((p) => p.id)).toEqual(["beta", "gamma", "acme"]);
      // Replacing acme (same id) with a new credential frees the old one.
      const rotated = { ...acme, name: "Acme Ltd", credentialKey: credentialKey("acme rotated"), quotas: { records: 10 } };
      await store.putPartner(rotated);
      expect(await store.partnerByCredential(credentialKey("acme credential"))).toBeUndefined();
      expect(await store.partnerByCredential(credentialKey("acme rotated"))).toEqual(rotated);
      await store.putPartner(thief);
      expect(await store.partnerByCredential(credentialKey("acme credential"))).toEqual(thief);
      expect(await store.deletePartner("gamma")).toBe(true);
      expect(await store.deletePartner("gamma")).toBe(false);
      expect(await store.partnerByCredential(gamma.credentialKey)).toBeUndefined();
      expect((await store.listPartners()).map((p) => p.id)).toEqual(["beta", "acme", "thief"]);
      await expect(store.putPartner({ ...beta, createdAt: "yesterday" })).rejects.toThrow(/createdAt/);
      await expect(store.putPartner({ ...beta, credentialKey: "plain" })).rejects.toThrow(/credentialKey/);
      await expect(store.putPartner({ ...beta, quotas: { records: Number.NaN } })).rejects.toThrow(/quotas\.records/);
    });

    it("keeps everything through close and open: rows, versions, wakeAt, leases, partners", async () => {
      const first = await open();
      const [key, other] = [credentialKey("kept"), credentialKey("other")];
      await putRows(first, key, ROWS, T);
      await putRows(first, other, [ROWS[0]!], T);
      expect(await first.claimDue(T, "a", 10_000, 1)).toEqual([key]);
      await first.putPartner(partner("acme", "kept", "2026-11-01T00:00:00.000Z"));
      await first.close();
      await expect(first.transact(key, undefined, () => ({ changes: change([]), result: 1 }))).rejects.toThrow(/closed/);

      const second = await open();
      const all = await loadAll(second);
      expect(all.map((s) => [s.key, s.version])).toEqual(
        [
          [key, 1],
          [other, 1],
        ].sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1)),
      );
      expect(rowsText(all.find((s) => s.key === key)!.rows)).toBe(rowsText(ROWS));
      expect((await second.transact(key, 1, (stored) => ({ changes: change([]), result: stored }))).result).toBeUndefined();
      // The lease of "a" on `key` holds; `other` is still due.
      expect(await second.claimDue(T + 1, "b", 1000, 10)).toEqual([other]);
      expect((await second.listPartners()).map((p) => p.id)).toEqual(["acme"]);
    });

    it("leaves wakeAt as it was when a change set has none: a transaction that only reads keeps the version", async () => {
      const store = await open();
      const key = credentialKey("wake kept");
      expect(await putRows(store, key, [ROWS[0]!], T)).toBe(1);
      // No wakeAt, nothing put: the version stays, and the credential is still due.
      expect((await store.transact(key, 1, () => ({ changes: keepingWake([]), result: undefined }))).version).toBe(1);
      // Rows put without a wakeAt: a new version, the wakeAt kept.
      expect((await store.transact(key, 1, () => ({ changes: keepingWake([ROWS[1]!]), result: undefined }))).version).toBe(2);
      expect(await store.claimDue(T, "a", 1000, 10)).toEqual([key]);
      expect(await store.scheduled(10)).toEqual([key]);
      // null clears it.
      expect((await store.transact(key, 2, () => ({ changes: change([], [], null), result: undefined }))).version).toBe(3);
      expect(await store.scheduled(10)).toEqual([]);
    });

    it("lists the credentials with work ahead, due or not, earliest first, without a lease and whatever their leases", async () => {
      const store = await open();
      const [soon, later, none] = ["soon", "later", "none"].map(credentialKey) as [string, string, string];
      await putRows(store, later, [ROWS[0]!], T + 60_000);
      await putRows(store, soon, [ROWS[0]!], T - 1);
      await putRows(store, none, [ROWS[0]!], null);
      expect(await store.claimDue(T, "other", 120_000, 10)).toEqual([soon]);
      expect(await store.scheduled(10)).toEqual([soon, later]);
      expect(await store.scheduled(1)).toEqual([soon]);
      // scheduled took no lease: "other" still holds `soon`, and `later` is free.
      expect(await store.claimDue(T + 60_000, "third", 1000, 10)).toEqual([later]);
      await expect(store.scheduled(0)).rejects.toThrow(/limit must be an integer from 1 to 1000/);
    });

    it("keeps namespaces apart on one store: each its own credentials, wakeAts, leases and versions; partners shared", async () => {
      const root = await open();
      const pay = root.scope("pay@1.3.0");
      const balance = root.scope("balance@1.0.0");
      await pay.open();
      await balance.open();
      const key = credentialKey("one credential, two APIs");
      expect(await putRows(pay, key, [ROWS[0]!], T)).toBe(1);
      expect(await putRows(pay, key, [ROWS[1]!], T)).toBe(2);
      expect(await putRows(balance, key, [ROWS[2]!], T + 5)).toBe(1);
      // The same key is three credentials: no namespace, pay's and balance's.
      expect((await read(root, key)).rows).toEqual([]);
      expect(rowsText((await read(pay, key, T)).rows)).toBe(rowsText([ROWS[0]!, ROWS[1]!]));
      expect(rowsText((await read(balance, key, T + 5)).rows)).toBe(rowsText([ROWS[2]!]));
      expect((await loadAll(pay)).map((s) => [s.key, s.version])).toEqual([[key, 2]]);
      expect((await loadAll(root)).map((s) => s.key)).toEqual([]);
      // Due work and leases apart: pay's lease does not hold balance's credential.
      expect(await pay.claimDue(T + 10, "a", 1000, 10)).toEqual([key]);
      expect(await balance.claimDue(T + 10, "b", 1000, 10)).toEqual([key]);
      expect(await pay.claimDue(T + 10, "b", 1000, 10)).toEqual([]);
      expect(await root.claimDue(T + 10, "c", 1000, 10)).toEqual([]);
      expect(await balance.scheduled(10)).toEqual([key]);
      await pay.remove(key);
      expect((await read(pay, key)).rows).toEqual([]);
      expect(rowsText((await read(balance, key, T + 5)).rows)).toBe(rowsText([ROWS[2]!]));
      // Partners are the store's, whichever view writes them.
      await pay.putPartner(partner("acme", "acme credential", "2026-11-01T00:00:00.000Z"));
      expect((await balance.listPartners()).map((p) => p.id)).toEqual(["acme"]);
      // A view closes alone; the store and its other views stay open.
      await pay.close();
      await expect(read(pay, key)).rejects.toThrow(/closed/);
      expect((await read(balance, key, T + 5)).version).toBe(1);
      expect(() => root.scope("no/slash")).toThrow(/store namespace/);
      expect(() => root.scope("")).toThrow(/store namespace/);
      await balance.close();
    });

    it("opens a view only on an open store", async () => {
      const root = subject.make();
      const view = root.scope("pay@1.3.0");
      await expect(view.open()).rejects.toThrow(/not open/);
    });

    it("waits for the writes in flight when closing: every one is durable", async () => {
      const first = await open();
      const keys = Array.from({ length: 30 }, (_, i) => credentialKey(`in flight ${i}`));
      const settled: string[] = [];
      const writes = keys.map((key, i) =>
        first
          .transact(key, undefined, () => ({ changes: change([{ collection: "record", id: `r${i}`, value: i }]), result: i }))
          .then(() => settled.push(key)),
      );
      await first.close();
      expect(settled).toHaveLength(30);
      await Promise.all(writes);
      const second = await open();
      expect((await loadAll(second)).map((s) => s.key).sort()).toEqual([...keys].sort());
    });
  });
}
