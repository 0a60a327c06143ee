/**
 * `npm run bench [-- --only <parts>] [--duration S] [--load-duration S] [--apis a,b] [--out FILE]`:
 * measures the mock, the clients and the pipeline over every API of the registry and merges each
 * part's section into bench/RESULTS.md (scripts/bench-results.ts): the parts run replace their own
 * sections, with the command, the time and the load average they were measured at; the others are
 * kept. Each figure is measured side by side with its ceiling or baseline in the same run and
 * reported as a ratio, so that a busy or slower machine shifts both alike. Not part of `npm test`.
 *
 * Parts (all by default, in this order): throughput, findings (bench-findings.ts), sandbox, hosted
 * (bench-hosted.ts), store (bench-store.ts), isolation, startup, client, typecheck, load, pipeline.
 * Bad arguments, or an --out file the bench did not write: one line and a hint, exit 2, before any
 * measurement. A part that fails is logged and the others are still measured and written; its
 * earlier section is kept (or, when there is none, a section saying it failed is written); the run
 * then exits 1.
 */
import { cpus, loadavg, release, type } from "node:os";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { type Command, InvalidArgumentError } from "commander";
import {
  bundledApis,
  consumerSource,
  declares,
  hammerMany,
  hammerPool,
  judgingCost,
  type LoadResult,
  median,
  peakRss,
  record,
  representativeOperations,
  representativeRequest,
  requestPool,
  specRequest,
  startHelper,
  startServer,
  syntheticRegistry,
  timeCommand,
  timeUntilAnswering,
  typecheckTime,
} from "./bench-measure.js";
import { findingsSection } from "./bench-findings.js";
import { hostedSection } from "./bench-hosted.js";
import { sandboxSection } from "./bench-sandbox.js";
import { storeSection } from "./bench-store.js";
import { freePortRange } from "./lib/ports.js";
import { LARGE_BODY_BYTES } from "../src/mock/judge.js";
import { defaultCacheDir } from "../src/mock/operations-cache.js";
import { operations } from "../src/document/index.js";
import { repoRoot } from "../src/registry.js";
import { clientSection, measureClientCost } from "./bench-client.js";
import { commandLine, mergeSections, parseResults, ResultsFileError, renderResults, type Section } from "./bench-results.js";
import { isEntryPoint, misuse, runCommand, script } from "./lib/cli.js";

/** Rounds per throughput cell (each variant runs once per round, for duration / ROUNDS seconds). */
const ROUNDS = 3;
/** Connections of the load generator in the throughput measurements. */
const CONNECTIONS = 10;
/** Distinct requests per operation and kind in the throughput measurements. */
const POOL = 200;
/** Distinct invalid requests: the mock's CPU efficiency within this many points of what judging alone leaves... */
const INVALID_GAP_POINTS = 5;
/** ...and at least this where judging leaves room for it. */
const INVALID_FLOOR = 0.6;
/** Start-up of every mock, one process from source: the target. */
const STARTUP_TARGET_MS = 1000;
/** Items of the array in the isolation part's bad request. */
const BAD_ITEMS = 450_000;
/** Defaults of --duration and --load-duration, in seconds. */
const DEFAULT_DURATION = 5;
const DEFAULT_LOAD_DURATION = 20;
const PARTS = [
  "throughput",
  "findings",
  "sandbox",
  "hosted",
  "store",
  "isolation",
  "startup",
  "client",
  "typecheck",
  "load",
  "pipeline",
] as const;
type Part = (typeof PARTS)[number];

interface BenchOptions {
  parts: Set<Part>;
  duration: number;
  loadDuration: number;
  out: string;
  apis?: string[];
}

/** An option parser for a positive number of seconds. */
function seconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new InvalidArgumentError("Expected a positive number of seconds.");
  return Number(value);
}

/** A comma-separated list. */
const list = (value: string) => value.split(",").map((item) => item.trim());

// Set by the action, read by the parts below.
let options: BenchOptions;
let apis: ReturnType<typeof bundledApis>;
let registry: Array<(typeof apis)[number]["entry"]>;
const sections: string[] = [];
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const x = (ratio: number) => `${ratio.toFixed(2)}x`;
const n0 = (value: number) => Math.round(value).toLocaleString("en-US");
const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;
const mem = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");

