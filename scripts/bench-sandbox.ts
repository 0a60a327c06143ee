/**
 * The bench's sandbox part (`npm run bench -- --only sandbox`, section 1b of bench/RESULTS.md): the
 * sandbox's CPU cost per request beside the static mock's, on the same requests, as a ratio.
 *
 * Two servers, each in its own process (scripts/bench-serve.ts): every API's mock in static mode
 * with its response cache off (every request through Prism's judging and answer) and in sandbox
 * mode (the same judging, then the credential's state, the answer built from it, shaped and
 * validated). For each request of SANDBOX_REQUESTS (each API's create measured), ROUNDS short rounds of
 * the static server then the sandbox, one after the other, each under the same autocannon load; the
 * server CPU time per request comes from /proc/<pid>/stat. The ratio is the sandbox's CPU time per
 * request over the static mock's, per round (reported: the median and the spread of the rounds);
 * the load average at the start and the end of the part says how busy the machine was.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { findOperation } from "../src/document/index.js";
import {
  type BundledApi,
  credentialHeaderOf,
  hammerCredentials,
  type LoadResult,
  median,
  type ServerProcess,
  type SpecRequest,
  specRequest,
  startServer,
} from "./bench-measure.js";

/** The requests measured: a create of each API whose sandbox builds records from a request (alias and operationId). */
export const SANDBOX_REQUESTS: ReadonlyArray<{ alias: string; operationId: string }> = [
  { alias: "disbursement@1.0.0", operationId: "createDisbursements" },
  { alias: "pay@1.3.0", operationId: "createInvoice" },
  { alias: "balance@1.0.0", operationId: "retrieveBalance" },
];
/**
 * Rounds per request: many short rounds, the two servers alternating, so that a change in the
 * machine's load between rounds weighs on both alike (a few long rounds spread far more on a loaded
 * machine than many short ones).
 */
const ROUNDS = 10;
const MIN_ROUND_SECONDS = 0.5;
/** Seconds of load on each server, not measured, before the rounds of a request. */
const WARM_UP_SECONDS = 1;
/** Rounds (of MIN_ROUND_SECONDS or more) of load on the sandbox with its own work timed, after the measured rounds. */
const ENGINE_ROUNDS = 4;
/** The goal: the sandbox at most this many times the static mock's CPU per request. */
export const SANDBOX_CPU_GOAL = 2;

export interface SandboxThroughput {
  alias: string;
  request: string;
  connections: number;
  /** Requests per second (mean of the rounds): the static mock without its cache, and the sandbox. */
  staticRps: number;
  sandboxRps: number;
  staticP99: number;
  sandboxP99: number;
  /** Server CPU time per request, µs (median of the rounds). */
  staticCpu: number;
  sandboxCpu: number;
  /** Sandbox CPU per request over the static mock's, per round, in round order. */
  cpuRatios: number[];
  /**
   * Of the CPU per request, what the process's other threads took (µs, median of the rounds): V8's
   * garbage collection helpers above all (the main thread's share is the rest).
   */
  staticOtherCpu: number;
  sandboxOtherCpu: number;
  /** The main thread's garbage-collection pauses per request, µs (median of the rounds; scripts/bench-serve.ts `pauses`). */
  staticGc: number;
  sandboxGc: number;
}

/** CPU time (ms) of a process's main thread: /proc/<pid>/task/<pid>/stat (cpuMs less this: its other threads). */
function mainThreadMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ, as cpuMs
}

/**
 * One request, `rounds` rounds of the static server then the sandbox, each `seconds` long at
 * `connections` connections, the requests spread over 900 credentials (scripts/bench-measure.ts
 * hammerCredentials); every answer must have the request's expected status.
 */
