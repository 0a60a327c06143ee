/**
 * README "In a CI that is not Node": the mock run by one `npx` command in an empty folder that holds
 * only the release tarball (no package.json), offline (the run's registry, tests/helpers/package.ts),
 * and stopped the ways a CI script stops it:
 *
 * - the README's script itself, with bash: `npx ... mock &`, wait, the tests (here `pytest` is a
 *   stub that requests every mock), `kill $!` of npx;
 * - SIGINT to npx (the README's `-c 'exec ...'` form); and for the plain form (`npx ...
 *   bank-api-contracts mock`), SIGTERM and SIGKILL to npx, and closing the standard input it was
 *   given as a pipe.
 *
 * Each time every port is free again and no process of the run is left.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, successResponse } from "../../../src/document/index.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../src/testing/requests.js";
import { freePortRange } from "../../helpers/ports.js";
import { exec, ok, partnerEnv, type Released, readmeBlock, released, scratchFolder } from "../../helpers/package.js";
import { portsFree, processesWith, waitForOutput, waitUntil } from "../../helpers/processes.js";
import { bundled, registry } from "../../helpers/registry.js";

const SLOW = 300_000;
const DEFAULT_BASE = 4010;
const last = DEFAULT_BASE + registry.length - 1;
const script = readmeBlock("tests/e2e/package/npx.test.ts", "runs this script");
/** The script's npx command: its first command, continuation lines joined, without the `&`, as arguments. */
const npxCommand = (
  script
    .replace(/\\\n\s*/g, "")
    .split("\n")[0]
    .replace(/\s*&\s*$/, "")
    .match(/'[^']*'|\S+/g) ?? []
).map((arg) => arg.replace(/^'(.*)'$/, "$1"));
/** The same without `-c 'exec ...'`: npx runs the bin under its shell (`npx ... bank-api-contracts mock`). */
const plainCommand = (() => {
  const at = npxCommand.indexOf("-c");
  return [...npxCommand.slice(0, at), ...npxCommand[at + 1].replace(/^exec /, "").split(" ")];
})();

const work = scratchFolder("npx");
const project = join(work, "ci");
const stubs = join(work, "bin");
let release: Released;

beforeAll(async () => {
  release = await released();
  ok(release.run, "npm run release");
  mkdirSync(project);
  mkdirSync(stubs);
  copyFileSync(release.tarball, join(project, release.filename));
}, 900_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ ...partnerEnv(), PATH: `${stubs}:${process.env.PATH}` });

/** Every process and port of a run on `base` is gone. */
async function stopped(base: number): Promise<void> {
  await waitUntil(() => processesWith("--port-base", String(base)).length === 0, `the processes of --port-base ${base} exit`);
  await waitUntil(() => portsFree(base, registry.length), `ports ${base}-${base + registry.length - 1} are free`);
}

/** The README's text with its default ports (4010 upwards, as whole numbers) moved to `base` upwards. */
const movePorts = (text: string, base: number) =>
  text.replace(/\b\d{4,5}\b/g, (port) => {
    const at = Number(port) - DEFAULT_BASE;
    return at >= 0 && at < registry.length ? String(base + at) : port;
  });