/* 1. mock throughput against the bare ceiling: identical, distinct valid and distinct invalid requests */
async function throughput(): Promise<void> {
  log("throughput");
  const aliases = registry.map((e) => e.alias);
  const mock = await startServer({ type: "start", kind: "mock", aliases });
  const hooked = await startServer({ type: "start", kind: "mock-hooked", aliases });
  const stock = await startServer({ type: "start", kind: "prism-stock", aliases });
  const rows: string[][] = [];
  const distinct = {
    rps: [] as number[],
    cpu: [] as number[],
    p99: [] as number[],
    hooked: [] as number[],
    gain: [] as number[],
    bound: [] as number[],
  };
  /**
   * Distinct invalid cells: the mock's CPU efficiency of the ceiling's beside what judging alone leaves
   * (findings goal), and beside the judging server's (`judged`: the ceiling's CPU over its own).
   */
  const invalidCells: Array<{ cell: string; efficiency: number; bound: number; judged: number; ofJudged: number }> = [];
  const load = { connections: CONNECTIONS, seconds: Math.max(1, options.duration / ROUNDS) };
  try {
    for (const api of apis) {
      const alias = api.entry.alias;
      for (const op of representativeOperations(api)) {
        const identical = specRequest(api, op);
        const valid = await requestPool(api, op, "valid", POOL, mock.urls[alias]);
        const invalid = await requestPool(api, op, "invalid", POOL, mock.urls[alias]);
        const cases = [
          { name: "identical", requests: [identical], distinct: false },
          { name: "distinct valid", requests: valid.requests, distinct: true },
          { name: "distinct invalid", requests: invalid.requests, distinct: true },
        ].filter((c) => c.requests.length > 0);
        for (const c of cases) {
          log(`  ${alias} ${op.operationId}: ${c.name} (${c.requests.length} requests)`);
          const recorded = await record(mock.urls[alias], c.requests[0]);
          if (recorded.status !== c.requests[0].expected) {
            throw new Error(`${alias} ${op.operationId}: the mock answered ${recorded.status}, expected ${c.requests[0].expected}`);
          }
          const bare = await startServer({ type: "start", kind: "bare", response: recorded });
          // Invalid requests: the bare server plus the judging, in the mock's own process (bench-serve.ts `judged`).
          const judgedUrl =
            c.name === "distinct invalid"
              ? (
                  await mock.call<{ urls: Record<string, string> }>(
                    { type: "start", kind: "judged", response: recorded, spec: api.entry.bundlePath, method: op.method, path: op.path },
                    "started",
                  )
                ).urls.judged
              : undefined;
          const runs: Record<"ceiling" | "mock" | "judged" | "hooked" | "stock", Array<LoadResult & { cpuPerRequest?: number }>> = {
            ceiling: [],
            mock: [],
            judged: [],
            hooked: [],
            stock: [],
          };
          try {
            // Short rounds one after another: drift in the machine's load hits every server alike.
            for (let round = 0; round < ROUNDS; round++) {
              const run = { ...load, distinct: c.distinct };
              runs.ceiling.push(await hammerPool(bare.urls.bare, c.requests, { ...run, pid: bare.pid }));
              runs.mock.push(await hammerPool(mock.urls[alias], c.requests, { ...run, pid: mock.pid }));
              if (judgedUrl) runs.judged.push(await hammerPool(judgedUrl, c.requests, { ...run, pid: mock.pid }));
              if (c.distinct) {
                runs.hooked.push(await hammerPool(hooked.urls[alias], c.requests, { ...run, pid: hooked.pid }));
                runs.stock.push(await hammerPool(stock.urls[alias], c.requests, { ...run, pid: stock.pid }));
              }
            }
          } finally {
            await bare.stop();
            if (judgedUrl) await mock.call({ type: "close", url: judgedUrl }, "closed");
          }
          for (const [name, results] of Object.entries(runs)) {
            for (const result of results) {
              const wrong = Object.keys(result.statuses).filter((status) => Number(status) !== c.requests[0].expected);
              if (result.errors > 0 || wrong.length > 0) {
                throw new Error(
                  `${alias} ${op.operationId} ${c.name} ${name}: ${result.errors} errors, statuses ${JSON.stringify(result.statuses)}`,
                );
              }
            }
          }
          const mean = (results: LoadResult[]) => results.reduce((sum, r) => sum + r.requestsPerSecond, 0) / results.length;
          const ofCeiling = (results: LoadResult[]) =>
            median(results.map((r, i) => r.requestsPerSecond / runs.ceiling[i].requestsPerSecond));
          const cpu = (results: Array<{ cpuPerRequest?: number }>) => median(results.map((r) => r.cpuPerRequest!));
          const cpuRatio = median(runs.mock.map((r, i) => runs.ceiling[i].cpuPerRequest! / r.cpuPerRequest!));
          const p99 = (results: LoadResult[]) => median(results.map((r) => r.p99));
          const p99Ratio = median(runs.mock.map((r, i) => r.p99 / Math.max(runs.ceiling[i].p99, 1)));
          const share = ofCeiling(runs.mock);
          // The judging alone, measured here after the load: the floor of any judging mock's CPU per request.
          const judging = c.distinct ? await judgingCost(api, c.requests) : undefined;
          const bound = judging === undefined ? undefined : cpu(runs.ceiling) / (cpu(runs.ceiling) + judging);
          if (bound !== undefined) distinct.bound.push(bound);
          if (c.name === "distinct invalid" && bound !== undefined) {
            invalidCells.push({
              cell: `${alias} ${identical.method} ${op.operationId}`,
              efficiency: cpuRatio,
              bound,
              judged: median(runs.judged.map((r, i) => runs.ceiling[i].cpuPerRequest! / r.cpuPerRequest!)),
              ofJudged: median(runs.mock.map((r, i) => runs.judged[i].cpuPerRequest! / r.cpuPerRequest!)),
            });
          }
          if (c.distinct) {
            distinct.rps.push(share);
            distinct.cpu.push(cpuRatio);
            distinct.p99.push(p99Ratio);
            distinct.hooked.push(ofCeiling(runs.hooked));
            distinct.gain.push(median(runs.mock.map((r, i) => r.requestsPerSecond / runs.stock[i].requestsPerSecond)));
          }
          rows.push([
            alias,
            `${identical.method} ${op.operationId}`,
            c.name,
            n0(mean(runs.ceiling)),
            `${n0(mean(runs.mock))} (**${pct(share)}**)`,
            `${cpu(runs.ceiling).toFixed(1)} / ${cpu(runs.mock).toFixed(1)} (**${pct(cpuRatio)}**)`,
            judging === undefined ? "" : `${judging.toFixed(1)} (${pct(bound!)})`,
            `${p99(runs.ceiling)} / ${p99(runs.mock)} (${x(p99Ratio)})`,
            c.distinct ? `${n0(mean(runs.hooked))} (${pct(ofCeiling(runs.hooked))})` : "",
            c.distinct ? `${n0(mean(runs.stock))} (${pct(ofCeiling(runs.stock))})` : "",
          ]);
        }
      }
    }
  } finally {
    await Promise.all([mock.stop(), hooked.stop(), stock.stop()]);
  }
  const lowest = Math.min(...distinct.rps);
  const lowestCpu = Math.min(...distinct.cpu);
  const worstP99 = Math.max(...distinct.p99);
  sections.push(
    [
      "## 1. Mock throughput, CPU time and p99 latency against the bare ceiling",
      "",
      "Each API's representative operations: its POST with the largest JSON request example, and its GET with",
      `the most query parameters (else its first GET). autocannon (in the benchmark's own process) at ${CONNECTIONS} connections,`,
      `${options.duration} s per server and cell as ${ROUNDS} rounds of the servers one after another (req/s: the mean of the rounds;`,
      "ratios and p99: the median of the rounds'). The **ceiling** is a bare `node:http` server in its own process that reads",
      "the request body and sends the bytes the mock sent for the cell's first request, under the same client. CPU time per",
      "request is the server process's user + system time (`/proc/<pid>/stat`) over the requests it answered; the ratio",
      "in bold is the ceiling's CPU time per request over the mock's (100%: the mock costs what a bare server costs).",
      "*Judging* is the CPU time per request, measured in the benchmark's process on the same requests, of what the mock must",
      "do before it can answer (decode the body and `JSON.parse` it, then Prism's security and input checks, src/mock/validate.ts);",
      "in brackets, the ceiling's CPU time over the ceiling's plus the judging: the CPU-time ratio a mock would reach if",
      "everything but the judging cost it no more than the bare server, the most a mock that judges every request can reach.",
      "",
      "- *identical*: the operation's example request over and over;",
      `- *distinct valid*: ${POOL} valid requests generated from the schemas (the fuzz model, seeded: other names, amounts, ids,`,
      "  query values), cycled, each body also given a distinct run of leading whitespace, so that no two requests are the same bytes;",
      `- *distinct invalid*: ${POOL} requests with one mutation each (wrong type, missing required member, value outside the enum,`,
      "  oversized string), generated and made distinct the same way; their answers are the operation's 4xx with the violations.",
      "- *with an answer hook*: the same mock with an `answer` hook that keeps Prism's answer (the cost of a layer such as the",
      "  sandbox, which plugs in there); *Prism's own server*: stock `@stoplight/prism-http-server` on the same requests.",
      "",
      table(
        [
          "API",
          "operation",
          "requests",
          "ceiling req/s",
          "mock req/s (of ceiling)",
          "CPU µs/request ceiling / mock (ceiling's of mock's)",
          "judging µs/request (most reachable)",
          "p99 ms ceiling / mock",
          "with an answer hook req/s (of ceiling)",
          "Prism's own server req/s (of ceiling)",
        ],
        rows,
      ),
      "",
      `Distinct requests, valid and invalid: lowest ${pct(lowest)} of the ceiling's requests per second (target at least 60%: ` +
        `${lowest >= 0.6 ? "met" : "**not met**"}), lowest CPU-time ratio ${pct(lowestCpu)}, p99 at most ${x(worstP99)} the ceiling's ` +
        `(target at most 2x: ${worstP99 <= 2 ? "met" : "**not met**"}); the judging alone bounds the CPU-time ratio at ` +
        `${pct(Math.min(...distinct.bound))} to ${pct(Math.max(...distinct.bound))}; with an answer hook at least ${pct(Math.min(...distinct.hooked))} of the ceiling; ` +
        `${x(Math.min(...distinct.gain))} to ${x(Math.max(...distinct.gain))} the requests per second of Prism's own server.`,
      "",
      "Distinct invalid requests, the mock's CPU efficiency (the ceiling's CPU per request over the mock's) beside what",
      `judging alone leaves reachable; goal: within ${INVALID_GAP_POINTS} points of it, and at least ${pct(INVALID_FLOOR)} where it allows that.`,
      "*Judging alone* is the judging column above: the judging's CPU measured in a loop, in the benchmark's process, added to",
      "the ceiling's. *A judging server* measures that bound instead of adding it up: the bare server's handler, plus the same",
      "judging of each request (the mock's request element, the body decoded and parsed, Prism's security and input checks of",
      "src/mock/validate.ts; scripts/bench-serve.ts `judged`), served from the mock's own process (its heap, its compiled",
      "validators) in the same rounds, under the same load; it sends the ceiling's recorded answer, so it neither routes, nor",
      "renders findings, nor answers. A mock that judges every request cannot cost less than it; the last columns hold the",
      `mock to the same goal against it (within ${INVALID_GAP_POINTS} points, at least ${pct(INVALID_FLOOR)} where it allows), and the`,
      "judging server's CPU per request over the mock's (100%: the mock's routing, findings and answer cost nothing more).",
      "",
      table(
        [
          "API operation",
          "mock of ceiling (CPU)",
          "judging alone leaves",
          "gap, points",
          "goal: at least",
          "",
          "a judging server leaves",
          "gap, points",
          "goal: at least",
          "",
          "judging server of mock (CPU)",
        ],
        invalidCells.map(({ cell, efficiency, bound, judged, ofJudged }) => {
          // Within the gap of the bound; and the floor too where the bound reaches it (a bound under the
          // floor asks the gap alone, not the bound itself).
          const targetOf = (limit: number) => Math.max(limit - INVALID_GAP_POINTS / 100, limit >= INVALID_FLOOR ? INVALID_FLOOR : 0);
          const verdict = (limit: number) => [
            pct(limit),
            ((limit - efficiency) * 100).toFixed(1),
            pct(targetOf(limit)),
            efficiency >= targetOf(limit) ? "met" : "**not met**",
          ];
          return [cell, pct(efficiency), ...verdict(bound), ...verdict(judged), pct(ofJudged)];
        }),
      ),
    ].join("\n"),
  );
}

