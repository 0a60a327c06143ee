/**
 * What the `file:` store's databases hold as credentials and partners change
 * (src/sandbox/store/file.ts; its header names each database): the `wake` index one entry per
 * credential with work ahead and none for one without, a reset that drops the credential's lease,
 * a partner put again with its own credential, a deleted partner's credential free for another,
 * views of views on the store's environment, and a view that waits for its writes when closing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { open as openLmdb } from "lmdb";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import type { PartnerRow } from "../../../../src/sandbox/store/backend.js";
import { FILE_NAME, FileBackend } from "../../../../src/sandbox/store/file.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-entries-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const T = 1_800_000_000_000;
const KEY = "a".repeat(64);
let dirs = 0;
let dir = "";
let store: FileBackend;
beforeEach(async () => {
  dir = join(scratch, `store-${++dirs}`);
  store = new FileBackend(dir);
  await store.open();
});
afterEach(() => store.close());

const put = (backend: FileBackend, key: string, wakeAt: number | null) =>
  backend.transact(key, undefined, () => ({
    changes: { puts: [{ collection: "meta", id: "meta", value: { wakeAt } }], deletes: [], wakeAt },
    result: undefined,
  }));

/** The keys of the `wake` index, read with lmdb directly (in one process, lmdb-js shares the open environment). */
async function wakeIndex(): Promise<unknown[]> {
  const root = openLmdb({ path: join(dir, FILE_NAME), encoding: "string" });
  const keys = Array.from(root.openDB<string, [number, string]>({ name: "wake", encoding: "string" }).getKeys());
  await root.close();
  return keys;
}

const partner = (id: string, credentialKey: string, name = `Partner ${id}`): PartnerRow => ({
  id,
  name,
  credentialKey,
  createdAt: "2026-11-01T00:00:00.000Z",
});

describe("the wake index of a file: store", () => {
  it("holds one entry per credential with work ahead, moved with it, and none once it has none", async () => {
    await put(store, KEY, T);
    expect(await wakeIndex()).toEqual([[T, KEY]]);
    await put(store, KEY, T + 1000);
    expect(await wakeIndex()).toEqual([[T + 1000, KEY]]);
    await put(store, KEY, null);
    expect(await wakeIndex()).toEqual([]);
    await put(store, KEY, T);
    await store.remove(KEY);
    expect(await wakeIndex()).toEqual([]);
  });
});

describe("a reset of a credential on a file: store", () => {
  it("drops the lease on it: its next work due goes to whoever asks", async () => {
    await put(store, KEY, T);
    expect(await store.claimDue(T, "first", 60_000, 10)).toEqual([KEY]);
    await store.remove(KEY);
    await put(store, KEY, T);
    expect(await store.claimDue(T, "second", 60_000, 10)).toEqual([KEY]);
  });
});

describe("partners on a file: store", () => {
  it("take a partner put again with its own credential (a new name)", async () => {
    await store.putPartner(partner("acme", KEY));
    await store.putPartner(partner("acme", KEY, "Acme Ltd"));
    expect(await store.partnerByCredential(KEY)).toEqual(partner("acme", KEY, "Acme Ltd"));
  });

  it("free a deleted partner's credential for another partner", async () => {
    await store.putPartner(partner("acme", KEY));
    expect(await store.deletePartner("acme")).toBe(true);
    await store.putPartner(partner("beta", KEY));
    expect(await store.partnerByCredential(KEY)).toEqual(partner("beta", KEY));
  });
});

describe("the list of partners of a file: store", () => {
  it('is by createdAt, then by id in UTF-8 byte order (as Postgres\'s COLLATE "C")', async () => {
    // UTF-8: "b" 62, "！" (U+FF01) EF BC 81, "😀" (U+1F600) F0 9F 98 80; in UTF-16 code units "😀" (D83D) comes before "！" (FF01).
    const at = (id: string, createdAt: string, key: string): PartnerRow => ({ ...partner(id, key), createdAt });
    const rows = [
      at("😀", "2026-11-01T00:00:00.000Z", "1".repeat(64)),
      at("！", "2026-11-01T00:00:00.000Z", "2".repeat(64)),
      at("b", "2026-11-01T00:00:00.000Z", "3".repeat(64)),
      at("z", "2026-10-01T00:00:00.000Z", "4".repeat(64)),
      at("a", "2026-12-01T00:00:00.000Z", "5".repeat(64)),
    ];
    for (const row of rows) await store.putPartner(row);
    expect((await store.listPartners()).map((p) => p.id)).toEqual(["z", "b", "！", "😀", "a"]);
  });
});

describe("views of a file: store", () => {
  it("a view of a view works on the store's environment, its parent view opened or not", async () => {
    const pay = store.scope("pay@1.3.0");
    const balance = pay.scope("balance@1.0.0");
    expect(balance.namespace).toBe("balance@1.0.0");
    await balance.open();
    await put(balance, KEY, T);
    expect(await balance.scheduled(10)).toEqual([KEY]);
    expect(
      await store
        .scope("pay@1.3.0")
        .scheduled(10)
        .catch((error: Error) => error.message),
    ).toBe(`file store ${dir}: not open`);
    await balance.close();
  });

  it("a view closing waits for its writes in flight: each settled when close resolves", async () => {
    const view = store.scope("pay@1.3.0");
    await view.open();
    const settled: number[] = [];
    const writes = Array.from({ length: 5 }, (_, i) =>
      put(view, String(i).repeat(64), T + i).then(() => {
        settled.push(i);
      }),
    );
    await view.close();
    expect(settled.sort()).toEqual([0, 1, 2, 3, 4]);
    await Promise.all(writes);
  });
});
