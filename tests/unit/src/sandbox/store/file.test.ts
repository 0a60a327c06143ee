/**
 * The `file:` store (src/sandbox/store/file.ts) in process: the DurableBackend contract
 * (./conformance.ts), and what it refuses: a file where its directory should be, a directory that
 * another live process uses, a store written in a later format. Killing a writer and a second
 * process: file.spawn.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { open as openLmdb } from "lmdb";
import { afterAll, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../../../../src/registry.js";
import { FILE_NAME, FileBackend, HEARTBEAT_MS, networkFileSystem, STALE_MS } from "../../../../../src/sandbox/store/file.js";
import { credentialKey, describeConformance } from "./conformance.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-store-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let tests = 0;
let dir = "";
describeConformance("file:", {
  async fresh() {
    dir = join(scratch, `contract-${++tests}`);
  },
  make: () => new FileBackend(dir),
});

/** The store's own entries (format, owner), read with lmdb directly (in one process, lmdb-js shares an open environment). */
async function storeEntries(storeDir: string): Promise<Record<string, string>> {
  const root = openLmdb({ path: join(storeDir, FILE_NAME), encoding: "string" });
  const store = root.openDB<string, string>({ name: "store", encoding: "string" });
  const entries = Object.fromEntries(Array.from(store.getRange(), ({ key, value }) => [key, value]));
  await root.close();
  return entries;
}

async function writeStoreEntry(storeDir: string, key: string, value: string): Promise<void> {
  const root = openLmdb({ path: join(storeDir, FILE_NAME), encoding: "string" });
  root.openDB<string, string>({ name: "store", encoding: "string" }).putSync(key, value);
  await root.close();
}

/** Field 22 of /proc/<pid>/stat (proc(5)): the start time a process is recorded with. */
const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};
const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();