/* 1b. sandbox mode beside the static mode, on the same requests (scripts/bench-sandbox.ts) */
async function sandboxThroughput(): Promise<void> {
  log("sandbox");
  sections.push(await sandboxSection({ apis, duration: options.duration, connections: CONNECTIONS, log }));
}

/*
 * Isolation: another API's latency while one API receives the largest bodies the mock accepts, a bad
 * one and a valid one, in static mode and in sandbox mode side by side.
 */
async function isolation(): Promise<void> {
  log("isolation");
  const aliases = registry.map((e) => e.alias);
  // The large requests: the first API whose representative POST has an array member, that member holding
  // BAD_ITEMS items, of the wrong type (21 bytes each: about 9.45 MB) or copies of its example item (valid).
  const target = apis
    .map((api) => {
      const request = representativeRequest(api);
      const base = JSON.parse(request.body ?? "null");
      const key = base && typeof base === "object" ? Object.keys(base).find((k) => Array.isArray(base[k])) : undefined;
      return key ? { api, request, base, key } : undefined;
    })
    .find(Boolean);
  if (!target) throw new Error("no representative POST with an array member to fill");
  const sample = target.base[target.key][0];
  const bodies = [
    { name: "bad", item: typeof sample === "string" ? 12345678901234567000 : "a".repeat(18) },
    { name: "valid", item: sample },
  ];
  const other = apis.find((api) => api !== target.api)!;
  // A read (its GET with the most query parameters): in sandbox mode a create would fill its credential's state.
  const ops = representativeOperations(other);
  const op = ops.find((o) => o.method === "get") ?? ops[0];
  const row = (label: string, r: LoadResult) => [label, n0(r.requestsPerSecond), String(r.p50), String(r.p99), String(r.max)];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const kind of ["mock", "sandbox"] as const) {
    const mode = kind === "mock" ? "static" : "sandbox";
    const mock = await startServer({ type: "start", kind, aliases });
    const flooder = startHelper();
    try {
      const pool = await requestPool(other, op, "valid", POOL, mock.urls[other.entry.alias]);
      const run = { connections: CONNECTIONS, seconds: options.loadDuration / 2, distinct: true, pid: mock.pid };
      log(`  ${mode}: ${other.entry.alias} alone`);
      rows.push(row(`${mode}, alone`, await hammerPool(mock.urls[other.entry.alias], pool.requests, run)));
      for (const body of bodies) {
        await flooder.call(
          {
            type: "flood",
            url: mock.urls[target.api.entry.alias] + target.request.path,
            method: target.request.method,
            headers: target.request.headers,
            body: { base: target.base, key: target.key, items: BAD_ITEMS, item: body.item },
          },
          "flooding",
        );
        log(
          `  ${mode}: ${other.entry.alias} while ${target.api.entry.alias} receives ${BAD_ITEMS.toLocaleString("en-US")}-item ${body.name} requests`,
        );
        const during = await hammerPool(mock.urls[other.entry.alias], pool.requests, run);
        const flooded = await flooder.call<{ times: number[]; statuses: Record<string, number> }>({ type: "flood-stop" }, "flooded");
        rows.push(row(`${mode}, during the ${body.name} requests`, during));
        const bytes = JSON.stringify({ ...target.base, [target.key]: Array.from({ length: BAD_ITEMS }, () => body.item) }).length;
        notes.push(
          `${mode}, ${body.name} requests (${(bytes / 1e6).toFixed(2)} MB): ${flooded.times.length} answered (statuses ${JSON.stringify(flooded.statuses)}), median ${ms(median(flooded.times))} each`,
        );
      }
      notes.push(`${mode}: the mock process's peak RSS ${mem(peakRss(mock.pid))}`);
    } finally {
      await Promise.all([mock.stop(), flooder.stop()]);
    }
  }
  sections.push(
    [
      "## Isolation: one API's largest requests and another API's latency, static and sandbox mode",
      "",
      `Every mock in one process (as \`npm start\` and \`npm run mock\` run them); a body over ${LARGE_BODY_BYTES / 1024} KB is parsed and validated`,
      `by a worker thread of its mock (src/mock/judge.ts), not by the thread that answers every API; in sandbox mode a valid one comes back`,
      `only when the sandbox can keep it (src/mock/judge.ts). ${other.entry.alias} ${op.operationId} under distinct valid requests`,
      `(${CONNECTIONS} connections, ${options.loadDuration / 2} s) alone, then while another process sends ${target.api.entry.alias}`,
      `${target.request.operationId} one large request after another: its \`${target.key}\` array holding ${BAD_ITEMS.toLocaleString("en-US")} items`,
      "of the wrong type (bad), or copies of its example item (valid); the body limit is 10 MB.",
      "",
      table([`requests to ${other.entry.alias}`, "req/s", "p50 ms", "p99 ms", "max ms"], rows),
      "",
      `${notes.join("; ")}. On ${cpus().length} cores the worker's work still competes with the answering thread for the CPU, which is what remains of the delay.`,
    ].join("\n"),
  );
}

