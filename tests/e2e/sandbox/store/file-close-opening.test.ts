/**
 * A `file:` store closed while it is still opening (src/sandbox/store/file.ts `close` during
 * `open`): the open ends refused, saying the store was closed, and the environment it opened is
 * released once close() resolves: the process's ownership of the directory is taken off the store
 * (read here with lmdb directly), and a store opened on the directory next starts afresh.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { FileBackend } from "../../../../src/sandbox/store/file.js";
import { storeEntries } from "./file-store.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-close-opening-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a file: store closed while opening", () => {
  it("refuses the open and releases what it opened before close() resolves", async () => {
    const dir = join(scratch, "closed-while-opening");
    const store = new FileBackend(dir);
    const opened = store.open();
    const refused = expect(opened).rejects.toThrow(`file store ${dir}: closed before it was open`);
    await store.close();
    // Released by the time close() resolves, not only once the open's refusal is seen.
    expect(Object.keys(await storeEntries(dir))).toEqual(["format"]);
    await refused;
    await expect(store.transact("c".repeat(64), undefined, () => ({ changes: { puts: [], deletes: [] }, result: 1 }))).rejects.toThrow(
      `file store ${dir}: closed`,
    );
  });

  it("stays closed when the open it interrupted fails: a later open is refused as one made already", async () => {
    // A file where the directory goes: the open fails, after close() was called.
    const dir = join(scratch, "a-file");
    writeFileSync(dir, "");
    const store = new FileBackend(dir);
    const opened = store.open();
    const closed = store.close();
    await expect(opened).rejects.toThrow(`file store ${dir}`);
    await closed;
    await expect(store.open()).rejects.toThrow(`file store ${dir}: open() was called already`);
  });

  it("leaves an instance sharing the environment open, its ownership kept", async () => {
    const dir = join(scratch, "shared");
    const first = new FileBackend(dir);
    await first.open();
    const second = new FileBackend(dir);
    const opened = second.open();
    await second.close();
    await expect(opened).rejects.toThrow("closed before it was open");
    expect(Object.keys(await storeEntries(dir))).toEqual(["format", "owner"]);
    await first.close();
    expect(Object.keys(await storeEntries(dir))).toEqual(["format"]);
  });
});
