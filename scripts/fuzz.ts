/**
 * `npm run fuzz [-- --requests N] [--seed S] [--concurrency C] [alias ...]`: the fuzz cases of
 * tests/e2e/fuzz/ (the model in lib/fuzz/) at length. Spreads at least N requests (default 10,000) over every operation of every
 * registered API (or of the aliases given) and every kind of case that applies to it (valid, wrong
 * type, missing required, out of enum, oversized string, broken JSON), sends them to the in-process
 * mocks on free ports, then every operation's hostile requests (lib/fuzz/hostile.ts: undecodable
 * path parameters, `Accept: ,`, map keys a header cannot carry, declared lengths over the limit,
 * deep JSON, many wrong items), then checks that each mock still answers; then fuzzes the sandbox's
 * control API (lib/fuzz/control.ts: valid, mutated and hostile requests to every operation under
 * /_sandbox, on the first API's mock in sandbox mode). Prints the counts per API, kind and
 * outcome. Exit 0 when every answer was as the contract says, 1 otherwise, 2 on bad arguments.
 */
import fc from "fast-check";
import { closeMocks, startMocks } from "../src/mock/index.js";
import { specValidator } from "../src/validation/spec.js";
import { operations, loadDocument } from "../src/document/index.js";
import {
  CASE_KINDS,
  type CaseKind,
  type FuzzCase,
  GOOD,
  operationModel,
  type OperationModel,
  type Outcome,
  SKIPPED,
} from "./lib/fuzz/model.js";
import { hostileCases, runHostile } from "./lib/fuzz/hostile.js";
import { controlCases, runControl } from "./lib/fuzz/control.js";
import { type ApiEntry, loadRegistry } from "../src/registry.js";
import { integer, runCommand, runProgram, script, selectApis } from "./lib/cli.js";

/** A request the mock has not answered in this long counts as a `timeout` outcome (the run goes on). */
const REQUEST_TIMEOUT_MS = 5000;

export interface FuzzOptions {
  /** The APIs to fuzz. */
  entries: ApiEntry[];
  /** At least this many requests in all. */
  requests: number;
  seed: number;
  /** Requests in flight at once. */
  concurrency: number;
}

