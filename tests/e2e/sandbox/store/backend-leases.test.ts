/**
 * A durable store opened once per process and shared (src/sandbox/store/open.ts `acquireBackend`),
 * on the file store in a scratch folder: the users of one address share one backend, which stays
 * open until the last of them gives it back (giving back twice counts once); a new user after that
 * gets a store opened anew; another address is another store; an address that failed to open is tried
 * again by its next user, not answered with the old failure; `memory` opens nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import type { DurableBackend } from "../../../../src/sandbox/store/backend.js";
import type { FileBackend } from "../../../../src/sandbox/store/file.js";
import { acquireBackend } from "../../../../src/sandbox/store/open.js";
import { occupyPort } from "../../../helpers/ports.js";

const scratch = mkdtempSync(join(repoRoot, ".tmp", "backend-leases-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const KEY = createHash("sha256").update("lease").digest("hex");
/** Whether the backend still answers: a transaction that changes nothing, or the error of a closed store. */
const answers = (backend: DurableBackend) =>
  backend
    .transact(KEY, undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: null }, result: "open" }))
    .then(
      (outcome) => outcome.result,
      (error: Error) => error.message,
    );

describe("acquireBackend", () => {
  it("opens nothing for memory", async () => {
    expect(await acquireBackend({ kind: "memory" })).toBeUndefined();
  });

  it("shares one backend among the users of an address, open until the last gives it back, once each; another address is another store", async () => {
    const dir = join(scratch, "shared");
    const [first, second, other] = await Promise.all([
      acquireBackend({ kind: "file", dir }),
      acquireBackend({ kind: "file", dir }),
      acquireBackend({ kind: "file", dir: join(scratch, "other") }),
    ]);
    const third = await acquireBackend({ kind: "file", dir });
    expect(first!.backend).toBe(second!.backend);
    expect(third!.backend).toBe(first!.backend);
    const backend = first!.backend;
    expect(other!.backend).not.toBe(backend);
    expect([(backend as FileBackend).dir, (other!.backend as FileBackend).dir]).toEqual([dir, join(scratch, "other")]);
    await other!.release();
    expect(await answers(backend)).toBe("open");

    await first!.release();
    // Given back twice by the same user: counted once.
    await first!.release();
    expect(await answers(backend)).toBe("open");
    await second!.release();
    expect(await answers(backend)).toBe("open");
    await third!.release();
    expect(await answers(backend)).toBe(`file store ${dir}: closed`);

    // The next user gets the store opened anew.
    const again = await acquireBackend({ kind: "file", dir });
    expect(again!.backend).not.toBe(backend);
    expect(await answers(again!.backend)).toBe("open");
    await again!.release();
    expect(await answers(again!.backend)).toBe(`file store ${dir}: closed`);
  });

  it("tries an address that failed to open again for its next user", async () => {
    const blocked = join(scratch, "blocked");
    mkdirSync(blocked);
    const blocker = join(blocked, "in-the-way");
    writeFileSync(blocker, "a file where the store's folder should be");
    const dir = join(blocker, "state");
    const failures = await Promise.allSettled([acquireBackend({ kind: "file", dir }), acquireBackend({ kind: "file", dir })]);
    expect(failures.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    expect(String((failures[0] as PromiseRejectedResult).reason)).toContain(dir);

    rmSync(blocker);
    const lease = await acquireBackend({ kind: "file", dir });
    expect(await answers(lease!.backend)).toBe("open");
    await lease!.release();
  });

  it("keeps two Postgres addresses apart: each fails on its own, named without its password", async () => {
    // A port nothing listens on: each open is refused at once.
    const closed = await occupyPort();
    await closed.close();
    const urls = ["a", "b"].map((db) => `postgres://sandbox:hunter2@127.0.0.1:${closed.port}/${db}`);
    const failures = await Promise.allSettled(urls.map((url) => acquireBackend({ kind: "postgres", url })));
    expect(failures.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    const messages = failures.map((f) => String((f as PromiseRejectedResult).reason));
    for (const [i, db] of ["a", "b"].entries()) {
      expect(messages[i]).toContain(`postgres store postgres://sandbox:***@127.0.0.1:${closed.port}/${db}: open: cannot connect`);
      expect(messages[i]).not.toContain("hunter2");
    }
  });
});
