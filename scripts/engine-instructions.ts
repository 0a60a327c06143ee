/**
 * `npm run bench:instructions [-- <alias>...] [--requests N] [--time R] [--client] [--server]`: the machine instructions the sandbox's
 * engine spends per request, for the requests the bench's sandbox part measures (scripts/bench-sandbox.ts
 * SANDBOX_REQUESTS): a count that varies far less from run to run than times do on a small shared
 * machine. For judging a change to the engine; the bench's side-by-side ratio stays the figure of the
 * goal. Why counts, and how they were chosen: docs/adr/0008-counting-instructions.md.
 *
 * Each request is run in this process without HTTP: the engine's `answer` and `validateAnswer` hooks
 * and the answer written as JSON, each request distinct (scripts/bench-measure.ts distinctRequest), the
 * credentials cycled as the bench cycles them. Under valgrind (cachegrind, no cache simulation) with
 * V8 single-threaded and predictable, it counts the instructions of two runs, of N and 2N requests
 * after the same warm-up, and reports their difference over N: start-up and warm-up cancel out. N is
 * 5,000 by default, long enough that a garbage collection falling in one run's window and not the
 * other's does not swing the count. The count still follows the machine's load (V8 times its
 * collections by the clock, which valgrind slows): compare counts taken alike, and a small difference
 * by paired timings as well: `--time R` runs the same requests R times without valgrind, a process
 * each, and prints the CPU µs per request (the lower quartile, the least disturbed, with the lowest,
 * median and highest); run it in two checkouts in turn.
 *
 * `--client [alias...]`: the same count for the bench's client part (scripts/bench-client.ts): for
 * each API's representative operations, the instructions per call of plain openapi-fetch and of the
 * generated client (its defaults: retry policy, time limit, redirect rule, body bound), both against
 * the stub fetch of the bench's stub run (the answer a mock gave the request, no socket), the calls
 * one after another after the same warm-up; N is 3,000 calls by default, enough for late compilation
 * and collection to settle. Their ratio is the client row's goal measured without the timing's noise.
 *
 * `--server [alias...]`: the bench's sandbox ratio counted instead of timed. For each of the bench's
 * sandbox requests, a whole mock server process (src/mock/index.ts startMock, the response cache
 * off) in static mode and one in sandbox mode, each under valgrind, answer the same distinct
 * requests over HTTP, one after another, from this process (not counted); the count per request is
 * the difference between a server that answered N more and one that answered 2N more after the same
 * warm-up (N is 5,000 by default). Everything the server process does is counted (HTTP, judging,
 * the answer, the engine, garbage collection on its one thread); the kernel's work (the socket's
 * system calls) is not. V8's memory reducer is off for these runs: at valgrind's pace a server
 * allocates so slowly by the clock that the reducer would take it for idle and run full
 * collections a server at full speed never runs. One request at a time, not the bench's ten
 * connections, so the figures are the cost of a request in this regime, and the ratio of the two
 * modes is the figure to read.
 *
 * Needs valgrind on the PATH (not with `--time`); without it, one line and exit 1. Minutes per API.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Option } from "commander";
import { CLIENT_GOAL, withStubCalls } from "./bench-client.js";
import {
  type BundledApi,
  credentialHeaderOf,
  distinctRequest,
  record,
  representativeOperations,
  type SpecRequest,
  specRequest,
  startServer,
} from "./bench-measure.js";
import type { RecordedResponse } from "./bench-serve.js";
import { integer, misuse, runCommand, runProgram, script, selectApis } from "./lib/cli.js";
import { findOperation, loadDocument } from "../src/document/index.js";
import { startMock } from "../src/mock/index.js";
import { type ApiEntry, findApi, loadRegistry, repoRoot } from "../src/registry.js";
import { createSandbox } from "../src/sandbox/index.js";
import { SANDBOX_CPU_GOAL, SANDBOX_REQUESTS } from "./bench-sandbox.js";

/** Requests run before either counted run's own (the same in both: compiled, warmed, states made). */
const WARM_UP = 3000;