/** The fuzz run: prints the counts and the first failures; the exit code (1 when an answer broke the contract). */
export async function fuzz(options: FuzzOptions): Promise<number> {
  const docs = new Map(options.entries.map((entry) => [entry.alias, loadDocument(entry.bundlePath)]));
  const models: OperationModel[] = options.entries.flatMap((entry) => {
    const doc = docs.get(entry.alias)!;
    const validator = specValidator(doc);
    return operations(doc).map((op) => operationModel(entry.alias, doc, op, validator));
  });
  const slots = models.flatMap((model) => model.kinds.map((kind) => ({ model, kind })));

  const counts = new Map<string, number>();
  /** Hostile cases sent, per API. */
  const hostile = new Map<string, number>();
  const failures: string[] = [];
  let failed = 0;
  const tally = (alias: string, kind: CaseKind, outcome: Outcome) => {
    const key = `${alias}\t${kind}\t${outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };

  const mocks = new Map((await startMocks(options.entries, { freePorts: true })).map((m) => [m.alias, m]));
  const started = Date.now();
  let sent = 0;
  try {
    // Generate every case first (seeded), then send them with a few requests in flight.
    // A kind whose sites a generated value happens to lack yields no case; top up until there are enough.
    const work: Array<{ model: OperationModel; kind: CaseKind; c: FuzzCase }> = [];
    for (let round = 0; work.length < options.requests && round < 10; round++) {
      const perSlot = Math.ceil((options.requests - work.length) / slots.length);
      slots.forEach(({ model, kind }, i) => {
        const seed = options.seed + round * slots.length + i;
        for (const c of fc.sample(model.arbitrary(kind), { seed, numRuns: perSlot })) if (c) work.push({ model, kind, c });
      });
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < work.length) {
          const { model, kind, c } = work[next++];
          const result = await model.run(mocks.get(model.alias)!.url, c, REQUEST_TIMEOUT_MS);
          tally(model.alias, kind, result.outcome);
          if (!SKIPPED.has(result.outcome)) sent++;
          if (!GOOD.has(result.outcome) && !SKIPPED.has(result.outcome)) {
            failed++;
            if (failures.length < 20) failures.push(`${result.outcome}: ${result.detail}`);
          }
        }
      }),
    );
    // The hostile cases (lib/fuzz/hostile.ts) of every operation, one at a time.
    for (const model of models) {
      for (const c of hostileCases(docs.get(model.alias)!, model.op)) {
        const outcome = await runHostile(mocks.get(model.alias)!.url, c, REQUEST_TIMEOUT_MS * 4);
        sent++;
        hostile.set(model.alias, (hostile.get(model.alias) ?? 0) + 1);
        if (outcome.failure) {
          failed++;
          if (failures.length < 20) failures.push(`hostile, ${c.name}: ${outcome.failure}`);
        }
      }
    }
    // Still answering: every operation's valid request once more.
    for (const model of models) {
      const c = fc.sample(model.arbitrary("valid"), { seed: options.seed, numRuns: 1 })[0]!;
      const result = await model.run(mocks.get(model.alias)!.url, c, REQUEST_TIMEOUT_MS);
      if (SKIPPED.has(result.outcome)) continue;
      sent++;
      tally(model.alias, "valid", result.outcome);
      if (result.outcome !== "2xx as declared") {
        failed++;
        failures.push(`after the run: ${result.outcome}: ${result.detail}`);
      }
    }
  } finally {
    await closeMocks([...mocks.values()]);
  }
  // The sandbox's control API, as Schemathesis fuzzes an API from its document.
  const control = controlCases(options.seed, Math.max(3, Math.ceil(options.requests / 500)));
  const [sandbox] = await startMocks(options.entries.slice(0, 1), { freePorts: true, sandbox: true });
  let controlFailed = 0;
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < control.length) {
          const outcome = await runControl(sandbox.url, control[next++], REQUEST_TIMEOUT_MS);
          sent++;
          if (!outcome.failure) continue;
          failed++;
          controlFailed++;
          if (failures.length < 20) failures.push(`control API: ${outcome.failure}`);
        }
      }),
    );
  } finally {
    await closeMocks([sandbox]);
  }

  const seconds = (Date.now() - started) / 1000;
  const outcomes = [...new Set([...counts.keys()].map((k) => k.split("\t")[2]))].sort(
    (a, b) => Number(GOOD.has(b as Outcome)) - Number(GOOD.has(a as Outcome)) || a.localeCompare(b),
  );
  const rows = options.entries.flatMap((entry) =>
    CASE_KINDS.flatMap((kind) =>
      outcomes.flatMap((outcome) => {
        const n = counts.get(`${entry.alias}\t${kind}\t${outcome}`);
        return n ? [[entry.alias, kind, outcome, String(n)]] : [];
      }),
    ),
  );
  const head = ["API", "kind", "outcome", "count"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ");
  process.stdout.write(`${[line(head), ...rows.map(line)].join("\n")}\n\n`);
  process.stdout.write(`hostile requests (lib/fuzz/hostile.ts): ${[...hostile].map(([alias, n]) => `${alias} ${n}`).join(", ")}\n`);
  process.stdout.write(
    `sandbox control API (lib/fuzz/control.ts, on ${sandbox.alias}): ${control.length} requests, ${controlFailed} not as its document says\n`,
  );
  process.stdout.write(
    `${sent} requests to ${models.length} operations of ${options.entries.length} API(s) in ${seconds.toFixed(1)} s (${Math.round(sent / seconds)}/s, seed ${options.seed}); ` +
      `${failed === 0 ? "every answer as the contract says" : `${failed} failure(s), the first ${failures.length} below`}.\n`,
  );
  if (failed === 0) return 0;
  process.stderr.write(`${failures.join("\n")}\n`);
  return 1;
}

function program() {
  const command = script("fuzz")
    .description("Send fuzz cases (valid and invalid requests) to the in-process mocks; check every answer against the contract")
    .argument("[alias...]", "APIs to fuzz (default: all)")
    .option("--requests <N>", "at least N requests in all", integer(1), 10_000)
    .option("--seed <S>", "seed of the generated cases", integer(0), 20251121)
    .option("--concurrency <C>", "requests in flight at once", integer(1), 8)
    .action((aliases: string[], options: { requests: number; seed: number; concurrency: number }) =>
      fuzz({ entries: selectApis(command, loadRegistry(), aliases), ...options }),
    );
  return command;
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
