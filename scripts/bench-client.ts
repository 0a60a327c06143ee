/**
 * The client part of `npm run bench` (scripts/bench.ts): the generated client against plain
 * openapi-fetch and raw `fetch`, side by side, on the same bare server (in its own process, replaying
 * what the mock answered), for each API's representative operations (its largest POST and its GET
 * with the most query parameters: Pay's createInvoice, disbursement's listDisbursements, ...).
 *
 * The three make the same request (method, URL, headers, JSON body serialised on each call) and
 * parse the JSON answer: raw fetch as a caller would write it; openapi-fetch's `createClient` with
 * the credential in its `headers` option (its cheapest form); the generated client with its
 * defaults (credential header, retry policy, 60 s time limit, redirect rule, body bound). Each
 * round runs them for the same time, in a rotating order, 10 concurrent loops each, plain
 * openapi-fetch twice (two clients alike: their ratio is the measure's own noise); the measure is
 * this process's CPU time per call (user + system), steadier than requests per second on a busy
 * machine. Then many short rounds against a stub fetch in this process (no socket): what remains is
 * the client's own layer over openapi-fetch. Per cell: the median over the rounds of each round's
 * ratios, and their spread (first to third quartile), with the load average (1 min) when the cell
 * started and ended.
 */
import { loadavg } from "node:os";
import createClient from "openapi-fetch";
import { type Operation, operations } from "../src/document/index.js";
import { requestParams } from "../src/testing/requests.js";
import {
  type BundledApi,
  cpuRate,
  median,
  record,
  representativeOperations,
  type SpecRequest,
  specRequest,
  startServer,
} from "./bench-measure.js";
import type { RecordedResponse } from "./bench-serve.js";
import { createTestClient } from "./lib/test-client.js";

/** Rounds per cell; each runs every variant once. */
export const CLIENT_ROUNDS = 8;
/** Rounds of the stub-fetch run, each of STUB_SECONDS per variant: many short ones, so that a pause (a GC) lands in few. */
const STUB_ROUNDS = 24;
const STUB_SECONDS = 0.15;
/** The goal: the client at most this many times plain openapi-fetch's CPU per call. */
export const CLIENT_GOAL = 1.05;

/**
 * The variants of a round: raw fetch, plain openapi-fetch twice (two clients alike: their ratio is
 * the measure's own noise) and the generated client.
 */
const VARIANTS = ["fetch", "openapi-fetch", "openapi-fetch again", "client"] as const;
type Variant = (typeof VARIANTS)[number];
/** The variants of the in-process run against a stub fetch. */
const STUB_VARIANTS = ["openapi-fetch", "openapi-fetch again", "client"] as const;
type StubVariant = (typeof STUB_VARIANTS)[number];

export interface ClientCell {
  alias: string;
  request: string;
  /** Mean CPU µs per call of each variant. */
  cpu: Record<Variant, number>;
  /**
   * Per round: client / openapi-fetch, the second openapi-fetch / the first (the noise), client / fetch,
   * openapi-fetch / fetch.
   */
  ratios: { clientOfPlain: number[]; noise: number[]; clientOfFetch: number[]; plainOfFetch: number[] };
  /** Against a stub fetch, in this process: mean CPU µs per call, and per round client / openapi-fetch and the noise. */
  stub: { cpu: Record<StubVariant, number>; clientOfPlain: number[]; noise: number[] };
  load: [number, number];
}

/**
 * A stand-in for the global fetch: it builds the Request fetch builds from its arguments (the same
 * work, signal included) and answers the recorded response without any socket, so that the CPU of a
 * call is what openapi-fetch and the client add around fetch.
 */
function stubFetch(recorded: RecordedResponse): typeof fetch {
  const headers = new Headers(recorded.headers);
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    new Request(input, init);
    return new Response(recorded.body, { status: recorded.status, headers });
  }) as typeof fetch;
}

/** Runs every variant of `calls` once per round, in a rotating order; per variant, its CPU µs per call by round. */
async function rounds<V extends string>(
  variants: readonly V[],
  calls: Record<V, () => Promise<void>>,
  { rounds, seconds }: { rounds: number; seconds: number },
): Promise<Record<V, number[]>> {
  // Warm each path up (the JIT) before measuring.
  for (const variant of variants) await cpuRate(calls[variant], { concurrency: 10, seconds: Math.min(1, seconds) });
  const runs = Object.fromEntries(variants.map((v) => [v, [] as number[]])) as Record<V, number[]>;
  for (let round = 0; round < rounds; round++) {
    // A rotating order, so that a load rising or falling within a round does not favour one variant.
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(round + i) % variants.length]!;
      runs[variant].push((await cpuRate(calls[variant], { concurrency: 10, seconds })).cpuPerCall);
    }
  }
  return runs;
}

const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
const per = <V extends string>(runs: Record<V, number[]>, a: V, b: V) => runs[a].map((value, i) => value / runs[b][i]!);