/**
 * The bench's request of `alias`'s `operationId` (scripts/bench-measure.ts specRequest), its API, and
 * the header its credential goes in.
 */
export function benchRequest(alias: string, operationId: string): { api: BundledApi; request: SpecRequest; header: string } {
  const entry = findApi(alias);
  const api = { entry, doc: loadDocument(entry.bundlePath) };
  const op = findOperation(api.doc, operationId);
  if (op?.section !== "paths") throw new Error(`${alias} has no operation ${operationId}`);
  const request = specRequest(api, op);
  return { api, request, header: credentialHeaderOf(request) };
}

/**
 * Runs `requests` requests of `operationId` through a fresh sandbox of `alias` after the warm-up
 * (valgrind's subject); with `timed`, the CPU µs per request of those requests (process.cpuUsage).
 */
function runRequests(alias: string, operationId: string, requests: number, timed = false): number | undefined {
  const { api, request, header } = benchRequest(alias, operationId);
  const sandbox = createSandbox(api.entry, api.doc);
  const operation = { iid: operationId } as Parameters<NonNullable<typeof sandbox.hooks.validateAnswer>>[0];
  const path = request.path.split("?")[0];
  const one = (n: number) => {
    const distinct = distinctRequest(request.body, n, header === "authorization");
    const answer = sandbox.hooks.answer!({
      operation,
      path,
      query: {},
      headers: { ...request.headers, [header]: distinct.credential },
      body: distinct.body === undefined ? undefined : JSON.parse(distinct.body),
      status: request.expected,
    } as Parameters<NonNullable<typeof sandbox.hooks.answer>>[0]) as { status: number; body?: unknown } | undefined;
    if (answer?.status !== request.expected)
      throw new Error(`${alias} ${operationId}: answered ${answer?.status}, not ${request.expected}`);
    sandbox.hooks.validateAnswer!(operation, answer);
    JSON.stringify(answer.body);
  };
  for (let n = 0; n < WARM_UP; n++) one(n);
  const start = timed ? process.cpuUsage() : undefined;
  for (let n = WARM_UP; n < WARM_UP + requests; n++) one(n);
  const used = start && process.cpuUsage(start);
  sandbox.close();
  return used && (used.user + used.system) / requests;
}

/**
 * Starts this script itself with the arguments `run` (`--run`, `--run-client` or `--serve` and theirs)
 * in a child process, started by `command` (node and its flags, or valgrind and its options before
 * node): the child (its standard input a pipe, ended at once unless `keepInput`), its output so far
 * (the last 64 KiB of each stream) and its exit code when it ends (rejected when `command` cannot be started).
 */
function startChild(command: string[], run: string[], keepInput = false) {
  const args = [...command.slice(1), "--import", "tsx", "scripts/engine-instructions.ts", ...run];
  const child = spawn(command[0], args, { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
  if (!keepInput) child.stdin.end();
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output.stdout = (output.stdout + chunk).slice(-64 * 1024)));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output.stderr = (output.stderr + chunk).slice(-64 * 1024)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === "ENOENT" ? `${command[0]} is not installed (it counts the instructions)` : error.message)),
    );
    child.once("close", resolve);
  });
  return { child, output, exited };
}

/** startChild, to its end: the child's output and exit code. */
async function runChild(command: string[], run: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { output, exited } = startChild(command, run);
  const code = await exited;
  return { code, ...output };
}

/** The last lines of a child's error output, for the message when it failed. */
const tail = (stderr: string) => stderr.trim().split("\n").slice(-3).join(" | ");

