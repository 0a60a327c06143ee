/**
 * `mock --sandbox --hosted` as a process (src/cli/mock.ts): without an operator token it does not
 * start (one line naming how to give one, exit 2); `--hosted` without `--sandbox` is a misuse (one
 * line, exit 2); with a token from its file it says which store it runs on on standard error, writes
 * only JSON log lines on standard output (a line per request, who made it, never the token), and on
 * SIGTERM drains before it stops, exit 0.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { freePortRange } from "../../../helpers/ports.js";
import { capture, waitForOutput } from "../../../helpers/processes.js";
import { registry } from "../../../helpers/registry.js";

const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-hosted-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI from its sources, with an environment that holds no operator token unless `env` gives one. */
function mock(args: string[], env: Record<string, string> = {}) {
  const { BANK_API_CONTRACTS_OPERATOR_TOKEN: _, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "src/cli/bin.ts"), "mock", ...args], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return { child, ...capture(child) };
}

describe("misuse", () => {
  it("--hosted without an operator token: one line naming how to give one, exit 2, nothing started", async () => {
    const run = mock(["balance@1.0.0", "--sandbox", "--hosted", "--port-base", "1"]);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toBe(
      "error: --hosted needs an operator token: set $BANK_API_CONTRACTS_OPERATOR_TOKEN or give --operator-token-file <path>\n(add --help for usage)\n",
    );
    expect(run.stdout()).toBe("");
  });

  it("--hosted without --sandbox: one line, exit 2", async () => {
    const run = mock(["balance@1.0.0", "--hosted"], { BANK_API_CONTRACTS_OPERATOR_TOKEN: "operator-token-0123456789" });
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toBe("error: --hosted needs --sandbox\n(add --help for usage)\n");
    expect(run.stdout()).toBe("");
  });
});

describe("a hosted sandbox from the command line", () => {
  it("says its store, logs each request as JSON on standard output without the token, and drains on SIGTERM", async () => {
    const token = "operator-token-from-its-file-0042";
    const file = join(dir, "token");
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const entry = registry.find((e) => e.alias === "balance@1.0.0")!;
    const base = await freePortRange(registry.length);
    const run = mock([entry.alias, "--sandbox", "--hosted", "--port-base", String(base), "--operator-token-file", file]);
    const url = `http://127.0.0.1:${base + entry.index}`;
    try {
      await waitForOutput(run.child, run.stderr, "Ctrl+C stops.", "mock --sandbox --hosted", { streams: ["stderr"] });
      expect(run.stderr()).toContain("1 mock(s) ready in hosted sandbox mode");
      await waitForOutput(run.child, run.stderr, "nothing is kept across a restart", "the store notice", { streams: ["stderr"] });
      expect(run.stderr()).toContain(
        "Hosted mode, store memory: nothing is kept across a restart (partners, their quotas, every partner's state).",
      );
      const control = await fetch(`${url}/_sandbox`, { headers: { "x-sandbox-operator-token": token } });
      expect(control.status).toBe(200);
      expect(((await control.json()) as { sharing: { mode: string } }).sharing.mode).toBe("shared");
      expect((await fetch(`${url}/nowhere?token=${token}`)).status).toBe(404);
      await waitForOutput(run.child, run.stdout, '"path":"/nowhere"', "the request's log line", { streams: ["stdout"] });
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exit).toBe(0);
    const lines = run.stdout().trimEnd().split("\n");
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map((r) => [r.msg, r.path ?? null, r.partner ?? null])).toEqual([
      ["sandbox starting", null, null],
      ["sandbox ready", null, null],
      ["request", "/_sandbox", "operator"],
      ["request", "/nowhere", "unissued"],
      ["sandbox draining", null, null],
      ["sandbox stopped", null, null],
    ]);
    expect(records[3]).toMatchObject({ api: entry.alias, operation: null, method: "GET", status: 404, query: ["token"] });
    expect(run.stderr()).toContain("SIGTERM: stopping the mocks");
    expect(run.stdout() + run.stderr()).not.toContain(token);
  });
});
