/**
 * mutation — StrykerJS over the mock, the client runtime and the sandbox (stryker.config.mjs), one
 * folder at a time, and the summary kept in the repository (mutation/summary.json, written only
 * here). Not part of `npm test` (docs/adr/mutation-testing.md says why and what a run costs).
 *
 *   tsx scripts/mutation.ts [folder...]     src/mock, src/client, src/sandbox (default: all three, in that order)
 *   tsx scripts/mutation.ts --summary-only  the summary again from the kept reports (after editing the equivalent list)
 *
 * Each folder has its own report and incremental file under reports/mutation/ (git-ignored), so a
 * run of one folder reuses that folder's earlier results and leaves the others' alone. The summary
 * holds per folder: the score, the mutants killed, survived, not covered, timed out, recorded as
 * equivalent and ignored, the survivors left, the date, the commit, the run's duration and the load
 * average at its start and end. A mutant recorded in mutation/equivalent.tsv (`file:line`, mutator,
 * why, tab-separated) is counted as equivalent, out of the score; an entry that matches no
 * surviving mutant of a folder just run is reported as stale. Exit 1 when a folder run is under the
 * goal, or an entry is malformed or stale.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { misuse, runCommand, runProgram, script } from "./lib/cli.js";

const ROOT = join(import.meta.dirname, "..");
export const FOLDERS = ["src/mock", "src/client", "src/sandbox"] as const;
export type Folder = (typeof FOLDERS)[number];
/** The mutation score each folder is held to, in percent. */
export const GOAL = 80;
export const SUMMARY = "mutation/summary.json";
export const EQUIVALENT = "mutation/equivalent.tsv";
const REPORTS = "reports/mutation";

/**
 * The test files each folder's mutants are run against (within stryker.vitest.config.ts's in-process
 * set): the folder's own unit tests and the end-to-end suites that drive it in process. A mutant that
 * survives runs every test that reached it; a survivor of the mock's hot path reached by the
 * sandbox's walk of every API would cost minutes, and those suites test the sandbox, not the mock.
 */
export const TESTS: Record<Folder, string[]> = {
  "src/mock": [
    "tests/unit/src/mock/**/*.test.ts",
    "tests/unit/src/testing/**/*.test.ts",
    "tests/e2e/contract/judge.test.ts",
    "tests/e2e/contract/auth.test.ts",
  ],
  "src/client": ["tests/unit/src/client/**/*.test.ts", "tests/e2e/contract/mock.contract.test.ts"],
  "src/sandbox": ["tests/unit/src/sandbox/**/*.test.ts", "tests/e2e/sandbox/**/*.test.ts", "tests/e2e/callbacks/**/*.test.ts"],
};