/** Measures every cell; `seconds` per run. */
export async function measureClientCost(
  apis: BundledApi[],
  { seconds, rounds: count = CLIENT_ROUNDS, log }: { seconds: number; rounds?: number; log: (message: string) => void },
): Promise<ClientCell[]> {
  const cells: ClientCell[] = [];
  const mock = await startServer({ type: "start", kind: "mock", aliases: apis.map((a) => a.entry.alias) });
  try {
    for (const api of apis) {
      for (const op of representativeOperations(api)) {
        const request = specRequest(api, op);
        const recorded = await record(mock.urls[api.entry.alias], request);
        const bare = await startServer({ type: "start", kind: "bare", response: recorded });
        try {
          const url = bare.urls.bare;
          const body = requestInit(api, op, request).body;
          const calls: Record<Variant, () => Promise<void>> = {
            fetch: async () => {
              const response = await fetch(url + request.path, {
                method: request.method,
                headers: request.headers,
                body: body === undefined ? undefined : JSON.stringify(body),
              });
              if (response.status !== request.expected)
                throw new Error(`fetch got ${response.status} for ${request.method} ${request.path}`);
              if ((response.headers.get("content-type") ?? "").includes("json")) await response.json();
              else await response.text();
            },
            ...(await clientCalls(api, request, url, request.expected)),
          };
          log(`client: ${api.entry.alias} ${request.method} ${request.operationId}`);
          const started = loadavg()[0];
          const runs = await rounds(VARIANTS, calls, { rounds: count, seconds });
          const stub = await stubRounds(api, request, recorded, { rounds: STUB_ROUNDS, seconds: STUB_SECONDS });
          cells.push({
            alias: api.entry.alias,
            request: `${request.method} ${request.operationId}`,
            cpu: Object.fromEntries(VARIANTS.map((v) => [v, mean(runs[v])])) as Record<Variant, number>,
            ratios: {
              clientOfPlain: per(runs, "client", "openapi-fetch"),
              noise: per(runs, "openapi-fetch again", "openapi-fetch"),
              clientOfFetch: per(runs, "client", "fetch"),
              plainOfFetch: per(runs, "openapi-fetch", "fetch"),
            },
            stub,
            load: [started, loadavg()[0]],
          });
        } finally {
          await bare.stop();
        }
      }
    }
  } finally {
    await mock.stop();
  }
  return cells;
}

/**
 * The calls of plain openapi-fetch (twice: two clients alike) and of the generated client against
 * `url`, each checking that the answer has `status`. The client sends through the global fetch at
 * call time; plain openapi-fetch through `fetch` when given (else the global one too). The socket
 * run, the stub run and `bench:instructions --client` (scripts/engine-instructions.ts) make these calls.
 */
export async function clientCalls(
  api: BundledApi,
  request: SpecRequest,
  url: string,
  status: number,
  fetch?: typeof globalThis.fetch,
): Promise<Record<StubVariant, () => Promise<void>>> {
  const typed = await createTestClient(api.entry, url);
  const plain = createClient<any>({ baseUrl: url, headers: request.headers, ...(fetch ? { fetch } : {}) }) as any;
  const plainAgain = createClient<any>({ baseUrl: url, headers: request.headers, ...(fetch ? { fetch } : {}) }) as any;
  const op = operations(api.doc).find((o) => o.operationId === request.operationId)!;
  const init = requestInit(api, op, request);
  const check = (got: number, who: string) => {
    if (got !== status) throw new Error(`${who} got ${got} for ${request.method} ${request.path}`);
  };
  return {
    "openapi-fetch": async () => check((await plain[request.method](op.path, init)).response.status, "openapi-fetch"),
    "openapi-fetch again": async () => check((await plainAgain[request.method](op.path, init)).response.status, "openapi-fetch"),
    client: async () => check((await typed[request.method](op.path, init)).response.status, "client"),
  };
}

/**
 * Runs `use` with the stub run's calls (clientCalls against stubFetch answering `recorded`), the
 * global fetch being the stub meanwhile (the client sends through it) and put back after: the
 * bench's stub run and `bench:instructions --client` make their calls so.
 */
export async function withStubCalls<T>(
  api: BundledApi,
  request: SpecRequest,
  recorded: RecordedResponse,
  use: (calls: Record<StubVariant, () => Promise<void>>) => Promise<T>,
): Promise<T> {
  const stub = stubFetch(recorded);
  const real = globalThis.fetch;
  globalThis.fetch = stub;
  try {
    return await use(await clientCalls(api, request, "http://127.0.0.1:9", recorded.status, stub));
  } finally {
    globalThis.fetch = real;
  }
}

/** The second argument of an openapi-fetch call for `request`: its parameters and its JSON body. */
function requestInit(api: BundledApi, op: Operation, request: SpecRequest): Record<string, unknown> {
  const body = request.body === undefined ? undefined : JSON.parse(request.body);
  return { params: requestParams(api.doc, op), ...(body === undefined ? {} : { body }) };
}

