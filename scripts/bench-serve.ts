/**
 * Child process of the benchmarks: serves one kind of server and answers its parent over IPC, so
 * that the load generator (the parent) and the server under test each have a process (and, on a
 * 2-core machine, a core) of their own.
 *
 * Messages from the parent:
 * - `{ type: "start", kind: "bare", response }`: a bare node:http server replaying `response`
 *   (status, headers, body) to every request after reading the request body: the ceiling.
 * - `{ type: "start", kind: "judged", response, spec, method, path }`: the same bare server, except
 *   that before it replays `response` it judges the request as the mock must (the mock's request
 *   element, the body decoded and parsed, Prism's security and input checks of validate.ts, against
 *   the operation `method` `path` of the spec file `spec`): the bare server plus the judging, under
 *   the same load. Sent to the mock's own helper, it runs in the mock's process (the same code,
 *   heap and compiled validators): the least a mock that judges every request can cost there.
 * - `{ type: "close", url }`: closes the server at `url` started by this helper; replies `{ type: "closed" }`.
 * - `{ type: "start", kind: "mock" | "mock-nocache" | "sandbox", aliases, registry? }`: this
 *   project's mocks (src/mock), with or without the response cache, or in sandbox mode (src/sandbox).
 * - `{ type: "start", kind: "mock-hooked", aliases, registry? }`: the mocks with an `answer` hook that
 *   keeps Prism's answer (what a layer over the mock, such as the sandbox, costs at the least).
 * - `{ type: "start", kind: "sandbox-local" | "sandbox-hosted", aliases, registry? }`: the sandbox
 *   as `startMocks` starts it, local (loopback) or in hosted mode (`mock --sandbox --hosted`: the
 *   credential gate, rate limit, quotas, request log and metrics), the hosted log's lines written to
 *   /dev/null and the bench's credentials (scripts/bench-measure.ts `benchCredential`) issued to
 *   partners whose rate never limits them, so that both serve the same requests alike.
 * - `{ type: "start", kind: "prism-stock", aliases, registry? }`: Prism's own in-process server
 *   (@stoplight/prism-http-server createServer, pino silent): the mock as it was before (the baseline).
 * - `{ type: "flood", request }`: sends `request` (its body built here: `body.base` with the array
 *   member `body.key` holding `body.items` copies of `body.item`) over and over, one at a time,
 *   until `{ type: "flood-stop" }`, which replies `{ type: "flooded", times, statuses }`.
 * - `{ type: "memory" }`: replies with process.memoryUsage() after a full GC.
 * - `{ type: "engine-timing", on }` (a `sandbox` server): from `on: true`, the sandbox's own work on
 *   each request (its `answer` and `validateAnswer` hooks) is timed in CPU; `on: false` stops and
 *   replies `{ type: "engine-timed", requests, cpuUs }` (requests the hook answered, their CPU µs).
 * - `{ type: "pauses", on }`: from `on: true`, the main thread's garbage-collection pauses are
 *   added up; `on: false` stops and replies `{ type: "paused", gcUs }` (their sum, µs).
 * Replies `{ type: "started", urls: { [alias]: url } }` or `{ type: "error", message }`. It serves
 * only when forked as the entry point; importing it (for its message types) runs nothing.
 */
import { createWriteStream } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { PerformanceObserver } from "node:perf_hooks";
import { findApi, loadRegistry } from "../src/registry.js";
import { startStockPrism } from "./lib/stock-prism.js";
import { closeMocks, type MockServer, startMocks } from "../src/mock/index.js";
import { cachedOperations } from "../src/mock/operations-cache.js";
import { createPrismServer, loadOperations } from "../src/mock/server.js";
import { decodeBody } from "../src/mock/judge.js";
import { inputFindings, securityFindings } from "../src/mock/validate.js";
import { requestElement } from "../src/mock/route.js";
import type { MockHooks } from "../src/mock/types.js";
import { startSandbox } from "../src/sandbox/start.js";
import { credentialKey } from "../src/sandbox/store/state.js";
import { QUOTAS } from "../src/hosted/quotas.js";
import { benchCredential, CREDENTIAL_POOL } from "./lib/bench-credentials.js";
import { isEntryPoint } from "./lib/cli.js";

