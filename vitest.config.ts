import { defineConfig } from "vitest/config";

// Type tests (tests/**/*.test-d.ts) are checked by `npm run typecheck` (tsc), which fails when an
// expectTypeOf assertion fails or a `@ts-expect-error` line stops erroring; vitest runs the rest.

/** Test files that need a fresh module registry of their own (they look at what a module loaded). */
const ISOLATED = ["tests/unit/src/mock/lazy-modules.test.ts"];
const EXCLUDE = ["**/node_modules/**", ".tmp/**"];

export default defineConfig({
  test: {
    // Contract tests start mock servers and the generator tests spawn the Redocly CLI; with several
    // files at once on a machine others share, a test that spawns processes can take a minute.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { REDOCLY_TELEMETRY: "off" },
    // Vitest's default on 2 cores is one worker; many files mostly wait on a browser, a child process
    // or a socket, so three run at once.
    maxWorkers: 3,
    projects: [
      // Most files share their worker's modules (Prism, Ajv, TypeScript, the bundled specs are loaded
      // once per worker, not once per file): no file changes global state that outlives it.
      { extends: true, test: { name: "shared", isolate: false, include: ["tests/**/*.test.ts"], exclude: [...EXCLUDE, ...ISOLATED] } },
      { extends: true, test: { name: "isolated", isolate: true, include: ISOLATED, exclude: EXCLUDE } },
    ],
  },
});
