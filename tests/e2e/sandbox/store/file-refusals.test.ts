/**
 * What the `file:` store (src/sandbox/store/file.ts) refuses and how it names it: a directory it
 * cannot make or write in, a store file it cannot look at or that is no LMDB file, a directory, a
 * device, a socket or a kernel's file where the store's file or LMDB's lock file goes (LMDB itself
 * would crash the process on each), a store used before it is open or after
 * it closed, a write whose work fails without an error; and what a reset of a credential it never
 * held leaves (nothing: the next write is its first version).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { FILE_NAME, FileBackend } from "../../../../src/sandbox/store/file.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-refusals-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const KEY = "e".repeat(64);
const servers: Server[] = [];
/** A Unix socket at `path`, listened on until the test closes it. */
const listenOn = (path: string) =>
  new Promise<void>((resolve, reject) => {
    const server = createServer().once("error", reject);
    servers.push(server);
    server.listen(path, resolve);
  });
const nothing = () => ({ changes: { puts: [], deletes: [] }, result: undefined });

describe("a file: store's directory", () => {
  it("that cannot be made is named, with the system's reason", async () => {
    // A link to nowhere: nothing is there to stat, and mkdir cannot make it.
    const link = join(scratch, "dangling");
    symlinkSync(join(scratch, "nowhere", "at all"), link);
    await expect(new FileBackend(link).open()).rejects.toThrow(new RegExp(`^file store ${link}: cannot create the directory \\(ENOENT`));
  });

  it("that cannot be written in is named, with the system's reason", async () => {
    // procfs: a local directory no file can be made in, whoever runs the test.
    await expect(new FileBackend("/proc/sys").open()).rejects.toThrow(/^file store \/proc\/sys: the directory is not writable \(ENOENT/);
  });

  it("whose store file cannot be looked at gets the system's error, naming the file", async () => {
    const dir = join(scratch, "loop");
    mkdirSync(dir);
    symlinkSync(FILE_NAME, join(dir, FILE_NAME));
    await expect(new FileBackend(dir).open()).rejects.toThrow(`ELOOP: too many symbolic links encountered, stat '${join(dir, FILE_NAME)}'`);
  });
});

describe("a file: store's files", () => {
  // LMDB itself would take each of these for its own and crash the process (SIGSEGV).
  it("refuses a store file that is not an LMDB file, short or long, and changes nothing in it", async () => {
    for (const [what, text] of [
      ["short", "short"],
      ["long", "not an LMDB file at all ".repeat(1000)],
    ]) {
      const dir = join(scratch, `foreign ${what}`);
      mkdirSync(dir);
      writeFileSync(join(dir, FILE_NAME), text);
      await expect(new FileBackend(dir).open()).rejects.toThrow(
        `file store ${dir}: ${FILE_NAME} in it is not an LMDB file (damaged, or another file took its name); move it away to start an empty store`,
      );
      expect(readFileSync(join(dir, FILE_NAME), "utf8")).toBe(text);
      expect(readdirSync(dir)).toEqual([FILE_NAME]);
    }
  });

  it("refuses a directory where LMDB's lock file goes", async () => {
    const dir = join(scratch, "lock directory");
    mkdirSync(join(dir, `${FILE_NAME}-lock`), { recursive: true });
    await expect(new FileBackend(dir).open()).rejects.toThrow(
      `file store ${dir}: ${FILE_NAME}-lock in it is a directory, not LMDB's lock file`,
    );
  });

  it("refuses a device, a socket or a kernel's file (a link into /proc) as either file, naming what it is; changes nothing", async () => {
    const cases: Array<[string, string, (path: string) => Promise<void> | void, string]> = [
      [FILE_NAME, "the store's file", (path) => symlinkSync("/dev/null", path), "a device, a pipe or a socket"],
      [`${FILE_NAME}-lock`, "LMDB's lock file", (path) => symlinkSync("/dev/null", path), "a device, a pipe or a socket"],
      [FILE_NAME, "the store's file", (path) => symlinkSync("/proc/self/status", path), "a file of the kernel's proc file system"],
      [
        `${FILE_NAME}-lock`,
        "LMDB's lock file",
        (path) => symlinkSync("/proc/self/status", path),
        "a file of the kernel's proc file system",
      ],
      [`${FILE_NAME}-lock`, "LMDB's lock file", listenOn, "a device, a pipe or a socket"],
    ];
    for (const [index, [file, role, make, what]] of cases.entries()) {
      const dir = join(scratch, `not a file ${index}`);
      mkdirSync(dir);
      await make(join(dir, file));
      await expect(new FileBackend(dir).open(), `${file}: ${what}`).rejects.toThrow(
        new Error(`file store ${dir}: ${file} in it is ${what}, not ${role}`),
      );
      expect(readdirSync(dir)).toEqual([file]);
    }
    for (const server of servers) server.close();
  });

  it("takes an empty store file for a new store's, and a store it wrote for its own, leaving no file open once closed", async () => {
    const dir = join(scratch, "empty file");
    mkdirSync(dir);
    writeFileSync(join(dir, FILE_NAME), "");
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const before = openFiles();
    for (let i = 0; i < 3; i++) {
      const store = new FileBackend(dir);
      await store.open();
      await store.transact(KEY, undefined, () => ({
        changes: { puts: [{ collection: "meta", id: "meta", value: i }], deletes: [], wakeAt: null },
        result: undefined,
      }));
      await store.close();
    }
    expect(openFiles()).toBe(before);
  });
});

describe("a file: store", () => {
  it("says it is not open before open(), and closed after close()", async () => {
    const dir = join(scratch, "lifecycle");
    const store = new FileBackend(dir);
    await expect(store.transact(KEY, undefined, nothing)).rejects.toThrow(`file store ${dir}: not open`);
    await expect(store.listPartners()).rejects.toThrow(`file store ${dir}: not open`);
    await store.open();
    await store.close();
    await expect(store.transact(KEY, undefined, nothing)).rejects.toThrow(`file store ${dir}: closed`);
    await expect(store.scheduled(1)).rejects.toThrow(`file store ${dir}: closed`);
    // Closed before it was ever opened: closed, and not to be opened.
    const never = new FileBackend(dir);
    await never.close();
    await expect(never.remove(KEY)).rejects.toThrow(`file store ${dir}: closed`);
    await expect(never.open()).rejects.toThrow(`file store ${dir}: open() was called already`);
  });

  it("rejects a write whose work throws no error with one naming the store, and writes nothing", async () => {
    const dir = join(scratch, "no error");
    const store = new FileBackend(dir);
    await store.open();
    try {
      const refusal = await store
        .transact(KEY, undefined, () => {
          throw undefined;
        })
        .catch((error: unknown) => error);
      expect(refusal).toEqual(new Error(`file store ${dir}: the write did not run`));
      expect((await store.transact(KEY, undefined, nothing)).version).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("keeps no trace of a reset of a credential it never held: its first write is version 1", async () => {
    const dir = join(scratch, "reset");
    const store = new FileBackend(dir);
    await store.open();
    try {
      await store.remove(KEY);
      const { version, result } = await store.transact(KEY, undefined, (stored) => ({
        changes: { puts: [{ collection: "meta", id: "meta", value: 1 }], deletes: [], wakeAt: null },
        result: stored,
      }));
      expect(result).toEqual({ key: KEY, version: 0, rows: [] });
      expect(version).toBe(1);
    } finally {
      await store.close();
    }
  });
});
