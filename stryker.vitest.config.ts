/**
 * The vitest configuration StrykerJS runs (stryker.config.mjs `vitest.configFile`): the tests that
 * run in process, so Stryker sees which test covers which mutant (its coverage is collected in the
 * test thread; a child process, a browser or a worker thread is invisible to it).
 *
 * - In: the quick tier (tests/unit, tests/apis), and the e2e suites that start mocks in process:
 *   tests/e2e/sandbox, tests/e2e/contract, tests/e2e/callbacks.
 * - Out: every `*.spawn.test.ts` and the e2e files that start a process (their code runs where
 *   Stryker cannot see it); the `*.slow.test.ts` files (worker threads waited out in real time, every
 *   API's mock, bounds of a thousand through HTTP: minutes per mutant they cover); the structure
 *   tests, which read the source text that Stryker has rewritten with its mutants; the docs' and
 *   scripts' tests, which cover no mutated folder.
 */
import { defineConfig } from "vitest/config";

const EXCLUDE = [
  "**/node_modules/**",
  ".tmp/**",
  "**/*.spawn.test.ts",
  "**/*.slow.test.ts",
  "tests/unit/src/*/structure.test.ts",
  "tests/unit/docs/**",
  "tests/unit/scripts/**",
  "tests/unit/spectral/**",
  "tests/e2e/sandbox/readme.test.ts",
  // It checks which modules a start loads, so it needs a module registry of its own each time it runs
  // (vitest.config.ts's quick-isolated): every module reloaded for each mutant it covers, which is
  // nearly every mutant of the mock.
  "tests/unit/src/mock/lazy-modules.test.ts",
];
const INCLUDE = [
  "tests/unit/**/*.test.ts",
  "tests/apis/**/*.test.ts",
  "tests/e2e/sandbox/**/*.test.ts",
  "tests/e2e/contract/**/*.test.ts",
  "tests/e2e/callbacks/**/*.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { REDOCLY_TELEMETRY: "off" },
    globalSetup: ["tests/setup/scratch.ts"],
    isolate: false,
    include: INCLUDE,
    exclude: EXCLUDE,
    setupFiles: ["tests/setup/no-processes.ts", "tests/setup/mutated-modules.ts"],
  },
});