describe("file: store's directory", () => {
  it("makes a missing directory, with its parents", async () => {
    const store = new FileBackend(join(scratch, "made", "deep", "store"));
    await store.open();
    await store.close();
    expect(readFileSync(join(scratch, "made", "deep", "store", FILE_NAME)).length).toBeGreaterThan(0);
  });

  it("refuses a file where the directory should be, and a path through a file, naming the path", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "not a directory");
    await expect(new FileBackend(file).open()).rejects.toThrow(`file store ${file}: is a file, not a directory`);
    await expect(new FileBackend(join(file, "store")).open()).rejects.toThrow(
      `file store ${join(file, "store")}: a part of the path is a file, not a directory`,
    );
    const odd = join(scratch, "odd");
    mkdirSync(join(odd, FILE_NAME), { recursive: true });
    await expect(new FileBackend(odd).open()).rejects.toThrow(`file store ${odd}: ${FILE_NAME} in it is a directory, not the store's file`);
  });

  it("names the network file systems LMDB must not be on (statfs(2) magic numbers)", () => {
    expect(networkFileSystem(0x6969)).toBe("NFS");
    expect(networkFileSystem(0xff534d42)).toBe("CIFS");
    expect(networkFileSystem(0xfe534d42)).toBe("SMB2");
    expect(networkFileSystem(0xef53)).toBeUndefined(); // ext4
    expect(networkFileSystem(0x01021994)).toBeUndefined(); // tmpfs
    expect(networkFileSystem(0x794c7630)).toBeUndefined(); // overlayfs, a container's root
    expect(networkFileSystem(0x65735546)).toBeUndefined(); // FUSE: a container's root under some runtimes, local
  });

  it("records the process using it, with a sign of life every 10 s, and forgets it at close", async () => {
    const storeDir = join(scratch, "owner");
    const store = new FileBackend(storeDir);
    vi.useFakeTimers({ toFake: ["setInterval", "Date"], now: 1_800_000_000_000 });
    try {
      await store.open();
      const owner = JSON.parse((await storeEntries(storeDir)).owner!);
      expect(owner).toEqual({ pid: process.pid, host: hostname(), boot: bootId(), start: startTime(process.pid), seen: 1_800_000_000_000 });
      expect(HEARTBEAT_MS).toBe(10_000);
      vi.advanceTimersByTime(10_000);
      // A write queued after the sign of life commits after it.
      await store.transact(credentialKey("after"), undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: 1 }, result: undefined }));
      expect(JSON.parse((await storeEntries(storeDir)).owner!).seen).toBe(1_800_000_010_000);
    } finally {
      vi.useRealTimers();
    }
    await store.close();
    expect(await storeEntries(storeDir)).toEqual({ format: "1" });
  });

  it("refuses a directory recorded as used by a process that is alive, and takes over one whose process is gone", async () => {
    const storeDir = join(scratch, "held");
    const first = new FileBackend(storeDir);
    await first.open();
    await first.close();
    // Process 1 runs as long as the machine does: recorded as the user, with its own start time.
    const alive = { pid: 1, host: hostname(), boot: bootId(), start: startTime(1), seen: Date.now() - 3_600_000 };
    await writeStoreEntry(storeDir, "owner", JSON.stringify(alive));
    const refused = new FileBackend(storeDir);
    await expect(refused.open()).rejects.toThrow(
      `file store ${storeDir}: in use by process 1 on ${hostname()}; one process at a time may use a file: store (stop that one, or choose another directory)`,
    );
    // The same pid with another start time is another process: the one recorded is gone.
    await writeStoreEntry(storeDir, "owner", JSON.stringify({ ...alive, start: "1" }));
    const taken = new FileBackend(storeDir);
    await taken.open();
    expect(JSON.parse((await storeEntries(storeDir)).owner!).pid).toBe(process.pid);
    await taken.close();
  });

  it("refuses a directory used by a process of another host until 30 s after its last sign of life", async () => {
    const storeDir = join(scratch, "other host");
    const first = new FileBackend(storeDir);
    await first.open();
    await first.close();
    expect(STALE_MS).toBe(30_000);
    const elsewhere = {
      pid: process.pid,
      host: "another-container",
      boot: bootId(),
      start: startTime(process.pid),
      seen: Date.now() - 5_000,
    };
    await writeStoreEntry(storeDir, "owner", JSON.stringify(elsewhere));
    const refusal = await new FileBackend(storeDir).open().catch((error: Error) => error);
    // 5 s, and the time this test took since (a busy machine).
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `^file store ${storeDir}: in use by process ${process.pid} on another-container \\(last sign of life (5|6|7) s ago; its claim lapses 30 s after that\\); one process at a time may use a file: store \\(stop that one, or choose another directory\\)$`,
      ),
    );
    await writeStoreEntry(storeDir, "owner", JSON.stringify({ ...elsewhere, seen: Date.now() - 30_001 }));
    const taken = new FileBackend(storeDir);
    await taken.open();
    expect(JSON.parse((await storeEntries(storeDir)).owner!).host).toBe(hostname());
    await taken.close();
  });

  it("refuses a store written in a later format, and changes nothing in it", async () => {
    const storeDir = join(scratch, "later");
    const store = new FileBackend(storeDir);
    await store.open();
    await store.transact(credentialKey("later"), undefined, () => ({
      changes: { puts: [{ collection: "meta", id: "m", value: 1 }], deletes: [], wakeAt: null },
      result: undefined,
    }));
    await store.close();
    await writeStoreEntry(storeDir, "format", "2");
    await expect(new FileBackend(storeDir).open()).rejects.toThrow(
      `file store ${storeDir}: written by a later version of the sandbox (store format 2; this one reads 1)`,
    );
    expect(await storeEntries(storeDir)).toEqual({ format: "2" });
  });

  it("lets instances of one process share a directory, and keeps it claimed until the last one closes", async () => {
    const storeDir = join(scratch, "shared");
    const [a, b] = [new FileBackend(storeDir), new FileBackend(storeDir)];
    await Promise.all([a.open(), b.open()]);
    await a.close();
    expect(JSON.parse((await storeEntries(storeDir)).owner!).pid).toBe(process.pid);
    const key = credentialKey("shared");
    await b.transact(key, undefined, () => ({
      changes: { puts: [{ collection: "meta", id: "m", value: 2 }], deletes: [], wakeAt: null },
      result: 1,
    }));
    await b.close();
    expect((await storeEntries(storeDir)).owner).toBeUndefined();
    await expect(a.open()).rejects.toThrow("open() was called already");
  });
});
