/**
 * The `bank-api-contracts` CLI (src/cli): help for each command, misuse (one line and a hint, exit
 * 2, unknown aliases named), `list` and `validate` on every registered API, each calling `run()` in this
 * process. The bin itself and `mock`'s signals run as processes in index.spawn.test.ts; the proxy
 * has its own files (tests/unit/src/proxy, proxy.spawn.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { operations } from "../../../../src/document/index.js";
import { repoRoot } from "../../../../src/registry.js";
import { bundled, named, registry } from "../../../helpers/registry.js";
import { contractCases, propertyPath } from "./cases.js";
import { cliInProcess, escapeRegExp } from "../../../helpers/cli.js";

const known = registry.map((e) => e.alias).join(", ");
const knownLine = `Known APIs (registry order, default ports from 4010): ${known}`;
const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("help", () => {
  it.each([
    ["mock", ["--port-base <n>", "--host <host>", "[alias...]"]],
    ["proxy", ["--upstream <url>", "--port <n>", "sl-violations"]],
    ["validate", ["--operation <operationId>", "--status <code>", "<file>", "standard input"]],
    ["list", ["--json"]],
  ])("%s --help shows its usage and options, exit 0", async (command, parts) => {
    const { code, stdout } = await cliInProcess([command, "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: bank-api-contracts ${command} [options]`);
    for (const part of parts) expect(stdout).toContain(part);
    expect(stdout).toContain(knownLine);
  });
});

describe("misuse prints one line of error and a hint on stderr, not the usage, and exits 2", () => {
  const [first] = registry;
  it("no command at all prints the usage (the commands and the known APIs) on stderr, exit 2", async () => {
    const { code, stderr, stdout } = await cliInProcess([]);
    expect(stderr).toContain("Usage: bank-api-contracts [options] [command]");
    expect(stderr).toContain(knownLine);
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it.each([
    ["an unknown command", ["serve"], "error: unknown command 'serve'"],
    ["an unknown alias (mock)", ["mock", first.alias, "no-such-api@9.9.9"], `error: unknown API "no-such-api@9.9.9"; known: ${known}`],
    [
      "an unknown alias (validate)",
      ["validate", "nope@1.0.0", "-", "--operation", "x", "--status", "200"],
      `error: unknown API "nope@1.0.0"; known: ${known}`,
    ],
    [
      "an unknown alias (proxy)",
      ["proxy", "nope@1.0.0", "--upstream", "http://127.0.0.1:1"],
      `error: unknown API "nope@1.0.0"; known: ${known}`,
    ],
    ["a port base out of range", ["mock", "--port-base", "0"], "--port-base must be an integer from 1 to"],
    ["an unknown option", ["list", "--bogus"], "error: unknown option '--bogus'"],
    ["a missing --upstream", ["proxy", first.alias], "error: required option '--upstream <url>' not specified"],
    ["an upstream that is no URL", ["proxy", first.alias, "--upstream", "sandbox"], 'not a URL: "sandbox"'],
    ["a missing --status", ["validate", first.alias, "-", "--operation", "x"], "error: required option '--status <code>' not specified"],
    [
      "a status that is no HTTP status",
      ["validate", first.alias, "-", "--operation", "x", "--status", "2000"],
      "--status must be an integer from 100 to 599",
    ],
    [
      "a missing file argument",
      ["validate", first.alias, "--operation", "x", "--status", "200"],
      "error: missing required argument 'file'",
    ],
  ])("%s", async (_, args, message) => {
    const { code, stderr, stdout } = await cliInProcess(args);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe("(add --help for usage)");
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("validate names the known operationIds for an unknown one", async () => {
    const file = join(dir, "empty-object.json");
    writeFileSync(file, "{}");
    const { code, stderr } = await cliInProcess(["validate", first.alias, file, "--operation", "noSuchOperation", "--status", "200"]);
    const ids = operations(bundled[0].doc, { webhooks: true })
      .map((op) => op.operationId)
      .join(", ");
    expect(stderr).toContain(`error: ${first.alias}: unknown operationId "noSuchOperation"; known: ${ids}`);
    expect(code).toBe(2);
  });

  it("validate names a file it cannot read, and one that is not JSON", async () => {
    const missing = await cliInProcess(["validate", first.alias, join(dir, "missing.json"), "--operation", "x", "--status", "200"]);
    expect(missing.stderr).toContain(`error: cannot read ${join(dir, "missing.json")}: ENOENT`);
    expect(missing.code).toBe(2);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ not json");
    const notJson = await cliInProcess(["validate", first.alias, broken, "--operation", "x", "--status", "200"]);
    expect(notJson.stderr).toContain(`error: ${broken} is not JSON:`);
    expect(notJson.code).toBe(2);
  });
});

describe("list", () => {
  const rows = bundled.map(({ entry, doc }) => ({
    alias: entry.alias,
    api: entry.service,
    release: entry.release,
    latest: entry.latest,
    operations: operations(doc).length,
    port: 4010 + entry.index,
  }));

  it("prints every API with its release, operation count and default port", async () => {
    const { code, stdout } = await cliInProcess(["list"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toMatch(/^ALIAS\s+API\s+RELEASE\s+OPERATIONS\s+PORT$/);
    for (const row of rows) {
      const release = row.latest ? escapeRegExp(row.release) : `${escapeRegExp(row.release)} \\(older\\)`;
      expect(stdout).toMatch(
        new RegExp(`^${escapeRegExp(row.alias)}\\s+${escapeRegExp(row.api)}\\s+${release}\\s+${row.operations}\\s+${row.port}$`, "m"),
      );
    }
    expect(stdout.trim().split("\n")).toHaveLength(rows.length + 1);
  });

  it("--json prints the same as JSON", async () => {
    const { code, stdout } = await cliInProcess(["list", "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(rows);
  });
});

const validateCases = contractCases;

describe("validate, on every API", () => {
  it("has a case for every API", () => {
    expect(validateCases.map((c) => c.alias)).toEqual(registry.map((e) => e.alias));
  });

  it.each(named(validateCases))("%s: the spec's example passes (exit 0), a wrong-typed copy fails at its path (exit 1)", async (_, c) => {
    const file = join(dir, `${c.alias}-${c.operationId}.json`);
    writeFileSync(file, JSON.stringify(c.valid, null, 2));
    const ok = await cliInProcess(["validate", c.alias, "--operation", c.operationId, "--status", String(c.status), file]);
    expect(ok.stderr).toBe("");
    expect(ok.stdout).toBe(`${file}: matches the ${c.alias} ${c.operationId} ${c.status} response\n`);
    expect(ok.code).toBe(0);

    const wrong = join(dir, `${c.alias}-${c.operationId}.wrong.json`);
    writeFileSync(wrong, JSON.stringify(c.invalid));
    const bad = await cliInProcess(["validate", c.alias, "--operation", c.operationId, "--status", String(c.status), wrong]);
    const path = propertyPath(c.field);
    expect(bad.stdout).toMatch(
      new RegExp(
        `^${escapeRegExp(wrong)}: \\d+ violation\\(s\\) of the ${escapeRegExp(`${c.alias} ${c.operationId} ${c.status}`)} response$`,
        "m",
      ),
    );
    expect(bad.stdout).toMatch(new RegExp(`^  ${escapeRegExp(path)}: must be`, "m"));
    expect(bad.code).toBe(1);
  });

  it("checks the status: one the operation does not declare is a violation", async () => {
    const [c] = validateCases;
    const file = join(dir, "status.json");
    writeFileSync(file, "{}");
    const { code, stdout } = await cliInProcess(["validate", c.alias, "--operation", c.operationId, "--status", "418", file]);
    expect(stdout).toContain(`  $: status 418 is not declared for ${c.operationId}`);
    expect(code).toBe(1);
  });
});

describe("--version", () => {
  it("--version prints the package's version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    const { code, stdout } = await cliInProcess(["--version"]);
    expect(stdout).toBe(`${version}\n`);
    expect(code).toBe(0);
  });
});

describe("a URL option never echoes a password", () => {
  it.each([
    ["not a URL", "http://user:s3cr3t-pw@[bad"],
    ["not http", "ftp://user:s3cr3t-pw@example.com/"],
  ])("%s", async (_, upstream) => {
    const { code, stderr } = await cliInProcess(["proxy", "pay@1.3.0", "--upstream", upstream]);
    expect(code).toBe(2);
    expect(stderr).toContain("//***@");
    expect(stderr).not.toContain("s3cr3t-pw");
  });
});
