/**
 * bench:store, and `npm run bench`'s `store` part (section 1c of bench/RESULTS.md): the sandbox's
 * stores, side by side in one run, memory, `file:` (LMDB) and Postgres (one instance, and two on one
 * database), with the load average at the start and the end (docs/adr/0015-durable-store.md has a run).
 *
 * 1. The sandbox (`mock disbursement@1.0.0 --sandbox --sandbox-store ...`, the CLI from source, one
 *    process an instance): requests per second, CPU time per request (the sandbox processes', and
 *    the database's) and p99 of a create, then of a list, each under load over 50 credentials (a
 *    list's credentials holding 40 records each); the time from start to ready, and to the first
 *    answer, over a store of 1,000 credentials holding 100 records each; a SIGKILL during a burst of
 *    creates, then a restart: how many acknowledged creates are read back.
 * 2. The stores alone (src/sandbox/store/): the time to open one, a transaction's latency one after
 *    another (each durable before the next starts), the throughput of many in flight on distinct
 *    credentials (commits batched), and transactions of two instances on one credential.
 *
 *   tsx scripts/bench-store.ts [--postgres <url> | --no-postgres] [--duration <s>] [--sequential <n>] [--concurrent <n>] [--total <n>]
 *
 * Postgres: the database `--postgres` names (its `sandbox_*` tables are written; a database's CPU
 * is then not measured), else a private throwaway cluster (scripts/lib/postgres-cluster.ts;
 * Debian's postgresql). The file stores go in temporary directories on the system's temporary file
 * system (which should be a disk for figures that mean something), removed after.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { InvalidArgumentError } from "commander";
import { findOperation } from "../src/document/index.js";
import { repoRoot } from "../src/registry.js";
import { type ChangeSet, type DurableBackend, prepareChanges } from "../src/sandbox/store/backend.js";
import { redactUrl } from "../src/sandbox/store/open.js";
import { bundledApis, cpuMs, distinctRequest, type SpecRequest, specRequest } from "./bench-measure.js";
import { integer, runCommand, runProgram, script } from "./lib/cli.js";
import type { PostgresCluster } from "./lib/postgres-cluster.js";
import { freePortRange } from "./lib/ports.js";

const keyOf = (name: string) => createHash("sha256").update(name).digest("hex");
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** One record row of a typical size (an invoice with two items), and the credential's next wake. */
function change(i: number): ChangeSet {
  return {
    puts: [
      {
        collection: "record",
        id: `invoice/inv_${String(i).padStart(16, "0")}`,
        value: {
          invoice_id: `inv_${String(i).padStart(16, "0")}`,
          status: "Created",
          amount: 125000,
          currency: "IDR",
          items: [
            { name: "Item one", price: 100000, quantity: 1 },
            { name: "Item two", price: 25000, quantity: 1 },
          ],
          created: "2026-11-28T10:00:00.000Z",
          expiry_date: "2026-11-29T10:00:00.000Z",
        },
      },
    ],
    deletes: [],
    wakeAt: 1_800_000_000_000 + i,
  };
}

interface Subject {
  name: string;
  /** A new instance on the subject's store (the first one made: on a fresh store). */
  make: () => DurableBackend | undefined;
  cleanup: () => Promise<void>;
}

