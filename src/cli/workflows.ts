/**
 * `bank-api-contracts workflows run|list`: the command line of the business workflows (the runtime,
 * Respect run as a child process with secrets kept off its command line, is src/workflows/). On the
 * command line of `workflows run`, `--input-env <key>=<VAR>` takes an input from an environment
 * variable, so that a token need not be typed into any command line.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import type { ApiEntry } from "../registry.js";
import {
  inputsOf,
  loadWorkflowFile,
  mockInputs,
  missingInputs,
  NETWORK_CHECK,
  runWorkflows,
  sandboxWorkflowFilePath,
  whyUnreachable,
  type WorkflowFile,
  type WorkflowInput,
  workflowFilePath,
} from "../workflows/index.js";
import { type CliContext, needs, requirePeers } from "./common.js";
import { httpUrl } from "./options.js";

/** `Missing inputs` message: one line per input, with its description. */
function describeInputs(inputs: WorkflowInput[]): string {
  return inputs.map((i) => `  --input ${i.name}=<${i.secret ? "secret" : "value"}>${i.description ? `  ${i.description}` : ""}`).join("\n");
}

function parseInput(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}"`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** The registry entry of `alias`; an unknown one exits 2 naming the known ones. */
function lookupApi(command: Command, ctx: CliContext, alias: string): ApiEntry {
  const entry = ctx.registry.find((e) => e.alias === alias);
  if (!entry) {
    command.error(`error: unknown API "${alias}"; known: ${ctx.registry.map((e) => e.alias).join(", ")}`, {
      exitCode: 2,
      code: "bank-api-contracts.unknownApi",
    });
  }
  return entry;
}

function workflowFileOf(entry: ApiEntry, sandbox = false): WorkflowFile {
  const path = sandbox ? sandboxWorkflowFilePath(entry) : workflowFilePath(entry);
  if (!existsSync(path)) throw new Error(`${entry.alias} has no workflow file (expected ${relative(process.cwd(), path)})`);
  return loadWorkflowFile(path);
}

/** The options of `workflows run`. */
interface RunOptions {
  server?: string;
  input?: Record<string, string>;
  inputEnv?: Record<string, string>;
  workflow?: string[];
  verbose?: boolean;
  sandbox?: boolean;
}

/** The inputs given: `--input` ones, and `--input-env` ones read from the environment (unset, or given twice: exit 2). */
function givenInputs(cmd: Command, options: RunOptions): Record<string, string> {
  const given = { ...options.input };
  for (const [name, variable] of Object.entries(options.inputEnv ?? {})) {
    const value = process.env[variable];
    if (value === undefined) {
      cmd.error(`error: --input-env ${name}=${variable}: the environment variable ${variable} is not set`, {
        exitCode: 2,
        code: "bank-api-contracts.missingInput",
      });
    }
    if (name in given)
      cmd.error(`error: the input ${name} is given by both --input and --input-env`, {
        exitCode: 2,
        code: "bank-api-contracts.input",
      });
    given[name] = value;
  }
  return given;
}

/** Exits 2 naming a `--workflow` the file does not have, or an input no chosen workflow takes. */
function checkChoice(cmd: Command, entry: ApiEntry, file: WorkflowFile, ids: string[] | undefined, given: Record<string, string>): void {
  const unknownIds = (ids ?? []).filter((id) => !file.workflows.some((w) => w.workflowId === id));
  if (unknownIds.length > 0) {
    cmd.error(
      `error: ${entry.alias} has no workflow ${unknownIds.join(", ")}; known: ${file.workflows.map((w) => w.workflowId).join(", ")}`,
      { exitCode: 2, code: "bank-api-contracts.unknownWorkflow" },
    );
  }
  const declared = inputsOf(file, ids);
  const unknownInputs = Object.keys(given).filter((name) => !declared.some((i) => i.name === name));
  if (unknownInputs.length > 0) {
    cmd.error(`error: no workflow of ${entry.alias} takes the input ${unknownInputs.join(", ")}; inputs:\n${describeInputs(declared)}`, {
      exitCode: 2,
      code: "bank-api-contracts.unknownInput",
    });
  }
}

/** Where the run goes: `--server` with every required input given (else exit 2), or a mock started for it with inputs from the examples. */
async function runTarget(
  cmd: Command,
  entry: ApiEntry,
  file: WorkflowFile,
  options: RunOptions,
  given: Record<string, string>,
): Promise<{ server: string; inputs: Record<string, unknown>; mock?: { url: string; close(): Promise<void> } }> {
  if (options.server) {
    const missing = missingInputs(file, given, options.workflow);
    if (missing.length > 0) {
      cmd.error(`error: running against ${options.server} needs these inputs:\n${describeInputs(missing)}`, {
        exitCode: 2,
        code: "bank-api-contracts.missingInput",
      });
    }
    return { server: options.server, inputs: given };
  }
  const inputs = mockInputs(file, given, options.workflow);
  const { startMock } = await needs("prism", () => import("../mock/index.js"));
  const mock = await startMock(entry, { port: 0, sandbox: options.sandbox === true });
  return { server: mock.url, inputs, mock };
}

