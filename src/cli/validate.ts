/** `bank-api-contracts validate <alias> <file> --operation <id> --status <code>`: a captured body against the contract. */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { type CliContext, lookup, needs } from "./common.js";
import { integer } from "./options.js";

/**
 * The input as text: UTF-8 (a byte order mark is skipped, as JSON parsers may do). Bytes that are
 * not UTF-8 are a misuse, not replaced: a body with U+FFFD in place of its bytes could match.
 */
function readInput(command: Command, file: string): string {
  const name = file === "-" ? "standard input" : file;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === "-" ? 0 : file);
  } catch (error) {
    command.error(`error: cannot read ${name}: ${(error as Error).message}`, { exitCode: 2, code: "bank-api-contracts.input" });
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    command.error(`error: ${name} is not UTF-8 text (it holds a byte sequence UTF-8 does not allow); JSON must be UTF-8`, {
      exitCode: 2,
      code: "bank-api-contracts.input",
    });
  }
}

export function defineValidate(command: Command, ctx: CliContext): Command {
  return command
    .description(
      "Validate a captured response body against the contract; prints each violation with its JSON path and exits 1 on any, 0 when it matches",
    )
    .argument("<alias>", "API, e.g. pay@1.3.0")
    .argument("<file>", "the body: a JSON file, or - for standard input (an empty file means no body)")
    .requiredOption("--operation <operationId>", "operation that produced the response, e.g. getMerchant")
    .requiredOption("--status <code>", "HTTP status of the response", integer("--status", 100, 599))
    .action(async (alias: string, file: string, options: { operation: string; status: number }, cmd: Command) => {
      const [entry] = lookup(cmd, ctx, [alias]);
      const text = readInput(cmd, file);
      const name = file === "-" ? "standard input" : file;
      let body: unknown;
      try {
        body = text.trim() === "" ? undefined : JSON.parse(text);
      } catch (error) {
        cmd.error(`error: ${name} is not JSON: ${(error as Error).message}`, { exitCode: 2, code: "bank-api-contracts.input" });
      }
      const { createValidator, OperationNotFoundError, formatViolations } = await needs("ajv", () => import("../validation/contract.js"));
      let result;
      try {
        result = createValidator(entry).validateResponse({ operationId: options.operation, status: options.status, body });
      } catch (error) {
        if (error instanceof OperationNotFoundError)
          cmd.error(`error: ${error.message}`, { exitCode: 2, code: "bank-api-contracts.unknownOperation" });
        throw error;
      }
      const what = `${entry.alias} ${options.operation} ${options.status}`;
      if (result.valid) {
        process.stdout.write(`${name}: matches the ${what} response\n`);
      } else {
        process.stdout.write(
          `${name}: ${result.violations.length} violation(s) of the ${what} response\n${formatViolations(result.violations)}\n`,
        );
        ctx.exitCode = 1;
      }
    });
}