interface Figures {
  openMs: number;
  p50: number;
  p95: number;
  perSecond: number;
  contendedMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The memory "store": nothing kept, the change set checked and encoded as a durable store does first. */
async function transactInMemory(i: number): Promise<void> {
  prepareChanges(change(i));
}

async function measure(subject: Subject, sequential: number, concurrent: number, total: number): Promise<Figures> {
  let started = performance.now();
  const store = subject.make();
  await store?.open();
  const openMs = performance.now() - started;
  const run = (key: string, i: number) =>
    store ? store.transact(key, undefined, () => ({ changes: change(i), result: undefined })).then(() => undefined) : transactInMemory(i);
  try {
    const latencies: number[] = [];
    const one = keyOf("sequential");
    for (let i = 0; i < sequential; i++) {
      const at = performance.now();
      await run(one, i);
      latencies.push((performance.now() - at) * 1000);
    }
    latencies.sort((a, b) => a - b);

    let next = 0;
    started = performance.now();
    await Promise.all(
      Array.from({ length: concurrent }, async () => {
        while (next < total) {
          const i = next++;
          await run(keyOf(`throughput ${i % 1000}`), i);
        }
      }),
    );
    const perSecond = total / ((performance.now() - started) / 1000);

    // Two instances, 20 transactions each in flight on one credential.
    const second = subject.make();
    await second?.open();
    started = performance.now();
    const contended = keyOf("contended");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store && second
          ? (i % 2 ? store : second).transact(contended, undefined, () => ({ changes: change(i), result: undefined }))
          : transactInMemory(i),
      ),
    );
    const contendedMs = (performance.now() - started) / 40;
    await second?.close();
    return { openMs, p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95), perSecond, contendedMs };
  } finally {
    await store?.close();
  }
}

/** One store's figures as table lines (the stores alone). */
async function backendLines(subjects: Subject[], sequential: number, concurrent: number, total: number, log: Log): Promise<string[]> {
  const lines = [
    `${sequential} transactions one after another; ${total} with ${concurrent} in flight (distinct credentials); 40 by two instances on one credential.`,
    "",
    "| store | open | one after another: median, p95 | in flight: per second | two instances, one credential: per transaction |",
    "|---|---|---|---|---|",
  ];
  for (const subject of subjects) {
    log(`  the store alone: ${subject.name}`);
    const f = await measure(subject, sequential, concurrent, total).finally(() => subject.cleanup());
    lines.push(
      `| ${subject.name} | ${f.openMs.toFixed(1)} ms | ${f.p50.toFixed(0)} µs, ${f.p95.toFixed(0)} µs | ${Math.round(f.perSecond).toLocaleString("en-US")} | ${(f.contendedMs * 1000).toFixed(0)} µs |`,
    );
  }
  return lines;
}

/* ------------------------------------------------------------------ the sandbox on each store */

type Log = (message: string) => void;

/** The API measured: its create (two records a request) and its list. */
const ALIAS = "disbursement@1.0.0";
/** Credentials the load spreads over. */
const CREDENTIALS = 50;
/** Connections of the load generator, over every instance. */
const CONNECTIONS = 10;
/** Creates each list credential holds before its list is measured (two records each). */
const LIST_CREATES = 20;
/** The store of the start-up measurement. */
const START_CREDENTIALS = 1000;
const START_RECORDS = 100;
/** The burst killed during, and after how many acknowledgements. */
const BURST = 400;
const KILL_AFTER = 100;
const BIN = join(repoRoot, "src/cli/bin.ts");

interface Instance {
  child: ChildProcess;
  url: string;
  /** From spawning the process to its "ready" line, ms. */
  readyMs: number;
}

/** `mock disbursement@1.0.0 --sandbox --sandbox-store <store>` on free ports, ready. */
async function startInstance(store: string): Promise<Instance> {
  const base = await freePortRange(bundledApis().length);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", BIN, "mock", ALIAS, "--sandbox", "--sandbox-store", store, "--port-base", String(base)],
    {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("ready")) {
        child.stdout!.off("data", seen);
        resolve();
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`the sandbox on ${redactUrl(store)} exited (${code}) before it was ready: ${output}`)));
  });
  const readyMs = performance.now() - started;
  const url = new RegExp(`${ALIAS.replace(/[.@]/g, "\\$&")}\\s+(http://\\S+)`).exec(output)?.[1];
  if (!url) throw new Error(`the sandbox printed no URL for ${ALIAS}: ${output}`);
  return { child, url, readyMs };
}

async function stopInstance(instance: Instance, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once("exit", resolve));
  instance.child.kill(signal);
  await exited;
}

/** CPU time (ms) of `pids`, and of a Postgres cluster's processes (its postmaster and every child) when `postmaster` is given. */
function cpuOf(pids: number[], postmaster?: number): { sandbox: number; database: number } {
  const sandbox = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  if (postmaster === undefined) return { sandbox, database: 0 };
  let database = cpuMs(postmaster);
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster) database += cpuMs(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return { sandbox, database };
}

