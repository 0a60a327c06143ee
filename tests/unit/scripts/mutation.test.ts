/**
 * scripts/mutation.ts without running StrykerJS: folders named on the command line, the `mutate`
 * lines kept per folder, the equivalent list read line by line (a malformed line named by file and
 * line), and a report counted into the summary (score as StrykerJS defines it, equivalent mutants out
 * of it, stale entries found). The reports are small hand-written ones in StrykerJS's JSON format.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { MutantResult } from "@stryker-mutator/api/core";
import { describe, expect, it, vi } from "vitest";
import {
  main,
  mergeReports,
  mutateFor,
  parseEquivalent,
  parseFolder,
  type Report,
  renderSummary,
  REPORTER_NAME,
  STREAM_PLUGIN,
  STREAM_VARIABLE,
  scopeOf,
  streamOptions,
  summarise,
} from "../../../scripts/mutation.js";
import { repoRoot } from "../../../src/registry.js";

const MUTATE = [
  "src/mock/**/*.ts",
  "!src/mock/judge-worker.ts",
  "src/sandbox/**/*.ts",
  "!src/sandbox/store/postgres.ts",
  "src/client/**/*.ts",
];

describe("the command line", () => {
  it("names a folder with or without src/ and a trailing slash, and nothing else", () => {
    expect(["mock", "src/mock", "src/mock/", "./src/sandbox", "client"].map(parseFolder)).toEqual([
      "src/mock",
      "src/mock",
      "src/mock",
      "src/sandbox",
      "src/client",
    ]);
    expect(parseFolder("src/cli")).toBeUndefined();
    expect(parseFolder("src/mockery")).toBeUndefined();
  });

  it("keeps a folder's globs and exclusions, not another's", () => {
    expect(mutateFor(MUTATE, "src/mock")).toEqual(["src/mock/**/*.ts", "!src/mock/judge-worker.ts"]);
    expect(mutateFor(MUTATE, "src/sandbox")).toEqual(["src/sandbox/**/*.ts", "!src/sandbox/store/postgres.ts"]);
    expect(mutateFor(MUTATE, "src/client")).toEqual(["src/client/**/*.ts"]);
  });

  it("takes a folder's files but those its exclusions name, and refuses an exclusion that is a glob", () => {
    const files = ["src/mock/a.ts", "src/mock/judge-worker.ts", "src/mock/README.md", "src/mock/sub/b.ts", "src/mockery/c.ts"];
    expect(scopeOf("src/mock", mutateFor(MUTATE, "src/mock"), files)).toEqual(["src/mock/a.ts", "src/mock/sub/b.ts"]);
    expect(() => scopeOf("src/mock", ["src/mock/**/*.ts", "!src/mock/*.d.ts"], files)).toThrow(
      /exclusion "!src\/mock\/\*\.d\.ts" must name one file/,
    );
  });

  it("an unknown folder is a misuse: one line, the hint, exit 2, nothing run", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["src/cli"])).toBe(2);
      expect(error.mock.calls.map(([line]) => line)).toEqual([
        'error: unknown target "src/cli"; expected src/mock, src/client, src/sandbox or a file or folder in them',
        "(add --help for usage)",
      ]);
      expect(log).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      log.mockRestore();
    }
  });
  it("a file or folder that holds nothing mutated is a misuse naming it", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const target of ["src/mock/nope.ts", "src/mock/judge-worker.ts", "src/sandbox/nowhere"]) {
        error.mockClear();
        expect(await main([target]), target).toBe(2);
        expect(error.mock.calls[0]?.[0]).toBe(
          `error: "${target}" holds no file StrykerJS mutates (missing, or left out by stryker.config.mjs, which says why)`,
        );
      }
      error.mockClear();
      expect(await main(["--summary-only", "src/mock/route.ts"])).toBe(2);
      expect(error.mock.calls[0]?.[0]).toBe("error: --summary-only takes folders, not files");
      error.mockClear();
      expect(await main(["--summary-only", "--stream", "mutants.jsonl", "src/mock"])).toBe(2);
      expect(error.mock.calls[0]?.[0]).toBe("error: --stream needs a run; --summary-only runs nothing");
    } finally {
      error.mockRestore();
    }
  });
});

describe("the equivalent list", () => {
  it("reads file:line, mutator and why, skipping comments and blank lines", () => {
    const text = "# a comment\n\nsrc/mock/route.ts:12\tConditionalExpression\tboth branches answer the same\n";
    expect(parseEquivalent(text)).toEqual([
      {
        file: "src/mock/route.ts",
        line: 12,
        mutator: "ConditionalExpression",
        why: "both branches answer the same",
        at: "mutation/equivalent.tsv:3",
      },
    ]);
  });

  it("names the file and line of a malformed entry", () => {
    for (const bad of [
      "src/mock/route.ts\tConditionalExpression\twhy",
      "src/mock/route.ts:12\tConditionalExpression",
      "src/mock/route.ts:12\tConditionalExpression\t ",
      "src/mock/route.ts:12 ConditionalExpression why",
      "mock/route.ts:12\tConditionalExpression\twhy",
      "src/mock/route.ts:12\tConditional Expression\twhy",
      "src/mock/route.ts:12\tConditionalExpression\twhy\textra",
    ])
      expect(() => parseEquivalent(`# head\n${bad}\n`), bad).toThrow(
        /^mutation\/equivalent\.tsv:2: expected "<src\/file\.ts>:<line><TAB><mutator><TAB><why/,
      );
  });
});