/** Moves the folder `dir` (what earlier starts kept) aside, so that the next start finds nothing kept. */
function setAside(dir: string): void {
  rmSync(`${dir}.aside`, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, `${dir}.aside`);
}

/** Removes what a start wrote in `dir` and puts back what setAside moved. */
function putBack(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  if (existsSync(`${dir}.aside`)) renameSync(`${dir}.aside`, dir);
}

/* 2. start-up of every registered mock, against a bare node:http server's */
async function startup(): Promise<void> {
  log("startup");
  const runs = 3;
  const tsxCli = join(repoRoot, "node_modules/tsx/dist/cli.mjs");
  const bin = join(repoRoot, "dist/src/cli/bin.js");
  /** cold: a first start, without what earlier starts kept (src/mock/operations-cache.ts). */
  const ways: Array<{ label: string; command: (base: number) => [string, string[]]; cold?: boolean }> = [
    {
      label: "`node --import tsx scripts/mock.ts` (what `npm run mock` runs: one process, from source)",
      command: (base) => [process.execPath, ["--import", "tsx", "scripts/mock.ts", "--port-base", String(base)]],
    },
    {
      label: "the same, a first start: Prism's operations not kept yet (after a change of a spec, or on a fresh machine)",
      command: (base) => [process.execPath, ["--import", "tsx", "scripts/mock.ts", "--port-base", String(base)]],
      cold: true,
    },
    {
      label:
        "`node --import tsx scripts/mock.ts --sandbox` (the same, the stateful sandbox: declarations checked, or found checked by an earlier start; engines and control API made on first use)",
      command: (base) => [process.execPath, ["--import", "tsx", "scripts/mock.ts", "--sandbox", "--port-base", String(base)]],
    },
    {
      label: "the same, a first start: nothing kept (Prism reads every spec, every declaration is checked against its document)",
      command: (base) => [process.execPath, ["--import", "tsx", "scripts/mock.ts", "--sandbox", "--port-base", String(base)]],
      cold: true,
    },
    {
      label: "`tsx scripts/mock.ts` (tsx's CLI starts a second node process)",
      command: (base) => [process.execPath, [tsxCli, "scripts/mock.ts", "--port-base", String(base)]],
    },
    {
      label: "`npm run mock` (npm's own start-up too)",
      command: (base) => ["npm", ["run", "--silent", "mock", "--", "--port-base", String(base)]],
    },
  ];
  if (existsSync(bin)) {
    ways.push(
      {
        label: "`node dist/src/cli/bin.js mock` (the built package's CLI, compiled, no tsx)",
        command: (base) => [process.execPath, [bin, "mock", "--port-base", String(base)]],
      },
      {
        label: "`node dist/src/cli/bin.js mock --sandbox` (the built CLI, the stateful sandbox)",
        command: (base) => [process.execPath, [bin, "mock", "--sandbox", "--port-base", String(base)]],
      },
    );
  }
  const floorWay = {
    label: "floor: `node -e` with a bare node:http server",
    command: (base: number): [string, string[]] => [
      process.execPath,
      ["-e", `require("node:http").createServer((q, s) => s.end()).listen(${base}, "127.0.0.1")`],
    ],
  };
  const times = new Map<string, number[]>();
  for (let i = 0; i < runs; i++) {
    // Interleaved, so that a change in the machine's load hits every way alike.
    for (const way of [floorWay, ...ways]) {
      const base = await freePortRange(registry.length);
      const urls = way === floorWay ? [`http://127.0.0.1:${base}/`] : registry.map((_, j) => `http://127.0.0.1:${base + j}/`);
      const [command, args] = way.command(base);
      // src/mock/operations-cache.ts: without its files, Prism reads every spec again (and, without its marks, every
      // declaration is checked again). A first start runs without them; what other ways keep is set aside and put back.
      const cold = "cold" in way && way.cold === true;
      if (cold) setAside(defaultCacheDir());
      const list = times.get(way.label) ?? [];
      try {
        list.push(await timeUntilAnswering(command, args, urls));
      } finally {
        if (cold) putBack(defaultCacheDir());
      }
      times.set(way.label, list);
    }
  }
  const floor = median(times.get(floorWay.label)!);
  const primary = median(times.get(ways[0].label)!);
  const sandboxStart = median(times.get(ways[2].label)!);
  const builtSandboxTimes = times.get(ways.find((way) => way.label.includes("bin.js mock --sandbox"))?.label ?? "");
  const builtSandbox = builtSandboxTimes && median(builtSandboxTimes);
  const rows = [...ways, floorWay].map((way) => {
    const t = median(times.get(way.label)!);
    return [way.label, ms(t), pct(t / STARTUP_TARGET_MS), x(t / floor)];
  });
  sections.push(
    [
      "## 2. Start-up",
      "",
      `From spawning the process until every one of the ${registry.length} registered mocks answers an HTTP request`,
      `(polled every 10 ms); median of ${runs}, the ways interleaved. The floor is a \`node -e\` process with a bare`,
      `\`node:http\` server.${existsSync(bin) ? "" : " (No dist/ build here, so the built CLI is not timed; `npm run build` makes it.)"}`,
      "Prism's reading of each spec, and with `--sandbox` each declaration's check, is kept between starts",
      "(src/mock/operations-cache.ts): every row but the first starts' finds them kept by an earlier start; a first start's",
      "row runs without them (set aside, then put back). With `--sandbox`, each engine and the control API are made on first use.",
      "",
      table(["how", "time", "of the 1 s target", "vs the floor"], rows),
      "",
      `Target at most 1 s for all APIs, one process from source: ${primary <= STARTUP_TARGET_MS ? "met" : "**not met**"} (${ms(primary)}; ` +
        `a first start ${ms(median(times.get(ways[1].label)!))}); with \`--sandbox\`: ` +
        `${sandboxStart <= STARTUP_TARGET_MS ? "met" : "**not met**"} (${ms(sandboxStart)})` +
        (builtSandbox === undefined
          ? "."
          : `; the built CLI with \`--sandbox\`: ${builtSandbox <= STARTUP_TARGET_MS ? "met" : "**not met**"} (${ms(builtSandbox)}).`),
    ].join("\n"),
  );
}