interface Load {
  requestsPerSecond: number;
  p99: number;
  /** CPU µs per request answered: the sandbox processes', the database's. */
  cpu: number;
  databaseCpu: number;
  statuses: Record<string, number>;
}

/** `request` under load on every instance (the connections split between them), each request as one of `credentials`. */
async function load(
  instances: Instance[],
  request: SpecRequest,
  credentials: string[],
  seconds: number,
  postmaster?: number,
): Promise<Load> {
  const header = Object.keys(request.headers).find((name) => name.toLowerCase().includes("key")) ?? "authorization";
  let n = 0;
  const pids = instances.map((instance) => instance.child.pid!);
  const before = cpuOf(pids, postmaster);
  const results = await Promise.all(
    instances.map((instance) =>
      autocannon({
        url: instance.url + request.path,
        connections: Math.max(1, Math.round(CONNECTIONS / instances.length)),
        duration: seconds,
        timeout: 10,
        requests: [
          {
            method: request.method as autocannon.Request["method"],
            path: request.path,
            headers: request.headers,
            body: request.body,
            setupRequest: (req: autocannon.Request) => {
              const i = n++;
              const body = distinctRequest(typeof req.body === "string" ? req.body : undefined, i, false).body;
              return { ...req, headers: { ...req.headers, [header]: credentials[i % credentials.length]! }, body: body ?? req.body };
            },
          },
        ],
      }),
    ),
  );
  const after = cpuOf(pids, postmaster);
  const total = results.reduce((sum, result) => sum + result.requests.total, 0);
  const statuses: Record<string, number> = {};
  for (const result of results)
    for (const [code, stat] of Object.entries(
      (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {},
    ))
      statuses[code] = (statuses[code] ?? 0) + Number(stat.count);
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    cpu: ((after.sandbox - before.sandbox) * 1000) / Math.max(total, 1),
    databaseCpu: ((after.database - before.database) * 1000) / Math.max(total, 1),
    statuses,
  };
}

/** One request through an instance as `credential`; its status and body. */
async function send(instance: Instance, request: SpecRequest, credential: string, n: number): Promise<{ status: number; body: any }> {
  const header = Object.keys(request.headers).find((name) => name.toLowerCase().includes("key")) ?? "authorization";
  const response = await fetch(instance.url + request.path, {
    method: request.method,
    headers: { ...request.headers, [header]: credential },
    body: distinctRequest(request.body, n, false).body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

interface SandboxSubject {
  name: string;
  /** A fresh store's address (one per call). */
  store: () => Promise<string>;
  instances: number;
  /** The cluster's postmaster, whose CPU is counted as the database's. */
  postmaster?: number;
  /** Whether the store is durable: its start-up is over a filled store, and the SIGKILL measurement applies. */
  durable: boolean;
}

interface SandboxFigures {
  create: Load;
  list: Load;
}

async function measureSandbox(
  subject: SandboxSubject,
  create: SpecRequest,
  list: SpecRequest,
  seconds: number,
  log: Log,
): Promise<SandboxFigures> {
  const store = await subject.store();
  const instances = await Promise.all(Array.from({ length: subject.instances }, () => startInstance(store)));
  try {
    log(`  the sandbox on ${subject.name}: creates`);
    const creating = Array.from({ length: CREDENTIALS }, (_, i) => `create-${i}`);
    const created = await load(instances, create, creating, seconds, subject.postmaster);
    log(`  the sandbox on ${subject.name}: lists`);
    const listing = Array.from({ length: CREDENTIALS }, (_, i) => `list-${i}`);
    await Promise.all(
      listing.map(async (credential, c) => {
        for (let i = 0; i < LIST_CREATES; i++) {
          const answer = await send(instances[(c + i) % instances.length]!, create, credential, 1_000_000 + c * LIST_CREATES + i);
          if (answer.status !== 200) throw new Error(`${subject.name}: a create for the list answered ${answer.status}`);
        }
      }),
    );
    const listed = await load(instances, list, listing, seconds, subject.postmaster);
    return { create: created, list: listed };
  } finally {
    await Promise.all(instances.map((instance) => stopInstance(instance)));
  }
}

/** A store of START_CREDENTIALS credentials of START_RECORDS records each, written through the store itself (as the sandbox writes them). */
async function fillStore(address: string, record: Record<string, unknown>): Promise<void> {
  const [{ acquireBackend, parseStoreAddress }, { CredentialState }] = await Promise.all([
    import("../src/sandbox/store/open.js"),
    import("../src/sandbox/store/state.js"),
  ]);
  const lease = (await acquireBackend(parseStoreAddress(address)))!;
  try {
    const backend = lease.backend.scope(ALIAS);
    await backend.open();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < START_CREDENTIALS) {
          const c = next++;
          const state = new CredentialState(keyOf(`start-${c}`));
          for (let r = 0; r < START_RECORDS; r++) {
            const id = `dsb_${String(c).padStart(8, "0")}${String(r).padStart(8, "0")}`;
            state.add("disbursement", id, { ...record, disbursement_id: id });
          }
          await backend.transact(state.key, undefined, () => ({
            changes: { puts: state.rows(), deletes: [], wakeAt: null },
            result: undefined,
          }));
        }
      }),
    );
    await backend.close();
  } finally {
    await lease.release();
  }
}

