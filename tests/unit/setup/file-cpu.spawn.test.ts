/**
 * The per-file CPU report (tests/setup/file-cpu.ts): vitest run over two fixture files, one whose
 * child process and worker each spend a known share of CPU, one that waits. With TEST_CPU_REPORT set
 * each file gets one line naming it, its CPU apart from its child's.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";

const fixture = join(repoRoot, "tests/fixtures/file-cpu");
const scratch = mkdtempSync(join(repoRoot, ".tmp/file-cpu-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const vitest = (env: NodeJS.ProcessEnv) =>
  promisify(execFile)(
    process.execPath,
    [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--config", join(fixture, "vitest.config.ts")],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
    },
  );

it("writes one line per test file: its worker's CPU and its child processes' apart", async () => {
  const report = join(scratch, "cpu.jsonl");
  await vitest({ TEST_CPU_REPORT: report });
  const lines = readFileSync(report, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(lines.map((line) => line.file).sort()).toEqual([join(fixture, "busy.check.ts"), join(fixture, "idle.check.ts")]);
  const busy = lines.find((line) => line.file.endsWith("busy.check.ts"));
  const idle = lines.find((line) => line.file.endsWith("idle.check.ts"));
  // The child spun 0.5 s of wall time, the worker 0.25 s: on a busy machine each gets less CPU than that, never more.
  expect(busy.children).toBeGreaterThan(0.05);
  expect(busy.children).toBeLessThan(0.5 + 0.5); // its own start-up at most doubles it
  expect(busy.self).toBeGreaterThan(0.05);
  expect(idle.children).toBe(0);
  expect(idle.self).toBeLessThan(busy.self);
  for (const line of lines) expect(line.wall).toBeGreaterThanOrEqual(0.1);
  expect(new Set(lines.map((line) => line.pid)).size).toBe(1); // one worker ran both, one file at a time
});
