/**
 * A StrykerJS reporter (`npm run mutation -- --stream <file>`): each mutant, as soon as it is tested,
 * is appended to the file as one JSON line, so the survivors of a long run can be read, and tests
 * written for them, before the run ends. StrykerJS loads this module as a plugin by its path; the file
 * to write is the environment's MUTATION_STREAM, which scripts/mutation.ts sets (and empties) for the
 * run. Lines: `{"file","line","column","mutator","replacement","status","coveredBy","killedBy"}`,
 * `file` relative to the repository, `line` 1-based, `column` 0-based as StrykerJS's API gives them,
 * `coveredBy` the number of tests that reached the mutant.
 */
import { appendFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { MutantResult } from "@stryker-mutator/api/core";
import { declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";
import type { Reporter } from "@stryker-mutator/api/report";

export const STREAM_VARIABLE = "MUTATION_STREAM";
export const REPORTER_NAME = "stream";
const ROOT = join(import.meta.dirname, "..", "..");

/** One mutant's line in the stream (without its newline). */
export function streamLine(root: string, result: MutantResult): string {
  return JSON.stringify({
    file: relative(root, result.fileName).replaceAll("\\", "/"),
    line: result.location.start.line,
    column: result.location.start.column,
    mutator: result.mutatorName,
    replacement: result.replacement,
    status: result.status,
    coveredBy: result.coveredBy?.length ?? 0,
    killedBy: result.killedBy ?? [],
  });
}

export class StreamReporter implements Reporter {
  readonly #file = process.env[STREAM_VARIABLE];

  onMutantTested(result: Readonly<MutantResult>): void {
    if (this.#file) appendFileSync(this.#file, `${streamLine(ROOT, result)}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, REPORTER_NAME, StreamReporter)];
