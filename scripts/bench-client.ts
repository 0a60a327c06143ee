/**
 * The client part of `npm run bench` (scripts/bench.ts): the generated client against plain
 * openapi-fetch and raw `fetch`, side by side, on the same bare server (in its own process, replaying
 * what the mock answered), for each API's representative operations (its largest POST and its GET
 * with the most query parameters: Pay's createInvoice, disbursement's listDisbursements, ...).
 *
 * The three make the same request (method, URL, headers, JSON body serialised on each call) and
 * parse the JSON answer: raw fetch as a caller would write it; openapi-fetch's `createClient` with
 * the credential in its `headers` option (its cheapest form); the generated client with its
 * defaults (credential middleware, retry policy, 60 s time limit, redirect rule, body bound). Each
 * round runs the three for the same time, in a rotating order, 10 concurrent loops each; the measure
 * is this process's CPU time per call (user + system), steadier than requests per second on a busy
 * machine. Per cell: the median over the rounds of each round's ratios, and their spread (lowest
 * to highest), with the load average (1 min) when the cell started and ended.
 */
import { loadavg } from "node:os";
import createClient from "openapi-fetch";
import { operations } from "../src/document/index.js";
import { requestParams } from "../src/testing/requests.js";
import { type BundledApi, cpuRate, median, record, representativeOperations, specRequest, startServer } from "./bench-measure.js";
import { createTestClient } from "./lib/test-client.js";

/** Rounds per cell; each runs fetch, openapi-fetch and the client once. */
export const CLIENT_ROUNDS = 6;
/** The goal: the client at most this many times plain openapi-fetch's CPU per call. */
export const CLIENT_GOAL = 1.05;

const VARIANTS = ["fetch", "openapi-fetch", "client"] as const;
type Variant = (typeof VARIANTS)[number];

export interface ClientCell {
  alias: string;
  request: string;
  /** Mean CPU µs per call of each variant. */
  cpu: Record<Variant, number>;
  /** Per round: client / openapi-fetch, client / fetch, openapi-fetch / fetch. */
  ratios: { clientOfPlain: number[]; clientOfFetch: number[]; plainOfFetch: number[] };
  load: [number, number];
}

/** Measures every cell; `seconds` per run. */
export async function measureClientCost(
  apis: BundledApi[],
  { seconds, rounds = CLIENT_ROUNDS, log }: { seconds: number; rounds?: number; log: (message: string) => void },
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
          const typed = await createTestClient(api.entry, url);
          const plain = createClient<any>({ baseUrl: url, headers: request.headers }) as any;
          const body = request.body === undefined ? undefined : JSON.parse(request.body);
          const init = {
            params: requestParams(api.doc, operations(api.doc).find((o) => o === op)!),
            ...(body === undefined ? {} : { body }),
          };
          const check = (status: number, who: string) => {
            if (status !== request.expected) throw new Error(`${who} got ${status} for ${request.method} ${request.path}`);
          };
          const calls: Record<Variant, () => Promise<void>> = {
            fetch: async () => {
              const response = await fetch(url + request.path, {
                method: request.method,
                headers: request.headers,
                body: body === undefined ? undefined : JSON.stringify(body),
              });
              check(response.status, "fetch");
              if ((response.headers.get("content-type") ?? "").includes("json")) await response.json();
              else await response.text();
            },
            "openapi-fetch": async () => check((await plain[request.method](op.path, init)).response.status, "openapi-fetch"),
            client: async () => check((await typed[request.method](op.path, init)).response.status, "client"),
          };
          log(`client: ${api.entry.alias} ${request.method} ${request.operationId}`);
          const started = loadavg()[0];
          // Warm each path up (the JIT) before measuring.
          for (const variant of VARIANTS) await cpuRate(calls[variant], { concurrency: 10, seconds: 1 });
          const runs: Record<Variant, number[]> = { fetch: [], "openapi-fetch": [], client: [] };
          for (let round = 0; round < rounds; round++) {
            // A rotating order, so that a load rising or falling within a round does not favour one variant.
            for (let i = 0; i < VARIANTS.length; i++) {
              const variant = VARIANTS[(round + i) % VARIANTS.length]!;
              runs[variant].push((await cpuRate(calls[variant], { concurrency: 10, seconds })).cpuPerCall);
            }
          }
          const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
          const per = (a: Variant, b: Variant) => runs[a].map((value, i) => value / runs[b][i]!);
          cells.push({
            alias: api.entry.alias,
            request: `${request.method} ${request.operationId}`,
            cpu: { fetch: mean(runs.fetch), "openapi-fetch": mean(runs["openapi-fetch"]), client: mean(runs.client) },
            ratios: {
              clientOfPlain: per("client", "openapi-fetch"),
              clientOfFetch: per("client", "fetch"),
              plainOfFetch: per("openapi-fetch", "fetch"),
            },
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

const x = (value: number) => `${value.toFixed(2)}x`;
const spread = (values: number[]) => `${x(Math.min(...values))} to ${x(Math.max(...values))}`;

/** The section of bench/RESULTS.md. */
export function clientSection(cells: ClientCell[], { seconds, rounds = CLIENT_ROUNDS }: { seconds: number; rounds?: number }): string {
  const rows = cells.map((c) => [
    c.alias,
    c.request,
    `${c.cpu.fetch.toFixed(0)} / ${c.cpu["openapi-fetch"].toFixed(0)} / ${c.cpu.client.toFixed(0)}`,
    `**${x(median(c.ratios.clientOfPlain))}** (${spread(c.ratios.clientOfPlain)})`,
    `${x(median(c.ratios.clientOfFetch))} (${spread(c.ratios.clientOfFetch)})`,
    `${x(median(c.ratios.plainOfFetch))} (${spread(c.ratios.plainOfFetch)})`,
    `${c.load[0].toFixed(2)} to ${c.load[1].toFixed(2)}`,
  ]);
  const worst = Math.max(...cells.map((c) => median(c.ratios.clientOfPlain)));
  const header = [
    "API",
    "request",
    "CPU µs/call fetch / openapi-fetch / client",
    "client of openapi-fetch (spread)",
    "client of fetch (spread)",
    "openapi-fetch of fetch (spread)",
    "load average (1 min) start to end",
  ];
  return [
    "## 3. Client cost",
    "",
    "The generated client (`create<Service>V<release>Client` with its defaults: credential middleware, retry policy,",
    "60 s time limit, redirect rule, response body bound) against plain openapi-fetch (`createClient`, the credential",
    "in its `headers` option) and raw `fetch` (same method, URL, headers, body serialised on each call), all three",
    "parsing the JSON answer, 10 concurrent loops in the benchmark's process, on the same bare server in its own",
    `process. After 1 s of each to warm up, ${rounds} rounds, each running the three for ${seconds} s in a rotating order.`,
    "The measure is the benchmark process's CPU time (user + system) per call; each ratio is the median over the",
    "rounds of the round's ratio, its spread the lowest to the highest. Raw fetch is the floor.",
    `Goal: the client at most ${x(CLIENT_GOAL)} plain openapi-fetch's cost.`,
    "",
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
    `Largest: the client at ${x(worst)} openapi-fetch's CPU per call (goal at most ${x(CLIENT_GOAL)}: ${worst <= CLIENT_GOAL ? "met" : "**not met**"}).`,
  ].join("\n");
}