/* 3. generated client against plain openapi-fetch and raw fetch, on the same bare server (scripts/bench-client.ts) */
async function client(): Promise<void> {
  log("client");
  const seconds = Math.max(0.5, options.duration / 5);
  sections.push(clientSection(await measureClientCost(apis, { seconds, log }), { seconds }));
}

/* 4. type-check cost for a consumer importing every client */
async function typecheck(): Promise<void> {
  log("typecheck");
  const runs = 3;
  const empty = await typecheckTime(() => "export {};\n", runs);
  const all = await typecheckTime((dir) => consumerSource(registry, dir), runs);
  const added = all - empty;
  sections.push(
    [
      "## 4. Consumer type-check cost",
      "",
      `\`tsc --noEmit\` (the repository's compiler options) on a file that imports all ${registry.length} generated clients`,
      `and takes each factory, against an empty file; median of ${runs}.`,
      "",
      table(
        ["file", "tsc time", "added", "added, of the 1 s target"],
        [
          ["empty", ms(empty), "", ""],
          [`imports every client (${registry.length})`, ms(all), ms(added), pct(added / 1000)],
        ],
      ),
      "",
      `Target under 1 s added: ${added < 1000 ? "met" : "**not met**"}.`,
    ].join("\n"),
  );
}

/* Load: every operation of each mock at 50 connections, Prism answering every request */
async function load(): Promise<void> {
  log("load");
  const mock = await startServer({ type: "start", kind: "mock-nocache", aliases: registry.map((e) => e.alias) });
  const rows: string[][] = [];
  let failures = 0;
  try {
    for (const api of apis) {
      log(`  ${api.entry.alias} for ${options.loadDuration} s`);
      const requests = operations(api.doc).map((op) => specRequest(api, op));
      const before = await mock.memory();
      const result: LoadResult & { byOperation: Record<string, Record<string, number>> } = await hammerMany(
        mock.urls[api.entry.alias],
        requests,
        { connections: 50, seconds: options.loadDuration },
      );
      const after = await mock.memory();
      let unexpected = 0;
      let outsideContract = 0;
      for (const request of requests) {
        for (const [status, count] of Object.entries(result.byOperation[request.operationId] ?? {})) {
          if (Number(status) !== request.expected) unexpected += count;
          if (!declares(request.declared, Number(status))) outsideContract += count;
        }
      }
      if (result.errors > 0 || outsideContract > 0 || unexpected > 0) failures++;
      rows.push([
        api.entry.alias,
        String(requests.length),
        n0(result.total),
        n0(result.requestsPerSecond),
        `${result.p99}`,
        String(result.errors),
        String(result.timeouts),
        String(outsideContract),
        String(unexpected),
        `${mem(before.rss)} → ${mem(after.rss)} (${x(after.rss / before.rss)})`,
        `${mem(before.heapUsed)} → ${mem(after.heapUsed)} (${x(after.heapUsed / before.heapUsed)})`,
      ]);
    }
  } finally {
    await mock.stop();
  }
  sections.push(
    [
      "## Load",
      "",
      `${options.loadDuration} s at 50 connections on each mock, cycling through every operation's valid example request`,
      "(credentials, path and required parameters, request example), the mocks' response cache off (the fast path",
      "answers them). *Outside the contract*: statuses the operation does not declare;",
      "*unexpected*: anything but the operation's success status. Memory of the mock process after a full GC.",
      "",
      table(
        [
          "API",
          "operations",
          "requests",
          "req/s",
          "p99 ms",
          "errors",
          "timeouts",
          "outside the contract",
          "unexpected",
          "RSS before → after",
          "heap before → after",
        ],
        rows,
      ),
      "",
      failures === 0
        ? "Zero errors, zero timeouts, zero statuses outside the contract."
        : `**${failures} API(s) had errors or unexpected statuses.**`,
    ].join("\n"),
  );
}

