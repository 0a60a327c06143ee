/**
 * The `file:` store through the command line, as the guide (docs/guides/keeping-state.md) runs it:
 * the sandbox started with the guide's line in a scratch folder, killed (SIGKILL) during a burst of
 * creates and started again: every acknowledged create is there; stopped (SIGTERM) with a callback
 * attempt in flight and a delayed move ahead, backed up and restored with the guide's lines, and
 * started again from the restored folder: the callback is retried with its event's key and the
 * overdue move made at once, its callback sent. The same scenario on Postgres: ./postgres.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { markedBlock } from "../../helpers/doc-blocks.js";
import { type Instance, restartScenario, startInstance, stop } from "./instances.js";

const MARKER = "tests/e2e/store/file.test.ts";
/** The guide's line, `npx bank-api-contracts` being the repository's CLI here. */
const startLine = markedBlock(MARKER, "starts the sandbox").code.trim();
const args = startLine.replace(/^npx bank-api-contracts\s+/, "").split(/\s+/);
const backUp = markedBlock(MARKER, "back up").code;
const restore = markedBlock(MARKER, "restore").code;

const folder = mkdtempSync(join(repoRoot, ".tmp", "file-store-e2e-"));
const instances: Instance[] = [];
afterAll(async () => {
  await Promise.all(instances.map((instance) => stop(instance, "SIGKILL")));
  rmSync(folder, { recursive: true, force: true });
});

describe("file: the sandbox's state outlives its process", { timeout: 120_000 }, () => {
  it("starts with the guide's line: every API's sandbox on a file: store", () => {
    expect(startLine).toMatch(/^npx bank-api-contracts mock --sandbox --sandbox-store file:\S+$/);
  });
  restartScenario(
    () => startInstance(args, folder),
    instances,
    async () => {
      // The guide's backup, then its restore (which removes the folder first): the next start reads the restored one.
      for (const line of [backUp, restore]) execFileSync("sh", ["-ec", line], { cwd: folder, stdio: "pipe", timeout: 60_000 });
    },
  );
});