/** CPU µs per request of `runs` timed runs of `requests` requests, each in a process of its own, one after another. */
async function timeRuns(alias: string, operationId: string, requests: number, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const { code, stdout, stderr } = await runChild([process.execPath], ["--run", alias, operationId, String(requests), "--timed"]);
    const time = Number(/^([\d.]+)$/m.exec(stdout)?.[1]);
    if (code !== 0 || !Number.isFinite(time)) throw new Error(`${alias} ${operationId}: a timed run exited ${code}: ${tail(stderr)}`);
    times.push(time);
  }
  return times;
}

/** valgrind counting instructions (no cache simulation) of node, single-threaded (its garbage collection counted on the main thread) and predictable. */
const COUNTED_NODE = [
  "valgrind",
  "--tool=cachegrind",
  "--cache-sim=no",
  "--cachegrind-out-file=/dev/null",
  process.execPath,
  "--single-threaded",
  "--predictable",
  "--expose-gc",
];

/** The instructions valgrind reported in a counted process's error output; `what` names the run in an error. */
function instructionsOf(code: number | null, stderr: string, what: string): number {
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (code === 0 && refs) return Number(refs[1].replaceAll(",", ""));
  throw new Error(`${what}: valgrind exited ${code}: ${tail(stderr)}`);
}

/** The instructions valgrind counted for one run of this script with the arguments `run`; `what` names it in an error. */
async function countInstructions(run: string[], what: string): Promise<number> {
  const { code, stderr } = await runChild(COUNTED_NODE, run);
  return instructionsOf(code, stderr, what);
}

/** Instructions per request or call: two counted runs (`counted(n)`: a run's count) of `count` and 2 `count`, their difference over `count`. */
async function perCall(counted: (n: number) => Promise<number>, count: number): Promise<number> {
  const [once, twice] = await Promise.all([counted(count), counted(2 * count)]);
  return (twice - once) / count;
}

/** A cell of the client count: an operation's request and the answer the mock gave it (what the stub fetch answers). */
interface CountedCell {
  alias: string;
  operationId: string;
  recorded: RecordedResponse;
}

/** Calls made before either counted run's own (the same in both: compiled, warmed). */
const CLIENT_WARM_UP = 2000;

/**
 * Makes `calls` calls, one after another, of `variant` (plain openapi-fetch or the generated client)
 * for the cell at `index` of the file `cellsFile`, against a stub fetch (scripts/bench-client.ts
 * withStubCalls: no socket) after the warm-up (valgrind's subject).
 */
async function runClientCalls(cellsFile: string, index: number, variant: string, calls: number): Promise<void> {
  const cells = JSON.parse(readFileSync(cellsFile, "utf8")) as CountedCell[];
  const cell = cells[index];
  if (!cell) throw new Error(`${cellsFile} has no cell ${index}`);
  const { api, request } = benchRequest(cell.alias, cell.operationId);
  if (variant !== "client" && variant !== "openapi-fetch") throw new Error(`no variant ${variant}: client or openapi-fetch`);
  await withStubCalls(api, request, cell.recorded, async (stubCalls) => {
    const call = stubCalls[variant];
    for (let n = 0; n < CLIENT_WARM_UP; n++) await call();
    // A full collection before the counted calls and after them, in both counted runs: what the calls
    // leave is collected within the count whichever run it falls in (without it, a collection that
    // falls in one run and not the other moved a count tenfold with 100 calls).
    collect();
    for (let n = 0; n < calls; n++) await call();
    collect();
  });
}

/** A full garbage collection (node runs with --expose-gc under valgrind; a no-op where it does not). */
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * The client part of the bench's cells for `entries` (each API's representative operations,
 * scripts/bench-measure.ts) with the answers a mock gives them, written to a file for the counted runs.
 */
