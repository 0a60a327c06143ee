/**
 * The measurements behind `npm run bench` (scripts/bench.ts). Every server under test runs in a
 * child process (scripts/bench-serve.ts); the load generator (autocannon) and the clients run here.
 * Generic over the registry: the requests come from each API's bundled spec and its examples.
 */
import { type ChildProcess, execFile, fork, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import autocannon from "autocannon";
import fc from "fast-check";
import { parse, stringify } from "yaml";
import { type Doc, type Json, jsonRequest, type Operation, operations, successResponse, loadDocument } from "../src/document/index.js";
import { credentialHeaders, declaredErrorStatus, requestParams, requestUrl } from "../src/testing/requests.js";
import { specValidator } from "../src/validation/spec.js";
import { operationModel } from "./lib/fuzz/model.js";
import type { RecordedResponse, StartMessage } from "./bench-serve.js";
import { benchCredential } from "./lib/bench-credentials.js";
import { type ApiEntry, loadRegistry, repoRoot } from "../src/registry.js";

const run = promisify(execFile);

/* ------------------------------------------------------------------ servers in a child process */

export interface ServerProcess {
  urls: Record<string, string>;
  pid: number;
  /** Sends `message` and resolves with the reply of type `answer`. */
  call<T>(message: unknown, answer: string): Promise<T>;
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

function ask<T>(child: ChildProcess, message: unknown, answer: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: { type: string; message?: string }) => {
      if (reply.type === answer) {
        cleanup();
        resolve(reply as T);
      } else if (reply.type === "error") {
        cleanup();
        reject(new Error(`bench server: ${reply.message}`));
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`bench server exited (${code}) before answering ${JSON.stringify(message).slice(0, 80)}`));
    };
    const cleanup = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send(message as never);
  });
}

