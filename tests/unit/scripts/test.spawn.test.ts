/**
 * scripts/test.ts (`npm test`): the stages run at the same time, each one's output is printed whole
 * and apart, every stage runs to its end, and the exit code is 1 when any stage failed. Small shell
 * commands stand in for the real stages; one test checks the real stage list against package.json.
 * The tiers (vitest.config.ts), listed by vitest itself: the quick tier is tests/unit and tests/apis
 * without *.spawn.test.ts, the full run is every test file, and `--exclude` (which `npm test --`
 * passes on) removes files from every project, as vitest documents.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { runStages, STAGES } from "../../../scripts/test.js";

const dir = mkdtempSync(join(tmpdir(), "npm-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the stages, collecting what the orchestrator prints. */
async function run(stages: Parameters<typeof runStages>[0]) {
  const printed: string[] = [];
  const code = await runStages(stages, (text) => printed.push(text));
  return { code, printed };
}

/** Waits (at most 20 s, in 50 ms steps) for a file another stage creates. */
const waitForFile = (file: string) => `i=0; while [ ! -e ${file} ]; do i=$((i+1)); [ $i -gt 400 ] && exit 9; sleep 0.05; done`;

describe("scripts/test.ts", () => {
  it("runs the stages at the same time: each waits for a file the other one writes", async () => {
    const a = join(dir, "a");
    const b = join(dir, "b");
    const { code, printed } = await run([
      { name: "first", command: `touch ${a}; ${waitForFile(b)}; echo first done` },
      { name: "second", command: `${waitForFile(a)}; touch ${b}; echo second done` },
    ]);
    expect(printed.join("\n")).toContain("first done");
    expect(printed.join("\n")).toContain("second done");
    expect(code).toBe(0);
  });

  it("prints each stage's output whole, apart from the others, with its result", async () => {
    const { printed } = await run([
      { name: "one", command: "echo one-a; echo one-b >&2; echo one-c" },
      { name: "two", command: "echo two-a; echo two-b" },
    ]);
    const block = (name: string) => printed.find((p) => p.includes(`── ${name}: echo`))!;
    expect(block("one").split("\n")).toEqual([
      "",
      "── one: echo one-a; echo one-b >&2; echo one-c",
      "one-a",
      "one-b",
      "one-c",
      "── one: ok",
    ]);
    expect(block("two")).not.toContain("one-");
    expect(block("two").endsWith("── two: ok")).toBe(true);
  });

  it("runs every stage to its end and exits 1 when any failed, naming it in the summary with wall and CPU time", async () => {
    const late = join(dir, "late");
    const { code, printed } = await run([
      { name: "fails", command: "echo broken; exit 3" },
      { name: "passes", command: `sleep 0.2; touch ${late}; echo fine` },
    ]);
    expect(code).toBe(1);
    expect(readFileSync(late, "utf8")).toBe(""); // the passing stage ran to its end
    const all = printed.join("\n");
    expect(all).toContain("broken\n── fails: FAILED (exit 3)");
    const summary = printed.at(-1)!.split("\n");
    expect(summary).toContainEqual(expect.stringMatching(/^ {2}FAILED fails +\d+\.\d s, \d+\.\d s cpu$/));
    expect(summary).toContainEqual(expect.stringMatching(/^ {2}ok {5}passes +\d+\.\d s, \d+\.\d s cpu$/));
    expect(summary.at(-1)).toMatch(/^ {2}1 failed in \d+\.\d s \(\d+\.\d s cpu\)$/);
  });

  it("finds every stage among package.json's scripts, and npm test runs it", () => {
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(STAGES).toEqual(["lint:ts", "lint:spec", "lint:sandbox", "lint:workflows", "check:generated", "typecheck", "test:vitest"]);
    for (const stage of STAGES) expect(scripts[stage], stage).toBeTruthy();
    expect(scripts.test).toBe("node --import tsx scripts/test.ts");
  });
});

/** The test files vitest would run with `args` (`vitest list --filesOnly`), as `project path` lines, sorted. */
async function listed(...args: string[]): Promise<string[]> {
  const vitest = join(repoRoot, "node_modules", ".bin", "vitest");
  const { stdout } = await promisify(execFile)(vitest, ["list", "--filesOnly", ...args], { cwd: repoRoot });
  return stdout
    .trim()
    .split("\n")
    .map((line) => line.replace(/^\[(\S+)\] /, "$1 "))
    .sort();
}

describe("the tiers", () => {
  it("npm run test:quick runs tests/unit and tests/apis without *.spawn.test.ts and *.slow.test.ts; the full run adds the rest", async () => {
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    const quickArgs = scripts["test:quick"].replace(/^vitest run /, "").split(" ");
    const [all, quick] = await Promise.all([listed(), listed(...quickArgs)]);
    expect(quick.length).toBeGreaterThan(40);
    for (const line of quick) {
      expect(line).toMatch(/^quick(-isolated)? tests\/(unit|apis)\//);
      expect(line).not.toMatch(/\.(spawn|slow)\.test\.ts$/);
    }
    const rest = all.filter((line) => !quick.includes(line));
    expect(rest.length).toBeGreaterThan(15);
    for (const line of rest)
      expect(line).toMatch(/^(full (tests\/e2e\/|\S+\.(spawn|slow)\.test\.ts$)|docs tests\/e2e\/docs\/|package tests\/e2e\/package\/)/);
    expect(rest.filter((line) => line.endsWith(".slow.test.ts")).length).toBeGreaterThan(0);
    // tests/e2e/docs/ is the `docs` project: its global setup builds the site and starts Chromium once per run;
    // tests/e2e/package/ the `package` project: its global setup starts the run's offline npm registry.
    const project = (line: string) => / tests\/e2e\/(docs|package)\//.exec(line)?.[1] ?? "full";
    expect(all.filter((line) => line.includes(" tests/e2e/") && !line.startsWith(`${project(line)} `))).toEqual([]);
  });

  it("--exclude removes files from every project", async () => {
    const [all, excluded] = await Promise.all([listed(), listed("--exclude", "tests/e2e/**", "--exclude", "**/cli/**")]);
    const kept = all.filter((line) => !/ tests\/e2e\/|\/cli\//.test(line));
    expect(kept.length).toBeLessThan(all.length - 10);
    expect(excluded).toEqual(kept);
  });
});