async function recordClientCells(entries: ApiEntry[], file: string): Promise<CountedCell[]> {
  const mock = await startServer({ type: "start", kind: "mock", aliases: entries.map((e) => e.alias) });
  const cells: CountedCell[] = [];
  try {
    for (const entry of entries) {
      const api = { entry, doc: loadDocument(entry.bundlePath) };
      for (const op of representativeOperations(api)) {
        const request = specRequest(api, op);
        cells.push({ alias: entry.alias, operationId: op.operationId, recorded: await record(mock.urls[entry.alias], request) });
      }
    }
  } finally {
    await mock.stop();
  }
  writeFileSync(file, JSON.stringify(cells));
  return cells;
}

/**
 * Counts, for each cell, the instructions per call of plain openapi-fetch and of the generated
 * client against the stub fetch, and prints them with their ratio, then the largest ratio against
 * the goal (scripts/bench-client.ts CLIENT_GOAL). The two variants' runs are counted one pair at a time.
 */
async function countClient(entries: ApiEntry[], calls: number): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "bench-instructions-"));
  try {
    const file = join(folder, "cells.json");
    const cells = await recordClientCells(entries, file);
    const ratios: number[] = [];
    for (const [index, cell] of cells.entries()) {
      const what = `${cell.alias} ${cell.operationId}`;
      const count = (variant: string) =>
        perCall((n) => countInstructions(["--run-client", file, String(index), variant, String(n)], `${what} ${variant}`), calls);
      const plain = await count("openapi-fetch");
      const client = await count("client");
      ratios.push(client / plain);
      const n = (value: number) => Math.round(value).toLocaleString("en-US");
      console.log(`${what}: openapi-fetch ${n(plain)}, client ${n(client)} instructions per call (${(client / plain).toFixed(2)}x)`);
    }
    const worst = Math.max(...ratios);
    console.log(
      `largest: the client at ${worst.toFixed(2)}x plain openapi-fetch's instructions per call (goal at most ${CLIENT_GOAL.toFixed(2)}x: ${worst <= CLIENT_GOAL ? "met" : "not met"})`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Requests a counted server answers before either counted run's own (the same in both: compiled, warmed, states made). */
const SERVER_WARM_UP = 1000;

/** How long a counted server may take to answer one request (under valgrind a request takes milliseconds). */
const SERVER_ANSWER_MS = 60_000;

/** The modes of a mock server the server count compares: the static mock (its response cache off) and the sandbox. */
const SERVER_MODES = ["static", "sandbox"] as const;

/**
 * Serves `alias` as `mock` serves it (src/mock/index.ts startMock; the response cache off, as in the
 * bench's sandbox part) in `mode` on a free port, prints `listening <port>`, and stops when its
 * standard input ends (valgrind's subject: the count is reported when the process exits).
 */
async function serve(alias: string, mode: string): Promise<void> {
  if (!(SERVER_MODES as readonly string[]).includes(mode)) throw new Error(`no mode ${mode}: ${SERVER_MODES.join(" or ")}`);
  const mock = await startMock(findApi(alias), { port: 0, cache: false, sandbox: mode === "sandbox" });
  console.log(`listening ${mock.port}`);
  await new Promise<void>((resolve) => process.stdin.once("end", resolve).once("close", resolve).resume());
  await mock.close();
}

/**
 * The instructions of a whole mock server process of `alias` in `mode` (valgrind, from its start to
 * its exit) that answers the warm-up's and then `requests` more of the bench's distinct requests of
 * `operationId` (scripts/bench-measure.ts distinctRequest, the credentials cycled), one after another
 * on one kept-alive connection, from this process (not counted).
 */
async function countServer(alias: string, operationId: string, mode: string, requests: number): Promise<number> {
  const what = `${alias} ${operationId} ${mode}`;
  const { request, header } = benchRequest(alias, operationId);
  // Without V8's memory reducer: under valgrind a server allocates so slowly by the clock that the
  // reducer takes it for idle and runs full collections that a server at full speed never runs.
  const server = await startServing([...COUNTED_NODE, "--no-memory-reducer"], alias, mode);
  try {
    for (let n = 0; n < SERVER_WARM_UP + requests; n++) {
      let status: number;
      try {
        status = (await sendDistinct(server.url, request, header, n)).status;
      } catch (error) {
        const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
        throw new Error(`${what}: request ${n + 1} got no answer (${cause}): ${tail(server.output.stderr)}`);
      }
      if (status !== request.expected) throw new Error(`${what}: answered ${status}, not ${request.expected}`);
    }
  } finally {
    server.child.stdin.end();
  }
  return instructionsOf(await server.exited, server.output.stderr, what);
}

/**
 * Starts this script's `--serve` process of `alias` in `mode` under `command` (valgrind and node, or
 * node alone), its input kept open (ending it stops the server): the process as startChild gives it,
 * with the server's URL once it listens (rejected, with its last error output, if it exits first).
 */
export async function startServing(command: string[], alias: string, mode: string) {
  const started = startChild(command, ["--serve", alias, mode], true);
  const { child, output, exited } = started;
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", () => {
      const listening = /^listening (\d+)$/m.exec(output.stdout);
      if (listening) resolve(Number(listening[1]));
    });
    exited.then(
      (code) => reject(new Error(`${alias} ${mode}: the server exited (${code}) before it listened: ${tail(output.stderr)}`)),
      reject,
    );
  });
  return { ...started, url: `http://127.0.0.1:${port}` };
}

