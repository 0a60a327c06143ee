/**
 * scripts/lint.ts on the tiny fixture registries (tests/fixtures/lint/<name>/redocly.yaml, one API
 * each): a broken spec fails with the problem's file and line, a clean one passes.
 *
 * The fixtures are linted together, as `npm run lint:spec` lints the repository's APIs: one registry
 * (written under .tmp/) names every fixture's API as `<name>@<release>`, with the fixture's own rules,
 * and one run of the command (in this process, through its `main`) lints them all. The root that is
 * not valid YAML comes first, so that run also shows that it stops no other API. Each problem must
 * still land on its own API's summary line.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { main } from "../../../scripts/lint.js";
import { repoRoot } from "../../../src/registry.js";

const TIMEOUT = 60_000;
const fixtures = "tests/fixtures/lint";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command in this process, capturing what it prints. */
async function lint(...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { log: (...a: unknown[]) => out.push(a.join(" ")), error: (...a: unknown[]) => err.push(a.join(" ")) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

/** Fixture folders holding a registry, the one whose root does not parse first. */
const names = readdirSync(join(repoRoot, fixtures), { withFileTypes: true })
  .filter((d) => d.isDirectory() && readdirSync(join(d.parentPath, d.name)).includes("redocly.yaml"))
  .map((d) => d.name)
  .sort((a, b) => Number(b === "yaml-syntax-root") - Number(a === "yaml-syntax-root") || a.localeCompare(b));

let dir: string;
let config: string;
/** Fixture name -> its alias in the combined registry. */
const alias: Record<string, string> = {};
/** The run over every fixture, and the run over the clean one alone. */
let all: Run;
let cleanOnly: Run;

beforeAll(async () => {
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
  dir = mkdtempSync(join(repoRoot, ".tmp", "lint-fixtures-"));
  config = join(dir, "redocly.yaml");
  const apis: Record<string, unknown> = {};
  let base: Record<string, unknown> = {};
  for (const name of names) {
    const registry = parse(readFileSync(join(repoRoot, fixtures, name, "redocly.yaml"), "utf8"));
    const { apis: own, ...rest } = registry as { apis: Record<string, { root: string }> };
    base = rest;
    const entries = Object.entries(own);
    expect(entries, `${name}: one API`).toHaveLength(1);
    const [[key, value]] = entries;
    alias[name] = `${name}@${key.split("@")[1]}`;
    apis[alias[name]] = { ...value, root: relative(dir, join(repoRoot, fixtures, name, value.root)) };
  }
  writeFileSync(config, stringify({ ...base, apis }));
  [all, cleanOnly] = await Promise.all([lint("--config", config), lint("--config", config, alias.clean)]);
}, 4 * TIMEOUT);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `<file>:<line>:` of the first line of a fixture file that contains `text`. */
function locationOf(file: string, text: string): string {
  const line =
    readFileSync(join(repoRoot, file), "utf8")
      .split("\n")
      .findIndex((l) => l.includes(text)) + 1;
  expect(line, `"${text}" in ${file}`).toBeGreaterThan(0);
  return `${file}:${line}:`;
}

/** The summary line of a fixture's API. */
const summary = (run: Run, name: string) => run.stdout.split("\n").find((l) => l.includes(` ${alias[name]}: `));

describe("scripts/lint.ts", () => {
  it("lints the six fixture APIs, a summary line each, and exits 1", () => {
    expect(names).toEqual(["yaml-syntax-root", "bad-ref", "clean", "insecure", "invalid-example", "yaml-syntax"]);
    for (const name of names) expect(summary(all, name), name).toBeDefined();
    for (const name of names.filter((n) => n !== "clean")) expect(summary(all, name), name).toMatch(/^FAIL .*: [1-9]\d* errors/);
    expect(all.stdout).toContain(`ok   ${alias.clean}: 0 errors, 0 warnings (spectral 0, redocly 0)`);
    expect(all.stdout).toContain(`linted ${names.length} API(s) in `);
    expect(all.code).toBe(1);
  });

  it("passes a clean split spec with exit 0", () => {
    expect(cleanOnly.stdout).toContain(`ok   ${alias.clean}: 0 errors, 0 warnings`);
    expect(cleanOnly.code).toBe(0);
  });

  it("lints only the aliases given", () => {
    expect(cleanOnly.stdout.split("\n").filter((l) => /^(ok {2}|FAIL) /.test(l))).toEqual([
      `ok   ${alias.clean}: 0 errors, 0 warnings (spectral 0, redocly 0)`,
    ]);
    expect(cleanOnly.stdout).toContain("linted 1 API(s) in ");
  });

  it("applies the OWASP API security ruleset: http:// servers and API keys in the URL fail", () => {
    const file = `${fixtures}/insecure/openapi.yaml`;
    expect(all.stdout).toContain(`${locationOf(file, "url: http://")}10 error owasp:api8:2023-no-server-http`);
    expect(all.stdout).toContain(`${locationOf(file, "in: query")}11 error owasp:api2:2023-no-api-keys-in-url`);
    expect(summary(all, "insecure")).toMatch(/^FAIL insecure@1\.0\.0: 2 errors, 0 warnings \(spectral 2, redocly 0\)$/);
  });

  it("fails on a $ref to a missing file and to a missing pointer, at the $ref in the split file", () => {
    const file = `${fixtures}/bad-ref/paths/widgets.yaml`;
    expect(all.stdout).toContain(`${locationOf(file, "Gadget.yaml")}11 error no-unresolved-refs`);
    expect(all.stdout).toContain(`${locationOf(file, "#/$defs/missing")}13 error no-unresolved-refs`);
    expect(summary(all, "bad-ref")).toMatch(/^FAIL /);
  });

  it("fails on an example that does not match its schema, at the example value", () => {
    const file = `${fixtures}/invalid-example/paths/widgets.yaml`;
    const at = locationOf(file, "widget_name: 42");
    expect(all.stdout).toMatch(new RegExp(`^${at}\\d+ error (oas3-valid-media-example|no-invalid-media-type-examples) `, "m"));
    expect(summary(all, "invalid-example")).toMatch(/^FAIL /);
  });

  it("fails on a YAML syntax error in a split file, at the bad line", () => {
    const file = `${fixtures}/yaml-syntax/components/schemas/Widget.yaml`;
    expect(all.stdout).toContain(`${locationOf(file, "bad_indent")}4 error parser`);
    expect(summary(all, "yaml-syntax")).toMatch(/^FAIL /);
  });

  it("fails on a YAML syntax error in the root, from both linters, at the bad line; the APIs after it are still linted", () => {
    const file = `${fixtures}/yaml-syntax-root/openapi.yaml`;
    const at = locationOf(file, "indented deeper");
    expect(all.stdout).toMatch(new RegExp(`^${at}\\d+ error parser `, "m")); // Spectral
    expect(all.stdout).toMatch(new RegExp(`^${at}\\d+ error yaml-syntax `, "m")); // Redocly, which stops before its report
    expect(summary(all, "yaml-syntax-root")).toMatch(/^FAIL .*\(spectral [1-9]\d*, redocly 1\)$/);
    // Redocly's reports of the APIs after the broken root: every other broken fixture has Redocly problems.
    for (const name of ["bad-ref", "invalid-example", "yaml-syntax"]) expect(summary(all, name), name).toMatch(/redocly [1-9]\d*\)$/);
  });

  it("rejects an unknown alias with one line naming the known aliases and the hint, exit 2 (as a command)", {
    timeout: TIMEOUT,
  }, async () => {
    const { code, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "scripts/lint.ts", "--config", `${fixtures}/clean/redocly.yaml`, "nope@1.0.0"],
      {
        cwd: repoRoot,
      },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(code).toBe(2);
    expect(stderr).toBe('error: unknown API "nope@1.0.0"; known: widget@1.0.0\n(add --help for usage)\n');
  });
});
