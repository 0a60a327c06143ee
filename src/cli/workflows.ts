/**
 * Business workflows: the Arazzo files in `workflows/` (one per API of the registry, named
 * `<service>-<release>.arazzo.yaml`), run by Redocly Respect against the contract mock or a
 * sandbox. The library half (`loadWorkflowFile`, `runWorkflows`) is shared by the tests; the
 * command half is `bank-api-contracts workflows run|list`.
 *
 * Respect is the Redocly CLI (`@redocly/cli`, an optional peer dependency), run as a child process:
 * `redocly respect <file> --json-output <tmp> --server {"<source>":"<url>"} --input {...}`.
 * Servers and inputs travel as JSON because Respect splits `key=value` forms on every `,` and `=`,
 * which would cut base64 tokens and URLs with query strings.
 *
 * Secrets never go on the child's command line (any local user can read a process's argv with
 * `ps`), nor into its environment: `--server` and `--input` are written to the child's standard
 * input, and a small bootstrap (`node -e`) appends them to its own `process.argv` before it loads
 * the Redocly CLI, so Respect parses them as usual while /proc/<pid>/cmdline never shows them.
 * (Respect reads inputs from environment variables only for workflows that declare an `env` input
 * object, which these files do not; `--input` accepts only a value, not a file.) On the command
 * line of `workflows run` itself, `--input-env <key>=<VAR>` takes an input from an environment
 * variable, so that a token need not be typed into any command line.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { parse } from "yaml";
import { type ApiEntry, packageRoot } from "../registry.js";
import type { CliContext } from "./common.js";
import { httpUrl } from "./options.js";
import { redoclyCli } from "../redocly.js";

/** Where the workflow files live: `<package root>/workflows`. */
export const workflowsDir = join(packageRoot, "workflows");

/** The workflow file of an API: `workflows/<service>-<release>.arazzo.yaml`. */
export function workflowFilePath(entry: ApiEntry, dir = workflowsDir): string {
  return join(dir, `${entry.service}-${entry.release}.arazzo.yaml`);
}

/**
 * The file `workflows run --sandbox` runs: `workflows/sandbox/<service>-<release>.arazzo.yaml` (the
 * API's flows with steps on the sandbox's control API, its second source) when there is one, else
 * the API's own file, whose flows already chain against the sandbox's state.
 */
export function sandboxWorkflowFilePath(entry: ApiEntry, dir = workflowsDir): string {
  const own = join(dir, "sandbox", `${entry.service}-${entry.release}.arazzo.yaml`);
  return existsSync(own) ? own : workflowFilePath(entry, dir);
}

export interface WorkflowInput {
  name: string;
  required: boolean;
  /** `format: password`: a credential, masked in Respect's output. */
  secret: boolean;
  description?: string;
  /** The input's first `examples` value: what a run against the mock uses when none is given. */
  example?: unknown;
  default?: unknown;
}

export interface WorkflowInfo {
  workflowId: string;
  summary?: string;
  inputs: WorkflowInput[];
  /** operationIds its steps call (steps that call another workflow are not listed). */
  operationIds: string[];
}

export interface WorkflowFile {
  path: string;
  /** sourceDescriptions of type openapi: name and the spec they point at (absolute path or URL). */
  sources: Array<{ name: string; url: string }>;
  workflows: WorkflowInfo[];
}

type Node = Record<string, any>;

