/**
 * The `file:` store with a second process (./child.ts): what a writer acknowledged survives its
 * SIGKILL, a directory that a live process uses is refused until that process is gone, and a
 * directory the process may not write to is refused, naming it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../../src/registry.js";
import type { StoredCredential } from "../../../../../src/sandbox/store/backend.js";
import { FileBackend } from "../../../../../src/sandbox/store/file.js";
import { capture, waitForOutput } from "../../../../helpers/processes.js";
import { credentialKey } from "./conformance.js";

const CHILD = join(repoRoot, "tests/unit/src/sandbox/store/child.ts");
const scratch = mkdtempSync(join(repoRoot, ".tmp", "file-store-spawn-"));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function start(args: string[], options: { uid?: number; gid?: number } = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
    cwd: repoRoot,
    stdio: ["pipe", "pipe", "pipe"],
    ...options,
  });
  children.push(child);
  return { child, ...capture(child) };
}

/** Resolves once `count` lines "ack <i>" are out. */
function acks(child: ChildProcess, stdout: () => string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if ((stdout().match(/^ack \d+$/gm) ?? []).length >= count) {
        child.stdout!.off("data", check);
        child.off("close", closed);
        resolve();
      }
    };
    const closed = () => reject(new Error(`the writer exited before ${count} acknowledgements; it wrote:\n${stdout()}`));
    child.stdout!.on("data", check);
    child.on("close", closed);
  });
}

describe("file: store and other processes", () => {
  it("keeps every write acknowledged before its writer was killed with SIGKILL", async () => {
    const dir = join(scratch, "killed");
    const writer = start(["file-writer", dir]);
    await acks(writer.child, writer.stdout, 400);
    writer.child.kill("SIGKILL");
    expect(await writer.exit).toBeNull();
    const acknowledged = [...writer.stdout().matchAll(/^ack (\d+)$/gm)].map((match) => Number(match[1]));
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);

    // The writer is gone: its claim on the directory is stale, and this process takes it over.
    const store = new FileBackend(dir);
    await store.open();
    try {
      const stored = new Map<string, StoredCredential>();
      for await (const credential of store.loadAll()) stored.set(credential.key, credential);
      for (const i of acknowledged) {
        const credential = stored.get(credentialKey(`k${i}`));
        expect(credential, `acknowledged write ${i}`).toBeDefined();
        expect(credential!.rows).toEqual([{ collection: "record", id: `r${i}`, value: { i, text: "x".repeat(200) } }]);
      }
      // Nothing stored half: every credential has its one row, at version 1.
      for (const credential of stored.values()) expect([credential.version, credential.rows.length]).toEqual([1, 1]);
    } finally {
      await store.close();
    }
  });

  it("refuses a directory that another live process uses, naming it, and takes it over once that process is killed", async () => {
    const dir = join(scratch, "held");
    const holder = start(["file-hold", dir]);
    await waitForOutput(holder.child, holder.stdout, "open\n", "the holding process");
    const refused = new FileBackend(dir);
    await expect(refused.open()).rejects.toThrow(
      new RegExp(`^file store ${dir}: in use by process ${holder.child.pid} on [^;]+; one process at a time may use a file: store`),
    );
    // A third process is refused the same way.
    const third = start(["file-open", dir]);
    expect(await third.exit).toBe(0);
    expect(third.stdout()).toMatch(new RegExp(`^refused: file store ${dir}: in use by process ${holder.child.pid} `));

    holder.child.kill("SIGKILL");
    await holder.exit;
    const store = new FileBackend(dir);
    await store.open();
    await store.close();
  });

  it("lets the next process open a directory that the last one closed", async () => {
    const dir = join(scratch, "handed over");
    const holder = start(["file-hold", dir]);
    await waitForOutput(holder.child, holder.stdout, "open\n", "the holding process");
    holder.child.stdin!.end();
    expect(await holder.exit).toBe(0);
    const next = start(["file-open", dir]);
    expect(await next.exit).toBe(0);
    expect(next.stdout()).toBe("opened\n");
  });

  it("refuses a directory it may not write to, naming it", async () => {
    const dir = join(scratch, "read-only");
    mkdirSync(dir);
    // Root writes anywhere: the child runs as nobody then; otherwise the directory is made read-only.
    const root = process.getuid?.() === 0;
    if (root) chmodSync(scratch, 0o755);
    else chmodSync(dir, 0o555);
    const child = start(["file-open", dir], root ? { uid: 65534, gid: 65534 } : {});
    expect(await child.exit, child.output()).toBe(0);
    expect(child.stdout()).toMatch(new RegExp(`^refused: file store ${dir}: the directory is not writable \\(EACCES: `));
    chmodSync(dir, 0o755);
  });
});