/**
 * Sends the bench's `n`th distinct request (scripts/bench-measure.ts distinctRequest: its credential
 * and references) of `request` to the server at `url`, its credential in `header`; the response, its
 * body read (at most SERVER_ANSWER_MS).
 */
export async function sendDistinct(url: string, request: SpecRequest, header: string, n: number): Promise<Response> {
  const distinct = distinctRequest(request.body, n, header === "authorization");
  const response = await fetch(url + request.path, {
    method: request.method,
    headers: { ...request.headers, [header]: distinct.credential },
    body: distinct.body,
    signal: AbortSignal.timeout(SERVER_ANSWER_MS),
  });
  await response.arrayBuffer();
  return response;
}

/**
 * For each of `chosen` (requests of the bench's sandbox part), the instructions per request of a
 * whole server in each mode and their ratio, then the largest ratio against the goal
 * (scripts/bench-sandbox.ts SANDBOX_CPU_GOAL). One mode's two runs at a time.
 */
async function countServers(chosen: ReadonlyArray<{ alias: string; operationId: string }>, requests: number): Promise<void> {
  const ratios: number[] = [];
  const n = (value: number) => Math.round(value).toLocaleString("en-US");
  for (const { alias, operationId } of chosen) {
    const counted: number[] = [];
    for (const mode of SERVER_MODES) counted.push(await perCall((runs) => countServer(alias, operationId, mode, runs), requests));
    const [plain, sandbox] = counted;
    ratios.push(sandbox / plain);
    console.log(
      `${alias} ${operationId}: static ${n(plain)}, sandbox ${n(sandbox)} instructions per request of the server (${(sandbox / plain).toFixed(2)}x)`,
    );
  }
  const worst = Math.max(...ratios);
  console.log(
    `largest: the sandbox at ${worst.toFixed(2)}x the static mock's instructions per request (goal at most ${SANDBOX_CPU_GOAL.toFixed(2)}x: ${worst <= SANDBOX_CPU_GOAL ? "met" : "not met"})`,
  );
}