const mutant = (id: string, status: string, line: number, mutatorName = "ConditionalExpression", replacement = "true") => ({
  id,
  status,
  mutatorName,
  replacement,
  location: { start: { line, column: 5 } },
});

describe("the summary of a report", () => {
  const report: Report = {
    files: {
      "src/mock/route.ts": {
        mutants: [
          mutant("1", "Killed", 10),
          mutant("2", "Killed", 11),
          mutant("3", "Timeout", 12),
          mutant("4", "Survived", 20),
          mutant("5", "Survived", 30, "EqualityOperator", "a < b"),
          mutant("6", "NoCoverage", 40),
          mutant("7", "Ignored", 50),
          mutant("8", "CompileError", 60),
        ],
      },
      // Another folder's file in the same report is not counted.
      "src/client/retry.ts": { mutants: [mutant("9", "Survived", 1)] },
    },
  };
  const run = { date: "2026-11-28T20:00:00.000Z", commit: "0123456789ab" };

  it("counts each status and scores detected over detected and undetected", () => {
    const { summary, stale } = summarise("src/mock", report, [], run, ["src/mock/route.ts", "src/mock/write.ts"]);
    expect(summary).toMatchObject({ mutants: 8, killed: 2, timeout: 1, survived: 2, noCoverage: 1, equivalent: 0, ignored: 1, errors: 1 });
    expect(summary.score).toBe(50); // 3 detected of 6
    expect(summary.left).toEqual([
      'src/mock/route.ts:20:5 ConditionalExpression -> "true" (Survived)',
      'src/mock/route.ts:30:5 EqualityOperator -> "a < b" (Survived)',
      'src/mock/route.ts:40:5 ConditionalExpression -> "true" (NoCoverage)',
    ]);
    expect(stale).toEqual([]);
    // A file of the scope with no results yet is named, not counted.
    expect(summary.notRun).toEqual(["src/mock/write.ts"]);
  });

  it("takes an equivalent mutant out of the score, matched by file, line and mutator; an entry matching nothing is stale", () => {
    const equivalent = parseEquivalent(
      [
        "src/mock/route.ts:30\tEqualityOperator\tthe two bounds never meet",
        "src/mock/route.ts:20\tEqualityOperator\tno mutant of that mutator there",
        "src/client/retry.ts:1\tConditionalExpression\tanother folder's entry",
      ].join("\n"),
    );
    const { summary, stale } = summarise("src/mock", report, equivalent, run);
    expect(summary).toMatchObject({ survived: 1, noCoverage: 1, equivalent: 1 });
    expect(summary.score).toBe(60); // 3 detected of 5
    expect(stale.map((e) => e.at)).toEqual(["mutation/equivalent.tsv:2"]);
  });

  it("keeps an entry whose mutant timed out: counted as detected, the entry not stale (it may survive on a quieter run)", () => {
    const equivalent = parseEquivalent("src/mock/route.ts:12\tConditionalExpression\ta cache: without it, only more work");
    const { summary, stale } = summarise("src/mock", report, equivalent, run);
    expect(summary).toMatchObject({ timeout: 1, survived: 2, equivalent: 0 });
    expect(summary.score).toBe(50);
    expect(stale).toEqual([]);
  });

  it("rounds the score down, so a folder is never shown at the goal below it", () => {
    const many: Report = {
      files: {
        "src/client/retry.ts": {
          mutants: [
            ...Array.from({ length: 799 }, (_, i) => mutant(`k${i}`, "Killed", i + 1)),
            ...Array.from({ length: 201 }, (_, i) => mutant(`s${i}`, "Survived", i + 1)),
          ],
        },
      },
    };
    expect(summarise("src/client", many, [], run).summary.score).toBe(79.9);
  });

  it("merges a run of some files into the kept report: the run's files replaced, the others kept, files out of scope dropped", () => {
    const kept: Report = {
      schemaVersion: "1",
      files: {
        "src/mock/a.ts": { mutants: [mutant("1", "Survived", 1)] },
        "src/mock/b.ts": { mutants: [mutant("2", "Killed", 1)] },
        "src/mock/gone.ts": { mutants: [] },
      },
      testFiles: { "tests/a.test.ts": { tests: [] }, "tests/b.test.ts": { tests: [] } },
    };
    const run: Report = {
      schemaVersion: "2",
      files: { "src/mock/a.ts": { mutants: [mutant("1", "Killed", 1)] } },
      testFiles: { "tests/a.test.ts": { tests: [{ id: "0" }] } },
    };
    const merged = mergeReports(kept, run, ["src/mock/a.ts", "src/mock/b.ts"]);
    expect(merged.schemaVersion).toBe("2");
    expect(Object.keys(merged.files).sort()).toEqual(["src/mock/a.ts", "src/mock/b.ts"]);
    expect(merged.files["src/mock/a.ts"].mutants[0].status).toBe("Killed");
    expect(merged.files["src/mock/b.ts"].mutants[0].status).toBe("Killed");
    expect(merged.testFiles).toEqual({ "tests/a.test.ts": { tests: [{ id: "0" }] }, "tests/b.test.ts": { tests: [] } });
    expect(mergeReports(undefined, run, ["src/mock/a.ts"]).files).toEqual(run.files);
  });

  it("writes the folders in a fixed order with the do-not-edit line", () => {
    const mock = summarise("src/mock", report, [], run).summary;
    const client = summarise("src/client", report, [], run).summary;
    const text = renderSummary({ "src/client": client, "src/mock": mock });
    const parsed = JSON.parse(text);
    expect(parsed["//"]).toMatch(/^Written by npm run mutation \(scripts\/mutation\.ts\).*do not edit/);
    expect(Object.keys(parsed.folders)).toEqual(["src/mock", "src/client"]);
    expect(parsed.folders["src/mock"]).toMatchObject({ date: run.date, commit: run.commit, goal: 80, score: 50 });
    expect(text.endsWith("}\n")).toBe(true);
  });
});

