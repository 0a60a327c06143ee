import { defineConfig } from "vitest/config";

// Type tests (tests/**/*.test-d.ts) are checked by `npm run typecheck` (tsc), which fails when an
// expectTypeOf assertion fails or a `@ts-expect-error` line stops erroring; vitest runs the rest.
export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["**/node_modules/**", ".tmp/**"],
    // Contract tests start mock servers and the generator tests spawn the Redocly CLI.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { REDOCLY_TELEMETRY: "off" },
  },
});