/** A child process of scripts/bench-serve.ts, not serving anything yet. */
export function startHelper(): { child: ChildProcess; call<T>(message: unknown, answer: string): Promise<T>; stop(): Promise<void> } {
  const child = fork(join(repoRoot, "scripts/bench-serve.ts"), [], {
    cwd: repoRoot,
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return {
    child,
    call: (message, answer) => ask(child, message, answer),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.send({ type: "stop" });
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

export async function startServer(message: StartMessage): Promise<ServerProcess> {
  const helper = startHelper();
  const started = await helper.call<{ urls: Record<string, string> }>(message, "started");
  return {
    urls: started.urls,
    pid: helper.child.pid!,
    call: helper.call,
    memory: async () => (await helper.call<{ memory: NodeJS.MemoryUsage }>({ type: "memory" }, "memory")).memory,
    stop: helper.stop,
  };
}

/** The peak resident set size of process `pid` so far (VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}

/* ------------------------------------------------------------------ requests from the specs */

export interface SpecRequest {
  alias: string;
  operationId: string;
  method: string;
  /** Path with parameters filled in and the query appended. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status Prism answers this request with (the lowest 2xx the operation declares). */
  expected: number;
  /** Every status the operation declares (`default` and ranges as given). */
  declared: string[];
}

export interface BundledApi {
  entry: ApiEntry;
  doc: Doc;
}

export function bundledApis(registryPath?: string): BundledApi[] {
  return loadRegistry(registryPath).map((entry) => ({ entry, doc: loadDocument(entry.bundlePath) }));
}

/** The valid request of an operation: its path and required parameters, a credential, the first request example. */
export function specRequest(api: BundledApi, op: Operation): SpecRequest {
  const params = requestParams(api.doc, op);
  const json = jsonRequest(api.doc, op);
  const example: Json = json?.examples[0]?.value;
  const headers: Record<string, string> = { ...params.header, ...credentialHeaders(api.doc, op) };
  if (json) headers["content-type"] = json.mediaType;
  return {
    alias: api.entry.alias,
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: requestUrl(op, params),
    headers,
    body: json && example !== undefined ? JSON.stringify(example) : undefined,
    expected: successResponse(op).status,
    declared: Object.keys(op.responses),
  };
}

/**
 * The API's representative POST: of its POST operations with a JSON request example, the one with
 * the largest example (the most for the validator to do); else its first operation.
 */
export function representativeRequest(api: BundledApi): SpecRequest {
  const all = operations(api.doc).map((op) => specRequest(api, op));
  if (all.length === 0) throw new Error(`${api.entry.alias}: the spec has no operations`);
  const posts = all.filter((r) => r.method === "POST" && r.body !== undefined);
  return posts.sort((a, b) => b.body!.length - a.body!.length)[0] ?? all[0];
}

/**
 * The API's representative operations: its POST with the largest JSON request example (the most
 * for the validator to do), and its GET with the most query parameters (else its first GET).
 */
export function representativeOperations(api: BundledApi): Operation[] {
  const ops = operations(api.doc);
  const post = ops.find((op) => specRequest(api, op).operationId === representativeRequest(api).operationId)!;
  const gets = ops.filter((op) => op.method === "get");
  const queries = (op: Operation) => op.parameters.filter((p) => p.value.in === "query").length;
  const get = [...gets].sort((a, b) => queries(b) - queries(a))[0];
  return get && get !== post ? [post, get] : [post];
}

/**
 * `count` distinct requests of an operation, generated from its schemas by the fuzz model (seeded):
 * valid ones, or invalid ones (one mutation each: wrong type, missing required member, out-of-enum
 * value, oversized string), each kept only when `url` (the mock) answers it with `status` (the
 * operation's success status for valid ones, its declared invalid status for invalid ones): a pool
 * of requests whose answers all have the same status.
 */
export async function requestPool(
  api: BundledApi,
  op: Operation,
  kind: "valid" | "invalid",
  count: number,
  url: string,
): Promise<{ requests: SpecRequest[]; status: number }> {
  const model = operationModel(api.entry.alias, api.doc, op, specValidator(api.doc));
  const kinds = kind === "valid" ? (["valid"] as const) : model.kinds.filter((k) => k !== "valid" && k !== "broken-json");
  if (kinds.length === 0) return { requests: [], status: 0 };
  const status = kind === "valid" ? successResponse(op).status : declaredErrorStatus(op, [422, 400], 422);
  const seen = new Set<string>();
  const requests: SpecRequest[] = [];
  for (const k of kinds) {
    const arbitrary = model.arbitrary(k).filter((c) => c !== undefined);
    for (const c of fc.sample(arbitrary, { seed: 18, numRuns: Math.ceil((count * 2) / kinds.length) })) {
      const r = model.request(c!);
      const key = JSON.stringify(r);
      if (seen.has(key)) continue;
      seen.add(key);
      const response = await fetch(url + r.path, { method: r.method, headers: r.headers, body: r.body });
      await response.arrayBuffer();
      if (response.status !== status) continue;
      requests.push({ ...specRequest(api, op), ...r, expected: status });
    }
  }
  return { requests: requests.slice(0, count), status };
}

/**
 * What judging the requests costs by itself: CPU µs per request, in this process, of the work the
 * mock must do for each of them before it can answer (decoding the body and JSON.parse, then the
 * security and input checks of src/mock/validate.ts, Prism's checks), over the pool, cycled until
 * at least JUDGING_CPU_MS of CPU were used. No mock that judges every request can cost less per
 * request than a bare server plus this; in a loop, though, the judging runs with its code and data
 * hot in the caches, which a server's request never has (its parsing, the socket, other work come
 * between): bench-serve.ts `judged` measures the same bound as a server in the mock's process.
 */
export async function judgingCost(api: BundledApi, requests: SpecRequest[]): Promise<number> {
  const [{ loadOperations, requestElement }, { decodeBody }, { inputFindings, securityFindings }] = await Promise.all([
    import("../src/mock/server.js"),
    import("../src/mock/judge.js"),
    import("../src/mock/validate.js"),
  ]);
  const prismOps = await (judgingOperations[api.entry.bundlePath] ??= loadOperations(api.entry.bundlePath));
  const cases = requests.map((r) => {
    const bytes = r.body === undefined ? undefined : Buffer.from(r.body);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(r.headers)) headers[name.toLowerCase()] = value;
    if (bytes) headers["content-length"] = String(bytes.length);
    const op = prismOps.find((o) => o.method === r.method.toLowerCase() && o.path === requestOperationPath(api, r));
    if (!op) throw new Error(`${api.entry.alias}: no operation for ${r.method} ${r.path}`);
    return { op, bytes, element: requestElement(r.method, r.path, headers, bytes?.length ?? 0) };
  });
  const judgeAll = () => {
    for (const { op, bytes, element } of cases) {
      const decoded = bytes ? decodeBody(bytes, element.headers?.["content-type"] as string | undefined) : { value: null };
      const full = { ...element, body: typeof decoded === "string" ? undefined : decoded.value };
      securityFindings(op, full);
      inputFindings(op, full);
    }
  };
  judgeAll(); // validators compiled, code warmed
  let rounds = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < JUDGING_CPU_MS * 1000) {
    judgeAll();
    rounds++;
    const now = process.cpuUsage(start);
    used = now.user + now.system;
  }
  return used / (rounds * cases.length);
}
const JUDGING_CPU_MS = 300;
const judgingOperations: Record<string, Promise<import("../src/mock/server.js").Operation[]>> = {};

/** The path template of the operation a request was made for. */
function requestOperationPath(api: BundledApi, r: SpecRequest): string {
  const op = operations(api.doc).find((o) => o.operationId === r.operationId);
  if (!op) throw new Error(`${api.entry.alias}: no operation ${r.operationId}`);
  return op.path;
}

/** CPU time (user + system, ms) the process `pid` has used so far, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
/** USER_HZ: the unit of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * autocannon at `connections` for `seconds`, each connection cycling through `requests`; with
 * `distinct`, every body gets insignificant leading whitespace that spells a counter, so that no two
 * requests are the same bytes. With `pid`, the server process's CPU time per request (µs) too.
 */
export async function hammerPool(
  url: string,
  requests: SpecRequest[],
  { connections, seconds, distinct = false, pid }: { connections: number; seconds: number; distinct?: boolean; pid?: number },
): Promise<LoadResult & { cpuPerRequest?: number }> {
  let counter = 0;
  const before = pid === undefined ? 0 : cpuMs(pid);
  const result = await autocannon({
    url: url + requests[0].path,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: requests[0].method as autocannon.Request["method"],
        path: requests[0].path,
        headers: requests[0].headers,
        body: requests[0].body,
        ...(requests.length > 1 || distinct
          ? {
              setupRequest: (req: autocannon.Request) => {
                const n = counter++;
                const r = requests[n % requests.length];
                const body = r.body !== undefined && distinct ? padded(r.body, n) : r.body;
                return { ...req, method: r.method as autocannon.Request["method"], path: r.path, headers: r.headers, body };
              },
            }
          : {}),
      },
    ],
  });
  const summary = summarise(result);
  if (pid === undefined) return summary;
  return { ...summary, cpuPerRequest: ((cpuMs(pid) - before) * 1000) / Math.max(summary.total, 1) };
}

