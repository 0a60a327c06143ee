/**
 * bench:store — the sandbox's durable stores alone (src/sandbox/store/): the time to open one, a
 * transaction's latency one after another (each durable before the next starts), the throughput of
 * many in flight on distinct credentials (commits batched), and transactions of two instances on one
 * credential (serialised). Side by side: `memory` (no store: the change set checked and encoded,
 * the floor), `file:` (LMDB) and Postgres. Writes to stdout only, with the load average at the start
 * and the end (docs/adr/durable-store.md has a run).
 *
 *   tsx scripts/bench-store.ts [--postgres <url> | --no-postgres] [--sequential <n>] [--concurrent <n>] [--total <n>]
 *
 * Postgres: the database `--postgres` names (its `sandbox_*` tables are written), else a private
 * throwaway cluster (scripts/lib/postgres-cluster.ts; Debian's postgresql). The file store goes in a
 * temporary directory on the system's temporary file system (which should be a disk for figures
 * that mean something), removed after.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { type ChangeSet, type DurableBackend, prepareChanges } from "../src/sandbox/store/backend.js";
import { redactUrl } from "../src/sandbox/store/open.js";
import { integer, runCommand, runProgram, script } from "./lib/cli.js";
import type { PostgresCluster } from "./lib/postgres-cluster.js";

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

function program() {
  const command = script("bench:store")
    .description(
      "Transaction latency and throughput of the sandbox's durable stores (file: on LMDB, Postgres) beside memory, each alone; printed to stdout",
    )
    .option("--postgres <url>", "the Postgres database to measure on (default: a private throwaway cluster; needs Debian's postgresql)")
    .option("--no-postgres", "leave Postgres out")
    .option("--sequential <n>", "transactions one after another, for the latency (default: 300)", integer(10))
    .option("--concurrent <n>", "transactions in flight at once, for the throughput (default: 32)", integer(1))
    .option("--total <n>", "transactions of the throughput run (default: 3000)", integer(10))
    .action(async (options: { postgres: string | boolean; sequential?: number; concurrent?: number; total?: number }) => {
      const sequential = options.sequential ?? 300;
      const concurrent = options.concurrent ?? 32;
      const total = options.total ?? 3000;
      const loadBefore = loadAverage();
      // The stores' libraries (lmdb, pg) load here, not when the script is imported.
      const [{ FileBackend }, { PostgresBackend }, { startPostgres }] = await Promise.all([
        import("../src/sandbox/store/file.js"),
        import("../src/sandbox/store/postgres.js"),
        import("./lib/postgres-cluster.js"),
      ]);
      const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-bench-store-"));
      let cluster: PostgresCluster | undefined;
      const subjects: Subject[] = [
        { name: "memory (no store)", make: () => undefined, cleanup: async () => {} },
        { name: "file: (LMDB)", make: () => new FileBackend(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) },
      ];
      try {
        if (options.postgres !== false) {
          let url = typeof options.postgres === "string" ? options.postgres : undefined;
          if (!url) {
            cluster = await startPostgres();
            url = await cluster.createDatabase();
          }
          const database = url;
          subjects.push({ name: "Postgres", make: () => new PostgresBackend(database), cleanup: async () => {} });
          console.log(`Postgres: ${cluster ? "a private cluster (Debian's binaries, default settings, fsync on)" : redactUrl(url)}`);
        }
        console.log(`Node ${process.version}, ${cpus().length} cores; load average at the start: ${loadBefore}`);
        console.log(
          `${sequential} transactions one after another; ${total} with ${concurrent} in flight (distinct credentials); 40 by two instances on one credential`,
        );
        console.log("");
        console.log(
          "| store | open | one after another: median, p95 | in flight: per second | two instances, one credential: per transaction |",
        );
        console.log("|---|---|---|---|---|");
        for (const subject of subjects) {
          try {
            const f = await measure(subject, sequential, concurrent, total);
            console.log(
              `| ${subject.name} | ${f.openMs.toFixed(1)} ms | ${f.p50.toFixed(0)} µs, ${f.p95.toFixed(0)} µs | ${Math.round(f.perSecond).toLocaleString("en-US")} | ${(f.contendedMs * 1000).toFixed(0)} µs |`,
            );
          } finally {
            await subject.cleanup();
          }
        }
        console.log("");
        console.log(`load average at the end: ${loadAverage()}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await cluster?.stop();
      }
      return 0;
    });
  return command;
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