/** The contract suites that run over any registry (auth.test.ts checks the repository's own, by hand-written tables). */
const GENERIC_CONTRACT_TESTS = [
  "tests/e2e/contract/mock.contract.test.ts",
  "tests/e2e/contract/examples.contract.test.ts",
  "tests/e2e/contract/judge.test.ts",
  "tests/e2e/contract/example-secrets.test.ts",
];

/* 5. the pipeline's stages, and how they grow with the registry */
async function pipeline(): Promise<void> {
  log("pipeline");
  const tsx = join(repoRoot, "node_modules/tsx/dist/cli.mjs");
  const vitest = join(repoRoot, "node_modules/vitest/vitest.mjs");
  const scripts = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts as Record<string, string>;
  const sizes = [
    { label: "1 API", registry: syntheticRegistry(registry.slice(0, 1), 1) },
    { label: `${registry.length} APIs (registered)`, registry: syntheticRegistry(registry, 1) },
    { label: `${registry.length * 4} APIs (4x copies)`, registry: syntheticRegistry(registry, 4) },
  ];
  const stages: Array<{ name: string; run: (config: string) => Promise<number> }> = [
    { name: "lint (`scripts/lint.ts`)", run: (config) => timeCommand(process.execPath, [tsx, "scripts/lint.ts", "--config", config]) },
    {
      name: "generate (`scripts/generate.ts`)",
      run: (config) => timeCommand(process.execPath, [tsx, "scripts/generate.ts", "--config", config]),
    },
    {
      name: "contract tests (`vitest run` of the generic suites of tests/e2e/contract)",
      run: (config) => timeCommand(process.execPath, [vitest, "run", ...GENERIC_CONTRACT_TESTS], { BANK_API_REGISTRY: config }),
    },
  ];
  if (scripts["docs:build"]) {
    stages.push({
      name: "docs (`npm run docs:build`)",
      run: (config) =>
        timeCommand("npm", ["run", "--silent", "docs:build", "--", "--config", config, "--out", join(dirname(config), "docs")]),
    });
  }
  const times: number[][] = stages.map(() => []);
  try {
    for (const size of sizes) {
      log(`  ${size.label}`);
      // generate first: the tests and the docs read the generated files of that registry.
      const order = [1, 0, ...stages.slice(2).map((_, i) => i + 2)];
      for (const i of order) times[i].push(await stages[i].run(size.registry.path));
    }
  } finally {
    for (const size of sizes) rmSync(size.registry.dir, { recursive: true, force: true });
  }
  // The whole suite once, as it stands: its time, and which files failed if any (not a benchmark matter).
  const suiteStarted = performance.now();
  const failedFiles = await timeCommand(process.execPath, [vitest, "run"], { NO_COLOR: "1", FORCE_COLOR: "0" }).then(
    () => [] as string[],
    (error: Error) => [...new Set([...error.message.matchAll(/FAIL\s+(tests\/[^\s>]+)/g)].map((m) => m[1]))],
  );
  const full = performance.now() - suiteStarted;
  const counts = sizes.map((s) => s.registry.apis);
  const rows = stages.map((stage, i) => {
    const [one, all, many] = times[i];
    const perApi = (many - one) / (counts[2] - counts[0]);
    return [stage.name, ms(one), ms(all), ms(many), x(all / one), x(many / all), ms(perApi)];
  });
  const totals = sizes.map((_, j) => times.reduce((sum, t) => sum + t[j], 0));
  rows.push([
    "**all stages**",
    ms(totals[0]),
    ms(totals[1]),
    ms(totals[2]),
    x(totals[1] / totals[0]),
    x(totals[2] / totals[1]),
    ms((totals[2] - totals[0]) / (counts[2] - counts[0])),
  ]);
  sections.push(
    [
      "## 5. Pipeline stages and growth",
      "",
      "Wall time of each stage over a registry of 1 API, of every registered API, and of 4 copies of each",
      "(temporary redocly.yaml files whose entries point at the real specs; generated files and the docs site",
      "go to a temporary folder). The last column is the marginal cost of one more API between the smallest",
      `and the largest registry.${scripts["docs:build"] ? "" : " There is no `docs:build` script, so no docs stage."}`,
      "",
      table(["stage", sizes[0].label, sizes[1].label, sizes[2].label, "registered / 1", "4x / registered", "per added API"], rows),
      "",
      `The whole test suite (\`vitest run\`, every test file, registered APIs): ${ms(full)}${failedFiles.length ? ` (it failed in ${failedFiles.join(", ")} at the time)` : ""}.`,
    ].join("\n"),
  );
}

