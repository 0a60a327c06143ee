/**
 * `npm run mock` (scripts/mock.ts), spawned as npm runs it (`node --import tsx`), over the repository's
 * registry: the table, a request to a listed mock, a clean stop on SIGINT/SIGTERM, and misuse.
 * It runs the package CLI's `mock` command (src/cli); tests/cli/ covers the other commands.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { operations, successResponse, loadDocument } from "../../../../src/document/index.js";
import { sendExample } from "../../../../src/testing/requests.js";
import { cleanEnv } from "../../../helpers/package.js";
import { freePortRange, isPortFree, occupyPort } from "../../../helpers/ports.js";
import { capture, waitForOutput } from "../../../helpers/processes.js";
import { escapeRegExp, type Run, runScript } from "../../../helpers/cli.js";

const registry = loadRegistry();

/** `npm run mock <args>` as npm runs it, with no standard input. */
const run = (...args: string[]): Run => runScript("scripts/mock.ts", args, null);

/** Waits for `text` on the mock's stdout (an event: each chunk it writes), failing with what it wrote. */
const waitFor = (run: Run, text: string, timeoutMs = 60_000) =>
  waitForOutput(run.child, run.stdout, text, "npm run mock", { timeoutMs, streams: ["stdout"] });

describe.concurrent("npm run mock", { timeout: 90_000 }, () => {
  it("prints the table, serves every API on --port-base + index, exits 0 on SIGINT", async () => {
    const base = await freePortRange(registry.length);
    const mock = run("--port-base", String(base));
    try {
      await waitFor(mock, "ready");
      for (const entry of registry) {
        const doc = loadDocument(entry.bundlePath);
        const url = `http://127.0.0.1:${base + entry.index}`;
        expect(mock.stdout()).toMatch(
          new RegExp(`^${escapeRegExp(entry.alias)}\\s+${escapeRegExp(url)}\\s+${operations(doc).length}\\s+\\S`, "m"),
        );

        const op = operations(doc)[0];
        const response = await sendExample(url, doc, op);
        expect(response.status, `${entry.alias} ${op.operationId}`).toBe(successResponse(op).status);
      }
      mock.child.kill("SIGINT");
      expect(await mock.exit).toBe(0);
      expect(await isPortFree(base)).toBe(true);
    } finally {
      if (mock.child.exitCode === null) mock.child.kill("SIGTERM"); // straight to the script's process
    }
  });

  it("starts only the aliases given, exits 0 on SIGTERM", async () => {
    const [first] = registry;
    const base = await freePortRange(registry.length);
    const mock = run("--port-base", String(base), first.alias);
    try {
      await waitFor(mock, "ready");
      expect(mock.stdout()).toContain("1 mock(s) ready");
      expect(mock.stdout()).toMatch(new RegExp(`^${escapeRegExp(first.alias)}\\s+${escapeRegExp(`http://127.0.0.1:${base}`)}\\s`, "m"));
      mock.child.kill("SIGTERM");
      expect(await mock.exit).toBe(0);
      expect(await isPortFree(base)).toBe(true);
    } finally {
      if (mock.child.exitCode === null) mock.child.kill("SIGTERM"); // straight to the script's process
    }
  });

  it("--sandbox serves the stateful sandbox: what is created is listed, the control API answers", async () => {
    const entry = registry.find((e) => e.alias === "pay@1.3.0")!;
    const base = await freePortRange(registry.length);
    const mock = run("--sandbox", "--port-base", String(base), entry.alias);
    try {
      await waitFor(mock, "ready");
      expect(mock.stdout()).toContain("1 mock(s) ready in sandbox mode");
      expect(mock.stdout()).toContain("Sandbox control API: <url>/_sandbox");
      const url = `http://127.0.0.1:${base + entry.index}`;
      const headers = { authorization: "Bearer cli-sandbox", "content-type": "application/json" };
      const created = await fetch(`${url}/v1/invoice`, {
        method: "POST",
        headers,
        body: JSON.stringify({ amount: { cur: "IDR", amt: "1" } }),
      });
      const { invoice_id } = (await created.json()) as { invoice_id: string };
      const listed = (await (await fetch(`${url}/v1/invoice`, { headers })).json()) as { urls: Array<{ invoice_id: string }> };
      expect(listed.urls.map((u) => u.invoice_id)).toEqual([invoice_id]);
      const described = await fetch(`${url}/_sandbox`);
      expect(((await described.json()) as { alias: string }).alias).toBe(entry.alias);
      mock.child.kill("SIGINT");
      expect(await mock.exit).toBe(0);
    } finally {
      if (mock.child.exitCode === null) mock.child.kill("SIGTERM"); // straight to the script's process
    }
  });

  it("prints the usage on --help and exits 0", async () => {
    const mock = run("--help");
    expect(await mock.exit).toBe(0);
    expect(mock.stdout()).toContain("Usage: npm run mock --");
  });

  it.each([
    ["an unknown flag", ["--bogus"], "unknown option '--bogus'"],
    ["a non-numeric port base", ["--port-base", "abc"], "--port-base must be an integer"],
    ["an unknown alias", ["no-such-api@9.9.9"], 'unknown API "no-such-api@9.9.9"'],
  ])("exits 2 with one line and a hint on %s", async (_, args, message) => {
    const mock = run(...args);
    expect(await mock.exit).toBe(2);
    const lines = mock.stderr().trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe("(add --help for usage)");
  });

  it("an option given to npm instead of the script (npm run mock --port-base 4100) is named with the line to type, exit 2", async () => {
    const npm = capture(
      spawn("npm", ["run", "-s", "mock", "--port-base", "4100"], { cwd: repoRoot, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] }),
    );
    const code = await npm.exit;
    expect(npm.stderr()).toContain(
      "error: npm took --port-base for itself; put the options after --, as in: npm run mock -- --port-base 4100\n",
    );
    expect(code).toBe(2);
  });

  it("exits 1 naming the port and the alias when a default port is taken", async () => {
    const [first] = registry;
    const held = await occupyPort();
    try {
      const mock = run("--port-base", String(held.port), first.alias);
      expect(await mock.exit).toBe(1);
      expect(mock.stderr()).toContain(
        `${first.alias}: port ${held.port} on 127.0.0.1 is already in use; stop what holds it, or move the mocks with --port-base <n>`,
      );
    } finally {
      await held.close();
    }
  });
});
