/**
 * Business workflows: the Arazzo files in `workflows/` (one per API of the registry, named
 * `<service>-<release>.arazzo.yaml`), run by Redocly Respect against the contract mock or a
 * sandbox. This is the runtime (files, inputs, `runWorkflows`, why a server cannot be reached); the
 * command line is src/cli/workflows.ts (`bank-api-contracts workflows run|list`).
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
 * object, which these files do not; `--input` accepts only a value, not a file.)
 */
import { spawn } from "node:child_process";
import { connect as netConnect, isIP } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse } from "yaml";
import { type ApiEntry, packageRoot } from "../registry.js";
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

/** The check Respect reports when a step's request got no answer at all. */
export const NETWORK_CHECK = "failed network request";

/**
 * Why `server` cannot be reached, as the system says it (`getaddrinfo ENOTFOUND host`, `connect
 * ECONNREFUSED 127.0.0.1:1`, a TLS certificate error, a timeout after 5 s), or undefined when a
 * connection (and, for https, the TLS handshake) succeeds now. No HTTP request is sent.
 */
export async function whyUnreachable(server: string, timeoutMs = 5000): Promise<string | undefined> {
  const url = new URL(server);
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const socket = secure ? tlsConnect({ host, port, servername: isIP(host) ? undefined : host }) : netConnect({ host, port });
    const done = (cause: string | undefined) => {
      socket.destroy();
      resolve(cause);
    };
    socket.setTimeout(timeoutMs, () => done(`did not accept a connection within ${timeoutMs / 1000} s (ETIMEDOUT)`));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(error.message.includes(error.code ?? "\0") || !error.code ? error.message : `${error.message} (${error.code})`),
    );
    socket.once(secure ? "secureConnect" : "connect", () => done(undefined));
  });
}
