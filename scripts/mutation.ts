/**
 * mutation — StrykerJS over the mock, the client runtime and the sandbox (stryker.config.mjs), one
 * folder at a time, and the summary kept in the repository (mutation/summary.json, written only
 * here). Not part of `npm test` (docs/adr/0016-mutation-testing.md says why and what a run costs).
 *
 *   tsx scripts/mutation.ts [target...]     src/mock, src/client, src/sandbox (default: all three), or files or folders in them
 *   tsx scripts/mutation.ts --summary-only  the summary again from the kept reports (after editing the equivalent list)
 *
 * Each folder keeps its report and its incremental file under reports/mutation/ (git-ignored): a
 * run of some of a folder's files replaces those files' results in them and keeps the others', so a
 * folder can be measured a few files at a time on a busy machine, and a run reuses every result
 * whose code and tests did not change. The summary holds per folder: the score, the mutants killed,
 * survived, not covered, timed out, recorded as equivalent and ignored, the survivors left, the
 * files not run yet, and the last run's date, commit, files, duration and load average at its start
 * and end. A mutant recorded in mutation/equivalent.tsv (`file:line`, mutator, why, tab-separated)
 * is counted as equivalent, out of the score; an entry that matches no surviving (or timed-out)
 * mutant of a file with results is reported as stale. Exit 1 when a folder is under the goal or has
 * files not run, or an entry is malformed or stale.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
    "tests/e2e/contract/answer.test.ts",
    "tests/e2e/contract/prism-parts.test.ts",
    "tests/e2e/contract/mock-start.test.ts",
    "tests/e2e/contract/validate.contract.test.ts",
    "tests/e2e/contract/validate-setup.test.ts",
  ],
  "src/client": ["tests/unit/src/client/**/*.test.ts", "tests/e2e/contract/mock.contract.test.ts"],
  // The hosted mode's unit tests drive the sandbox's credential gate and partner operations in process.
  "src/sandbox": [
    "tests/unit/src/sandbox/**/*.test.ts",
    "tests/unit/src/hosted/**/*.test.ts",
    "tests/e2e/sandbox/**/*.test.ts",
    "tests/e2e/callbacks/**/*.test.ts",
  ],
};