export async function measureSandboxThroughput(
  servers: Record<"static" | "sandbox", { url: string; pid: number; call: ServerProcess["call"] }>,
  request: SpecRequest,
  { connections, seconds, rounds }: { connections: number; seconds: number; rounds: number },
): Promise<SandboxThroughput> {
  const credentialHeader = credentialHeaderOf(request);
  const runs: Record<"static" | "sandbox", Array<LoadResult & { cpuPerRequest?: number; mainPerRequest: number; gcPerRequest: number }>> = {
    static: [],
    sandbox: [],
  };
  // Not measured: each server's first requests load what it loads on first use and compile the
  // operation's validators (start-up, measured in its own part), which would weigh on the first round.
  for (const side of ["static", "sandbox"] as const) {
    await hammerCredentials(servers[side].url, request, { connections, seconds: WARM_UP_SECONDS, credentialHeader });
  }
  for (let round = 0; round < rounds; round++) {
    for (const side of ["static", "sandbox"] as const) {
      const { url, pid, call } = servers[side];
      await call({ type: "pauses", on: true }, "paused");
      const main = mainThreadMs(pid);
      const result = await hammerCredentials(url, request, { connections, seconds, credentialHeader, pid });
      const mainPerRequest = ((mainThreadMs(pid) - main) * 1000) / Math.max(result.total, 1);
      const { gcUs } = await call<{ gcUs: number }>({ type: "pauses", on: false }, "paused");
      runs[side].push({ ...result, mainPerRequest, gcPerRequest: gcUs / Math.max(result.total, 1) });
    }
  }
  for (const [name, results] of Object.entries(runs)) {
    for (const result of results) {
      const wrong = Object.keys(result.statuses).filter((s) => Number(s) !== request.expected);
      if (result.errors > 0 || wrong.length > 0) {
        throw new Error(
          `${request.alias} ${request.operationId} ${name}: ${result.errors} errors, statuses ${JSON.stringify(result.statuses)}`,
        );
      }
    }
  }
  const mean = (results: LoadResult[]) => results.reduce((sum, r) => sum + r.requestsPerSecond, 0) / results.length;
  const cpu = (side: "static" | "sandbox") => runs[side].map((r) => r.cpuPerRequest!);
  return {
    alias: request.alias,
    request: `${request.method} ${request.operationId}`,
    connections,
    staticRps: mean(runs.static),
    sandboxRps: mean(runs.sandbox),
    staticP99: median(runs.static.map((r) => r.p99)),
    sandboxP99: median(runs.sandbox.map((r) => r.p99)),
    staticCpu: median(cpu("static")),
    sandboxCpu: median(cpu("sandbox")),
    cpuRatios: cpu("sandbox").map((s, i) => s / Math.max(cpu("static")[i], 1e-9)),
    staticOtherCpu: median(runs.static.map((r) => r.cpuPerRequest! - r.mainPerRequest)),
    sandboxOtherCpu: median(runs.sandbox.map((r) => r.cpuPerRequest! - r.mainPerRequest)),
    staticGc: median(runs.static.map((r) => r.gcPerRequest)),
    sandboxGc: median(runs.sandbox.map((r) => r.gcPerRequest)),
  };
}

/**
 * The sandbox's own work per request inside its server (scripts/bench-serve.ts engineTiming): its
 * `answer` hook (the credential's state, the records, the answer built and shaped) and
 * `validateAnswer` (the answer checked against the spec), timed in CPU (user + system) around each
 * call, under the same load as the measured rounds, in ENGINE_ROUNDS rounds of its own (the timing
 * costs two clock reads a call, kept out of the measured rounds). CPU µs per request: what the
 * sandbox does beyond the static mock, where it does it (cache, memory and garbage collection as
 * the server has them); the static mock's cost plus this is the least the sandbox can cost unless
 * that work costs less.
 */
