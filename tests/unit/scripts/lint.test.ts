/**
 * scripts/lint.ts end to end, on tiny fixture registries (tests/fixtures/lint/<name>/redocly.yaml,
 * one API each): a broken spec fails with the problem's file and line, a clean one passes.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";

const TIMEOUT = 60_000;
const fixtures = "tests/fixtures/lint";

async function lint(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ["scripts/lint.ts", ...args], { cwd: repoRoot });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const lintFixture = (name: string, ...aliases: string[]) => lint("--config", `${fixtures}/${name}/redocly.yaml`, ...aliases);

/** `<file>:<line>:` of the first line of a fixture file that contains `text`. */
function locationOf(file: string, text: string): string {
  const line =
    readFileSync(join(repoRoot, file), "utf8")
      .split("\n")
      .findIndex((l) => l.includes(text)) + 1;
  expect(line, `"${text}" in ${file}`).toBeGreaterThan(0);
  return `${file}:${line}:`;
}

describe("scripts/lint.ts", () => {
  it("passes a clean split spec with exit 0", { timeout: TIMEOUT }, async () => {
    const { code, stdout } = await lintFixture("clean");
    expect(stdout).toContain("ok   widget@1.0.0: 0 errors, 0 warnings");
    expect(code).toBe(0);
  });

  it("applies the OWASP API security ruleset: http:// servers and API keys in the URL fail", { timeout: TIMEOUT }, async () => {
    const file = `${fixtures}/insecure/openapi.yaml`;
    const { code, stdout } = await lintFixture("insecure");
    expect(code).toBe(1);
    expect(stdout).toContain(`${locationOf(file, "url: http://")}10 error owasp:api8:2023-no-server-http`);
    expect(stdout).toContain(`${locationOf(file, "in: query")}11 error owasp:api2:2023-no-api-keys-in-url`);
  });

  it("lints only the aliases given", { timeout: TIMEOUT }, async () => {
    const { code, stdout } = await lintFixture("clean", "widget@1.0.0");
    expect(stdout).toMatch(/widget@1\.0\.0: 0 errors/);
    expect(code).toBe(0);
  });

  it("fails on a $ref to a missing file and to a missing pointer, at the $ref in the split file", { timeout: TIMEOUT }, async () => {
    const file = `${fixtures}/bad-ref/paths/widgets.yaml`;
    const { code, stdout } = await lintFixture("bad-ref");
    expect(code).not.toBe(0);
    expect(stdout).toContain(`${locationOf(file, "Gadget.yaml")}11 error no-unresolved-refs`);
    expect(stdout).toContain(`${locationOf(file, "#/$defs/missing")}13 error no-unresolved-refs`);
  });

  it("fails on an example that does not match its schema, at the example value", { timeout: TIMEOUT }, async () => {
    const file = `${fixtures}/invalid-example/paths/widgets.yaml`;
    const { code, stdout } = await lintFixture("invalid-example");
    expect(code).not.toBe(0);
    const at = locationOf(file, "widget_name: 42");
    expect(stdout).toMatch(new RegExp(`^${at}\\d+ error (oas3-valid-media-example|no-invalid-media-type-examples) `, "m"));
  });

  it("fails on a YAML syntax error in a split file, at the bad line", { timeout: TIMEOUT }, async () => {
    const file = `${fixtures}/yaml-syntax/components/schemas/Widget.yaml`;
    const { code, stdout } = await lintFixture("yaml-syntax");
    expect(code).not.toBe(0);
    expect(stdout).toContain(`${locationOf(file, "bad_indent")}4 error parser`);
  });

  it("fails on a YAML syntax error in the root, from both linters, at the bad line", { timeout: TIMEOUT }, async () => {
    const file = `${fixtures}/yaml-syntax-root/openapi.yaml`;
    const { code, stdout } = await lintFixture("yaml-syntax-root");
    expect(code).not.toBe(0);
    const at = locationOf(file, "indented deeper");
    expect(stdout).toMatch(new RegExp(`^${at}\\d+ error parser `, "m")); // Spectral
    expect(stdout).toMatch(new RegExp(`^${at}\\d+ error yaml-syntax `, "m")); // Redocly, which stops before its report
  });

  it("rejects an unknown alias with usage and the known aliases, exit 2", { timeout: TIMEOUT }, async () => {
    const { code, stderr } = await lintFixture("clean", "nope@1.0.0");
    expect(code).toBe(2);
    expect(stderr).toContain("usage: tsx scripts/lint.ts");
    expect(stderr).toContain("known aliases: widget@1.0.0");
  });
});
