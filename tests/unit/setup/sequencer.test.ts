/**
 * The order `npm test` starts its files in (tests/setup/sequencer.ts): the table names files that
 * exist, the longest start first across projects, the quick files last, and equal weights keep
 * vitest's own order, as on a fresh clone (no cache of durations).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { repoRoot } from "../../../src/registry.js";
import LongestFirst, { expectedSeconds, SECONDS } from "../../setup/sequencer.js";

/** What vitest's BaseSequencer reads of a specification and of vitest itself; a fresh clone: no cache. */
const spec = (project: string, file: string) =>
  ({
    project: { name: project, config: { root: repoRoot, isolate: false, sequence: { groupOrder: 0 } } },
    moduleId: join(repoRoot, file),
  }) as unknown as TestSpecification;
const freshClone = {
  config: { root: repoRoot },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
} as unknown as Vitest;

describe("the test order", () => {
  it("names in its table only files that exist, each a full-tier file (e2e, spawn or slow)", () => {
    expect(Object.keys(SECONDS).length).toBeGreaterThan(0);
    for (const file of Object.keys(SECONDS)) {
      expect(existsSync(join(repoRoot, file)), file).toBe(true);
      expect(file, file).toMatch(/^tests\/e2e\/|\.(spawn|slow)\.test\.ts$/);
    }
  });

  it("guesses by kind outside the table: a file that starts processes or servers seconds, a quick one less", () => {
    expect(expectedSeconds("tests/e2e/contract/auth.test.ts")).toBe(3);
    expect(expectedSeconds("tests/unit/src/cli/index.spawn.test.ts")).toBe(3);
    expect(expectedSeconds("tests/unit/src/mock/server.slow.test.ts")).toBe(3);
    expect(expectedSeconds("tests/unit/src/cli/index.test.ts")).toBe(0.5);
    expect(expectedSeconds("tests/e2e/package/npx.test.ts")).toBe(SECONDS["tests/e2e/package/npx.test.ts"]);
  });

  it("starts the longest first whatever their project, the quick files last, equal ones in vitest's order", async () => {
    const files = [
      spec("docs", "tests/e2e/docs/chromium.test.ts"),
      spec("docs", "tests/e2e/docs/site.test.ts"),
      spec("full", "tests/e2e/contract/auth.test.ts"),
      spec("full", "tests/unit/src/mock/judge.slow.test.ts"),
      spec("package", "tests/e2e/package/manifest.test.ts"),
      spec("package", "tests/e2e/package/npx.test.ts"),
      spec("quick", "tests/unit/src/cli/index.test.ts"),
      spec("quick", "tests/apis/pay-1.3.0/spec.test.ts"),
    ];
    const sorted = await new LongestFirst(freshClone).sort(files);
    expect(sorted.map((s) => `${s.project.name} ${s.moduleId.slice(repoRoot.length + 1)}`)).toEqual([
      "package tests/e2e/package/npx.test.ts",
      "docs tests/e2e/docs/site.test.ts",
      "full tests/unit/src/mock/judge.slow.test.ts",
      "docs tests/e2e/docs/chromium.test.ts",
      "full tests/e2e/contract/auth.test.ts",
      "package tests/e2e/package/manifest.test.ts",
      "quick tests/unit/src/cli/index.test.ts",
      "quick tests/apis/pay-1.3.0/spec.test.ts",
    ]);
  });
});
