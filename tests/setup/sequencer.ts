/**
 * The order in which `npm test` starts its files (vitest's `sequence.sequencer`): the longest first,
 * the short ones last to fill the workers' gaps (longest-processing-time-first scheduling), across
 * every project at once.
 *
 * Vitest's own order runs the projects one after another by name (`docs`, `full`, `package`,
 * `quick`), and inside one it takes its cache of last durations, which a fresh clone (and CI) does
 * not have: the package files, the run's longest chain (one release build, then one partner
 * install that `consumer.test.ts` and `install.test.ts` build on), started two minutes in and the
 * run ended on one worker. The order comes from what is committed here instead: a file's expected
 * seconds, from the table below (files of 10 s and more on a fresh clone, measured in Round 6), else
 * from its kind. A file left out of the table or a wrong figure costs only some wall time, never a
 * result: every file still runs.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds a file took on a fresh clone of Round 6, quiet (CONTRIBUTING "### Timings"), for the files
 * of 10 s and more. The package files count what they wait on too (the length of their chain, so it
 * starts first): npx.test.ts builds the release (about 20 s) that every package file installs, and
 * consumer.test.ts and install.test.ts wait on it and then on the partner project's install.
 */
export const SECONDS: Readonly<Record<string, number>> = {
  "tests/e2e/package/npx.test.ts": 70,
  "tests/e2e/package/consumer.test.ts": 65,
  "tests/e2e/docs/site.test.ts": 62,
  "tests/e2e/package/install.test.ts": 50,
  "tests/unit/src/mock/judge.slow.test.ts": 44,
  "tests/e2e/fuzz/equivalence.test.ts": 40,
  "tests/e2e/workflows/workflows.test.ts": 20,
  "tests/e2e/workflows/sandbox.test.ts": 20,
  "tests/e2e/fuzz/hostile.test.ts": 20,
  "tests/unit/src/workflows/secrets.spawn.test.ts": 12,
  "tests/unit/src/cli/stop.spawn.test.ts": 11,
  "tests/unit/scripts/start.spawn.test.ts": 10,
};

/** A file out of the table: one that starts processes or servers (`e2e/`, `*.spawn`, `*.slow`) takes seconds, a quick one well under one. */
const guess = (file: string) => (/^tests\/e2e\/|\.(spawn|slow)\.test\.ts$/.test(file) ? 3 : 0.5);

export const expectedSeconds = (file: string): number => SECONDS[file] ?? guess(file);

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (spec: TestSpecification) => expectedSeconds(relative(spec.project.config.root, spec.moduleId).replaceAll("\\", "/"));
    // Stable: equal weights keep vitest's order (its project and path order).
    return [...(await super.sort(files))].sort((a, b) => seconds(b) - seconds(a));
  }
}
