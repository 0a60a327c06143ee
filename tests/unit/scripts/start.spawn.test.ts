/**
 * `npm start` (scripts/start.ts) run through npm, as a person or a CI script runs it: options given
 * without `--` (which npm keeps for itself) are refused with the line to type; a bad option is one
 * line and a hint; SIGTERM to npm's PID stops the documentation site and every mock and frees their
 * ports; a mock port in use is named with `--port-base`. (Serving the site and the mocks:
 * tests/e2e/docs/site.test.ts.)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { cleanEnv, exec } from "../../helpers/package.js";
import { freePortRange, occupyPort } from "../../helpers/ports.js";
import { portsFree, processesWith, waitUntil } from "../../helpers/processes.js";
import { registry } from "../../helpers/registry.js";

const docsDir = mkdtempSync(join(tmpdir(), "bank-api-contracts-start-"));
afterAll(() => rmSync(docsDir, { recursive: true, force: true }));

const npmStart = (args: string[]) => exec("npm", ["start", ...args], { cwd: repoRoot, env: cleanEnv(), timeoutMs: 120_000 });

describe("npm start, misused", () => {
  it.each([
    ["npm start --port 4090", ["--port", "4090"], "npm took --port for itself; put the options after --, as in: npm start -- --port 4090"],
    [
      "npm start --port-base=4100 --skip-generate",
      ["--port-base=4100", "--skip-generate"],
      "npm took --port-base, --skip-generate for itself; put the options after --, as in: npm start -- --port-base 4100 --skip-generate",
    ],
  ])("%s (without --): one line naming the options npm kept and the line to type, exit 2", async (_, args, message) => {
    const result = await npmStart(args);
    expect(result.stderr.split("\n").filter((line) => line.startsWith("error:") || line.startsWith("(add"))).toEqual([
      `error: ${message}`,
      "(add --help for usage)",
    ]);
    expect(result.stdout).not.toContain("Ready in");
    expect(result.code).toBe(2);
  });

  it("a bad value: one line and the hint, not the whole usage, exit 2", async () => {
    const result = await npmStart(["--", "--port", "eighty"]);
    expect(result.stderr).toContain(
      "error: option '--port <n>' argument 'eighty' is invalid. --port must be an integer from 0 to 65535, got \"eighty\"\n(add --help for usage)\n",
    );
    expect(result.stderr).not.toContain("--docs-dir DIR");
    expect(result.code).toBe(2);
  });
});

describe("npm start, stopped through npm's PID", { timeout: 300_000 }, () => {
  let held: { port: number; close: () => Promise<void> } | undefined;
  afterAll(() => held?.close());

  it("SIGTERM to npm stops the documentation site and every mock, and frees their ports", async () => {
    const base = await freePortRange(registry.length);
    const child: ChildProcess = spawn(
      "npm",
      ["start", "--", "--skip-generate", "--docs-dir", docsDir, "--port", "0", "--port-base", String(base)],
      { cwd: repoRoot, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    const exit = new Promise((resolve) => child.on("exit", resolve));
    await waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${output}`);
        return output.includes("Ctrl+C stops");
      },
      "npm start is ready",
      240_000,
    );
    const docsPort = Number(/^Documentation\s+http:\/\/127\.0\.0\.1:(\d+)\//m.exec(output)?.[1]);
    expect(docsPort).toBeGreaterThan(0);
    child.kill("SIGTERM");
    await exit;
    await waitUntil(() => processesWith("--port-base", String(base)).length === 0, "npm start's server process exits");
    await waitUntil(async () => (await portsFree(base, registry.length)) && (await portsFree(docsPort, 1)), "every port is free");
  });

  it("a mock port in use is named with the option that moves the mocks", async () => {
    held = await occupyPort();
    const result = await npmStart(["--", "--skip-generate", "--docs-dir", docsDir, "--port", "0", "--port-base", String(held.port)]);
    expect(result.stderr).toContain(
      `port ${held.port} on 127.0.0.1 is already in use; stop what holds it, or move the mocks with --port-base <n>`,
    );
    expect(result.code).toBe(1);
  });
});