const slug = (folder: Folder) => folder.replace(/^src\//, "");
export const reportPath = (folder: Folder) => `${REPORTS}/${slug(folder)}.json`;
const incrementalPath = (folder: Folder) => `${REPORTS}/${slug(folder)}.incremental.json`;

/** A folder as the command line may name it: `mock`, `src/mock`, `src/mock/`, `./src/mock`. */
export function parseFolder(name: string): Folder | undefined {
  const bare = name.replace(/^\.\//, "").replace(/\/+$/, "");
  return FOLDERS.find((folder) => folder === bare || slug(folder) === bare);
}

/** The `mutate` lines of the configuration that belong to `folder` (its globs and its exclusions). */
export function mutateFor(mutate: readonly string[], folder: Folder): string[] {
  return mutate.filter((line) => line.replace(/^!/, "").startsWith(`${folder}/`));
}

export interface EquivalentEntry {
  file: string;
  line: number;
  mutator: string;
  why: string;
  /** Where the entry is: `mutation/equivalent.tsv:<n>`. */
  at: string;
}

/** Reads the equivalent list: `file:line<TAB>mutator<TAB>why` a line; `#` comments and blank lines skipped. */
export function parseEquivalent(text: string, name = EQUIVALENT): EquivalentEntry[] {
  const entries: EquivalentEntry[] = [];
  text.split("\n").forEach((raw, index) => {
    const at = `${name}:${index + 1}`;
    const line = raw.trimEnd();
    if (line === "" || line.startsWith("#")) return;
    const [where, mutator, why, ...rest] = line.split("\t");
    const place = /^(src\/[\w./-]+\.ts):(\d+)$/.exec(where ?? "");
    if (!place || !mutator || !/^\w+$/.test(mutator) || !why?.trim() || rest.length > 0)
      throw new Error(`${at}: expected "<src/file.ts>:<line><TAB><mutator><TAB><why it is equivalent>"`);
    entries.push({ file: place[1], line: Number(place[2]), mutator, why: why.trim(), at });
  });
  return entries;
}

/** The part of StrykerJS's JSON report (mutation-testing-report-schema) read here. */
export interface Report {
  files: Record<
    string,
    {
      mutants: Array<{
        id: string;
        mutatorName: string;
        replacement?: string;
        status: string;
        location: { start: { line: number; column: number } };
      }>;
    }
  >;
}

export interface Run {
  date: string;
  commit: string;
  durationSeconds?: number;
  loadAverage?: { start: string; end: string };
}

export interface FolderSummary extends Run {
  score: number;
  goal: number;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  equivalent: number;
  ignored: number;
  errors: number;
  /** The mutants neither detected nor recorded as equivalent: `file:line:column mutator -> replacement (status)`. */
  left: string[];
}

/**
 * Counts a folder's report. Detected: killed or timed out. The score is detected over detected plus
 * undetected (survived or not covered) that are not recorded as equivalent; ignored mutants and
 * those that did not compile or run are out of it, as in StrykerJS's own score.
 */
export function summarise(folder: Folder, report: Report, equivalent: readonly EquivalentEntry[], run: Run) {
  const counts = { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, equivalent: 0, ignored: 0, errors: 0 };
  const left: string[] = [];
  const used = new Set<EquivalentEntry>();
  for (const [path, file] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const name = relative(ROOT, join(ROOT, path)).replaceAll("\\", "/");
    if (!name.startsWith(`${folder}/`)) continue;
    for (const mutant of file.mutants) {
      counts.mutants++;
      const { line, column } = mutant.location.start;
      switch (mutant.status) {
        case "Killed":
          counts.killed++;
          break;
        case "Timeout":
          counts.timeout++;
          break;
        case "Ignored":
          counts.ignored++;
          break;
        case "Survived":
        case "NoCoverage": {
          const entry = equivalent.find((e) => e.file === name && e.line === line && e.mutator === mutant.mutatorName);
          if (entry) {
            used.add(entry);
            counts.equivalent++;
          } else {
            if (mutant.status === "Survived") counts.survived++;
            else counts.noCoverage++;
            left.push(`${name}:${line}:${column} ${mutant.mutatorName} -> ${JSON.stringify(mutant.replacement ?? "")} (${mutant.status})`);
          }
          break;
        }
        default:
          counts.errors++;
      }
    }
  }
  const detected = counts.killed + counts.timeout;
  const valid = detected + counts.survived + counts.noCoverage;
  const score = valid === 0 ? 100 : Math.floor((detected / valid) * 10_000) / 100;
  const stale = equivalent.filter((e) => e.file.startsWith(`${folder}/`) && !used.has(e));
  const summary: FolderSummary = { ...run, score, goal: GOAL, ...counts, left };
  return { summary, stale };
}

/** The summary file's text: every folder's entry, the ones not given kept from `previous`. */
export function renderSummary(folders: Partial<Record<Folder, FolderSummary>>): string {
  const ordered: Record<string, FolderSummary> = {};
  for (const folder of FOLDERS) if (folders[folder]) ordered[folder] = folders[folder];
  return `${JSON.stringify(
    {
      "//": `Written by npm run mutation (scripts/mutation.ts) from StrykerJS's reports; do not edit. Equivalent mutants: ${EQUIVALENT}. Goal: ${GOAL}% per folder.`,
      folders: ordered,
    },
    null,
    2,
  )}\n`;
}

function readSummary(): Partial<Record<Folder, FolderSummary>> {
  const path = join(ROOT, SUMMARY);
  if (!existsSync(path)) return {};
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { folders: Partial<Record<Folder, FolderSummary>> }).folders ?? {};
  } catch (error) {
    throw new Error(`${SUMMARY}: not the JSON this script writes (${(error as Error).message}); delete it to start again`);
  }
}

function readEquivalent(): EquivalentEntry[] {
  const path = join(ROOT, EQUIVALENT);
  return existsSync(path) ? parseEquivalent(readFileSync(path, "utf8")) : [];
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

function commitOf(folder: Folder): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  const head = git("rev-parse", "--short=12", "HEAD");
  // Uncommitted changes to the folder or the tests make the run's code other than the commit's.
  return git("status", "--porcelain", "--", folder, "tests") === "" ? head : `${head}+changes`;
}

/** Runs StrykerJS on one folder, with that folder's report and incremental file. */
async function mutate(folder: Folder): Promise<Run> {
  const { Stryker } = await import("@stryker-mutator/core");
  const config = (await import(pathToFileURL(join(ROOT, "stryker.config.mjs")).href)).default as { mutate: string[] };
  mkdirSync(join(ROOT, REPORTS), { recursive: true });
  const start = loadAverage();
  const started = Date.now();
  const date = new Date(started).toISOString();
  const commit = commitOf(folder);
  await new Stryker({
    configFile: join(ROOT, "stryker.config.mjs"),
    mutate: mutateFor(config.mutate, folder),
    testFiles: TESTS[folder],
    incrementalFile: incrementalPath(folder),
    jsonReporter: { fileName: reportPath(folder) },
  }).runMutationTest();
  return { date, commit, durationSeconds: Math.round((Date.now() - started) / 1000), loadAverage: { start, end: loadAverage() } };
}

function program() {
  return script("mutation")
    .description("StrykerJS over src/mock, src/client and src/sandbox, one folder at a time; writes mutation/summary.json")
    .argument("[folders...]", `folders to run: ${FOLDERS.join(", ")} (default: all three)`)
    .option("--summary-only", "run nothing: write the summary again from the reports of the folders' last runs")
    .action(async function (this: ReturnType<typeof script>, names: string[], options: { summaryOnly?: boolean }) {
      const folders: Folder[] = [];
      for (const name of names) {
        const folder = parseFolder(name);
        if (!folder) misuse(this, `unknown folder "${name}"; known: ${FOLDERS.join(", ")}`);
        if (!folders.includes(folder)) folders.push(folder);
      }
      const selected = folders.length > 0 ? folders : [...FOLDERS];
      const equivalent = readEquivalent();
      const kept = readSummary();
      let failed = false;
      for (const folder of selected) {
        let run: Run;
        if (options.summaryOnly) {
          if (!existsSync(join(ROOT, reportPath(folder)))) {
            if (folders.length > 0) throw new Error(`${reportPath(folder)}: no report of ${folder}; run npm run mutation -- ${folder}`);
            continue;
          }
          const previous = kept[folder];
          if (!previous) throw new Error(`${SUMMARY} has no run of ${folder} to take its date and commit from`);
          run = {
            date: previous.date,
            commit: previous.commit,
            durationSeconds: previous.durationSeconds,
            loadAverage: previous.loadAverage,
          };
        } else run = await mutate(folder);
        const report = JSON.parse(readFileSync(join(ROOT, reportPath(folder)), "utf8")) as Report;
        const { summary, stale } = summarise(folder, report, equivalent, run);
        kept[folder] = summary;
        writeFileSync(join(ROOT, SUMMARY), renderSummary(kept));
        console.log(
          `${folder}: ${summary.score}% (goal ${GOAL}%): ${summary.killed} killed, ${summary.timeout} timed out, ${summary.survived} survived, ` +
            `${summary.noCoverage} not covered, ${summary.equivalent} equivalent, ${summary.ignored} ignored` +
            (run.durationSeconds === undefined
              ? ""
              : `; ${run.durationSeconds} s, load ${run.loadAverage?.start} -> ${run.loadAverage?.end}`),
        );
        for (const entry of stale)
          console.error(`${entry.at}: ${entry.file}:${entry.line} ${entry.mutator} matches no surviving mutant: remove it`);
        if (summary.score < GOAL || stale.length > 0) failed = true;
      }
      console.log(`summary: ${SUMMARY}`);
      return failed ? 1 : 0;
    });
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
