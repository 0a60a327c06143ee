/**
 * `bank-api-contracts validate` (src/cli/validate.ts), beyond index.test.ts's per-API file cases: the
 * body from standard input on every API, and an empty file, which means "no body".
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliDone, cliInProcess, escapeRegExp } from "../../../helpers/cli.js";
import { named, registry } from "../../../helpers/registry.js";
import { contractCases } from "./cases.js";

const dir = mkdtempSync(join(tmpdir(), "cli-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Standard input is read the same way whatever the API (src/cli/validate.ts), so one API goes through
// a process (the only way to give the CLI a standard input); every API's example, wrong-typed copy and
// broken JSON go through the same judging in process, from a file.
describe("validate - (standard input)", () => {
  const [c] = contractCases;

  it(`${c.alias}: the example matches, the wrong-typed copy does not, broken JSON is a misuse`, async () => {
    const args = ["validate", c.alias, "--operation", c.operationId, "--status", String(c.status), "-"];
    const [ok, bad, broken] = await Promise.all([
      cliDone(args, JSON.stringify(c.valid)),
      cliDone(args, JSON.stringify(c.invalid)),
      cliDone(args, "{ not json"),
    ]);
    expect(ok.stdout).toBe(`standard input: matches the ${c.alias} ${c.operationId} ${c.status} response\n`);
    expect(ok.code).toBe(0);
    expect(bad.stdout).toMatch(/^standard input: \d+ violation\(s\)/);
    expect(bad.code).toBe(1);
    expect(broken.stderr).toContain("error: standard input is not JSON:");
    expect(broken.code).toBe(2);
  });
});

describe("validate <file>, on every API", () => {
  it("has a case for every API", () => {
    expect(contractCases.map((c) => c.alias)).toEqual(registry.map((e) => e.alias));
  });

  it.each(named(contractCases))("%s: the example matches, the wrong-typed copy does not, broken JSON is a misuse", async (_, c) => {
    const args = (name: string, text: string) => {
      const file = join(dir, `${c.alias}-${name}.json`);
      writeFileSync(file, text);
      return ["validate", c.alias, "--operation", c.operationId, "--status", String(c.status), file];
    };
    const ok = await cliInProcess(args("valid", JSON.stringify(c.valid)));
    const bad = await cliInProcess(args("invalid", JSON.stringify(c.invalid)));
    const broken = await cliInProcess(args("broken", "{ not json"));
    expect(ok.stdout).toMatch(new RegExp(`: matches the ${escapeRegExp(`${c.alias} ${c.operationId} ${c.status}`)} response\n$`));
    expect(ok.code).toBe(0);
    expect(bad.stdout).toMatch(/: \d+ violation\(s\)/);
    expect(bad.code).toBe(1);
    expect(broken.stderr).toMatch(/is not JSON:/);
    expect(broken.code).toBe(2);
  });
});

describe("validate <empty file>", () => {
  const empty = join(dir, "empty.json");
  writeFileSync(empty, "");

  it("matches a response the contract declares without a body (pay@1.2.0 createMerchant 200: its body is not shown)", async () => {
    const { code, stdout } = await cliInProcess(["validate", "pay@1.2.0", "--operation", "createMerchant", "--status", "200", empty]);
    expect(stdout).toBe(`${empty}: matches the pay@1.2.0 createMerchant 200 response\n`);
    expect(code).toBe(0);
  });

  it("is a violation where the contract declares a body (pay@1.3.0 getMerchant 200)", async () => {
    const { code, stdout } = await cliInProcess(["validate", "pay@1.3.0", "--operation", "getMerchant", "--status", "200", empty]);
    expect(stdout).toContain(`${empty}: 1 violation(s) of the pay@1.3.0 getMerchant 200 response`);
    expect(stdout).toContain("  $: is missing: the contract declares application/json for getMerchant 200");
    expect(code).toBe(1);
  });
});

describe("validate <file> as bytes", () => {
  const [c] = contractCases;
  const args = (file: string) => ["validate", c.alias, "--operation", c.operationId, "--status", String(c.status), file];

  it("skips a UTF-8 byte order mark, as the file's text begins after it", async () => {
    const file = join(dir, "bom.json");
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(c.valid))]));
    const { code, stdout } = await cliInProcess(args(file));
    expect(stdout).toBe(`${file}: matches the ${c.alias} ${c.operationId} ${c.status} response\n`);
    expect(code).toBe(0);
  });

  it("refuses bytes that are not UTF-8 instead of replacing them (the replaced text could match), exit 2", async () => {
    const file = join(dir, "latin1.json");
    const text = JSON.stringify(c.valid);
    // One byte of Latin-1 inside the first string value: valid JSON once replaced, so it must not be.
    const at = text.indexOf('"', text.indexOf(":")) + 1;
    writeFileSync(file, Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xe9]), Buffer.from(text.slice(at))]));
    const { code, stdout, stderr } = await cliInProcess(args(file));
    expect(stderr).toBe(
      `error: ${file} is not UTF-8 text (it holds a byte sequence UTF-8 does not allow); JSON must be UTF-8\n(add --help for usage)\n`,
    );
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });
});
