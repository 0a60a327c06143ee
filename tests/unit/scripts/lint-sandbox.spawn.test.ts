/**
 * scripts/lint-sandbox.ts: a problem in the control API's document is reported with its file, line and
 * rule. That the document itself lints clean is `npm test`'s `lint:sandbox` stage (the same function on
 * the same file), not repeated here.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintSandboxDocument } from "../../../scripts/lint-sandbox.js";
import { repoRoot } from "../../../src/registry.js";

const dir = mkdtempSync(join(repoRoot, ".tmp", "lint-sandbox-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lint:sandbox", { timeout: 120_000 }, () => {
  it("reports a problem with its file, line and rule", async () => {
    const copy = join(dir, "openapi.yaml");
    copyFileSync(join(repoRoot, "src/sandbox/openapi.yaml"), copy);
    const text = readFileSync(copy, "utf8");
    writeFileSync(copy, text.replace("operationId: getClock", "operationId: clock"));
    const line = text.split("\n").findIndex((l) => l.includes("operationId: getClock")) + 1;
    const problems = await lintSandboxDocument(copy);
    expect(problems).toContainEqual(
      expect.stringMatching(new RegExp(`openapi\\.yaml:${line}:\\d+ error operation-id-verb-first operationId "clock"`)),
    );
  });
});
