/**
 * The `bank-api-contracts` command line (commander), one file per command: mock.ts, proxy.ts,
 * validate.ts, list.ts, workflows.ts, callback.ts; what they share is in common.ts. `run(argv)`
 * resolves to the exit code: 0 done, 1 failed (a port in use, violations found, a missing optional
 * dependency), 2 misused (one line of error and the hint `(add --help for usage)`; without a
 * command, the usage).
 *
 * Prism and Ajv are optional peer dependencies: they are imported by the commands that need them,
 * so `list` and `--help` work without them, and a missing one is named with the install command.
 */
import { Command } from "commander";
import { defineCallback } from "./callback.js";
import { type CliContext, configure, context, execute, packageJson } from "./common.js";
import { defineList } from "./list.js";
import { defineMock } from "./mock.js";
import { defineProxy } from "./proxy.js";
import { defineValidate } from "./validate.js";
import { defineWorkflows } from "./workflows.js";

/** The whole CLI, as `bank-api-contracts <command>`. */
export function createProgram(ctx: CliContext = context(), name = "bank-api-contracts"): Command {
  const program = configure(new Command(name), ctx)
    .description("Contract mocks, a validating proxy and a response validator for the APIs of bank-api-contracts")
    .version(packageJson().version)
    .helpCommand(true);
  // Subcommands inherit the error handling and the help text's footer.
  defineMock(program.command("mock"), ctx);
  defineProxy(program.command("proxy"), ctx);
  defineValidate(program.command("validate"), ctx);
  defineList(program.command("list"), ctx);
  defineWorkflows(program.command("workflows"), ctx);
  defineCallback(program.command("callback"), ctx);
  return program;
}

/** Runs the CLI on `argv` (without the node and script paths); resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  let ctx: CliContext;
  try {
    ctx = context();
  } catch (error) {
    process.stderr.write(`bank-api-contracts: ${(error as Error).message}\n`);
    return 1;
  }
  return execute(createProgram(ctx), ctx, argv);
}

/** Runs the `mock` command alone under another name (`npm run mock --`). */
export async function runMock(argv: string[], name: string): Promise<number> {
  let ctx: CliContext;
  try {
    ctx = context();
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n`);
    return 1;
  }
  return execute(defineMock(configure(new Command(name), ctx), ctx), ctx, argv);
}
