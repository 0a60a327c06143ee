/**
 * Child process of the benchmarks: serves one kind of server and answers its parent over IPC, so
 * that the load generator (the parent) and the server under test each have a process (and, on a
 * 2-core machine, a core) of their own.
 *
 * Messages from the parent:
 * - `{ type: "start", kind: "bare", response }`: a bare node:http server replaying `response`
 *   (status, headers, body) to every request after reading the request body: the ceiling.
 * - `{ type: "start", kind: "mock" | "mock-nocache" | "sandbox", aliases, registry? }`: this
 *   project's mocks (src/mock), with or without the response cache, or in sandbox mode (src/sandbox).
 * - `{ type: "start", kind: "mock-hooked", aliases, registry? }`: the mocks with an `answer` hook that
 *   keeps Prism's answer (what a layer over the mock, such as the sandbox, costs at the least).
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
import { createServer } from "node:http";
import { PerformanceObserver } from "node:perf_hooks";
import { findApi, loadRegistry } from "../src/registry.js";
import { startStockPrism } from "./lib/stock-prism.js";
import { closeMocks, type MockServer, startMocks } from "../src/mock/index.js";
import { cachedOperations } from "../src/mock/operations-cache.js";
import { createPrismServer, loadOperations } from "../src/mock/server.js";
import type { MockHooks } from "../src/mock/types.js";
import { startSandbox } from "../src/sandbox/start.js";
import { isEntryPoint } from "./lib/cli.js";

export interface RecordedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

export type StartMessage =
  | { type: "start"; kind: "bare"; response: RecordedResponse }
  | {
      type: "start";
      kind: "mock" | "mock-nocache" | "mock-hooked" | "sandbox" | "prism-stock";
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

async function startBare(response: RecordedResponse): Promise<Record<string, string>> {
  const body = Buffer.from(response.body);
  const headers = response.headers.flat();
  const server = createServer((request, reply) => {
    request.resume();
    request.once("end", () => {
      reply.writeHead(response.status, headers);
      reply.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("bare server has no address");
  return { bare: `http://127.0.0.1:${address.port}` };
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
      } else if (message.kind === "bare") {
        reply({ type: "started", urls: await startBare(message.response) });
      } else if (message.kind === "mock-hooked") {
        reply({ type: "started", urls: await startHookedMocks(message.aliases, message.registry) });
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
