/**
 * lint:spec — lints every API of the registry (redocly.yaml `apis:`) with Spectral (.spectral.yaml:
 * spectral:oas plus spectral/ruleset.yaml) and Redocly (the `extends:`/`rules:` of the config).
 *
 *   tsx scripts/lint.ts [--config <redocly.yaml>] [alias ...]
 *
 * Prints every problem as `file:line:col severity rule message`, with the file relative to the
 * repository root: a problem inside a split ($ref'd) file names that file and its line. Then one
 * summary line per API. Exits 1 when any API has any problem (error, warning, info or hint: the
 * target is zero), 2 on bad arguments. `--config` points at another registry (the tests use tiny
 * fixture registries); the Spectral ruleset is always this repository's.
 *
 * Each linter runs once for all the APIs (one Spectral process over every root, one Redocly process
 * over every alias, side by side): starting a linter costs more than linting an API. A problem is
 * the API's whose folder holds its file (Spectral names the file, not the document it came from);
 * Redocly reports one API after the other. A root that is not valid YAML stops Redocly, so the APIs
 * after it are linted by a further Redocly run.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Command } from "commander";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { withoutRedoclyBanner } from "../src/redocly.js";
import { type ApiEntry, loadRegistry, repoRoot } from "../src/registry.js";
import { type Io, misuse, runCommand, runProgram, script, selectApis } from "./lib/cli.js";

type Severity = "error" | "warning" | "info" | "hint";

interface Problem {
  /** Absolute path. */
  file: string;
  line: number;
  col: number;
  severity: Severity;
  rule: string;
  message: string;
}

const RULESET = join(repoRoot, ".spectral.yaml");
const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool to completion; a non-zero exit is a result, not an exception. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return new Promise((done) => {
    execFile(file, args, { cwd: repoRoot, env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      const spawnError = error && typeof error.code !== "number" ? error.message : ""; // e.g. ENOENT
      done({ code, stdout, stderr: stderr || spawnError });
    });
  });
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** A tool that did not produce a report: one error on the API's root with what it said. */
function toolFailure(api: ApiEntry, rule: string, { code, stdout, stderr }: RunResult): Problem {
  const said = withoutRedoclyBanner(stderr || stdout);
  return { file: api.rootPath, line: 1, col: 1, severity: "error", rule, message: `${rule} failed (exit ${code}): ${said}` };
}

/**
 * Position of the deepest node of `path` that exists in a YAML file (a key's own position when the
 * path ends on a key). Spectral reports 1:1 for some results in referenced files (e.g. invalid-ref).
 */
function locate(file: string, path: (string | number)[]): { line: number; col: number } | undefined {
  try {
    const lineCounter = new LineCounter();
    let node: unknown = parseDocument(readFileSync(file, "utf8"), { lineCounter }).contents;
    let at: Node | undefined = node as Node;
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
        if (!pair) break;
        at = pair.key as Node;
        node = pair.value;
      } else if (isSeq(node) && node.items[Number(key)]) {
        at = node = node.items[Number(key)] as Node;
      } else break;
    }
    return at?.range ? lineCounter.linePos(at.range[0]) : undefined;
  } catch {
    return undefined;
  }
}

interface SpectralResult {
  code: string | number;
  message: string;
  path: (string | number)[];
  severity: 0 | 1 | 2 | 3;
  source?: string;
  range: { start: { line: number; character: number } };
}

/**
 * The APIs a file belongs to: the API whose root it is, else those whose root folder is the deepest
 * one holding it (several when their roots share that folder), else every API linted.
 */
function owners(file: string, apis: ApiEntry[]): ApiEntry[] {
  const root = apis.filter((api) => api.rootPath === file);
  if (root.length > 0) return root;
  const holding = apis.filter((api) => file.startsWith(dirname(api.rootPath) + sep));
  const deepest = Math.max(...holding.map((api) => dirname(api.rootPath).length));
  return holding.length > 0 ? holding.filter((api) => dirname(api.rootPath).length === deepest) : apis;
}