const slug = (folder: Folder) => folder.replace(/^src\//, "");
export const reportPath = (folder: Folder) => `${REPORTS}/${slug(folder)}.json`;
const incrementalPath = (folder: Folder) => `${REPORTS}/${slug(folder)}.incremental.json`;
const lastRunPath = (folder: Folder) => `${REPORTS}/${slug(folder)}.last-run.json`;

/** A folder as the command line may name it: `mock`, `src/mock`, `src/mock/`, `./src/mock`. */
export function parseFolder(name: string): Folder | undefined {
  const bare = name.replace(/^\.\//, "").replace(/\/+$/, "");
  return FOLDERS.find((folder) => folder === bare || slug(folder) === bare);
}

/** The `mutate` lines of the configuration that belong to `folder` (its globs and its exclusions). */
export function mutateFor(mutate: readonly string[], folder: Folder): string[] {
  return mutate.filter((line) => line.replace(/^!/, "").startsWith(`${folder}/`));
}

/**
 * The files a folder's mutate lines take: every `.ts` file under it but those its `!` lines name
 * (each an exact path, as stryker.config.mjs writes them, with its reason).
 */
export function scopeOf(folder: Folder, lines: readonly string[], files: readonly string[]): string[] {
  const excluded = lines.filter((line) => line.startsWith("!")).map((line) => line.slice(1));
  for (const path of excluded)
    if (/[*?[{]/.test(path))
      throw new Error(`stryker.config.mjs: exclusion "!${path}" must name one file (scripts/mutation.ts lists what is not run yet)`);
  return files.filter((file) => file.startsWith(`${folder}/`) && file.endsWith(".ts") && !excluded.includes(file)).sort();
}

const filesUnder = (folder: Folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" }).map((file) => `${folder}/${file.replaceAll("\\", "/")}`);

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

type Mutant = {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
};

/** The part of StrykerJS's JSON report (mutation-testing-report-schema) read here; the rest is kept as it is. */
export interface Report {
  files: Record<string, { mutants: Mutant[] } & Record<string, unknown>>;
  testFiles?: Record<string, unknown>;
  [member: string]: unknown;
}

/**
 * A folder's kept report after a run of some of its files: the run's files from `run`, the other
 * files of the scope from `kept`, files outside the scope (deleted, excluded) dropped. The test
 * files' entries are the run's, and the kept ones the run did not load.
 */
export function mergeReports(kept: Report | undefined, run: Report, scope: readonly string[]): Report {
  const files: Report["files"] = {};
  for (const [path, file] of Object.entries(kept?.files ?? {})) if (scope.includes(path)) files[path] = file;
  for (const [path, file] of Object.entries(run.files)) files[path] = file;
  const testFiles = run.testFiles || kept?.testFiles ? { ...kept?.testFiles, ...run.testFiles } : undefined;
  return { ...run, files, ...(testFiles ? { testFiles } : {}) };
}

export interface Run {
  date: string;
  commit: string;
  /** The files the last run mutated: "all" for the whole folder. */
  files?: "all" | string[];
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
  /** Files of the folder's scope that no run has mutated yet: the score leaves them out. */
  notRun: string[];
  /** The mutants neither detected nor recorded as equivalent: `file:line:column mutator -> replacement (status)`. */
  left: string[];
}

/**
 * Counts a folder's report. Detected: killed or timed out. The score is detected over detected plus
 * undetected (survived or not covered) that are not recorded as equivalent; ignored mutants and
 * those that did not compile or run are out of it, as in StrykerJS's own score.
 */
export function summarise(folder: Folder, report: Report, equivalent: readonly EquivalentEntry[], run: Run, scope?: readonly string[]) {
  const counts = { mutants: 0, killed: 0, timeout: 0, survived: 0, noCoverage: 0, equivalent: 0, ignored: 0, errors: 0 };
  const left: string[] = [];
  const used = new Set<EquivalentEntry>();
  const reported: string[] = [];
  for (const [path, file] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const name = relative(ROOT, join(ROOT, path)).replaceAll("\\", "/");
    if (!name.startsWith(`${folder}/`)) continue;
    reported.push(name);
    for (const mutant of file.mutants) {
      counts.mutants++;
      const { line, column } = mutant.location.start;
      const entry = equivalent.find((e) => e.file === name && e.line === line && e.mutator === mutant.mutatorName);
      switch (mutant.status) {
        case "Killed":
          counts.killed++;
          break;
        case "Timeout":
          counts.timeout++;
          // Detected, but an entry of it is not stale: a mutant that only drops a cache (more work,
          // the same answers) times out on a busy machine and survives on a quiet one.
          if (entry) used.add(entry);
          break;
        case "Ignored":
          counts.ignored++;
          break;
        case "Survived":
        case "NoCoverage": {
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
  // Only entries of files with results can be judged stale: a file not run has no survivors yet.
  const stale = equivalent.filter((e) => reported.includes(e.file) && !used.has(e));
  const notRun = (scope ?? []).filter((file) => !reported.includes(file));
  const summary: FolderSummary = { ...run, score, goal: GOAL, ...counts, notRun, left };
  return { summary, stale };
}

/** The summary file's text: every folder's entry, in a fixed order. */
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

function readJson<T>(path: string, what: string): T | undefined {
  if (!existsSync(join(ROOT, path))) return undefined;
  try {
    return JSON.parse(readFileSync(join(ROOT, path), "utf8")) as T;
  } catch (error) {
    throw new Error(`${path}: not ${what} (${(error as Error).message}); delete it to start again`);
  }
}

const readSummary = () =>
  readJson<{ folders?: Partial<Record<Folder, FolderSummary>> }>(SUMMARY, "the JSON this script writes")?.folders ?? {};

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

const config = async () =>
  (await import(pathToFileURL(join(ROOT, "stryker.config.mjs")).href)).default as { mutate: string[]; reporters: string[] };

const configMutate = async () => (await config()).mutate;

/** The stream reporter's plugin (plain JavaScript: StrykerJS's test runners load it too), its name and the variable naming its file. */
export const STREAM_PLUGIN = join(ROOT, "scripts/lib/mutation-stream.mjs");
export const REPORTER_NAME = "stream";
export const STREAM_VARIABLE = "MUTATION_STREAM";

/**
 * The options that add the stream reporter (scripts/lib/mutation-stream.mjs) to the configuration's:
 * each mutant appended to `file` as one JSON line as soon as it is tested.
 */
export function streamOptions(file: string, reporters: readonly string[]) {
  process.env[STREAM_VARIABLE] = file;
  return {
    plugins: ["@stryker-mutator/*", STREAM_PLUGIN],
    reporters: [...reporters, REPORTER_NAME],
  };
}

/**
 * Runs StrykerJS on a folder's `files` (undefined: the whole folder), then merges the run's report
 * and incremental file into the folder's kept ones.
 */
async function mutate(folder: Folder, files: string[] | undefined, scope: string[], stream?: string): Promise<Run> {
  const { Stryker } = await import("@stryker-mutator/core");
  mkdirSync(join(ROOT, REPORTS), { recursive: true });
  const keptIncremental = readJson<Report>(incrementalPath(folder), "StrykerJS's incremental file");
  const start = loadAverage();
  const started = Date.now();
  const date = new Date(started).toISOString();
  const commit = commitOf(folder);
  await new Stryker({
    configFile: join(ROOT, "stryker.config.mjs"),
    mutate: files ?? mutateFor(await configMutate(), folder),
    testFiles: TESTS[folder],
    incrementalFile: incrementalPath(folder),
    jsonReporter: { fileName: lastRunPath(folder) },
    ...(stream ? streamOptions(stream, (await config()).reporters) : {}),
  }).runMutationTest();
  const run = readJson<Report>(lastRunPath(folder), "StrykerJS's JSON report");
  if (!run) throw new Error(`StrykerJS wrote no report at ${lastRunPath(folder)}`);
  writeFileSync(
    join(ROOT, reportPath(folder)),
    JSON.stringify(mergeReports(readJson<Report>(reportPath(folder), "a kept report"), run, scope)),
  );
  const incremental = readJson<Report>(incrementalPath(folder), "StrykerJS's incremental file");
  if (incremental && keptIncremental)
    writeFileSync(join(ROOT, incrementalPath(folder)), JSON.stringify(mergeReports(keptIncremental, incremental, scope)));
  const durationSeconds = Math.round((Date.now() - started) / 1000);
  return { date, commit, files: files ?? "all", durationSeconds, loadAverage: { start, end: loadAverage() } };
}

function program() {
  return script("mutation")
    .description("StrykerJS over src/mock, src/client and src/sandbox, one folder at a time; writes mutation/summary.json")
    .argument("[targets...]", `folders to run (${FOLDERS.join(", ")}; default: all three), or files or folders in them`)
    .option("--summary-only", "run nothing: write the summary again from the kept reports")
    .option("--stream <file>", "append each mutant to <file> as one JSON line as soon as it is tested (emptied first)")
    .action(async function (this: ReturnType<typeof script>, names: string[], options: { summaryOnly?: boolean; stream?: string }) {
      if (options.stream !== undefined) {
        if (options.summaryOnly) misuse(this, "--stream needs a run; --summary-only runs nothing");
        // Emptied once: the lines of every folder this command runs follow each other.
        writeFileSync(options.stream, "");
      }
      const mutateLines = await configMutate();
      const scopes = Object.fromEntries(FOLDERS.map((f) => [f, scopeOf(f, mutateFor(mutateLines, f), filesUnder(f))])) as Record<
        Folder,
        string[]
      >;
      /** Per folder asked for: its files, or undefined for all of it. */
      const targets = new Map<Folder, string[] | undefined>();
      for (const name of names) {
        const folder = parseFolder(name);
        if (folder) {
          targets.set(folder, undefined);
          continue;
        }
        const file = name.replace(/^\.\//, "").replace(/\/+$/, "");
        const owner = FOLDERS.find((f) => file.startsWith(`${f}/`));
        if (!owner) misuse(this, `unknown target "${name}"; expected ${FOLDERS.join(", ")} or a file or folder in them`);
        // A file of the scope, or a folder inside: every file of the scope under it.
        const named = scopes[owner].includes(file) ? [file] : scopes[owner].filter((f) => f.startsWith(`${file}/`));
        if (named.length === 0)
          misuse(this, `"${name}" holds no file StrykerJS mutates (missing, or left out by stryker.config.mjs, which says why)`);
        if (options.summaryOnly) misuse(this, "--summary-only takes folders, not files");
        const files = targets.has(owner) ? targets.get(owner) : [];
        for (const f of named) if (files && !files.includes(f)) files.push(f);
        targets.set(owner, files);
      }
      if (targets.size === 0) for (const folder of FOLDERS) targets.set(folder, undefined);
      const equivalent = readEquivalent();
      const kept = readSummary();
      let failed = false;
      for (const folder of FOLDERS) {
        if (!targets.has(folder)) continue;
        let run: Run;
        if (options.summaryOnly) {
          const previous = kept[folder];
          if (!existsSync(join(ROOT, reportPath(folder))) || !previous) {
            if (names.length > 0) throw new Error(`${reportPath(folder)}: no kept report of ${folder}; run npm run mutation -- ${folder}`);
            continue;
          }
          run = {
            date: previous.date,
            commit: previous.commit,
            files: previous.files,
            durationSeconds: previous.durationSeconds,
            loadAverage: previous.loadAverage,
          };
        } else run = await mutate(folder, targets.get(folder), scopes[folder], options.stream);
        const report = readJson<Report>(reportPath(folder), "a kept report");
        if (!report) throw new Error(`${reportPath(folder)}: missing`);
        const { summary, stale } = summarise(folder, report, equivalent, run, scopes[folder]);
        kept[folder] = summary;
        writeFileSync(join(ROOT, SUMMARY), renderSummary(kept));
        console.log(
          `${folder}: ${summary.score}% (goal ${GOAL}%): ${summary.killed} killed, ${summary.timeout} timed out, ${summary.survived} survived, ` +
            `${summary.noCoverage} not covered, ${summary.equivalent} equivalent, ${summary.ignored} ignored` +
            (summary.notRun.length > 0 ? `; ${summary.notRun.length} of ${scopes[folder].length} files not run yet` : "") +
            (run.durationSeconds === undefined || options.summaryOnly
              ? ""
              : `; ${run.durationSeconds} s, load ${run.loadAverage?.start} -> ${run.loadAverage?.end}`),
        );
        for (const entry of stale)
          console.error(`${entry.at}: ${entry.file}:${entry.line} ${entry.mutator} matches no surviving or timed-out mutant: remove it`);
        if (summary.score < GOAL || summary.notRun.length > 0 || stale.length > 0) failed = true;
      }
      console.log(`summary: ${SUMMARY}`);
      return failed ? 1 : 0;
    });
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
