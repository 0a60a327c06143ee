import { defineConfig, type Plugin } from "vitest/config";

// Type tests (tests/**/*.test-d.ts) are checked by `npm run typecheck` (tsc), which fails when an
// expectTypeOf assertion fails or a `@ts-expect-error` line stops erroring; vitest runs the rest.
//
// Two tiers (tests/README.md):
// - quick (`npm run test:quick`): tests/unit and tests/apis, except files named *.spawn.test.ts or
//   *.slow.test.ts. No child process, install or browser: tests/setup/no-processes.ts makes starting
//   one throw; no worker thread with a time limit of seconds, no mock of every API, no bound of a
//   thousand filled through HTTP (*.slow.test.ts).
// - full (`npm test`, `npm run test:vitest`): every project, the quick ones included; `full` holds
//   tests/e2e, every *.spawn.test.ts and every *.slow.test.ts; `docs` holds tests/e2e/docs, whose global
//   setup (tests/setup/browser.ts) builds the docs site and starts Chromium once per run; `package` holds
//   tests/e2e/package, whose global setup (tests/setup/package.ts) starts the offline npm registry of the run.

/** Test files that need a fresh module registry of their own (they look at what a module loaded). */
const ISOLATED = ["tests/unit/src/mock/lazy-modules.test.ts"];
const EXCLUDE = ["**/node_modules/**", ".tmp/**"];
const QUICK = ["tests/unit/**/*.test.ts", "tests/apis/**/*.test.ts"];
const SPAWNS = "**/*.spawn.test.ts";
/** In-process, but integration tests by nature: worker threads with time limits of seconds, every API's mock, bounds of a thousand filled through HTTP. */
const SLOW = "**/*.slow.test.ts";
const NO_PROCESSES = ["tests/setup/no-processes.ts"];
/** The docs site in a browser: its project's global setup builds the site and starts Chromium once per run. */
const DOCS = "tests/e2e/docs/**/*.test.ts";
/** The packed package as partners install it: its project's global setup starts one offline registry and one scratch folder per run. */
const PACKAGE = "tests/e2e/package/**/*.test.ts";

/**
 * `vitest run --exclude <glob>` applies the glob to the root configuration only, which a projects
 * configuration does not use for its files (vitest 4.1: the CLI's exclude is not among the options
 * it passes on to projects); this gives it to every project, as vitest documents the option.
 */
const cliExcludeToProjects: Plugin = {
  name: "cli-exclude-to-projects",
  configureVitest({ project, vitest }) {
    for (const glob of vitest.config.cliExclude ?? []) if (!project.config.exclude.includes(glob)) project.config.exclude.push(glob);
  },
};

export default defineConfig({
  plugins: [cliExcludeToProjects],
  test: {
    // Contract tests start mock servers and the generator tests spawn the Redocly CLI; with several
    // files at once on a machine others share, a test that spawns processes can take a minute.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { REDOCLY_TELEMETRY: "off" },
    // Creates .tmp/ (a fresh clone has none), where tests make their scratch folders.
    globalSetup: ["tests/setup/scratch.ts"],
    // Every project's files: with TEST_CPU_REPORT=<file>, each test file's CPU time (tests/setup/file-cpu.ts).
    setupFiles: ["tests/setup/file-cpu.ts"],
    // Vitest's default on 2 cores is one worker; many files mostly wait on a browser, a child process
    // or a socket, so three run at once.
    maxWorkers: 3,
    projects: [
      // Most files share their worker's modules (Prism, Ajv, TypeScript, the bundled specs are loaded
      // once per worker, not once per file): no file changes global state that outlives it.
      {
        extends: true,
        test: { name: "quick", isolate: false, include: QUICK, exclude: [...EXCLUDE, ...ISOLATED, SPAWNS, SLOW], setupFiles: NO_PROCESSES },
      },
      { extends: true, test: { name: "quick-isolated", isolate: true, include: ISOLATED, exclude: EXCLUDE, setupFiles: NO_PROCESSES } },
      {
        extends: true,
        test: { name: "full", isolate: false, include: ["tests/e2e/**/*.test.ts", SPAWNS, SLOW], exclude: [...EXCLUDE, DOCS, PACKAGE] },
      },
      { extends: true, test: { name: "docs", isolate: false, include: [DOCS], exclude: EXCLUDE, globalSetup: ["tests/setup/browser.ts"] } },
      {
        extends: true,
        test: { name: "package", isolate: false, include: [PACKAGE], exclude: EXCLUDE, globalSetup: ["tests/setup/package.ts"] },
      },
    ],
  },
});
