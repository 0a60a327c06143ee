/**
 * `mock --sandbox`'s options for a shared sandbox (src/cli/mock.ts): `--callback-allow`,
 * `--operator-token-file` (the token from a file, never from the command line) and
 * `--sandbox-memory` (one budget for every mock started), `--sandbox-evict-idle`, `--sandbox-queue` and
 * `--sandbox-queue-total` (shown to the operator by GET /_sandbox); misuse is one line and a hint, exit
 * non-zero. docs/guides/hosting.md describes them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli, cliInProcess, waitFor } from "../../../helpers/cli.js";
import { freePortRange } from "../../../helpers/ports.js";
import { registry } from "../../../helpers/registry.js";

const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-shared-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("misuse", () => {
  it.each([
    [
      "a callback target that is a URL",
      ["mock", "--sandbox", "--callback-allow", "http://partner.test"],
      /callback target "http:\/\/partner.test": a host name, not a URL/,
    ],
    [
      "a network with a bad prefix",
      ["mock", "--sandbox", "--callback-allow", "10.0.0.0/40"],
      /callback target "10.0.0.0\/40": the prefix must be 0-32/,
    ],
    ["a budget out of range", ["mock", "--sandbox", "--sandbox-memory", "0"], /--sandbox-memory must be an integer from 1 to 65536/],
    [
      "an eviction window out of range",
      ["mock", "--sandbox", "--sandbox-evict-idle", "0"],
      /--sandbox-evict-idle must be an integer from 1 to 604800/,
    ],
    ["a queue bound out of range", ["mock", "--sandbox", "--sandbox-queue", "10001"], /--sandbox-queue must be an integer from 1 to 10000/],
    [
      "a total queue bound out of range",
      ["mock", "--sandbox", "--sandbox-queue-total", "x"],
      /--sandbox-queue-total must be an integer from 1 to 100000/,
    ],
    [
      "a queue per credential longer than the total",
      ["mock", "--sandbox", "--sandbox-queue", "30", "--sandbox-queue-total", "20"],
      /^error: --sandbox-queue \(30\) must not exceed --sandbox-queue-total \(20\)$/,
    ],
    ["--sandbox-evict-idle without --sandbox", ["mock", "--sandbox-evict-idle", "60"], /^error: --sandbox-evict-idle needs --sandbox$/],
    ["--callback-allow without --sandbox", ["mock", "--callback-allow", "10.0.0.0/8"], /^error: --callback-allow needs --sandbox$/],
    ["--operator-token-file without --sandbox", ["mock", "--operator-token-file", "x"], /^error: --operator-token-file needs --sandbox$/],
    [
      "a token file that cannot be read",
      ["mock", "--sandbox", "--operator-token-file", join(dir, "missing")],
      /^error: cannot read --operator-token-file: ENOENT$/,
    ],
  ])("%s", async (_, args, message) => {
    const { code, stderr, stdout } = await cliInProcess(args as string[]);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toBe("(add --help for usage)");
    expect(stdout).toBe("");
    expect(code).toBe(2);
  });

  it("a token too short to be safe is refused, and never printed", async () => {
    const file = join(dir, "short-token");
    writeFileSync(file, "tiny-secret\n");
    const { code, stderr } = await cliInProcess(["mock", "balance@1.0.0", "--sandbox", "--operator-token-file", file, "--port-base", "1"]);
    expect(code).toBe(2);
    expect(stderr).toBe("error: the sandbox operator token must have at least 16 characters\n(add --help for usage)\n");
    expect(stderr).not.toContain("tiny-secret");
  });
});

describe("a shared sandbox from the command line", () => {
  it("reads the operator token from its file, gives every mock one memory budget, and keeps the token out of its output", async () => {
    const token = "operator-token-from-a-file-0123";
    const file = join(dir, "token");
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const picked = ["balance@1.0.0", "statement@1.0.0"].map((alias) => registry.find((e) => e.alias === alias)!);
    const base = await freePortRange(registry.length);
    const run = cli([
      "mock",
      ...picked.map((e) => e.alias),
      "--sandbox",
      "--port-base",
      String(base),
      "--operator-token-file",
      file,
      "--sandbox-memory",
      "3",
      "--sandbox-evict-idle",
      "120",
      "--sandbox-queue",
      "5",
      "--sandbox-queue-total",
      "50",
      "--callback-allow",
      "partner.test,10.0.0.0/8",
    ]);
    try {
      await waitFor(run, "ready in");
      for (const entry of picked) {
        const url = `http://127.0.0.1:${base + entry.index}`;
        const described = await (await fetch(`${url}/_sandbox`)).json();
        expect(described.memory).toMatchObject({ budget_bytes: 3 * 1024 * 1024 });
        expect(described.sharing).toEqual({ mode: "local", operator_token: true });
        expect(described.settings).toBeUndefined();
        const asOperator = await (await fetch(`${url}/_sandbox`, { headers: { "x-sandbox-operator-token": token } })).json();
        expect(asOperator.settings).toEqual({
          callback_allow: ["partner.test", "10.0.0.0/8"],
          memory_budget_bytes: 3 * 1024 * 1024,
          evict_idle_seconds: 120,
          delivery_queue: 5,
          delivery_queue_total: 50,
        });
        const all = await fetch(`${url}/_sandbox/state/all`, { headers: { "x-sandbox-operator-token": token } });
        expect(all.status).toBe(200);
        const refused = await fetch(`${url}/_sandbox/state/all`, { headers: { authorization: `Bearer ${token}` } });
        expect(refused.status).toBe(401);
      }
    } finally {
      run.child.kill("SIGINT");
      await run.exit;
    }
    expect(run.stdout() + run.stderr()).not.toContain(token);
  });
});