export interface RecordedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

export type StartMessage =
  | { type: "start"; kind: "bare"; response: RecordedResponse }
  | { type: "start"; kind: "judged"; response: RecordedResponse; spec: string; method: string; path: string }
  | {
      type: "start";
      kind: "mock" | "mock-nocache" | "mock-hooked" | "sandbox" | "sandbox-local" | "sandbox-hosted" | "prism-stock";
      aliases: string[];
      registry?: string;
    };

export interface FloodMessage {
  type: "flood";
  url: string;
  method: string;
  headers: Record<string, string>;
  body: { base: Record<string, unknown>; key: string; items: number; item: unknown };
}

type Closer = () => Promise<void>;
const closers: Closer[] = [];
/** The servers of `bare` and `judged` messages by URL, for `close`. */
const byUrl = new Map<string, Closer>();

async function startBare(response: RecordedResponse): Promise<Record<string, string>> {
  const body = Buffer.from(response.body);
  const headers = response.headers.flat();
  return {
    bare: await listenBare((request, reply) => {
      request.resume();
      request.once("end", () => {
        reply.writeHead(response.status, headers);
        reply.end(body);
      });
    }),
  };
}

/**
 * The bare server plus the judging (the `judged` message): the body read as the mock reads it (its
 * chunks kept), then what the benchmark's judging column measures in a loop (scripts/bench-measure.ts
 * judgingCost), done here per request, then the recorded answer replayed.
 */
async function startJudged(message: Extract<StartMessage, { kind: "judged" }>): Promise<Record<string, string>> {
  const operation = (await loadOperations(message.spec)).find((o) => o.method === message.method.toLowerCase() && o.path === message.path);
  if (!operation) throw new Error(`${message.spec}: no operation ${message.method} ${message.path}`);
  const body = Buffer.from(message.response.body);
  const headers = message.response.headers.flat();
  return {
    judged: await listenBare((request, reply) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.once("end", () => {
        const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        const element = requestElement(request.method, request.url, request.headers, bytes.length);
        const decoded = bytes.length > 0 ? decodeBody(bytes, request.headers["content-type"]) : { value: null };
        const full = { ...element, body: typeof decoded === "string" ? undefined : decoded.value };
        securityFindings(operation, full);
        inputFindings(operation, full);
        reply.writeHead(message.response.status, headers);
        reply.end(body);
      });
    }),
  };
}

/** Listens on a free port of 127.0.0.1 with `handler`; the server closes on `stop`, or alone on `close`. */
async function listenBare(handler: (request: IncomingMessage, reply: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("bare server has no address");
  const url = `http://127.0.0.1:${address.port}`;
  const close: Closer = () => {
    byUrl.delete(url);
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  closers.push(() => (byUrl.has(url) ? close() : Promise.resolve()));
  byUrl.set(url, close);
  return url;
}

/** The mock as src/mock built it before the HTTP layer was replaced: Prism's server, pino silent. */
async function startPrismStock(aliases: string[], registryPath?: string): Promise<Record<string, string>> {
  const registry = loadRegistry(registryPath);
  const urls: Record<string, string> = {};
  for (const alias of aliases) {
    const entry = findApi(alias, registry);
    const server = await startStockPrism(entry.bundlePath);
    urls[alias] = server.url;
    closers.push(() => server.close());
  }
  return urls;
}

/** The sandbox's hooks of each API a `sandbox` server serves, as startMock attached them (timed on demand). */
const sandboxHooks: MockHooks[] = [];
const timing = { requests: 0, cpuUs: 0, untimed: new Map<MockHooks, Pick<MockHooks, "answer" | "validateAnswer">>() };
/** The main thread's garbage-collection pauses (perf_hooks' `gc` entries) while observed (`pauses`), µs. */
let paused = 0;
const pauses = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) paused += entry.duration * 1000;
});