/** The run's outcome: how many workflows passed, and a line per failed check (with why a server cannot be reached). */
async function printOutcome(
  alias: string,
  result: Awaited<ReturnType<typeof runWorkflows>>,
  server: string,
  mocked: boolean,
): Promise<void> {
  const passed = result.workflows.filter((w) => w.passed).length;
  process.stdout.write(
    `${alias}: ${passed} of ${result.workflows.length} workflow(s) passed in ${(result.durationMs / 1000).toFixed(1)} s\n`,
  );
  // Respect says only "failed network request": against a server, find out why it cannot be reached.
  const unreachable = result.workflows.some((w) => w.failures.some((f) => f.check === NETWORK_CHECK));
  const cause = unreachable && !mocked ? await whyUnreachable(server) : undefined;
  for (const workflow of result.workflows) {
    for (const failure of workflow.failures) {
      const why = failure.check === NETWORK_CHECK && cause ? `; cannot reach ${server}: ${cause}` : "";
      const message = failure.message.split("\n")[0].trim().slice(0, 200);
      process.stdout.write(`  ✗ ${workflow.workflowId}, step ${failure.stepId}: ${failure.check}${message ? ` (${message})` : ""}${why}\n`);
    }
  }
}

/** `workflows run <alias>`: the choice checked, the server (or a mock) found, Respect run, the outcome printed. */
async function run(ctx: CliContext, alias: string, options: RunOptions, cmd: Command): Promise<void> {
  const entry = lookupApi(cmd, ctx, alias);
  const given = givenInputs(cmd, options);
  const file = workflowFileOf(entry, options.sandbox === true);
  checkChoice(cmd, entry, file, options.workflow, given);
  requirePeers("workflows run", options.server ? ["redocly"] : ["prism", "redocly"]);
  const { server, inputs, mock } = await runTarget(cmd, entry, file, options, given);
  process.stdout.write(
    `${entry.alias}: running ${relative(process.cwd(), file.path)} against ${server}${mock ? (options.sandbox ? " (sandbox mock)" : " (contract mock)") : ""}\n`,
  );
  try {
    const result = await runWorkflows(file.path, {
      server,
      inputs,
      workflowIds: options.workflow,
      verbose: options.verbose,
      onOutput: (text) => process.stdout.write(text),
    });
    await printOutcome(entry.alias, result, server, mock !== undefined);
    if (!result.ok) ctx.exitCode = 1;
  } finally {
    await mock?.close();
  }
}

/** `workflows list [alias...]`: each API's workflows with their inputs. */
function list(ctx: CliContext, aliases: string[], cmd: Command): void {
  const entries = aliases.length > 0 ? aliases.map((a) => lookupApi(cmd, ctx, a)) : ctx.registry;
  const lines: string[] = [];
  for (const entry of entries) {
    const path = workflowFilePath(entry);
    if (!existsSync(path)) {
      lines.push(`${entry.alias}: no workflow file`);
      continue;
    }
    const file = loadWorkflowFile(path);
    lines.push(`${entry.alias} (${relative(process.cwd(), path)}, source ${file.sources.map((s) => s.name).join(", ")})`);
    for (const workflow of file.workflows) {
      lines.push(`  ${workflow.workflowId}${workflow.summary ? `: ${workflow.summary}` : ""}`);
      for (const input of workflow.inputs) {
        const notes = [input.required ? "required" : `default ${JSON.stringify(input.default)}`, input.secret ? "secret" : ""]
          .filter(Boolean)
          .join(", ");
        lines.push(`    --input ${input.name}  (${notes})${input.description ? ` ${input.description}` : ""}`);
      }
    }
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** `workflows run <alias>` and `workflows list [alias]`. */
export function defineWorkflows(command: Command, ctx: CliContext): Command {
  command.description("Run an API's business workflows (Arazzo, with Redocly Respect) against its contract mock or a sandbox");

  command
    .command("run")
    .description(
      "Run the workflows of one API. Without --server, starts the API's contract mock on a free port and runs against it, filling required inputs from their examples; with --server, runs against that base URL and needs every required input (your credentials)",
    )
    .argument("<alias>", "API, e.g. pay@1.3.0")
    .option(
      "--server <url>",
      "base URL of the server to run against, e.g. your sandbox (default: a contract mock started for the run)",
      (value: string) => httpUrl(value).replace(/\/+$/, ""),
    )
    .option("--input <key=value>", "a workflow input, e.g. bankCode=14 (repeatable); for a secret prefer --input-env", parseInput)
    .option(
      "--input-env <key=VAR>",
      "a workflow input taken from the environment variable VAR, e.g. token=PAY_TOKEN (repeatable): the secret is on no command line",
      parseInput,
    )
    .option("--workflow <id...>", "run only these workflows (default: all of the file)")
    .option("--verbose", "print every request and response (credentials stay masked)")
    .option(
      "--sandbox",
      "run the sandbox workflows (workflows/sandbox/, which drive the sandbox's control API) against a sandbox mock started for the run, or against --server when it is one",
    )
    .addHelpText(
      "after",
      '\nExamples:\n  bank-api-contracts workflows run pay@1.3.0\n  bank-api-contracts workflows run pay@1.3.0 --server https://sandbox.pay.your-provider.test --input token="$PAY_TOKEN" --input flaggedInvoiceId=inv_...\n' +
        "`bank-api-contracts workflows list <alias>` shows each workflow's inputs.",
    )
    .action((alias: string, options: RunOptions, cmd: Command) => run(ctx, alias, options, cmd));

  command
    .command("list")
    .description("List the workflows of each API given (default all), with their inputs")
    .argument("[alias...]", "APIs (default: all)")
    .action((aliases: string[], _options: unknown, cmd: Command) => list(ctx, aliases, cmd));

  return command;
}
