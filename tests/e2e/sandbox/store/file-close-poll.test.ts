/**
 * What a `file:` store's close and a poll that finds nothing due wait for
 * (src/sandbox/store/file.ts): a close succeeds when the store's claim was taken over and released
 * meanwhile (no owner recorded any more), and a poll with nothing due answers from what is
 * committed, without a write transaction, so without waiting for the writes in flight.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { FileBackend } from "../../../../src/sandbox/store/file.js";
import { removeOwner, storeEntries } from "./file-store.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-close-poll-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const T = 1_800_000_000_000;
const KEY = "f".repeat(64);

describe("a file: store closing", () => {
  it("closes when no owner is recorded any more (another process took the claim over and released it), and opens again", async () => {
    const dir = join(scratch, "released");
    const store = new FileBackend(dir);
    await store.open();
    await removeOwner(dir);
    await store.close();
    expect(await storeEntries(dir)).toEqual({ format: "1" });
    const again = new FileBackend(dir);
    await again.open();
    await again.close();
  });
});

describe("a poll of a file: store that finds nothing due", () => {
  it("answers before a write in flight is committed (work later than the poll's time)", async () => {
    const dir = join(scratch, "poll");
    const store = new FileBackend(dir);
    await store.open();
    try {
      const settled: string[] = [];
      const write = store
        .transact(KEY, undefined, () => ({
          changes: { puts: [{ collection: "meta", id: "meta", value: 1 }], deletes: [], wakeAt: T + 1000 },
          result: undefined,
        }))
        .then(() => settled.push("write"));
      const poll = store.claimDue(T, "worker-1", 60_000, 10).then((due) => settled.push(`poll ${JSON.stringify(due)}`));
      await Promise.all([write, poll]);
      expect(settled).toEqual(["poll []", "write"]);
      // Committed, its work is found once due.
      expect(await store.claimDue(T + 1000, "worker-1", 60_000, 10)).toEqual([KEY]);
    } finally {
      await store.close();
    }
  });
});