async function engineInServer(
  sandbox: ServerProcess,
  url: string,
  request: SpecRequest,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<number> {
  const credentialHeader = credentialHeaderOf(request);
  await sandbox.call({ type: "engine-timing", on: true }, "engine-timed");
  let answered = 0;
  for (let round = 0; round < ENGINE_ROUNDS; round++) {
    const result = await hammerCredentials(url, request, { connections, seconds, credentialHeader });
    answered += result.statuses[request.expected] ?? 0;
  }
  const timed = await sandbox.call<{ requests: number; cpuUs: number }>({ type: "engine-timing", on: false }, "engine-timed");
  if (timed.requests < answered)
    throw new Error(`${request.alias} ${request.operationId}: the sandbox's hook answered ${timed.requests} of ${answered} requests`);
  return timed.cpuUs / timed.requests;
}

const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const n0 = (value: number) => Math.round(value).toLocaleString("en-US");

/** The requests of SANDBOX_REQUESTS whose API is among `apis`, each as its operation's spec example. */
export function sandboxRequests(apis: BundledApi[]) {
  return SANDBOX_REQUESTS.flatMap(({ alias, operationId }) => {
    const api = apis.find((a) => a.entry.alias === alias);
    const op = api && findOperation(api.doc, operationId);
    return api && op ? [{ api, request: specRequest(api, op) }] : [];
  });
}

/** Measures SANDBOX_REQUESTS of `apis` (those it holds) and returns the report's section (Markdown). */
export async function sandboxSection({
  apis,
  duration,
  connections,
  log,
}: {
  apis: BundledApi[];
  /** Seconds of measured load per server and request, cut into ROUNDS rounds. */
  duration: number;
  connections: number;
  log: (message: string) => void;
}): Promise<string> {
  const rounds = ROUNDS;
  const seconds = Math.max(MIN_ROUND_SECONDS, duration / ROUNDS);
  const chosen = sandboxRequests(apis);
  if (chosen.length === 0) return "## 1b. Sandbox mode beside the static mock\n\nNone of the measured APIs is in the registry run.";
  const aliases = chosen.map((c) => c.api.entry.alias);
  const loadAtStart = loadavg();
  const [plain, sandbox] = await Promise.all([
    startServer({ type: "start", kind: "mock-nocache", aliases }),
    startServer({ type: "start", kind: "sandbox", aliases }),
  ]);
  const results: SandboxThroughput[] = [];
  const engine: number[] = [];
  try {
    for (const { api, request } of chosen) {
      const alias = api.entry.alias;
      log(`  ${alias} ${request.operationId} at ${connections} connections`);
      results.push(
        await measureSandboxThroughput(
          {
            static: { url: plain.urls[alias], pid: plain.pid, call: plain.call },
            sandbox: { url: sandbox.urls[alias], pid: sandbox.pid, call: sandbox.call },
          },
          request,
          { connections, seconds, rounds },
        ),
      );
      engine.push(await engineInServer(sandbox, sandbox.urls[alias], request, { connections, seconds }));
    }
  } finally {
    await Promise.all([plain.stop(), sandbox.stop()]);
  }
  const loadAtEnd = loadavg();
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" / ");
  const ratios = results.map((r) => median(r.cpuRatios));
  const worst = Math.max(...ratios);
  return [
    "## 1b. Sandbox mode beside the static mock",
    "",
    "The same requests sent to the static mock with its response cache off (every request through Prism's judging and",
    "answer) and to the sandbox (`mock --sandbox`: the same judging, then the credential's state, the answer built from",
    "it, shaped and validated against the response schema), each server in its own process. Each request is the",
    "operation's spec example and carries the next of 900 credentials in turn (the sandbox keeps 1000), each with its",
    `own state, so a credential's records grow through the run. autocannon at ${connections} connections: ${WARM_UP_SECONDS} s on each`,
    `server not measured (what each loads and compiles on first use), then ${rounds} rounds of`,
    `the static mock then the sandbox, ${seconds} s each. CPU µs/request: the server process's user + system time`,
    "(`/proc/<pid>/stat`) over the requests it answered, median of the rounds; the ratio is the sandbox's over the static",
    `mock's, per round: the median and, in brackets, the lowest and highest round. Goal: at most ${x(SANDBOX_CPU_GOAL)}.`,
    "Engine: the sandbox's own work per request inside its server (its `answer` hook: the credential's state, the records,",
    "the answer built and shaped; and `validateAnswer`: the answer checked against the spec), CPU µs timed around each call",
    `in ${ENGINE_ROUNDS} more rounds of the same load (scripts/bench-sandbox.ts engineInServer); the static mock's cost plus that`,
    "work, over the static mock's, is the least the sandbox can cost unless that work costs less.",
    "Other threads: of the CPU µs/request, what the server process's threads other than its main one took (from",
    "`/proc/<pid>/task/<pid>/stat`, median of the rounds): V8's garbage collection helpers above all, which the state the",
    "sandbox keeps (every record of 900 credentials, growing through the run) makes work harder than the static mock does.",
    "GC pauses: the main thread's garbage-collection pauses per request (perf_hooks' `gc` entries in the server, median of",
    "the rounds); a pause that falls within the sandbox's hooks is counted in the engine's figure too.",
    "The same ratio counted in machine instructions instead of timed (no noise from the machine's other work; the kernel's",
    "work on the sockets, which both servers pay alike, left out): `npm run bench:instructions -- --server` (valgrind; not",
    "run by the bench).",
    "",
    `Load average (1 / 5 / 15 min) at the start of this part: ${load(loadAtStart)}; at its end: ${load(loadAtEnd)}`,
    `(${loadAtStart[0] > 2 || loadAtEnd[0] > 2 ? "a loaded machine: both servers slowed alike, the ratio is the figure to read" : "a quiet machine"}).`,
    "",
    [
      "| API | request | static req/s | sandbox req/s | p99 ms static / sandbox | CPU µs/request static / sandbox | of which other threads static / sandbox | GC pauses µs/request static / sandbox | sandbox CPU of static (rounds) | engine µs in the server | (static + engine) / static |",
      "|---|---|---|---|---|---|---|---|---|---|---|",
      ...results.map(
        (r, i) =>
          `| ${r.alias} | ${r.request} | ${n0(r.staticRps)} | ${n0(r.sandboxRps)} | ${r.staticP99} / ${r.sandboxP99} | ` +
          `${r.staticCpu.toFixed(1)} / ${r.sandboxCpu.toFixed(1)} | ${r.staticOtherCpu.toFixed(1)} / ${r.sandboxOtherCpu.toFixed(1)} | ` +
          `${r.staticGc.toFixed(1)} / ${r.sandboxGc.toFixed(1)} | **${x(ratios[i])}** (${x(Math.min(...r.cpuRatios))}-${x(Math.max(...r.cpuRatios))}) | ` +
          `${engine[i].toFixed(1)} | ${x((r.staticCpu + engine[i]) / r.staticCpu)} |`,
      ),
    ].join("\n"),
    "",
    `The sandbox costs ${x(Math.min(...ratios))} to ${x(worst)} the static mock's CPU per request (goal at most ${x(SANDBOX_CPU_GOAL)}: ` +
      `${worst <= SANDBOX_CPU_GOAL ? "met" : "**not met**"}).` +
      results
        .map((r, i) => ({ r, bound: (r.staticCpu + engine[i]) / r.staticCpu, ratio: ratios[i] }))
        .filter(({ ratio }) => ratio > SANDBOX_CPU_GOAL)
        .map(
          ({ r, bound }) =>
            ` ${r.alias} ${r.request}: its engine's own work alone (${r.staticCpu.toFixed(0)} µs of static mock + ` +
            `${(bound * r.staticCpu - r.staticCpu).toFixed(0)} µs of engine) comes to ${x(bound)}` +
            (bound > SANDBOX_CPU_GOAL
              ? ", over the goal before any HTTP cost: the goal needs that work cheaper than the static mock's whole request."
              : `; the rest of its ${(r.sandboxCpu - r.staticCpu).toFixed(0)} µs over the static mock is outside that work: ` +
                `${(r.sandboxOtherCpu - r.staticOtherCpu).toFixed(0)} µs more in the process's other threads and ` +
                `${(r.sandboxGc - r.staticGc).toFixed(0)} µs more of garbage-collection pauses on its main thread than the static mock's.`),
        )
        .join(""),
  ].join("\n");
}
