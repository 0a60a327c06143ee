/**
 * How the `file:` store (src/sandbox/store/file.ts) claims its directory for one process: which
 * recorded owner still holds it (this host: the same boot and the same process start time; another
 * host: a sign of life within the last 30 s, to the millisecond), what the refusal says of the time
 * since the last sign of life, and that a process records signs of life and forgets the claim at
 * close only while the claim is its own (the file's header; docs/adr/0015-durable-store.md).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { FILE_NAME, FileBackend } from "../../../../src/sandbox/store/file.js";
import { opens, owner, setOwner } from "./file-store.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-claim-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

const NOW = 1_800_000_000_000;
let dirs = 0;
const fresh = () => join(scratch, `store-${++dirs}`);

/** A directory holding an empty store, closed. */
async function made(): Promise<string> {
  const dir = fresh();
  const store = new FileBackend(dir);
  await store.open();
  await store.close();
  return dir;
}

/** proc(5): field 22 of /proc/<pid>/stat and the boot id, as a process is recorded. */
const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};
const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
/** Process 1 runs as long as the machine does. */
const init = () => ({ pid: 1, host: hostname(), boot: bootId(), start: startTime(1), seen: NOW });

describe("a claim recorded by a process of this host", () => {
  it("holds while that process runs, in this boot, with the start time recorded", async () => {
    const dir = await made();
    await setOwner(dir, init());
    expect(await opens(dir)).toMatch(/: in use by process 1 on /);
  });

  it("lapses with another boot of the machine, a start time not recorded, or a pid that runs no process", async () => {
    const dir = await made();
    // Past the largest pid Linux hands out (pid_max is at most 2^22): no process runs with it.
    const none = 4_194_304;
    const { start: _, ...withoutStart } = init();
    for (const gone of [
      { ...init(), boot: "00000000-0000-0000-0000-000000000000" },
      { ...init(), start: "" },
      { ...init(), pid: none, start: "1" },
      // A process that runs no more has no start time either: an empty one recorded is no match.
      { ...init(), pid: none, start: "" },
      { ...withoutStart, pid: none },
    ]) {
      await setOwner(dir, gone);
      expect(await opens(dir), JSON.stringify(gone)).toBe("opened");
    }
  });

  it("of this very process (left by an earlier open of it) is its own: taken without a refusal", async () => {
    const dir = await made();
    const me = { pid: process.pid, host: hostname(), boot: bootId(), start: startTime(process.pid), seen: NOW - 3_600_000 };
    await setOwner(dir, me);
    expect(await opens(dir)).toBe("opened");
    // Its own claim is forgotten at close.
    expect(await owner(dir)).toBeUndefined();
  });
});

describe("a claim recorded by a process of another host", () => {
  const elsewhere = (seen: number) => ({ ...init(), pid: 77, host: "another-container", seen });

  it("holds until 30 s after its last sign of life, to the millisecond", async () => {
    const dir = await made();
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    await setOwner(dir, elsewhere(NOW - 29_999));
    expect(await opens(dir)).toBe(
      `file store ${dir}: in use by process 77 on another-container (last sign of life 30 s ago; its claim lapses 30 s after that); one process at a time may use a file: store (stop that one, or choose another directory)`,
    );
    await setOwner(dir, elsewhere(NOW - 30_000));
    expect(await opens(dir)).toBe("opened");
  });

  it("names the time since its last sign of life in whole seconds, never less than none (a clock ahead of this one's)", async () => {
    const dir = await made();
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    await setOwner(dir, elsewhere(NOW - 12_400));
    expect(await opens(dir)).toContain("(last sign of life 12 s ago;");
    await setOwner(dir, elsewhere(NOW - 12_600));
    expect(await opens(dir)).toContain("(last sign of life 13 s ago;");
    await setOwner(dir, elsewhere(NOW + 5_000));
    expect(await opens(dir)).toContain("(last sign of life 0 s ago;");
  });
});

describe("the process using a store", () => {
  const me = () => ({ pid: process.pid, host: hostname(), boot: bootId(), start: startTime(process.pid), seen: NOW });
  // Another process took the directory over (this one was taken for gone): it differs in one of
  // what tells a process, the others the same as this one's.
  it.each([
    ["pid", { pid: 77 }],
    ["host", { host: "another-container" }],
    ["boot", { boot: "00000000-0000-0000-0000-000000000000" }],
    ["start time", { start: "1" }],
  ])("records no sign of life over the claim of a process of another %s, and leaves that claim at close", async (_, differs) => {
    const dir = fresh();
    const store = new FileBackend(dir);
    vi.useFakeTimers({ toFake: ["setInterval", "Date"], now: NOW });
    await store.open();
    expect(await owner(dir)).toEqual(me());
    const other = { ...me(), ...differs };
    await setOwner(dir, other);
    vi.advanceTimersByTime(10_000);
    // A write queued after the sign of life commits after it.
    await store.transact("a".repeat(64), undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: 1 }, result: undefined }));
    expect(await owner(dir)).toEqual(other);
    vi.useRealTimers();
    await store.close();
    expect(await owner(dir)).toEqual(other);
  });

  it("keeps no timer of its own running once closed, and none that holds the process open meanwhile", async () => {
    const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const dir = fresh();
    const store = new FileBackend(dir);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const before = vi.getTimerCount();
    await store.open();
    expect(vi.getTimerCount()).toBe(before + 1);
    await store.close();
    expect(vi.getTimerCount()).toBe(before);
    vi.useRealTimers();
    const held = refTimers();
    const second = new FileBackend(dir);
    await second.open();
    expect(refTimers()).toBe(held);
    await second.close();
  });

  it("leaves nothing in the directory but the store's files", async () => {
    const dir = fresh();
    const store = new FileBackend(dir);
    await store.open();
    expect(readdirSync(dir).sort()).toEqual([FILE_NAME, `${FILE_NAME}-lock`]);
    await store.close();
  });

  it("can open a store again once what refused it is gone", async () => {
    const dir = await made();
    await setOwner(dir, init());
    const store = new FileBackend(dir);
    await expect(store.open()).rejects.toThrow(/in use by process 1/);
    await setOwner(dir, { ...init(), start: "1" });
    await store.open();
    expect(await owner(dir)).toMatchObject({ pid: process.pid });
    await store.close();
  });
});