/** Starts `command` (the README's npx command, or its plain form) on `base`; resolves once it prints that the mocks are ready. */
async function startNpx(command: string[], base: number, stdin: "pipe" | "ignore"): Promise<{ child: ChildProcess; output: () => string }> {
  const [file, ...args] = command.map((arg) => movePorts(arg, base));
  const child = spawn(file, args, { cwd: project, env: env(), stdio: [stdin, "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await waitForOutput(child, () => output, "mock(s) ready", `${[file, ...args].join(" ")} (the mocks on ${base} upwards)`, {
    timeoutMs: SLOW,
  });
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

describe("the mock by one npx command, in a folder with no package.json", () => {
  it("README's script runs with bash: every mock answers the tests, and `kill $MOCK` frees every port", async () => {
    expect(npxCommand.slice(0, 3)).toEqual(["npx", "--yes", "--package"]);
    expect(npxCommand).toContain(`./${release.filename}`);
    expect(script).toContain(`http://127.0.0.1:${last}/`);
    const base = await freePortRange(registry.length);
    const results = join(work, "results.txt");
    // The partner's tests: a request to every mock (an unknown path: 404), and one operation of the first API.
    const [{ entry, doc }] = bundled;
    const op = operations(doc).find((o) => o.method === "get")!;
    const headers = Object.entries(credentialHeaders(doc, op)).flatMap(([name, value]) => ["-H", `'${name}: ${value}'`]);
    writeFileSync(
      join(stubs, "pytest"),
      [
        "#!/bin/sh",
        ...registry.map(
          (_, i) => `curl -s -o /dev/null -w '${base + i} %{http_code}\\n' http://127.0.0.1:${base + i}/no/such/path >> ${results}`,
        ),
        `curl -s -o /dev/null -w '${entry.alias} %{http_code}\\n' ${headers.join(" ")} 'http://127.0.0.1:${base + entry.index}${requestUrl(op, requestParams(doc, op))}' >> ${results}`,
        "",
      ].join("\n"),
    );
    chmodSync(join(stubs, "pytest"), 0o755);

    const moved = movePorts(script, base);
    expect(moved).toContain(`http://127.0.0.1:${base + registry.length - 1}/`);
    // The script ends when its last command does: its exit is the event waited for.
    const run = await exec("bash", ["-c", moved], { cwd: project, env: env(), timeoutMs: SLOW });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The stub writes the results file when the script runs `pytest`; a script that exits 0 without (a
    // shell that did not find it, a loop left early) names itself here rather than as ENOENT.
    expect(existsSync(results), `README's script exited 0 without running pytest; its output:\n${run.stdout}${run.stderr}`).toBe(true);
    expect(readFileSync(results, "utf8").trim().split("\n")).toEqual([
      ...registry.map((_, i) => `${base + i} 404`),
      `${entry.alias} ${successResponse(op).status}`,
    ]);
    await stopped(base);
    expect(readdirSync(project)).toEqual([release.filename]); // nothing of npm's in the partner's folder
    expect(existsSync(join(project, "package.json"))).toBe(false);
  }, 600_000);
});

// After the first test, npx finds the package installed in the shared cache: the ways to stop it
// are independent (each on its own ports, its processes found by them), so they run side by side.
describe.concurrent("the mock by one npx command, stopped", () => {
  it(
    "README's command: SIGINT to npx (kill -INT $!) reaches the mock, which stops and frees the ports",
    async () => {
      expect(npxCommand.slice(-2)).toEqual(["-c", `exec bank-api-contracts mock --port-base ${DEFAULT_BASE}`]);
      const base = await freePortRange(registry.length);
      const { child, output } = await startNpx(npxCommand, base, "ignore");
      child.kill("SIGINT");
      await exited(child);
      await stopped(base);
      expect(output()).toContain("SIGINT: stopping the mocks");
    },
    SLOW,
  );

  it.each([
    ["SIGTERM to npx (kill $!)", "SIGTERM"],
    ["SIGKILL to npx (a harness's hard kill)", "SIGKILL"],
  ] as const)(
    "plain `npx ... bank-api-contracts mock`: %s stops every mock and frees the ports",
    async (_, signal) => {
      const base = await freePortRange(registry.length);
      const { child } = await startNpx(plainCommand, base, "ignore");
      expect(processesWith("--port-base", String(base)).length).toBeGreaterThan(0);
      child.kill(signal);
      await exited(child);
      await stopped(base);
    },
    SLOW,
  );

  it(
    "plain `npx ... bank-api-contracts mock`: closing the standard input it was given as a pipe stops every mock, npx exits 0",
    async () => {
      const base = await freePortRange(registry.length);
      const { child, output } = await startNpx(plainCommand, base, "pipe");
      child.stdin!.end();
      expect(await exited(child)).toBe(0);
      expect(output()).toContain("standard input closed: stopping the mocks");
      await stopped(base);
    },
    SLOW,
  );
});