/** Observes the garbage-collection pauses (`on`) or stops; the pauses since the last `on`, µs. */
function observePauses(on: boolean): number {
  const since = paused;
  paused = 0;
  if (on) pauses.observe({ entryTypes: ["gc"] });
  else pauses.disconnect();
  return since;
}

/** The CPU µs (user + system) `call` takes, added to timing.cpuUs. */
function timed<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    const start = process.cpuUsage();
    try {
      return call(...args);
    } finally {
      const used = process.cpuUsage(start);
      timing.cpuUs += used.user + used.system;
    }
  };
}

/** Times the sandbox's hooks (`on`) or puts the untimed ones back; the figures since the last `on`. */
function engineTiming(on: boolean): { requests: number; cpuUs: number } {
  const figures = { requests: timing.requests, cpuUs: timing.cpuUs };
  for (const hooks of sandboxHooks) {
    const untimed = timing.untimed.get(hooks) ?? { answer: hooks.answer, validateAnswer: hooks.validateAnswer };
    timing.untimed.set(hooks, untimed);
    if (!on || !untimed.answer) {
      Object.assign(hooks, untimed);
      continue;
    }
    const answer = timed(untimed.answer);
    hooks.answer = (request) => {
      timing.requests++;
      return answer(request);
    };
    if (untimed.validateAnswer) hooks.validateAnswer = timed(untimed.validateAnswer);
  }
  timing.requests = 0;
  timing.cpuUs = 0;
  return figures;
}

async function startOwnMocks(aliases: string[], cache: boolean, registryPath?: string, sandbox = false): Promise<Record<string, string>> {
  const registry = loadRegistry(registryPath);
  if (sandbox) {
    // As startMock with `sandbox` (src/mock/index.ts), keeping the hooks it attaches (engineTiming).
    const urls: Record<string, string> = {};
    for (const alias of aliases) {
      const entry = findApi(alias, registry);
      const started = await startSandbox(entry, { binding: "127.0.0.1" }, entry.bundlePath);
      const hooks = { ...started.hooks };
      sandboxHooks.push(hooks);
      const server = createPrismServer(await cachedOperations(entry.bundlePath, loadOperations), { cache, hooks });
      urls[alias] = await server.listen(0, "127.0.0.1");
      closers.push(async () => {
        started.close();
        await server.close();
      });
    }
    return urls;
  }
  const mocks: MockServer[] = await startMocks(
    aliases.map((alias) => findApi(alias, registry)),
    { freePorts: true, cache, sandbox },
  );
  closers.push(() => closeMocks(mocks));
  return Object.fromEntries(mocks.map((m) => [m.alias, m.url]));
}

/** The operator's token of a hosted bench server (its own process: nothing else reads it). */
const BENCH_OPERATOR_TOKEN = "operator-token-of-the-bench-only";

/**
 * The sandbox through startMocks, local or hosted; hosted, its log to /dev/null and every bench
 * credential issued to a partner at the highest rate and burst (the gate and the limiter still count
 * each request).
 */
async function startSandboxMocks(aliases: string[], hosted: boolean, registryPath?: string): Promise<Record<string, string>> {
  const registry = loadRegistry(registryPath);
  const entries = aliases.map((alias) => findApi(alias, registry));
  const log = createWriteStream("/dev/null");
  const sandbox = hosted ? { operatorToken: BENCH_OPERATOR_TOKEN, hosted: { log } } : true;
  const mocks = await startMocks(entries, { freePorts: true, sandbox });
  closers.push(async () => {
    await closeMocks(mocks);
    log.end();
  });
  const service = mocks[0]?.hosted;
  if (service) {
    const unlimited = { requestsPerSecond: QUOTAS.requestsPerSecond.max, burst: QUOTAS.burst.max };
    for (let i = 0; i < CREDENTIAL_POOL; i++) {
      await service.partners.store.putPartner({
        id: `ptn_bench_${i}`,
        name: `bench ${i}`,
        credentialKey: credentialKey(benchCredential(i)),
        createdAt: new Date(0).toISOString(),
        quotas: unlimited,
      });
    }
  }
  return Object.fromEntries(mocks.map((m) => [m.alias, m.url]));
}