/** Reads an Arazzo file: its OpenAPI sources, workflows and their inputs. Errors name the file. */
export function loadWorkflowFile(path: string): WorkflowFile {
  let doc: Node;
  try {
    doc = parse(readFileSync(path, "utf8")) as Node;
  } catch (error) {
    throw new Error(`${path}: cannot read the workflow file: ${(error as Error).message}`);
  }
  if (!doc || typeof doc.arazzo !== "string") throw new Error(`${path}: not an Arazzo document (no "arazzo" version field)`);
  const sources = (doc.sourceDescriptions ?? [])
    .filter((s: Node) => (s.type ?? "openapi") === "openapi")
    .map((s: Node) => ({ name: String(s.name), url: /^[a-z]+:\/\//i.test(s.url) ? String(s.url) : resolve(dirname(path), String(s.url)) }));
  if (sources.length === 0) throw new Error(`${path}: no OpenAPI sourceDescriptions`);
  const workflows: WorkflowInfo[] = (doc.workflows ?? []).map((w: Node) => {
    const schema: Node = w.inputs ?? {};
    const required = new Set<string>(schema.required ?? []);
    const inputs = Object.entries<Node>(schema.properties ?? {}).map(([name, p]) => ({
      name,
      required: required.has(name),
      secret: p.format === "password",
      description: p.description,
      example: Array.isArray(p.examples) ? p.examples[0] : p.example,
      default: p.default,
    }));
    const operationIds = (w.steps ?? []).map((s: Node) => s.operationId).filter((id: unknown): id is string => typeof id === "string");
    return { workflowId: String(w.workflowId), summary: w.summary, inputs, operationIds };
  });
  return { path, sources, workflows };
}

/** The inputs of the given workflows (default all), one entry per name; required if any workflow requires it. */
export function inputsOf(file: WorkflowFile, workflowIds?: string[]): WorkflowInput[] {
  const byName = new Map<string, WorkflowInput>();
  for (const workflow of file.workflows) {
    if (workflowIds && !workflowIds.includes(workflow.workflowId)) continue;
    for (const input of workflow.inputs) {
      const known = byName.get(input.name);
      byName.set(input.name, known ? { ...known, required: known.required || input.required } : input);
    }
  }
  return [...byName.values()];
}

/**
 * The inputs for a run against the contract mock: those given, and for each required input not
 * given, its example (the mock checks that credentials are present, not that they are valid).
 */
export function mockInputs(file: WorkflowFile, given: Record<string, string> = {}, workflowIds?: string[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const input of inputsOf(file, workflowIds)) {
    if (input.required && input.example !== undefined) inputs[input.name] = input.example;
  }
  return { ...inputs, ...given };
}

/** Required inputs that `given` lacks (and that have no default). */
export function missingInputs(file: WorkflowFile, given: Record<string, unknown>, workflowIds?: string[]): WorkflowInput[] {
  return inputsOf(file, workflowIds).filter((i) => i.required && i.default === undefined && given[i.name] === undefined);
}

export interface CheckFailure {
  stepId: string;
  check: string;
  message: string;
}

export interface WorkflowResult {
  workflowId: string;
  passed: boolean;
  durationMs: number;
  failures: CheckFailure[];
}

export interface RespectRun {
  file: string;
  /** True when Respect exited 0 and every workflow passed. */
  ok: boolean;
  exitCode: number;
  /** Wall-clock time of the Respect process. */
  durationMs: number;
  workflows: WorkflowResult[];
  /** Respect's console output (stdout and stderr, without the Node.js end-of-life banner). */
  output: string;
}

export interface RunWorkflowsOptions {
  /** Base URL per source name, or one URL for every OpenAPI source of the file. */
  server: string | Record<string, string>;
  inputs?: Record<string, unknown>;
  /** Run only these workflows. */
  workflowIds?: string[];
  verbose?: boolean;
  /** Called with each chunk of Respect's output as it arrives (banner removed). */
  onOutput?: (text: string) => void;
  /** Per-request timeout, ms (Respect's default is 40 s). */
  requestTimeoutMs?: number;
}

/** The Node.js end-of-life notice the Redocly CLI prints in a box on Node 20. */
const BANNER_LINE = /^.*[╔║╚═╗╝].*$\n?/gm;
/** Respect's note about its JSON log, which runWorkflows writes to a temporary file and removes. */
const JSON_LOG_LINE = /^.*JSON logs saved in .*$\n?/gm;
export const withoutBanner = (text: string) => text.replace(BANNER_LINE, "").replace(JSON_LOG_LINE, "");

/**
 * Runs in the Respect child (`node --input-type=module -e <this> <cli> <args...>`): reads a JSON
 * list of further arguments from standard input, appends them to `process.argv`, then loads the
 * Redocly CLI, which parses `process.argv` as if they had been given on the command line.
 */
const CHILD_BOOTSTRAP = [
  'import { pathToFileURL } from "node:url";',
  'let text = "";',
  'process.stdin.setEncoding("utf8");',
  "for await (const chunk of process.stdin) text += chunk;",
  "const [cli, ...args] = process.argv.slice(1);",
  "process.argv = [process.argv[0], cli, ...args, ...JSON.parse(text)];",
  "await import(pathToFileURL(cli).href);",
].join("\n");

interface RespectJson {
  files?: Record<
    string,
    {
      executedWorkflows?: Array<{
        workflowId: string;
        status?: string;
        totalTimeMs?: number;
        executedSteps?: Array<{
          stepId?: string;
          workflowId?: string;
          checks?: Array<{ name: string; passed: boolean; message?: string }>;
        }>;
      }>;
    }
  >;
}

function summarize(json: RespectJson | undefined): WorkflowResult[] {
  const results: WorkflowResult[] = [];
  for (const file of Object.values(json?.files ?? {})) {
    for (const workflow of file.executedWorkflows ?? []) {
      const failures: CheckFailure[] = [];
      for (const step of workflow.executedSteps ?? []) {
        for (const check of step.checks ?? []) {
          if (!check.passed) failures.push({ stepId: String(step.stepId ?? "?"), check: check.name, message: check.message ?? "" });
        }
      }
      results.push({
        workflowId: workflow.workflowId,
        passed: workflow.status === "success" && failures.length === 0,
        durationMs: workflow.totalTimeMs ?? 0,
        failures,
      });
    }
  }
  return results;
}

/** Runs the workflows of one Arazzo file with Redocly Respect; resolves when Respect exits. */
export async function runWorkflows(filePath: string, options: RunWorkflowsOptions): Promise<RespectRun> {
  const file = loadWorkflowFile(filePath);
  const servers =
    typeof options.server === "string" ? Object.fromEntries(file.sources.map((s) => [s.name, options.server as string])) : options.server;
  const unknown = Object.keys(servers).filter((name) => !file.sources.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new Error(`${filePath}: no sourceDescription named ${unknown.join(", ")} (known: ${file.sources.map((s) => s.name).join(", ")})`);
  const tmp = mkdtempSync(join(tmpdir(), "respect-"));
  const jsonPath = join(tmp, "result.json");
  // On the command line: nothing secret. Servers and inputs go through standard input (see the module header).
  const args = [
    "--input-type=module",
    "-e",
    CHILD_BOOTSTRAP,
    redoclyCli("running workflows"),
    "respect",
    filePath,
    "--json-output",
    jsonPath,
  ];
  const secretArgs = ["--server", JSON.stringify(servers)];
  if (options.inputs && Object.keys(options.inputs).length > 0) secretArgs.push("--input", JSON.stringify(options.inputs));
  for (const id of options.workflowIds ?? []) args.push("--workflow", id);
  if (options.verbose) args.push("--verbose");
  if (options.requestTimeoutMs) args.push("--max-fetch-timeout", String(options.requestTimeoutMs));
  const started = performance.now();
  try {
    const { code, output } = await new Promise<{ code: number; output: string }>((done, fail) => {
      // cwd: workflows/ holds the lint configuration Respect picks up, whatever the caller's folder.
      const child = spawn(process.execPath, args, {
        cwd: dirname(filePath),
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdin.on("error", () => undefined); // the child may exit before reading (it then reports why)
      child.stdin.end(JSON.stringify(secretArgs));
      let output = "";
      const collect = (chunk: Buffer) => {
        const text = withoutBanner(chunk.toString("utf8"));
        output += text;
        if (text) options.onOutput?.(text);
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      child.once("error", fail);
      child.once("close", (exitCode) => done({ code: exitCode ?? 1, output }));
    });
    let json: RespectJson | undefined;
    try {
      json = JSON.parse(readFileSync(jsonPath, "utf8")) as RespectJson;
    } catch {
      json = undefined; // Respect stopped before running (lint errors, a bad file): the output says why.
    }
    const workflows = summarize(json);
    return {
      file: filePath,
      ok: code === 0 && workflows.length > 0 && workflows.every((w) => w.passed),
      exitCode: code,
      durationMs: Math.round(performance.now() - started),
      workflows,
      output,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `Missing inputs` message: one line per input, with its description. */
function describeInputs(inputs: WorkflowInput[]): string {
  return inputs.map((i) => `  --input ${i.name}=<${i.secret ? "secret" : "value"}>${i.description ? `  ${i.description}` : ""}`).join("\n");
}

function parseInput(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}"`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** What the CLI's commands share (src/cli/index.ts `Context`). */
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
    .action(
      async (
        alias: string,
        options: {
          server?: string;
          input?: Record<string, string>;
          inputEnv?: Record<string, string>;
          workflow?: string[];
          verbose?: boolean;
          sandbox?: boolean;
        },
        cmd: Command,
      ) => {
        const entry = lookupApi(cmd, ctx, alias);
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
        const file = workflowFileOf(entry, options.sandbox === true);
        const ids = options.workflow;
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
          cmd.error(
            `error: no workflow of ${entry.alias} takes the input ${unknownInputs.join(", ")}; inputs:\n${describeInputs(declared)}`,
            { exitCode: 2, code: "bank-api-contracts.unknownInput" },
          );
        }
        let server = options.server;
        let inputs: Record<string, unknown> = given;
        let mock: { url: string; close(): Promise<void> } | undefined;
        if (server) {
          const missing = missingInputs(file, inputs, ids);
          if (missing.length > 0) {
            cmd.error(`error: running against ${server} needs these inputs:\n${describeInputs(missing)}`, {
              exitCode: 2,
              code: "bank-api-contracts.missingInput",
            });
          }
        } else {
          inputs = mockInputs(file, given, ids);
          let startMock;
          try {
            ({ startMock } = await import("../mock/index.js"));
          } catch (error) {
            throw new Error(
              `running against the mock needs Prism (@stoplight/prism-http, @stoplight/prism-http-server), which failed to load: ${(error as Error).message}; or pass --server`,
            );
          }
          mock = await startMock(entry, { port: 0, sandbox: options.sandbox === true });
          server = mock.url;
        }
        process.stdout.write(
          `${entry.alias}: running ${relative(process.cwd(), file.path)} against ${server}${mock ? (options.sandbox ? " (sandbox mock)" : " (contract mock)") : ""}\n`,
        );
        try {
          const result = await runWorkflows(file.path, {
            server: server!,
            inputs,
            workflowIds: ids,
            verbose: options.verbose,
            onOutput: (text) => process.stdout.write(text),
          });
          const passed = result.workflows.filter((w) => w.passed).length;
          process.stdout.write(
            `${entry.alias}: ${passed} of ${result.workflows.length} workflow(s) passed in ${(result.durationMs / 1000).toFixed(1)} s\n`,
          );
          if (!result.ok) ctx.exitCode = 1;
        } finally {
          await mock?.close();
        }
      },
    );

  command
    .command("list")
    .description("List the workflows of each API given (default all), with their inputs")
    .argument("[alias...]", "APIs (default: all)")
    .action((aliases: string[], _options: unknown, cmd: Command) => {
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
    });

  return command;
}
