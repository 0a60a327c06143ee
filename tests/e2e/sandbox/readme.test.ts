/**
 * The docs' sandbox example (the ```ts block after the `tests/e2e/sandbox/readme.test.ts` marker, in
 * README.md or a guide in docs/guides/),
 * run as a partner would: its `bank-api-contracts/...` imports point at this repository's sources,
 * and it runs in its own Node process (tsx); its node:assert checks must hold and it must exit 0.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { markedBlock } from "../../helpers/doc-blocks.js";
import { capture } from "../../helpers/processes.js";

const dir = mkdtempSync(join(repoRoot, ".tmp", "readme-sandbox-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readmeBlock = () => markedBlock("tests/e2e/sandbox/readme.test.ts", "", "ts").code;

const SOURCES: Record<string, string> = {
  "bank-api-contracts/testing": "src/testing/index.ts",
  "bank-api-contracts/callbacks": "src/callbacks/index.ts",
  "bank-api-contracts/pay/1.3.0": "generated/pay/1.3.0/client.ts",
};

it("README's sandbox example runs: create, pay through the control API, the webhook received once, the new status read", async () => {
  let source = readmeBlock();
  for (const [name, path] of Object.entries(SOURCES))
    source = source.replaceAll(`"${name}"`, `"${pathToFileURL(join(repoRoot, path)).href}"`);
  expect(source).not.toContain('"bank-api-contracts');
  const file = join(dir, "example.ts");
  writeFileSync(file, source);
  const run = capture(spawn(process.execPath, ["--import", "tsx", file], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] }));
  expect(await run.exit, run.output()).toBe(0);
}, 60_000);
