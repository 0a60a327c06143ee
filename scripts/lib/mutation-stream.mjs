/**
 * A StrykerJS reporter (`npm run mutation -- --stream <file>`): each mutant, as soon as it is tested,
 * is appended to the file as one JSON line, so the survivors of a long run can be read, and tests
 * written for them, before the run ends. StrykerJS loads this module as a plugin by its path, in its
 * own process and in each test runner's, which is why it is plain JavaScript (a runner has no
 * TypeScript loader). The file to write is the environment's MUTATION_STREAM, which
 * scripts/mutation.ts sets (and empties) for the run. Lines:
 * `{"file","line","column","mutator","replacement","status","coveredBy","killedBy"}`, `file` relative
 * to the repository, `line` 1-based and `column` 0-based as StrykerJS's API gives them, `coveredBy`
 * the number of tests that reached the mutant.
 */
import { appendFileSync } from "node:fs";
import { join, relative } from "node:path";
import { declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";

export const STREAM_VARIABLE = "MUTATION_STREAM";
export const REPORTER_NAME = "stream";
const ROOT = join(import.meta.dirname, "..", "..");

/**
 * One mutant's line in the stream (without its newline).
 * @param {string} root
 * @param {import("@stryker-mutator/api/core").MutantResult} result
 */
export function streamLine(root, result) {
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

/** @implements {import("@stryker-mutator/api/report").Reporter} */
export class StreamReporter {
  #file = process.env[STREAM_VARIABLE];

  /** @param {Readonly<import("@stryker-mutator/api/core").MutantResult>} result */
  onMutantTested(result) {
    if (this.#file) appendFileSync(this.#file, `${streamLine(ROOT, result)}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, REPORTER_NAME, StreamReporter)];
