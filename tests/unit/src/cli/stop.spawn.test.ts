/**
 * When the long-running commands stop (src/cli/stop.ts), through npm as CI scripts start them:
 * `npm run mock` given SIGTERM (`kill $!`) or SIGKILL on npm's PID, the CLI's piped standard input
 * closed; and which standard inputs count as a pipe held open (a closed one, /dev/null and a file do
 * not). Each stop frees every port and leaves no process. (The packed CLI under npx:
 * tests/e2e/package/npx.test.ts; `npm start`: tests/unit/scripts/start.spawn.test.ts.)
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { constants, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import { cleanEnv } from "../../../helpers/package.js";
import { freePortRange } from "../../../helpers/ports.js";
import { type Captured, capture, portsFree, processesWith, waitUntil } from "../../../helpers/processes.js";
import { registry } from "../../../helpers/registry.js";

const [first] = registry;
const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started extends Captured {
  child: ChildProcess;
}

function start(file: string, args: string[], stdin: "pipe" | "ignore"): Started {
  const child = spawn(file, args, { cwd: repoRoot, env: cleanEnv(), stdio: [stdin, "pipe", "pipe"] });
  return { child, ...capture(child) };
}

async function ready(run: Started): Promise<void> {
  await waitUntil(() => {
    if (run.child.exitCode !== null) throw new Error(`exited ${run.child.exitCode}: ${run.output()}`);
    return run.output().includes("mock(s) ready");
  }, "the mock is ready");
}

/** The mock serving on `port` has exited and freed it. */
async function stopped(port: number): Promise<void> {
  await waitUntil(() => processesWith("--port-base", String(port)).length === 0, `the mock on ${port} exits`);
  await waitUntil(() => portsFree(port, 1), `port ${port} is free`);
}

describe("npm run mock, stopped through npm's PID", { timeout: 120_000 }, () => {
  it.each([
    ["SIGTERM (kill $!)", "SIGTERM"],
    ["SIGKILL", "SIGKILL"],
  ] as const)("%s to npm: the mock sees its launcher gone, stops, and frees its port", async (_, signal) => {
    const base = await freePortRange(registry.length);
    const run = start("npm", ["run", "-s", "mock", "--", "--port-base", String(base), first.alias], "ignore");
    await ready(run);
    const [mock] = processesWith("--port-base", String(base));
    expect(mock).toBeDefined();
    run.child.kill(signal);
    await run.exit;
    await stopped(base);
  });
});

describe("the CLI with a piped standard input", { timeout: 120_000 }, () => {
  it("stops when the pipe closes: exit 0, the port freed", async () => {
    const base = await freePortRange(registry.length);
    const run = start(
      join(repoRoot, "node_modules/.bin/tsx"),
      ["src/cli/bin.ts", "mock", first.alias, "--port-base", String(base)],
      "pipe",
    );
    await ready(run);
    run.child.stdin!.end();
    expect(await run.exit).toBe(0);
    expect(run.output()).toContain("standard input closed: stopping the mocks");
    await stopped(base);
  });
});

describe("which standard input is a pipe held open (stdinIsOpenPipe)", () => {
  /** Runs `stdinIsOpenPipe()` in a process whose standard input is `stdin`: a pipe this test holds open, or a file descriptor. */
  async function probe(stdin: "pipe" | number): Promise<string> {
    const code = `import { stdinIsOpenPipe } from "./src/cli/stop.ts"; process.stdout.write(String(stdinIsOpenPipe())); process.exit(0);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      cwd: repoRoot,
      env: cleanEnv(),
      stdio: [stdin, "pipe", "inherit"],
    });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    await new Promise((resolve) => child.on("close", resolve));
    child.stdin?.destroy();
    return output;
  }

  it("a pipe whose writer is open (this test holds it): yes", async () => {
    expect(await probe("pipe")).toBe("true");
  });

  it("a pipe with no writer left (a CI runner's stdin, closed from the start): no", async () => {
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    // Opened for reading without blocking, and no writer ever: the reader sees its end at once.
    expect(await probe(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK))).toBe("false");
  });

  it.each([
    ["/dev/null (what `cmd &` gets in a script)", "/dev/null"],
    ["a file", "input.txt"],
  ])("%s: no", async (_, name) => {
    const path = name.startsWith("/") ? name : join(dir, name);
    if (!name.startsWith("/")) writeFileSync(path, "some input\n");
    expect(await probe(openSync(path, "r"))).toBe("false");
  });
});