const runners: Record<Part, () => Promise<void>> = {
  throughput,
  findings: async () => {
    sections.push(await findingsSection(apis, log));
  },
  sandbox: sandboxThroughput,
  hosted: async () => {
    log("hosted");
    sections.push(await hostedSection({ apis, duration: options.duration, connections: CONNECTIONS, log }));
  },
  store: async () => {
    log("store");
    sections.push(await storeSection({ duration: options.duration, log }));
  },
  isolation,
  startup,
  client,
  typecheck,
  load,
  pipeline,
};
/** The sections already in the report, or a misuse naming the file and line when it is not the bench's. */
function readReport(file: string, command: Command): Section[] {
  if (!existsSync(file)) return [];
  try {
    return parseResults(readFileSync(file, "utf8"), relative(process.cwd(), file), PARTS);
  } catch (error) {
    if (error instanceof ResultsFileError) misuse(command, error.message);
    throw error;
  }
}

/** Runs the parts `given` asks for and merges their sections into the report; the exit code. */
async function bench(given: { only?: string[]; duration: number; loadDuration: number; out: string; apis?: string[] }, command: Command) {
  const unknown = (given.only ?? []).filter((p) => !PARTS.includes(p as Part));
  if (unknown.length > 0) misuse(command, `unknown part(s) ${unknown.join(", ")}; known: ${PARTS.join(", ")}`);
  options = {
    parts: new Set((given.only ?? [...PARTS]) as Part[]),
    duration: given.duration,
    loadDuration: given.loadDuration,
    out: resolve(given.out),
    apis: given.apis,
  };
  apis = bundledApis().filter((api) => !options.apis || options.apis.includes(api.entry.alias));
  if (apis.length === 0) misuse(command, "--apis names no registered API");
  registry = apis.map((a) => a.entry);
  // Checked before measuring: a report the bench did not write is refused, not overwritten an hour later.
  const before = readReport(options.out, command);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), ${type()} ${release()}, Node ${process.version}`;
  const fresh: Section[] = [];
  // A part that fails is reported in its place; the others are still measured and written.
  const failed: string[] = [];
  for (const part of PARTS) {
    if (!options.parts.has(part)) continue;
    const started = new Date().toISOString();
    const load0 = loadavg()[0];
    const from = sections.length;
    let failure: true | undefined;
    try {
      await runners[part]();
    } catch (error) {
      failed.push(part);
      failure = true;
      log(`${part} failed: ${(error as Error).stack ?? error}`);
      sections.push(`## ${part}\n\n**Failed**: ${String((error as Error).message ?? error).split("\n")[0]}`);
    }
    const record = {
      command: commandLine(given, { duration: DEFAULT_DURATION, loadDuration: DEFAULT_LOAD_DURATION }),
      started,
      ended: new Date().toISOString(),
      load: [Number(load0.toFixed(2)), Number(loadavg()[0].toFixed(2))] as [number, number],
      machine,
      apis: registry.map((e) => e.alias),
      ...(failure ? { failed: failure } : {}),
    };
    fresh.push({ part, record, body: sections.slice(from).join("\n\n") });
  }
  // Read again: another run may have written its parts meanwhile.
  let existing = before;
  try {
    existing = readReport(options.out, command);
  } catch {
    log(
      `${relative(process.cwd(), options.out)} changed during the run and is no longer the bench's; merging into what it held at the start`,
    );
  }
  mkdirSync(dirname(options.out), { recursive: true });
  const temporary = `${options.out}.${process.pid}.tmp`;
  writeFileSync(temporary, renderResults(mergeSections(existing, fresh, PARTS)));
  renameSync(temporary, options.out);
  log(
    `wrote ${relative(process.cwd(), options.out)} (${fresh.map((s) => s.part).join(", ")}${failed.length ? `; failed, earlier section kept where there was one: ${failed.join(", ")}` : ""})`,
  );
  return failed.length ? 1 : 0;
}

function program() {
  return script("bench")
    .description("Measure the mock, the clients and the pipeline over every API of the registry, and write bench/RESULTS.md")
    .option("--only <parts>", `comma-separated parts to run (default: all): ${PARTS.join(",")}`, list)
    .option("--duration <s>", "seconds per throughput and client measurement", seconds, DEFAULT_DURATION)
    .option("--load-duration <s>", "seconds of load on each mock", seconds, DEFAULT_LOAD_DURATION)
    .option("--out <file>", "report to merge the parts' sections into", join(repoRoot, "bench/RESULTS.md"))
    .option("--apis <a,b>", "measure only these APIs (aliases; default: every registered one)", list)
    .action(bench);
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

if (isEntryPoint(import.meta.url)) {
  const code = await main(process.argv.slice(2));
  // Keep-alive sockets of the clients measured here would otherwise hold the process open.
  process.exit(code);
}
