/**
 * The layout of a `file:` store on disk (format 1, src/sandbox/store/file.ts's header and
 * docs/adr/0015-durable-store.md): each kind of entry in a named database of its own, as JSON text,
 * read back here with lmdb directly once the store is closed; and the `format` entry, written when a
 * store is made and never rewritten by a later open.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import type { PartnerRow } from "../../../../src/sandbox/store/backend.js";
import { FileBackend } from "../../../../src/sandbox/store/file.js";
import { entries, putEntry } from "./file-store.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-layout-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const T = 1_800_000_000_000;
const KEY = "c".repeat(64);
const PARTNER_KEY = "d".repeat(64);

describe("a file: store on disk", () => {
  it("keeps credentials, rows, leases, partners and their credentials each in a named database, as JSON text", async () => {
    const dir = join(scratch, "entries");
    const store = new FileBackend(dir);
    await store.open();
    await store.transact(KEY, undefined, () => ({
      changes: {
        puts: [
          { collection: "meta", id: "meta", value: { step: 1 } },
          { collection: "record", id: "payments/p-1", value: { amount: "10.00" } },
        ],
        deletes: [],
        wakeAt: T,
      },
      result: undefined,
    }));
    expect(await store.claimDue(T, "worker-1", 60_000, 10)).toEqual([KEY]);
    const partner: PartnerRow = { id: "acme", name: "Acme", credentialKey: PARTNER_KEY, createdAt: "2026-11-01T00:00:00.000Z" };
    await store.putPartner(partner);
    await store.close();

    const json = (list: [unknown, string][]) => list.map(([key, value]) => [key, JSON.parse(value)]);
    expect(json(await entries(dir, "credentials"))).toEqual([[KEY, { version: 1, wakeAt: T }]]);
    expect(json(await entries(dir, "rows"))).toEqual([
      [[KEY, "meta", "meta"], { step: 1 }],
      [[KEY, "record", "payments/p-1"], { amount: "10.00" }],
    ]);
    expect(await entries(dir, "wake")).toEqual([[[T, KEY], ""]]);
    expect(json(await entries(dir, "leases"))).toEqual([[KEY, { owner: "worker-1", until: T + 60_000 }]]);
    expect(json(await entries(dir, "partners"))).toEqual([["acme", partner]]);
    expect(await entries(dir, "partnerKeys")).toEqual([[PARTNER_KEY, "acme"]]);
    expect(await entries(dir, "store")).toEqual([["format", "1"]]);
  });

  it("records its format when it is made, and an open leaves a format recorded before as it is", async () => {
    const dir = join(scratch, "format");
    const made = new FileBackend(dir);
    await made.open();
    await made.close();
    expect(await entries(dir, "store")).toEqual([["format", "1"]]);
    // An earlier layout's number (none was released): an open of this version does not relabel what it did not write.
    await putEntry(dir, "store", "format", "0");
    const again = new FileBackend(dir);
    await again.open();
    await again.close();
    expect(await entries(dir, "store")).toEqual([["format", "0"]]);
  });
});
