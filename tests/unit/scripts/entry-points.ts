/**
 * Every module under scripts/ outside lib/, by hand: what entry-points.test.ts (each command line's
 * --help and misuse, in process) and entry-points.spawn.test.ts (importing each runs nothing, seen
 * by the import probe in a process of its own) go through.
 */
export type Main = (argv: string[]) => Promise<number>;

export interface CommandLine {
  /** The program's name, as its usage line shows it. */
  name: string;
  main: () => Promise<Main>;
  /** scripts/test.ts: an option it does not know is vitest's, not a misuse. */
  forwardsUnknownOptions?: true;
}

/** Every module under scripts/ outside lib/, written by hand: a command line, or a module other scripts import (or fork). */
export const SCRIPTS: Record<string, CommandLine | "module"> = {
  "scripts/build.ts": { name: "build", main: async () => (await import("../../../scripts/build.js")).main },
  "scripts/changelog.ts": { name: "changelog", main: async () => (await import("../../../scripts/changelog.js")).main },
  "scripts/fuzz.ts": { name: "fuzz", main: async () => (await import("../../../scripts/fuzz.js")).main },
  "scripts/generate.ts": { name: "generate", main: async () => (await import("../../../scripts/generate.js")).main },
  "scripts/lint.ts": { name: "lint:spec", main: async () => (await import("../../../scripts/lint.js")).main },
  "scripts/lint-sandbox.ts": {
    name: "lint:sandbox",
    main: async () => (await import("../../../scripts/lint-sandbox.js")).main,
  },
  "scripts/release-lock.ts": {
    name: "release:lock",
    main: async () => (await import("../../../scripts/release-lock.js")).main,
  },
  "scripts/release.ts": { name: "release", main: async () => (await import("../../../scripts/release.js")).main },
  "scripts/report-gaps.ts": {
    name: "report:gaps",
    main: async () => (await import("../../../scripts/report-gaps.js")).main,
  },
  "scripts/test.ts": { name: "test", main: async () => (await import("../../../scripts/test.js")).main, forwardsUnknownOptions: true },
  "scripts/docs/build.ts": {
    name: "docs:build",
    main: async () => (await import("../../../scripts/docs/build.js")).main,
  },
  "scripts/docs/bench.ts": {
    name: "bench:docs",
    main: async () => (await import("../../../scripts/docs/bench.js")).main,
  },
  "scripts/docs/pages.ts": "module",
  "scripts/docs/guides.ts": "module",
  "scripts/docs/reference.ts": "module",
  "scripts/docs/serve.ts": "module",
  "scripts/docs/summary.ts": "module",
  "scripts/bench-measure.ts": "module",
  "scripts/bench-client.ts": "module",
  "scripts/bench-sandbox.ts": "module",
  "scripts/bench-findings.ts": "module",
  "scripts/bench-hosted.ts": "module",
  "scripts/bench-results.ts": "module",
  "scripts/bench.ts": { name: "bench", main: async () => (await import("../../../scripts/bench.js")).main },
  "scripts/bench-serve.ts": "module",
  "scripts/engine-instructions.ts": {
    name: "bench:instructions",
    main: async () => (await import("../../../scripts/engine-instructions.js")).main,
  },
  "scripts/bench-store.ts": { name: "bench:store", main: async () => (await import("../../../scripts/bench-store.js")).main },
  "scripts/start.ts": { name: "start", main: async () => (await import("../../../scripts/start.js")).main },
  "scripts/mock.ts": { name: "npm run mock --", main: async () => (await import("../../../scripts/mock.js")).main },
  "scripts/mutation.ts": { name: "mutation", main: async () => (await import("../../../scripts/mutation.js")).main },
};

export const entries = Object.entries(SCRIPTS);
// Modules other scripts import go first: what a module does at import shows under the first one probed that imports it.
export const probed = [
  ...entries.filter(([, kind]) => kind === "module"),
  ...entries.filter(([, kind]) => typeof kind === "object" && "main" in kind),
].map(([file]) => file);
export const commandLines = entries.flatMap(([file, kind]) => (typeof kind === "object" && "main" in kind ? [[file, kind] as const] : []));