async function startHookedMocks(aliases: string[], registryPath?: string): Promise<Record<string, string>> {
  const registry = loadRegistry(registryPath);
  const urls: Record<string, string> = {};
  for (const alias of aliases) {
    const server = createPrismServer(await loadOperations(findApi(alias, registry).bundlePath), { hooks: { answer: () => undefined } });
    urls[alias] = await server.listen(0, "127.0.0.1");
    closers.push(() => server.close());
  }
  return urls;
}

let flooding: Promise<{ times: number[]; statuses: Record<string, number> }> | undefined;
let stopFlood = false;

async function flood(message: FloodMessage) {
  const { base, key, items, item } = message.body;
  const body = JSON.stringify({ ...base, [key]: Array.from({ length: items }, () => item) });
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  while (!stopFlood) {
    const started = performance.now();
    const response = await fetch(message.url, { method: message.method, headers: message.headers, body });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  return { times, statuses };
}

function reply(message: unknown): void {
  process.send?.(message);
}

type Message =
  | StartMessage
  | FloodMessage
  | { type: "memory" }
  | { type: "stop" }
  | { type: "flood-stop" }
  | { type: "close"; url: string }
  | { type: "engine-timing"; on: boolean }
  | { type: "pauses"; on: boolean };

/** Answers the parent's messages: what a child forked by bench-measure.ts does; importing the module does nothing. */
export function serveParent(): void {
  process.on("message", async (message: Message) => {
    try {
      if (message.type === "flood") {
        stopFlood = false;
        flooding = flood(message);
        reply({ type: "flooding" });
      } else if (message.type === "flood-stop") {
        stopFlood = true;
        reply({ type: "flooded", ...(await flooding) });
      } else if (message.type === "memory") {
        (globalThis as { gc?: () => void }).gc?.();
        reply({ type: "memory", memory: process.memoryUsage() });
      } else if (message.type === "pauses") {
        reply({ type: "paused", gcUs: observePauses(message.on) });
      } else if (message.type === "engine-timing") {
        reply({ type: "engine-timed", ...engineTiming(message.on) });
      } else if (message.type === "stop") {
        await Promise.all(closers.map((close) => close()));
        process.exit(0);
      } else if (message.type === "close") {
        await byUrl.get(message.url)?.();
        reply({ type: "closed" });
      } else if (message.kind === "bare") {
        reply({ type: "started", urls: await startBare(message.response) });
      } else if (message.kind === "judged") {
        reply({ type: "started", urls: await startJudged(message) });
      } else if (message.kind === "mock-hooked") {
        reply({ type: "started", urls: await startHookedMocks(message.aliases, message.registry) });
      } else if (message.kind === "sandbox-local" || message.kind === "sandbox-hosted") {
        reply({ type: "started", urls: await startSandboxMocks(message.aliases, message.kind === "sandbox-hosted", message.registry) });
      } else if (message.kind === "prism-stock") {
        reply({ type: "started", urls: await startPrismStock(message.aliases, message.registry) });
      } else {
        reply({
          type: "started",
          urls: await startOwnMocks(message.aliases, message.kind === "mock", message.registry, message.kind === "sandbox"),
        });
      }
    } catch (error) {
      reply({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
  process.on("disconnect", () => process.exit(0));
}

if (isEntryPoint(import.meta.url)) serveParent();
