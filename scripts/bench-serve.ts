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
 * - `{ type: "start", kind: "prism-stock", aliases, registry? }`: Prism's own in-process server
 *   (@stoplight/prism-http-server createServer, pino silent): the mock as it was before (the baseline).
 * - `{ type: "memory" }`: replies with process.memoryUsage() after a full GC.
 * Replies `{ type: "started", urls: { [alias]: url } }` or `{ type: "error", message }`.
 */
import { createServer } from "node:http";
import { findApi, loadRegistry } from "../src/registry.js";
import { startStockPrism } from "./lib/stock-prism.js";
import { closeMocks, type MockServer, startMocks } from "../src/mock/index.js";

export interface RecordedResponse {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

export type StartMessage =
  | { type: "start"; kind: "bare"; response: RecordedResponse }
  | { type: "start"; kind: "mock" | "mock-nocache" | "sandbox" | "prism-stock"; aliases: string[]; registry?: string };

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

async function startOwnMocks(aliases: string[], cache: boolean, registryPath?: string, sandbox = false): Promise<Record<string, string>> {
  const registry = loadRegistry(registryPath);
  const mocks: MockServer[] = await startMocks(
    aliases.map((alias) => findApi(alias, registry)),
    { freePorts: true, cache, sandbox },
  );
  closers.push(() => closeMocks(mocks));
  return Object.fromEntries(mocks.map((m) => [m.alias, m.url]));
}

function reply(message: unknown): void {
  process.send?.(message);
}

process.on("message", async (message: StartMessage | { type: "memory" } | { type: "stop" }) => {
  try {
    if (message.type === "memory") {
      (globalThis as { gc?: () => void }).gc?.();
      reply({ type: "memory", memory: process.memoryUsage() });
    } else if (message.type === "stop") {
      await Promise.all(closers.map((close) => close()));
      process.exit(0);
    } else if (message.kind === "bare") {
      reply({ type: "started", urls: await startBare(message.response) });
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