describe("the stream of mutants (--stream)", async () => {
  // The plugin as StrykerJS loads it: by its path, plain JavaScript.
  const plugin = (await import(pathToFileURL(STREAM_PLUGIN).href)) as {
    STREAM_VARIABLE: string;
    REPORTER_NAME: string;
    StreamReporter: new () => { onMutantTested(result: MutantResult): void };
    strykerPlugins: unknown[];
  };
  const { StreamReporter, strykerPlugins } = plugin;

  const result = (status: MutantResult["status"], extra: Partial<MutantResult> = {}): MutantResult => ({
    id: "7",
    fileName: join(repoRoot, "src/sandbox/engine/answer.ts"),
    location: { start: { line: 12, column: 4 }, end: { line: 12, column: 9 } },
    mutatorName: "EqualityOperator",
    replacement: "a <= b",
    status,
    ...extra,
  });

  it("appends each tested mutant to the file as one JSON line, its file relative to the repository", () => {
    const dir = mkdtempSync(join(tmpdir(), "mutation-stream-"));
    const file = join(dir, "mutants.jsonl");
    const saved = process.env[STREAM_VARIABLE];
    try {
      const options = streamOptions(file, ["json", "progress"]);
      expect(options.reporters).toEqual(["json", "progress", REPORTER_NAME]);
      // The plugin StrykerJS loads by path: this very module.
      expect(options.plugins).toEqual(["@stryker-mutator/*", join(repoRoot, "scripts/lib/mutation-stream.mjs")]);
      const reporter = new StreamReporter();
      reporter.onMutantTested(result("Survived", { coveredBy: ["t1", "t2"] }));
      reporter.onMutantTested(result("Killed", { coveredBy: ["t1"], killedBy: ["t1"] }));
      reporter.onMutantTested(result("NoCoverage"));
      const lines = readFileSync(file, "utf8").split("\n");
      expect(lines.at(-1)).toBe("");
      expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([
        {
          file: "src/sandbox/engine/answer.ts",
          line: 12,
          column: 4,
          mutator: "EqualityOperator",
          replacement: "a <= b",
          status: "Survived",
          coveredBy: 2,
          killedBy: [],
        },
        {
          file: "src/sandbox/engine/answer.ts",
          line: 12,
          column: 4,
          mutator: "EqualityOperator",
          replacement: "a <= b",
          status: "Killed",
          coveredBy: 1,
          killedBy: ["t1"],
        },
        {
          file: "src/sandbox/engine/answer.ts",
          line: 12,
          column: 4,
          mutator: "EqualityOperator",
          replacement: "a <= b",
          status: "NoCoverage",
          coveredBy: 0,
          killedBy: [],
        },
      ]);
    } finally {
      if (saved === undefined) delete process.env[STREAM_VARIABLE];
      else process.env[STREAM_VARIABLE] = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("declares itself to StrykerJS as a reporter named stream, reading the variable scripts/mutation.ts sets", () => {
    expect([plugin.REPORTER_NAME, plugin.STREAM_VARIABLE]).toEqual([REPORTER_NAME, STREAM_VARIABLE]);
    expect(strykerPlugins).toEqual([expect.objectContaining({ kind: "Reporter", name: REPORTER_NAME, injectableClass: StreamReporter })]);
  });
});