function program() {
  const command = script("bench:instructions")
    .description(
      "Machine instructions per request of the sandbox's engine (valgrind), for the bench's sandbox requests; with --server, per request of a whole mock server in static and in sandbox mode; with --client, per call of the generated client beside plain openapi-fetch",
    )
    .argument("[alias...]", `APIs (default: those of the bench's sandbox part: ${SANDBOX_REQUESTS.map((r) => r.alias).join(", ")})`)
    .option(
      "--requests <n>",
      "requests (calls, with --client) per counted run; the second runs twice as many (default: 5000, 3000 with --client)",
      integer(100),
    )
    .option(
      "--client",
      "count the generated client's instructions per call beside plain openapi-fetch's, both against a stub fetch, for each API's operations of the bench's client part (default: every API)",
    )
    .option(
      "--server",
      "count whole mock server processes instead of the engine alone: the instructions per request of a server in static mode (its response cache off) and of one in sandbox mode, on the same requests over HTTP (everything the process does, garbage collection included; not the kernel's work), and their ratio",
    )
    .option(
      "--time <runs>",
      "no valgrind: time the same requests (CPU µs per request) in this many runs, a process each; for paired timings, run it in two checkouts in turn",
      integer(1),
    )
    // The run valgrind counts or a timed run (alias, operationId, requests): this script runs itself so; not for users.
    .addOption(new Option("--run <alias-operation-count...>").hideHelp())
    .addOption(new Option("--timed").hideHelp())
    // The run valgrind counts for --client (cells file, index, variant, calls): likewise not for users.
    .addOption(new Option("--run-client <file-index-variant-count...>").hideHelp())
    // The server valgrind counts for --server (alias, mode): likewise not for users.
    .addOption(new Option("--serve <alias-mode...>").hideHelp())
    .action(
      async (
        aliases: string[],
        options: {
          requests?: number;
          run?: string[];
          runClient?: string[];
          serve?: string[];
          time?: number;
          timed?: boolean;
          client?: boolean;
          server?: boolean;
        },
      ) => {
        if (options.run) {
          const [alias, operationId, count] = options.run;
          const time = runRequests(alias, operationId, Number(count), options.timed === true);
          if (time !== undefined) console.log(time.toFixed(2));
          return 0;
        }
        if (options.runClient) {
          const [file, index, variant, count] = options.runClient;
          await runClientCalls(file, Number(index), variant, Number(count));
          return 0;
        }
        if (options.serve) {
          const [alias, mode] = options.serve;
          await serve(alias, mode);
          return 0;
        }
        const entries = selectApis(command, loadRegistry(), aliases);
        if (options.client && options.server) misuse(command, "--client counts the client, --server the servers: one at a time");
        if (options.client) {
          if (options.time !== undefined) misuse(command, "--time times the engine's requests; with --client, the counts only");
          await countClient(entries, options.requests ?? 3000);
          return 0;
        }
        const requests = options.requests ?? 5000;
        const chosen = SANDBOX_REQUESTS.filter((r) => entries.some((e) => e.alias === r.alias));
        const without = entries.filter((e) => !SANDBOX_REQUESTS.some((r) => r.alias === e.alias)).map((e) => e.alias);
        if (aliases.length > 0 && without.length > 0)
          misuse(
            command,
            `no request of the bench's sandbox part for ${without.join(", ")}; those with one: ${SANDBOX_REQUESTS.map((r) => r.alias).join(", ")}`,
          );
        if (options.server) {
          if (options.time !== undefined) misuse(command, "--time times the engine's requests; with --server, the counts only");
          await countServers(chosen, requests);
          return 0;
        }
        for (const { alias, operationId } of chosen) {
          if (options.time !== undefined) {
            const times = (await timeRuns(alias, operationId, requests, options.time)).sort((a, b) => a - b);
            const at = (share: number) => times[Math.floor(share * (times.length - 1))].toFixed(1);
            console.log(
              `${alias} ${operationId}: ${at(0.25)} µs per request, lower quartile of ${times.length} runs (lowest ${at(0)}, median ${at(0.5)}, highest ${at(1)})`,
            );
            continue;
          }
          const perRequest = Math.round(
            await perCall((n) => countInstructions(["--run", alias, operationId, String(n)], `${alias} ${operationId}`), requests),
          );
          console.log(`${alias} ${operationId}: ${perRequest.toLocaleString("en-US")} instructions per request`);
        }
        return 0;
      },
    );
  return command;
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