/** Sends one request and records the answer as bytes, for the bare server to replay. */
export async function record(url: string, request: SpecRequest): Promise<RecordedResponse> {
  const response = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  const headers: Array<[string, string]> = [];
  response.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) headers.push([name, value]);
  });
  return { status: response.status, headers, body: await response.text() };
}

/* ------------------------------------------------------------------ load (autocannon) */

export interface LoadResult {
  requestsPerSecond: number;
  p99: number;
  max: number;
  p50: number;
  total: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

function summarise(result: autocannon.Result): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {},
  )) {
    statuses[code] = Number(stat.count);
  }
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    max: result.latency.max,
    p50: result.latency.p50,
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
  };
}

/**
 * Insignificant whitespace before the JSON that spells `n` in base 4: every body differs in its
 * bytes (so no cache can answer it) and parses to the same value.
 */
export function padded(body: string, n: number): string {
  let pad = "";
  do {
    pad += " \t\n\r"[n % 4];
    n = Math.floor(n / 4);
  } while (n > 0);
  return pad + body;
}

/**
 * autocannon on one request sent with a distinct credential each time (`credentialHeader` set to
 * `bench-<n>`), cycling through 900 of them: in sandbox mode the requests spread over that many
 * states (a create adds one record to its credential's state; the sandbox keeps at most 1000
 * credentials and refuses a new one while all are in recent use, so more would measure its 507), in
 * static mode nothing changes (Prism checks presence only).
 */

/** String members whose value the provider keeps unique per merchant: `"..._reference_id": "x"` and `"reference_id": "x"`. */
const UNIQUE_REFERENCE = /("(?:\w+_)?reference_id"\s*:\s*"[^"]*)"/g;

