/**
 * The hosting guide (docs/guides/hosting.md) as an operator follows it: every ```sh block, in order,
 * run with bash in a scratch folder, as written but for what a test must move: `npx
 * bank-api-contracts` is the repository's CLI, the default ports (4010 upwards) free ones, and the
 * example partner's id and credential those the guide's issuing line got. The token line's value
 * is the one every later line sees; the start line runs in the background, its log in the file it
 * names. What each line prints is what the guide says it prints: the issued partner has the members
 * of the guide's example answer, the credential is served then refused once revoked, the health
 * check is ready, the metrics count the partner, the log's last line names who asked and holds no
 * credential. SIGTERM then drains and stops it (exit 0), as the guide says.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { fencedBlocks, markedBlock } from "../../helpers/doc-blocks.js";
import { freePortRange } from "../../helpers/ports.js";
import { capture, type Captured, waitForOutput } from "../../helpers/processes.js";
import { registry } from "../../helpers/registry.js";

const GUIDE = "docs/guides/hosting.md";
const MARKER = "tests/e2e/hosted/guide.test.ts";
const blocks = fencedBlocks("sh").filter((block) => block.path === GUIDE);
const example = JSON.parse(fencedBlocks("json").find((block) => block.path === GUIDE)!.code) as Record<string, unknown>;
const CLI = `node --import tsx ${join(repoRoot, "src/cli/bin.ts")}`;

const folder = mkdtempSync(join(repoRoot, ".tmp", "hosting-guide-"));
let base = 0;
let token = "";
let sandbox: { child: ChildProcess; run: Captured } | undefined;
/** The guide's example partner, as it appears in its lines, and the partner its issuing line got. */
let issued = { id: String(example.id), credential: String(example.credential) };

/** A block as it runs here: the CLI from source, the ports moved, the example partner replaced by the one issued. */
function runnable(code: string): string {
  return code
    .replaceAll("npx bank-api-contracts mock", `${CLI} mock --port-base ${base}`)
    .replace(/127\.0\.0\.1:40(1\d)\b/g, (_, n: string) => `127.0.0.1:${base + Number(n) - 10}`)
    .replaceAll(String(example.id), issued.id)
    .replaceAll(String(example.credential), issued.credential);
}

/** Runs a block with bash, the token in its environment; its standard output. */
function run(code: string): string {
  return execFileSync("bash", ["-euo", "pipefail", "-c", runnable(code)], {
    cwd: folder,
    env: { ...process.env, BANK_API_CONTRACTS_OPERATOR_TOKEN: token },
    encoding: "utf8",
    timeout: 60_000,
  });
}

beforeAll(async () => {
  base = await freePortRange(registry.length);
}, 60_000);
afterAll(async () => {
  if (sandbox && sandbox.child.exitCode === null && sandbox.child.signalCode === null) {
    sandbox.child.kill("SIGKILL");
    await sandbox.run.exit;
  }
  rmSync(folder, { recursive: true, force: true });
});

describe("the hosting guide, line by line", { timeout: 120_000 }, () => {
  it("has the blocks this test runs, after its marker", () => {
    expect(markedBlock(MARKER, "runs every sh block").code).toBe(blocks[0].code);
    expect(blocks).toHaveLength(10);
  });

  it("makes an operator token in the environment", () => {
    token = execFileSync("bash", ["-ec", `${blocks[0].code}\nprintf %s "$BANK_API_CONTRACTS_OPERATOR_TOKEN"`], { encoding: "utf8" });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
  });

  it("starts every API's hosted sandbox on a file: store, its log in the file named", async () => {
    const line = runnable(blocks[1].code).replace(/\s*&\s*$/, "");
    expect(blocks[1].code).toMatch(/^npx bank-api-contracts mock --sandbox --hosted --sandbox-store file:sandbox-state /);
    const child = spawn("bash", ["-ec", `exec ${line}`], {
      cwd: folder,
      env: { ...process.env, BANK_API_CONTRACTS_OPERATOR_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    sandbox = { child, run: capture(child) };
    await waitForOutput(child, sandbox.run.stderr, "One JSON log line per request on standard output.", "the guide's sandbox", {
      streams: ["stderr"],
    });
    expect(sandbox.run.stderr()).toContain("7 mock(s) ready in hosted sandbox mode");
    expect(sandbox.run.stderr()).toContain(
      "Hosted mode, store file: partners, their quotas and every partner's state are kept across restarts.",
    );
    // The log line is written to the file by the sandbox's logger, which may flush it after the banner.
    await vi.waitFor(() => expect(readFileSync(join(folder, "sandbox.log"), "utf8")).toContain('"msg":"sandbox ready"'), {
      timeout: 10_000,
      interval: 50,
    });
  });

  it("issues a partner: the answer has the example's members, the credential shown this once", () => {
    const answer = JSON.parse(run(blocks[2].code)) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(Object.keys(example).sort());
    expect(answer).toMatchObject({ name: "Acme Ltd", quotas: example.quotas, overridden: [] });
    expect(answer.credential).toMatch(/^bacsbx_[A-Za-z0-9_-]{43}$/);
    issued = { id: String(answer.id), credential: String(answer.credential) };
  });

  it("serves the partner's credential on the API", () => {
    expect(JSON.parse(run(blocks[3].code))).toHaveProperty("merchant_id");
  });

  it("lists the partners, never with a credential", () => {
    const listed = run(blocks[4].code);
    expect(JSON.parse(listed).partners).toEqual([expect.objectContaining({ id: issued.id, name: "Acme Ltd" })]);
    expect(listed).not.toContain(issued.credential);
  });

  it("changes the partner's quotas with a merge patch", () => {
    const patched = JSON.parse(run(blocks[5].code));
    expect(patched).toMatchObject({ quotas: { records: 5000, requests_per_second: 20 }, overridden: ["records", "requests_per_second"] });
  });

  it("revokes the partner: its credential gets 401 at once", () => {
    // The revoked partner (curl writes no newline after it), then the status of the next request.
    const output = run(blocks[6].code);
    expect(output.endsWith("401\n")).toBe(true);
    expect(JSON.parse(output.slice(0, -"401\n".length))).toMatchObject({ id: issued.id });
  });

  it("reads the health, the metrics and the log as the guide says", () => {
    expect(JSON.parse(run(blocks[7].code))).toEqual({ status: "ready" });
    // The partner was revoked: the sandbox has none now.
    expect(run(blocks[8].code).trim()).toBe("bank_api_contracts_sandbox_partners 0");
    const last = JSON.parse(run(blocks[9].code)) as Record<string, unknown>;
    expect(last).toMatchObject({ msg: "request", method: "GET", path: "/_sandbox/metrics", status: 200, partner: "operator" });
  });

  it("drains and stops on SIGTERM; nothing it wrote holds the credential or the token", async () => {
    sandbox!.child.kill("SIGTERM");
    expect(await sandbox!.run.exit).toBe(0);
    const log = readFileSync(join(folder, "sandbox.log"), "utf8");
    const messages = log
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.slice(-2)).toEqual(["sandbox draining", "sandbox stopped"]);
    for (const secret of [issued.credential, token]) expect(log + sandbox!.run.stderr()).not.toContain(secret);
  });
});
