// StrykerJS: mutation testing of the mock, the sandbox and the client runtime (`npm run mutation`,
// scripts/mutation.ts, which runs one folder at a time and writes mutation/summary.json). Not part of
// `npm test`. Decision record: docs/adr/0016-mutation-testing.md.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // The in-process tests only (the file says which and why).
  vitest: { configFile: "stryker.vitest.config.ts", related: false },
  // Each mutant runs only the tests that reached it in the first run.
  coverageAnalysis: "perTest",
  // Results are reused for every mutant whose code and covering tests did not change
  // (scripts/mutation.ts gives each folder a file of its own under reports/mutation/).
  incremental: true,
  // A mutant reached only while modules load (a constant table, a regular expression at the top of a
  // module) would need every test run again in a fresh module registry; they are counted as ignored.
  ignoreStatic: true,
  concurrency: 2,
  // Spelled out per folder so `npm run mutation -- <folder>` keeps the lines of that folder.
  mutate: [
    "src/mock/**/*.ts",
    // Runs in a worker thread, where Stryker sees no coverage and switches no mutant on.
    "!src/mock/judge-worker.ts",
    // Types and symbols only: nothing to mutate.
    "!src/mock/types.ts",
    // Types only.
    "!src/mock/context.ts",
    // The deviations' names, a list `as const`: StrykerJS makes no mutant of it.
    "!src/mock/deviations.ts",
    "src/sandbox/**/*.ts",
    // Its tests need a Postgres server, a child process (tests/unit/src/sandbox/store/postgres.spawn.test.ts).
    "!src/sandbox/store/postgres.ts",
    // Types only.
    "!src/sandbox/store/types.ts",
    // Types only.
    "!src/sandbox/options.ts",
    // Re-exports only.
    "!src/sandbox/template/index.ts",
    "src/client/**/*.ts",
    // Re-exports only.
    "!src/client/index.ts",
    // Types only.
    "!src/client/types.ts",
  ],
  // What the run's copy of the repository leaves out: builds and scratch folders.
  ignorePatterns: ["/dist", "/site", "/site.building-*", "/.tmp", "/reports", "/test-output", "/*.tgz", "/bench"],
  reporters: ["json", "progress", "clear-text"],
  clearTextReporter: { allowEmojis: false, logTests: false, maxTestsToLog: 0, reportMutants: false },
  // StrykerJS's defaults: a mutant that stops a timer or loops (the sandbox's clock, delivery and
  // scheduler have many) holds its runner for this long and then a restart of vitest, so the bound
  // is kept short; the net time it scales is measured in the same run, under the same load.
  timeoutMS: 5_000,
  timeoutFactor: 1.5,
  dryRunTimeoutMinutes: 30,
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