/** Requests sent by hammerCredentials in this process: a credential's references never repeat across runs. */
let requestNumber = 0;

/**
 * The `n`th of the distinct requests hammerCredentials sends: its credential (`bench-<n mod 900>`, as
 * the credential header carries it) and its body, with every reference the provider keeps unique per
 * merchant (disbursement's reference_id) made distinct: a repeated one is refused (400) as the provider does.
 */
export function distinctRequest(body: string | undefined, n: number, bearer: boolean): { credential: string; body: string | undefined } {
  const credential = benchCredential(n);
  return { credential: bearer ? `Bearer ${credential}` : credential, body: body?.replace(UNIQUE_REFERENCE, `$1-${n}"`) };
}

/** The next request number (shared with hammerCredentials, so that references never repeat in a process). */
export const nextRequestNumber = (): number => requestNumber++;

export async function hammerCredentials(
  url: string,
  request: SpecRequest,
  { connections, seconds, credentialHeader, pid }: { connections: number; seconds: number; credentialHeader: string; pid?: number },
): Promise<LoadResult & { cpuPerRequest?: number }> {
  const before = pid === undefined ? 0 : cpuMs(pid);
  const bearer = credentialHeader.toLowerCase() === "authorization";
  const result = await autocannon({
    url: url + request.path,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: request.method as autocannon.Request["method"],
        path: request.path,
        headers: request.headers,
        body: request.body,
        setupRequest: (req: autocannon.Request) => {
          // Distinct on both sides alike (distinctRequest).
          const distinct = distinctRequest(typeof req.body === "string" ? req.body : undefined, requestNumber++, bearer);
          const headers = { ...req.headers, [credentialHeader]: distinct.credential };
          return { ...req, headers, body: distinct.body ?? req.body };
        },
      },
    ],
  });
  const summary = summarise(result);
  if (pid === undefined) return summary;
  return { ...summary, cpuPerRequest: ((cpuMs(pid) - before) * 1000) / Math.max(summary.total, 1) };
}

/** The header an operation's credential travels in (`authorization` or the API-key header). */
export function credentialHeaderOf(request: SpecRequest): string {
  const names = Object.keys(request.headers).map((h) => h.toLowerCase());
  return names.find((h) => h === "authorization") ?? names.find((h) => h.includes("key")) ?? "authorization";
}

/** autocannon cycling through `requests` (one after another on each connection), each status tallied per operation. */
export async function hammerMany(
  url: string,
  requests: SpecRequest[],
  { connections, seconds }: { connections: number; seconds: number },
): Promise<LoadResult & { byOperation: Record<string, Record<string, number>> }> {
  const byOperation: Record<string, Record<string, number>> = {};
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 10,
    requests: requests.map((request) => ({
      method: request.method as autocannon.Request["method"],
      path: request.path,
      headers: request.headers,
      body: request.body,
      onResponse: (status: number) => {
        const tally = (byOperation[request.operationId] ??= {});
        tally[status] = (tally[status] ?? 0) + 1;
      },
    })),
  });
  return { ...summarise(result), byOperation };
}

/** True when the operation declares `status` (exactly, as a range like 4XX, or by `default`). */
export function declares(declared: string[], status: number): boolean {
  const codes = declared.map((c) => c.toUpperCase());
  return codes.includes(String(status)) || codes.includes(`${String(status)[0]}XX`) || codes.includes("DEFAULT");
}

/* ------------------------------------------------------------------ start-up */

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Milliseconds from spawning `command` until every URL answers an HTTP request (any status),
 * polling every 10 ms; the process is then stopped.
 */