interface StartFigures {
  readyMs: number;
  /** From "ready" to the answer of the first list of a stored credential (100 records read back). */
  firstAnswerMs: number;
  records: number;
}

/** Start-up over a filled store: to ready, then to the first answer of a stored credential's list. */
async function measureStart(address: string, list: SpecRequest, record: Record<string, unknown>, log: Log): Promise<StartFigures> {
  log(`  start-up over ${START_CREDENTIALS} x ${START_RECORDS} records: filling ${redactUrl(address)}`);
  if (address !== "memory") await fillStore(address, record);
  const instance = await startInstance(address);
  try {
    const at = performance.now();
    const answer = await send(instance, list, "start-7", 0);
    const firstAnswerMs = performance.now() - at;
    return { readyMs: instance.readyMs, firstAnswerMs, records: answer.body?.disbursements?.length ?? 0 };
  } finally {
    await stopInstance(instance);
  }
}

/** A burst of creates killed by SIGKILL after KILL_AFTER acknowledgements; after a restart, how many acknowledged ones are read back. */
async function measureKill(
  address: string,
  create: SpecRequest,
  list: SpecRequest,
): Promise<{ acknowledged: number; found: number; sent: number }> {
  let instance = await startInstance(address);
  const acknowledged: Array<{ credential: string; ids: string[] }> = [];
  let next = 0;
  await Promise.allSettled(
    Array.from({ length: 32 }, async () => {
      while (next < BURST) {
        const i = next++;
        const credential = `kill-${i % CREDENTIALS}`;
        const answer = await send(instance, create, credential, 2_000_000 + i);
        if (answer.status !== 200) continue;
        const ids = answer.body.result.map((item: { disbursement: { disbursement_id: string } }) => item.disbursement.disbursement_id);
        acknowledged.push({ credential, ids });
        if (acknowledged.length === KILL_AFTER) instance.child.kill("SIGKILL");
      }
    }),
  );
  await stopInstance(instance, "SIGKILL");
  instance = await startInstance(address);
  try {
    let found = 0;
    for (let c = 0; c < CREDENTIALS; c++) {
      const credential = `kill-${c}`;
      const listed = await send(instance, list, credential, 0);
      const ids = new Set((listed.body?.disbursements ?? []).map((d: { disbursement_id: string }) => d.disbursement_id));
      for (const created of acknowledged.filter((a) => a.credential === credential)) if (created.ids.every((id) => ids.has(id))) found++;
    }
    return { acknowledged: acknowledged.length, found, sent: next };
  } finally {
    await stopInstance(instance);
  }
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The sandbox part's table lines. */
async function sandboxLines(subjects: SandboxSubject[], seconds: number, log: Log): Promise<string[]> {
  const api = bundledApis().find((candidate) => candidate.entry.alias === ALIAS);
  if (!api) return [`${ALIAS} is not in the registry: nothing measured.`];
  const create = specRequest(api, findOperation(api.doc, "createDisbursements")!);
  const list = specRequest(api, findOperation(api.doc, "listDisbursements")!);
  const lines = [
    `\`mock ${ALIAS} --sandbox --sandbox-store <store>\` (the CLI from source, a process an instance), under autocannon at ${CONNECTIONS} connections split over the instances for ${seconds} s a row, each request as one of ${CREDENTIALS} credentials: a create (\`createDisbursements\`, two records), then a list (\`listDisbursements\`) of credentials holding ${LIST_CREATES * 2} records each. CPU per request: the sandbox processes' (the database's beside, where it is a private cluster).`,
    "",
    "| store | instances | create: per second | create: CPU per request | create: p99 | list: per second | list: CPU per request | list: p99 | answers |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  let record: Record<string, unknown> | undefined;
  for (const subject of subjects) {
    const f = await measureSandbox(subject, create, list, seconds, log);
    const cpu = (l: Load) => `${fixed(l.cpu)} µs${subject.postmaster !== undefined ? ` (+ ${fixed(l.databaseCpu)} µs database)` : ""}`;
    const statuses = Object.entries({ ...f.create.statuses })
      .map(([code, count]) => `${code}: ${fixed(count)}`)
      .join(", ");
    lines.push(
      `| ${subject.name} | ${subject.instances} | ${fixed(f.create.requestsPerSecond)} | ${cpu(f.create)} | ${fixed(f.create.p99)} ms | ${fixed(f.list.requestsPerSecond)} | ${cpu(f.list)} | ${fixed(f.list.p99)} ms | creates ${statuses} |`,
    );
  }
  // A record as the sandbox keeps one, for the start-up's store.
  const memory = await startInstance("memory");
  try {
    await send(memory, create, "record", 3_000_000);
    const listed = await send(memory, list, "record", 0);
    record = listed.body.disbursements[0];
  } finally {
    await stopInstance(memory);
  }
  lines.push(
    "",
    `Start-up over a store of ${fixed(START_CREDENTIALS)} credentials holding ${START_RECORDS} records each (written through the store), and a SIGKILL after ${KILL_AFTER} acknowledged creates of a burst of ${BURST} (32 in flight), then a restart:`,
    "",
    "| store | start to ready | then the first list of a stored credential | acknowledged before the kill | read back after the restart |",
    "|---|---|---|---|---|",
  );
  for (const subject of subjects.filter((candidate) => candidate.instances === 1)) {
    const start = await measureStart(await subject.store(), list, record!, log);
    if (!subject.durable) {
      lines.push(
        `| ${subject.name} (empty: it keeps nothing) | ${fixed(start.readyMs)} ms | ${fixed(start.firstAnswerMs)} ms (${start.records} records) | | |`,
      );
      continue;
    }
    log(`  SIGKILL during a burst: ${subject.name}`);
    const kill = await measureKill(await subject.store(), create, list);
    lines.push(
      `| ${subject.name} | ${fixed(start.readyMs)} ms | ${fixed(start.firstAnswerMs)} ms (${start.records} records) | ${kill.acknowledged} of ${kill.sent} sent | ${kill.found} |`,
    );
  }
  return lines;
}

export interface StoreSectionOptions {
  /** Seconds of load per row of the sandbox's table. */
  duration: number;
  /** The Postgres database to use (else a private cluster); false: none. */
  postgres?: string | false;
  sequential?: number;
  concurrent?: number;
  total?: number;
  log?: Log;
}

/** The section: the sandbox on each store, then the stores alone; markdown. */
export async function storeSection(options: StoreSectionOptions): Promise<string> {
  const log = options.log ?? (() => {});
  const loadBefore = loadAverage();
  // The stores' libraries (lmdb, pg) load here, not when the script is imported.
  const [{ FileBackend }, { PostgresBackend }, { startPostgres }] = await Promise.all([
    import("../src/sandbox/store/file.js"),
    import("../src/sandbox/store/postgres.js"),
    import("./lib/postgres-cluster.js"),
  ]);
  const scratch = mkdtempSync(join(tmpdir(), "bank-api-contracts-bench-store-"));
  let cluster: PostgresCluster | undefined;
  let dirs = 0;
  try {
    let createDatabase: (() => Promise<string>) | undefined;
    let postmaster: number | undefined;
    let postgresLine = "Postgres: not measured (--no-postgres).";
    if (options.postgres !== false) {
      if (typeof options.postgres === "string") {
        const given = options.postgres;
        createDatabase = async () => given;
        postgresLine = `Postgres: ${redactUrl(given)} (every row on the same database).`;
      } else {
        const started = await startPostgres();
        cluster = started;
        createDatabase = () => started.createDatabase();
        postmaster = Number(readFileSync(join(started.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
        postgresLine = "Postgres: a private cluster (Debian's binaries, default settings, fsync on), a new database a row.";
      }
    }
    const file = async () => `file:${join(scratch, `sandbox-${++dirs}`)}`;
    const subjects: SandboxSubject[] = [
      { name: "memory", store: async () => "memory", instances: 1, durable: false },
      { name: "file: (LMDB)", store: file, instances: 1, durable: true },
      ...(createDatabase
        ? [
            { name: "Postgres", store: createDatabase, instances: 1, postmaster, durable: true },
            { name: "Postgres", store: createDatabase, instances: 2, postmaster, durable: false },
          ]
        : []),
    ];
    const sandbox = await sandboxLines(subjects, options.duration, log);
    const backendDir = join(scratch, "backend");
    const backends: Subject[] = [
      { name: "memory (no store)", make: () => undefined, cleanup: async () => {} },
      {
        name: "file: (LMDB)",
        make: () => new FileBackend(backendDir),
        cleanup: async () => rmSync(backendDir, { recursive: true, force: true }),
      },
    ];
    if (createDatabase) {
      const database = await createDatabase();
      backends.push({ name: "Postgres", make: () => new PostgresBackend(database), cleanup: async () => {} });
    }
    const alone = await backendLines(backends, options.sequential ?? 300, options.concurrent ?? 32, options.total ?? 3000, log);
    return [
      "## 1c. The sandbox's stores: memory, file: and Postgres",
      "",
      `Written by \`npm run bench -- --only store\` (scripts/bench-store.ts; alone: \`npm run bench:store\`). Node ${process.version}, ${cpus().length} cores; load average at the start: ${loadBefore}. ${postgresLine} The file stores are on the system's temporary directory.`,
      "",
      ...sandbox,
      "",
      "The stores alone (src/sandbox/store/), one record row of an invoice's size a transaction:",
      "",
      ...alone,
      "",
      `Load average at the end: ${loadAverage()}.`,
    ].join("\n");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await cluster?.stop();
  }
}

/** An option parser for a positive number of seconds. */
function seconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new InvalidArgumentError("Expected a positive number of seconds.");
  return Number(value);
}

function program() {
  const command = script("bench:store")
    .description(
      "The sandbox on each store (memory, file: on LMDB, Postgres with one and two instances) and the stores alone, side by side; printed to stdout",
    )
    .option("--postgres <url>", "the Postgres database to measure on (default: a private throwaway cluster; needs Debian's postgresql)")
    .option("--no-postgres", "leave Postgres out")
    .option("--duration <s>", "seconds of load per row of the sandbox's table (default: 5)", seconds)
    .option("--sequential <n>", "the stores alone: transactions one after another, for the latency (default: 300)", integer(10))
    .option("--concurrent <n>", "the stores alone: transactions in flight at once, for the throughput (default: 32)", integer(1))
    .option("--total <n>", "the stores alone: transactions of the throughput run (default: 3000)", integer(10))
    .action(
      async (options: { postgres: string | boolean; duration?: number; sequential?: number; concurrent?: number; total?: number }) => {
        const section = await storeSection({
          duration: options.duration ?? 5,
          postgres: options.postgres === true ? undefined : options.postgres,
          sequential: options.sequential,
          concurrent: options.concurrent,
          total: options.total,
          log: (message) => process.stderr.write(`bench:store: ${message}\n`),
        });
        console.log(section);
        return 0;
      },
    );
  return command;
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
