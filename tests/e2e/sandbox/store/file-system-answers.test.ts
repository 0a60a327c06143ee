/**
 * What the `file:` store (src/sandbox/store/file.ts) does with answers this machine's system does not
 * give on its own, the system's functions standing in for another (node:fs's own functions replaced
 * for one test, node:module's `syncBuiltinESMExports` passing them on to the store's imports):
 * a system without /proc (macOS), where a recorded process of this host is looked up with signal 0;
 * a directory on a network file system; another process that makes a file where the store's directory
 * goes, between the store's look and its mkdir, or that removes the store's write probe first. And
 * what LMDB cannot open: a store file, named with LMDB's reason; a lock file, refused before LMDB
 * opens it (LMDB crashes the process on one it cannot open).
 */
import fs, { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { FILE_NAME, FileBackend } from "../../../../src/sandbox/store/file.js";
import { opens, owner, setOwner } from "./file-store.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-system-answers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

let dirs = 0;
const fresh = () => join(scratch, `store-${++dirs}`);

/** Replaces node:fs's `name` for this test (restored after it), the store's import included. */
function standIn<K extends "readFileSync" | "statfsSync" | "mkdirSync" | "writeFileSync">(
  name: K,
  fake: (real: (typeof fs)[K]) => (typeof fs)[K],
) {
  const real = fs[name].bind(fs) as (typeof fs)[K];
  vi.spyOn(fs, name).mockImplementation(fake(real) as never);
  syncBuiltinESMExports();
}

const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

/** Makes an empty store in `dir`, closed. */
async function made(dir: string): Promise<void> {
  const store = new FileBackend(dir);
  await store.open();
  await store.close();
}

describe("a file: store on a system without /proc (macOS)", () => {
  // Past the largest pid Linux hands out (pid_max is at most 2^22): no process runs with it.
  const NONE = 4_194_304;
  const noProc = () =>
    standIn(
      "readFileSync",
      (real) =>
        ((path: fs.PathOrFileDescriptor, options?: never) => {
          if (String(path).startsWith("/proc/")) throw errno("ENOENT", `no such file or directory, open '${String(path)}'`);
          return real(path, options);
        }) as typeof fs.readFileSync,
    );
  const recorded = (pid: number) => ({ pid, host: hostname(), boot: "", start: "", seen: Date.now() });

  it("records its process with no boot id and no start time", async () => {
    noProc();
    const dir = fresh();
    const store = new FileBackend(dir);
    await store.open();
    expect(await owner(dir)).toMatchObject({ pid: process.pid, host: hostname(), boot: "", start: "" });
    await store.close();
  });

  it("refuses a directory whose recorded process of this host answers signal 0, and takes one whose process is gone", async () => {
    const dir = fresh();
    await made(dir);
    noProc();
    const kill = vi.spyOn(process, "kill");
    // Process 1 runs as long as the machine does.
    await setOwner(dir, recorded(1));
    expect(await opens(dir)).toBe(
      `file store ${dir}: in use by process 1 on ${hostname()}; one process at a time may use a file: store (stop that one, or choose another directory)`,
    );
    // Signal 0: a look, no signal sent.
    expect(kill).toHaveBeenCalledWith(1, 0);
    await setOwner(dir, recorded(NONE));
    expect(await opens(dir)).toBe("opened");
  });

  it("takes a process that signal 0 may not reach (EPERM: another user's) for alive", async () => {
    const dir = fresh();
    await made(dir);
    noProc();
    vi.spyOn(process, "kill").mockImplementation(() => {
      throw errno("EPERM", "kill EPERM");
    });
    await setOwner(dir, recorded(4242));
    expect(await opens(dir)).toMatch(new RegExp(`^file store ${dir}: in use by process 4242 on `));
  });
});

describe("a file: store's directory", () => {
  it("on a network file system is refused, naming it, before a file is made in it", async () => {
    const dir = fresh();
    standIn(
      "statfsSync",
      (real) =>
        ((path: fs.PathLike, options?: never) => {
          const stats = real(path, options);
          return path === dir ? { ...stats, type: 0x6969 } : stats;
        }) as typeof fs.statfsSync,
    );
    expect(await opens(dir)).toBe(`file store ${dir}: the directory is on a network file system (NFS); LMDB needs a local disk`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("made a file by another process between the store's look and its mkdir is refused as a file in the path", async () => {
    const dir = fresh();
    standIn(
      "mkdirSync",
      (real) =>
        ((path: fs.PathLike, options?: never) => {
          if (path === dir) fs.writeFileSync(dir, "another process's");
          return real(path, options);
        }) as typeof fs.mkdirSync,
    );
    expect(await opens(dir)).toBe(`file store ${dir}: a part of the path is a file, not a directory`);
  });

  it("whose parent another process made a file of between the store's look and its mkdir is refused as a file in the path", async () => {
    const dir = join(fresh(), "store");
    standIn(
      "mkdirSync",
      (real) =>
        ((path: fs.PathLike, options?: never) => {
          if (path === dir) fs.writeFileSync(dirname(dir), "another process's");
          return real(path, options);
        }) as typeof fs.mkdirSync,
    );
    expect(await opens(dir)).toBe(`file store ${dir}: a part of the path is a file, not a directory`);
  });

  it("opens when another process removed the store's write probe before the store did", async () => {
    const dir = fresh();
    standIn(
      "writeFileSync",
      (real) =>
        ((path: fs.PathOrFileDescriptor, data: never, options?: never) => {
          real(path, data, options);
          if (String(path).includes(".write-probe-")) rmSync(String(path));
        }) as typeof fs.writeFileSync,
    );
    expect(await opens(dir)).toBe("opened");
    expect(readdirSync(dir).sort()).toEqual([FILE_NAME, `${FILE_NAME}-lock`]);
  });
});

describe("a file: store LMDB cannot open", () => {
  it("is refused naming the file and LMDB's reason, and opens once that is gone", async () => {
    // A link to nowhere as the store's file: nothing there for the store's checks, no file LMDB can make.
    const dir = fresh();
    mkdirSync(dir);
    symlinkSync(join(scratch, "nowhere", FILE_NAME), join(dir, FILE_NAME));
    // LMDB's error: its errno as the code, then its message.
    expect(await opens(dir)).toBe(
      `file store ${dir}: cannot open ${FILE_NAME} (2: No such file or directory: Attempting to open main database file)`,
    );
    rmSync(join(dir, FILE_NAME));
    expect(await opens(dir)).toBe("opened");
  });

  it("is refused for a lock file it cannot open read-write (a link to nowhere), naming the file and the system's reason, where LMDB crashed the process", async () => {
    const lock = `${FILE_NAME}-lock`;
    const dir = fresh();
    mkdirSync(dir);
    symlinkSync(join(scratch, "nowhere", lock), join(dir, lock));
    const refusal = await opens(dir);
    // Node's message, which starts with its code, once.
    expect(refusal).toBe(
      `file store ${dir}: cannot open ${lock} in it, LMDB's lock file (ENOENT: no such file or directory, open '${join(dir, lock)}')`,
    );
    expect(readdirSync(dir)).toEqual([lock]);
    rmSync(join(dir, lock));
    expect(await opens(dir)).toBe("opened");
  });
});