/** One Spectral run over the roots of all `apis`; each problem goes to the API(s) its file belongs to. */
async function spectral(apis: ApiEntry[]): Promise<Map<ApiEntry, Problem[]>> {
  const found = new Map(apis.map((api) => [api, [] as Problem[]]));
  const roots = apis.map((api) => api.rootPath);
  const args = ["lint", ...roots, "--ruleset", RULESET, "--format", "json", "--fail-severity", "hint", "--quiet"];
  const result = await run(bin("spectral"), args);
  const results = parseJson<SpectralResult[]>(result.stdout);
  if (!Array.isArray(results)) {
    for (const api of apis) found.get(api)!.push(toolFailure(api, "spectral", result));
    return found;
  }
  const seen = new Set<string>(); // documents that share a file each report its problems
  for (const r of results) {
    const { line, character } = r.range.start;
    const severity = (["error", "warning", "info", "hint"] as const)[r.severity];
    for (const api of r.source ? owners(r.source, apis) : apis) {
      const file = r.source ?? api.rootPath;
      const unlocated = line === 0 && character === 0 && r.path.length > 0;
      const position = (unlocated && locate(file, r.path)) || { line: line + 1, col: character + 1 };
      const problem: Problem = { file, ...position, severity, rule: String(r.code), message: r.message };
      const key = `${api.alias} ${format(problem)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.get(api)!.push(problem);
    }
  }
  return found;
}

interface RedoclyReport {
  problems: {
    ruleId: string;
    severity: "error" | "warn";
    message: string;
    location: { source: { ref: string }; start?: { line: number; col: number } }[];
  }[];
}

/** Problems in the Redocly config itself (unknown rule, bad severity) only go to stderr, as codeframes. */
function configProblems(stderr: string): Problem[] {
  const codeframes = stderr.matchAll(/^\[\d+\] (.+?):(\d+):(\d+) at \S+\n\n(.+)$/gm);
  return [...codeframes].map(([, file, line, col, message]) => ({
    file: resolve(repoRoot, file),
    line: Number(line),
    col: Number(col),
    severity: "error",
    rule: "redocly-config",
    message,
  }));
}

/** The JSON documents written one after the other (`{...}{...}`), as Redocly does for several APIs. */
function jsonSequence(text: string): unknown[] {
  const documents: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if ((c === "}" || c === "]") && --depth === 0) {
      const document = parseJson(text.slice(start, i + 1));
      if (document === undefined) return documents;
      documents.push(document);
    }
  }
  return documents;
}

function redoclyProblems(api: ApiEntry, report: RedoclyReport): Problem[] {
  return report.problems.map((p): Problem => {
    const location = p.location[0];
    return {
      file: location ? resolve(repoRoot, location.source.ref) : api.rootPath,
      line: location?.start?.line ?? 1,
      col: location?.start?.col ?? 1,
      severity: p.severity === "warn" ? "warning" : p.severity,
      rule: p.ruleId,
      message: p.message,
    };
  });
}

/**
 * One Redocly run over all `apis`, by alias so that each API's own rules apply. Redocly writes one
 * report per API, in the order it names them on stderr; a root that does not parse stops it (its
 * error names the file, line and column), and the APIs after that one get a run of their own.
 */
async function redocly(apis: ApiEntry[], config: string): Promise<Map<ApiEntry, Problem[]>> {
  const found = new Map(apis.map((api) => [api, [] as Problem[]]));
  for (let todo = apis; todo.length > 0; ) {
    const args = ["lint", ...todo.map((api) => api.alias), "--config", config, "--format", "json", "--max-problems", "100000"];
    const result = await run(bin("redocly"), args, { ...process.env, REDOCLY_TELEMETRY: "off" });
    const fromConfig = configProblems(result.stderr);
    const order = [...result.stderr.matchAll(/using lint rules for api '([^']+)'/g)].map(([, alias]) => alias);
    const named = order.length > 0 ? order.map((alias) => todo.find((api) => api.alias === alias)) : todo;
    if (named.some((api) => api === undefined)) {
      for (const api of todo) found.get(api)!.push(...fromConfig, toolFailure(api, "redocly", result));
      break;
    }
    const reports = jsonSequence(result.stdout).filter((r): r is RedoclyReport => Array.isArray((r as RedoclyReport)?.problems));
    reports.forEach((report, i) => found.get(named[i]!)!.push(...fromConfig, ...redoclyProblems(named[i]!, report)));
    if (reports.length === todo.length) break;
    // Redocly stopped at the API after the last report.
    const stopped = named[reports.length] ?? todo[reports.length];
    const parse = /Failed to parse[\s\S]*?- (.+?) in "(.+?)" \((\d+):(\d+)\)/.exec(result.stderr);
    if (!parse) {
      for (const api of todo.filter((api) => !named.slice(0, reports.length).includes(api)))
        found.get(api)!.push(...fromConfig, toolFailure(api, "redocly", result));
      break;
    }
    const [, message, file, line, col] = parse;
    // A root that is not valid YAML stops Redocly before its report: `... in "<file>" (line:col)`.
    found.get(stopped)!.push(...fromConfig, {
      file: resolve(repoRoot, file),
      line: Number(line),
      col: Number(col),
      severity: "error",
      rule: "yaml-syntax",
      message,
    });
    const done = new Set([...named.slice(0, reports.length), stopped]);
    todo = todo.filter((api) => !done.has(api));
  }
  return found;
}

interface ApiReport {
  api: ApiEntry;
  spectral: Problem[];
  redocly: Problem[];
}

/** Lints `apis` (entries of the registry at `config`): Spectral and Redocly side by side, once each. */
export async function lint(apis: ApiEntry[], config: string): Promise<ApiReport[]> {
  const missing = apis.filter((api) => !existsSync(api.rootPath));
  const present = apis.filter((api) => !missing.includes(api));
  const none = new Map<ApiEntry, Problem[]>();
  const [s, r] = present.length > 0 ? await Promise.all([spectral(present), redocly(present, config)]) : [none, none];
  return apis.map((api) => {
    if (!missing.includes(api)) return { api, spectral: s.get(api) ?? [], redocly: r.get(api) ?? [] };
    const message = `Root file of ${api.alias} does not exist; create it or fix apis.${api.alias}.root in ${relative(repoRoot, config)}`;
    return { api, spectral: [{ file: api.rootPath, line: 1, col: 1, severity: "error", rule: "registry", message }], redocly: [] };
  });
}

function format(p: Problem): string {
  return `${relative(repoRoot, p.file)}:${p.line}:${p.col} ${p.severity} ${p.rule} ${p.message.replace(/\s+/g, " ").trim()}`;
}

const count = (problems: Problem[], severity: Severity) => problems.filter((p) => p.severity === severity).length;

/** Lints `apis` of the registry at `config`: prints the problems and a summary line per API to `io`; the exit code. */
async function report(apis: ApiEntry[], config: string, io: Io): Promise<number> {
  const started = performance.now();
  const reports = await lint(apis, config);
  const seconds = (performance.now() - started) / 1000;

  let failed = false;
  const printed = new Set<string>(); // a problem of a shared file or of the config comes once per API; print it once
  for (const { spectral: s, redocly: r } of reports) {
    const problems = [...s, ...r].sort(
      (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.rule.localeCompare(b.rule),
    );
    for (const line of problems.map(format)) {
      if (printed.has(line)) continue;
      printed.add(line);
      io.log(line);
    }
  }
  for (const { api, spectral: s, redocly: r } of reports) {
    const all = [...s, ...r];
    const others = all.length - count(all, "error") - count(all, "warning");
    failed ||= all.length > 0;
    io.log(
      `${all.length === 0 ? "ok  " : "FAIL"} ${api.alias}: ${count(all, "error")} errors, ${count(all, "warning")} warnings` +
        `${others ? `, ${others} info/hints` : ""} (spectral ${s.length}, redocly ${r.length})`,
    );
  }
  io.log(`linted ${apis.length} API(s) in ${seconds.toFixed(1)}s`);
  return failed ? 1 : 0;
}

const DEFAULT_CONFIG = join(repoRoot, "redocly.yaml");

function program(io: Io = console) {
  const command: Command = script("lint:spec", io)
    .description("Lint every API of the registry (or the aliases given) with Spectral and Redocly")
    .argument("[alias...]", "APIs to lint (default: all)")
    .option("--config <file>", "registry to read (default: redocly.yaml at the repository root)")
    .addHelpText("after", () => {
      try {
        return `\nKnown APIs: ${loadRegistry(resolve(command.opts().config ?? DEFAULT_CONFIG))
          .map((a) => a.alias)
          .join(", ")}`;
      } catch {
        return "";
      }
    })
    .action((aliases: string[], options: { config?: string }) => {
      const config = resolve(options.config ?? DEFAULT_CONFIG);
      let registry: ApiEntry[];
      try {
        registry = loadRegistry(config);
      } catch (error) {
        misuse(command, (error as Error).message);
      }
      return report(selectApis(command, registry, aliases), config, io);
    });
  return command;
}

/** The command on `argv` (the arguments after the script), printing to `io`; the exit code. */
export const main = (argv: string[], io: Io = console) => runCommand(program(io), argv);

await runProgram(program, import.meta.url);
