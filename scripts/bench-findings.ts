/**
 * The bench's `findings` part (scripts/bench.ts): what the mock spends on a distinct invalid POST
 * beyond judging it, measured in this process without sockets. For each API's representative POST,
 * a pool of distinct invalid requests (and one of valid ones, for comparison) is run through the
 * mock's stages (src/mock/server.ts `afterReceive`: route, judge, answer from the fast path, write,
 * into a response object that only records) and, apart, through the judging alone (decoding, JSON.parse,
 * Prism's security and input checks: bench-measure.ts `judgingCost`). The difference is what the
 * mock adds to judging: for an invalid request, mostly rendering its findings into `sl-violations`
 * and the problem body. CPU time per request; the stages' over the judging's is the ratio reported.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { startMock } from "../src/mock/index.js";
import { afterReceive, createContext, loadOperations } from "../src/mock/server.js";
import type { MockContext } from "../src/mock/context.js";
import { type BundledApi, judgingCost, representativeOperations, requestPool, type SpecRequest } from "./bench-measure.js";

/** CPU time each measure runs for, at least. */
const CPU_MS = 300;
const POOL = 200;

/** A request as the stages read it: method, target, headers (names in lower case) and raw headers. */
function fakeRequest(r: SpecRequest, bytes: Buffer | undefined): IncomingMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers)) headers[name.toLowerCase()] = value;
  if (bytes) headers["content-length"] = String(bytes.length);
  return { method: r.method, url: r.path, headers, rawHeaders: Object.entries(headers).flat() } as unknown as IncomingMessage;
}

/** A response that keeps nothing: the cost of writing is the mock's, not a socket's. */
function sink(): ServerResponse {
  return {
    statusCode: 200,
    headersSent: false,
    writableEnded: false,
    setHeader() {},
    writeHead() {},
    end() {},
  } as unknown as ServerResponse;
}

/** CPU µs per request of the mock's stages over `requests` (the fast path taught by a first pass). */
async function stagesCost(context: MockContext, requests: SpecRequest[]): Promise<number> {
  const cases = requests.map((r) => {
    const bytes = r.body === undefined ? undefined : Buffer.from(r.body);
    return { r, bytes, raw: { present: bytes !== undefined, bytes: bytes ?? Buffer.alloc(0) } };
  });
  const runAll = async () => {
    for (const { r, bytes, raw } of cases) {
      const pending = afterReceive(context, { request: fakeRequest(r, bytes), response: sink(), raw });
      if (pending) await pending;
    }
  };
  await runAll(); // Prism answers the first of each kind; the fast path keeps it
  await runAll();
  let rounds = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < CPU_MS * 1000) {
    await runAll();
    rounds++;
    const now = process.cpuUsage(start);
    used = now.user + now.system;
  }
  return used / (rounds * cases.length);
}

export interface FindingsRow {
  alias: string;
  operationId: string;
  valid: { stages: number; judging: number };
  invalid: { stages: number; judging: number };
}

/** The measure for each API's representative POST. */
export async function measureFindings(apis: BundledApi[], log: (message: string) => void): Promise<FindingsRow[]> {
  const rows: FindingsRow[] = [];
  for (const api of apis) {
    const [op] = representativeOperations(api);
    if (op.method !== "post") continue;
    log(`  findings ${api.entry.alias} ${op.operationId}`);
    const mock = await startMock(api.entry, { port: 0, cache: false });
    try {
      const valid = (await requestPool(api, op, "valid", POOL, mock.url)).requests;
      const invalid = (await requestPool(api, op, "invalid", POOL, mock.url)).requests;
      if (valid.length === 0 || invalid.length === 0) continue;
      const context = createContext(await loadOperations(api.entry.bundlePath), { cache: false });
      const row: FindingsRow = {
        alias: api.entry.alias,
        operationId: op.operationId,
        valid: { stages: await stagesCost(context, valid), judging: await judgingCost(api, valid) },
        invalid: { stages: await stagesCost(context, invalid), judging: await judgingCost(api, invalid) },
      };
      rows.push(row);
    } finally {
      await mock.close();
    }
  }
  return rows;
}

/** The report's section. */
export async function findingsSection(apis: BundledApi[], log: (message: string) => void): Promise<string> {
  const rows = await measureFindings(apis, log);
  const us = (n: number) => n.toFixed(1);
  return [
    "## Findings of invalid requests: the mock's stages beside the judging alone",
    "",
    `In the benchmark's process, without sockets (scripts/bench-findings.ts): each API's representative POST, ${POOL}`,
    "distinct valid and invalid requests run through the mock's stages (route, judge, the fast path's answer, write) and,",
    "apart, through the judging alone (body decoding, `JSON.parse`, Prism's security and input checks). CPU µs per request;",
    "in bold the stages' cost over the judging's (1.00x: the mock adds nothing to judging). The invalid column's extra",
    "over the valid one's is what rendering the findings (`sl-violations`, the problem body) costs.",
    "",
    "| API operation | valid: stages / judging µs | invalid: stages / judging µs | invalid − valid, stages µs |",
    "|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.alias} ${r.operationId} | ${us(r.valid.stages)} / ${us(r.valid.judging)} (**${(r.valid.stages / r.valid.judging).toFixed(2)}x**) ` +
        `| ${us(r.invalid.stages)} / ${us(r.invalid.judging)} (**${(r.invalid.stages / r.invalid.judging).toFixed(2)}x**) ` +
        `| ${us(r.invalid.stages - r.valid.stages)} |`,
    ),
  ].join("\n");
}
