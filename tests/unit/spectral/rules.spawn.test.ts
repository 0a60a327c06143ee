/**
 * The custom Spectral rules (spectral/ruleset.yaml), each against tests/fixtures/lint/rules/<rule>/:
 * pass.yaml gets no result from the rule, fail.yaml gets one on exactly the lines marked `# expect`.
 * One Spectral CLI run lints every fixture with the repository's .spectral.yaml.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";

interface SpectralResult {
  code: string;
  source: string;
  range: { start: { line: number } };
}

const fixtureDir = join(repoRoot, "tests/fixtures/lint/rules");
const ruleset = parse(readFileSync(join(repoRoot, "spectral/ruleset.yaml"), "utf8")) as {
  rules: Record<string, { description?: string; message?: string; severity?: string }>;
};
const customRules = Object.keys(ruleset.rules);
let results: SpectralResult[] = [];

beforeAll(async () => {
  const files = customRules.flatMap((rule) => ["pass.yaml", "fail.yaml"].map((f) => join(fixtureDir, rule, f)));
  const spectral = join(repoRoot, "node_modules", ".bin", "spectral");
  const args = ["lint", ...files, "--ruleset", join(repoRoot, ".spectral.yaml"), "--format", "json", "--quiet"];
  // Spectral exits 1 when it finds errors; the report on stdout is what matters.
  const stdout = await promisify(execFile)(spectral, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => r.stdout,
    (error: { stdout: string; stderr: string }) => {
      if (!error.stdout.startsWith("[")) throw new Error(`spectral failed: ${error.stderr}`);
      return error.stdout;
    },
  );
  results = JSON.parse(stdout) as SpectralResult[];
}, 60_000);

const linesReported = (rule: string, file: string) =>
  [...new Set(results.filter((r) => r.code === rule && r.source === file).map((r) => r.range.start.line + 1))].sort((a, b) => a - b);

const linesExpected = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, index) => (/#\s*expect\b/.test(line) ? [index + 1] : []));

describe("custom Spectral rules", () => {
  it("has a fixture folder for every rule and a rule for every fixture folder", () => {
    const folders = readdirSync(fixtureDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.sort()).toEqual([...customRules].sort());
  });

  it.each(customRules)("%s has a description, a message and severity error", (rule) => {
    const { description, message, severity } = ruleset.rules[rule];
    expect(description?.trim()).toBeTruthy();
    expect(message?.trim()).toBeTruthy();
    expect(severity).toBe("error");
  });

  it.each(customRules)("%s reports nothing on pass.yaml", (rule) => {
    expect(linesReported(rule, join(fixtureDir, rule, "pass.yaml"))).toEqual([]);
  });

  it.each(customRules)("%s reports exactly the # expect lines of fail.yaml", (rule) => {
    const file = join(fixtureDir, rule, "fail.yaml");
    const expected = linesExpected(file);
    expect(expected.length).toBeGreaterThan(0);
    expect(linesReported(rule, file)).toEqual(expected);
  });
});