/**
 * The same calls against a stub fetch (withStubCalls), in this process: what remains is
 * openapi-fetch's own work and, for the client, its layer over openapi-fetch.
 */
function stubRounds(
  api: BundledApi,
  request: SpecRequest,
  recorded: RecordedResponse,
  options: { rounds: number; seconds: number },
): Promise<ClientCell["stub"]> {
  return withStubCalls(api, request, recorded, async (calls) => {
    const runs = await rounds(STUB_VARIANTS, calls, options);
    return {
      cpu: Object.fromEntries(STUB_VARIANTS.map((v) => [v, mean(runs[v])])) as Record<StubVariant, number>,
      clientOfPlain: per(runs, "client", "openapi-fetch"),
      noise: per(runs, "openapi-fetch again", "openapi-fetch"),
    };
  });
}

const x = (value: number) => `${value.toFixed(2)}x`;
/** The middle half of the values (first to third quartile). */
function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))]!;
  return `${x(at(0.25))} to ${x(at(0.75))}`;
}

/** The section of bench/RESULTS.md. */
export function clientSection(cells: ClientCell[], { seconds, rounds = CLIENT_ROUNDS }: { seconds: number; rounds?: number }): string {
  const ratio = (values: number[]) => `${x(median(values))} (${spread(values)})`;
  const rows = cells.map((c) => [
    c.alias,
    c.request,
    `${c.cpu.fetch.toFixed(0)} / ${c.cpu["openapi-fetch"].toFixed(0)} / ${c.cpu.client.toFixed(0)}`,
    `**${ratio(c.ratios.clientOfPlain)}**`,
    ratio(c.ratios.noise),
    `${c.stub.cpu["openapi-fetch"].toFixed(1)} / ${c.stub.cpu.client.toFixed(1)}: **${ratio(c.stub.clientOfPlain)}**`,
    ratio(c.stub.noise),
    ratio(c.ratios.clientOfFetch),
    ratio(c.ratios.plainOfFetch),
    `${c.load[0].toFixed(2)} to ${c.load[1].toFixed(2)}`,
  ]);
  const worst = Math.max(...cells.map((c) => median(c.ratios.clientOfPlain)));
  const worstStub = Math.max(...cells.map((c) => median(c.stub.clientOfPlain)));
  const noise = Math.max(...cells.map((c) => Math.abs(median(c.ratios.noise) - 1)));
  const header = [
    "API",
    "request",
    "CPU µs/call fetch / openapi-fetch / client",
    "client of openapi-fetch (spread)",
    "noise: openapi-fetch of openapi-fetch (spread)",
    "stub fetch, CPU µs/call openapi-fetch / client: client of openapi-fetch (spread)",
    "stub fetch noise (spread)",
    "client of fetch (spread)",
    "openapi-fetch of fetch (spread)",
    "load average (1 min) start to end",
  ];
  const met = (value: number) => (value <= CLIENT_GOAL ? "met" : "**not met**");
  return [
    "## 3. Client cost",
    "",
    "The generated client (`create<Service>V<release>Client` with its defaults: credential header, retry policy,",
    "60 s time limit, redirect rule, response body bound) against plain openapi-fetch (`createClient`, the credential",
    "in its `headers` option) and raw `fetch` (same method, URL, headers, body serialised on each call), all three",
    "parsing the JSON answer, 10 concurrent loops in the benchmark's process, on the same bare server in its own",
    `process. After a warm-up of each, ${rounds} rounds, each running every variant for ${seconds} s in a rotating order.`,
    "Plain openapi-fetch runs twice per round, as two clients alike: their ratio is the measure's own noise.",
    "The measure is the benchmark process's CPU time (user + system) per call; each ratio is the median over the",
    "rounds of the round's ratio, its spread the middle half of the rounds' (first to third quartile). Raw fetch is the floor.",
    "*Stub fetch*: the same calls in this process against a fetch that builds the Request fetch builds and answers",
    `the recorded response without a socket (${STUB_ROUNDS} rounds of ${STUB_SECONDS} s): what is left is openapi-fetch's own work and the`,
    "client's layer over it, without the network's share that both pay alike. The stub run's calls, counted in machine",
    "instructions instead of timed (no noise from the machine's other work): `npm run bench:instructions -- --client`",
    "(valgrind; not run by the bench).",
    `Goal: the client at most ${x(CLIENT_GOAL)} plain openapi-fetch's cost.`,
    "",
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
    `Largest: the client at ${x(worst)} openapi-fetch's CPU per call (goal at most ${x(CLIENT_GOAL)}: ${met(worst)}), the measure's own ` +
      `noise (openapi-fetch against itself) at most ${(noise * 100).toFixed(1)}% off 1.00x; against a stub fetch, the client's layer at ` +
      `most ${x(worstStub)} openapi-fetch's (${met(worstStub)}).`,
  ].join("\n");
}