export async function timeUntilAnswering(command: string, args: string[], urls: string[], timeoutMs = 60_000): Promise<number> {
  const taken = (await Promise.all(urls.map(async (url) => ((await answers(url)) ? url : undefined)))).filter(Boolean);
  if (taken.length > 0) throw new Error(`something already answers on ${taken.join(", ")}; cannot time a start-up there`);
  const started = performance.now();
  // A process group of its own: `npm run` and tsx's CLI start the mock as a child of theirs, which
  // must be stopped with them (left running, it would hold its ports into the next measurement).
  const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  try {
    const pending = new Set(urls);
    while (pending.size > 0) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited ${child.exitCode}: ${stderr}`);
      if (performance.now() - started > timeoutMs) throw new Error(`${command} ${args.join(" ")}: not answering after ${timeoutMs} ms`);
      const done = await Promise.all([...pending].map(async (url) => ((await answers(url)) ? url : undefined)));
      for (const url of done) if (url) pending.delete(url);
      if (pending.size > 0) await new Promise((r) => setTimeout(r, 10));
    }
    return performance.now() - started;
  } finally {
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // the group is gone
      }
    };
    group("SIGTERM");
    // Stopped when nothing answers on its ports any more (at most 5 s, then the group is killed).
    const until = performance.now() + 5000;
    while (performance.now() < until && (await Promise.all(urls.map(answers))).some(Boolean)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    group("SIGKILL");
  }
}

/* ------------------------------------------------------------------ client overhead */

/**
 * `call` run by `concurrency` loops for `seconds` in this process: requests per second, and this
 * process's CPU time (user + system, µs) per call.
 */
export async function cpuRate(
  call: () => Promise<unknown>,
  { concurrency, seconds }: { concurrency: number; seconds: number },
): Promise<{ rps: number; cpuPerCall: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await call();
        done++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: done / ((performance.now() - started) / 1000), cpuPerCall: (used.user + used.system) / Math.max(done, 1) };
}

/* ------------------------------------------------------------------ consumer type-check */

/**
 * Median wall time (ms) of `tsc --noEmit -p` on a project (in a temporary folder under the repository
 * root, the repository's compiler options) holding one file, `source(folder)`.
 */
export async function typecheckTime(source: (dir: string) => string, runs: number): Promise<number> {
  const dir = mkdtempSync(join(repoRoot, ".tmp-bench-tsc-"));
  try {
    writeFileSync(join(dir, "consumer.ts"), source(dir));
    const base = parse(readFileSync(join(repoRoot, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "")) as { compilerOptions: object };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: base.compilerOptions, files: ["consumer.ts"] }));
    const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run(process.execPath, [tsc, "--noEmit", "-p", join(dir, "tsconfig.json")], { cwd: dir });
      times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A consumer module that imports every registered client and creates each one. */
export function consumerSource(registry: ApiEntry[], fromDir: string): string {
  const lines = registry.map((entry, i) => {
    let path = relative(fromDir, entry.clientPath).replace(/\.ts$/, ".js").replaceAll("\\", "/");
    if (!path.startsWith(".")) path = `./${path}`;
    return `import * as api${i} from "${path}";`;
  });
  const uses = registry.map((_, i) => `export const client${i} = Object.values(api${i}).find((v) => typeof v === "function");`);
  return [...lines, ...uses, ""].join("\n");
}

/* ------------------------------------------------------------------ pipeline */

/**
 * A registry in a temporary folder: `copies` copies of each given entry (aliases
 * `<service>-c<k>@<release>` for k > 1), every root pointing at the real spec file and every other
 * setting of the real redocly.yaml kept. Generated files then go to that folder, not to generated/.
 */
export function syntheticRegistry(entries: ApiEntry[], copies: number): { path: string; dir: string; apis: number } {
  const config = parse(readFileSync(join(repoRoot, "redocly.yaml"), "utf8")) as { apis: Record<string, Record<string, unknown>> };
  const dir = mkdtempSync(join(tmpdir(), "bench-registry-"));
  const apis: Record<string, Record<string, unknown>> = {};
  for (let k = 1; k <= copies; k++) {
    for (const entry of entries) {
      const alias = k === 1 ? entry.alias : `${entry.service}-c${k}@${entry.release}`;
      apis[alias] = { ...config.apis[entry.alias], root: entry.rootPath };
    }
  }
  const path = join(dir, "redocly.yaml");
  writeFileSync(path, stringify({ ...config, apis }));
  return { path, dir, apis: Object.keys(apis).length };
}

/** Wall time (ms) of one command; throws with its output when it fails. */
export async function timeCommand(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const started = performance.now();
  try {
    await run(command, args, { cwd: repoRoot, env: { ...process.env, REDOCLY_TELEMETRY: "off", ...env }, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(" ")} failed: ${e.message}\n${(e.stdout ?? "").slice(-2000)}\n${(e.stderr ?? "").slice(-2000)}`,
    );
  }
  return performance.now() - started;
}

/* ------------------------------------------------------------------ small helpers */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
