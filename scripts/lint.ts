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
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { withoutRedoclyBanner } from "../src/redocly.js";
import { type ApiEntry, loadRegistry, repoRoot } from "../src/registry.js";

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
const USAGE = "usage: tsx scripts/lint.ts [--config <redocly.yaml>] [alias ...]";

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

async function spectral(api: ApiEntry): Promise<Problem[]> {
  const args = ["lint", api.rootPath, "--ruleset", RULESET, "--format", "json", "--fail-severity", "hint", "--quiet"];
  const result = await run(bin("spectral"), args);
  const results = parseJson<SpectralResult[]>(result.stdout);
  if (!Array.isArray(results)) return [toolFailure(api, "spectral", result)];
  return results.map((r) => {
    const file = r.source ?? api.rootPath;
    const { line, character } = r.range.start;
    const unlocated = line === 0 && character === 0 && r.path.length > 0;
    const position = (unlocated && locate(file, r.path)) || { line: line + 1, col: character + 1 };
    const severity = (["error", "warning", "info", "hint"] as const)[r.severity];
    return { file, ...position, severity, rule: String(r.code), message: r.message };
  });
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

async function redocly(api: ApiEntry, config: string): Promise<Problem[]> {
  const args = ["lint", api.alias, "--config", config, "--format", "json", "--max-problems", "100000"];
  const result = await run(bin("redocly"), args, { ...process.env, REDOCLY_TELEMETRY: "off" });
  const fromConfig = configProblems(result.stderr);
  const report = parseJson<RedoclyReport>(result.stdout);
  if (!report?.problems) {
    // A root that is not valid YAML stops Redocly before its report: `... in "<file>" (line:col)`.
    const parse = /Failed to parse[\s\S]*?- (.+?) in "(.+?)" \((\d+):(\d+)\)/.exec(result.stderr);
    if (!parse) return [...fromConfig, toolFailure(api, "redocly", result)];
    const [, message, file, line, col] = parse;
    const problem: Problem = {
      file: resolve(repoRoot, file),
      line: Number(line),
      col: Number(col),
      severity: "error",
      rule: "yaml-syntax",
      message,
    };
    return [...fromConfig, problem];
  }
  return [
    ...fromConfig,
    ...report.problems.map((p): Problem => {
      const location = p.location[0];
      return {
        file: location ? resolve(repoRoot, location.source.ref) : api.rootPath,
        line: location?.start?.line ?? 1,
        col: location?.start?.col ?? 1,
        severity: p.severity === "warn" ? "warning" : p.severity,
        rule: p.ruleId,
        message: p.message,
      };
    }),
  ];
}

interface ApiReport {
  api: ApiEntry;
  spectral: Problem[];
  redocly: Problem[];
  seconds: number;
}

async function lintApi(api: ApiEntry, config: string): Promise<ApiReport> {
  const started = performance.now();
  if (!existsSync(api.rootPath)) {
    const message = `Root file of ${api.alias} does not exist; create it or fix apis.${api.alias}.root in ${relative(repoRoot, config)}`;
    const missing: Problem = { file: api.rootPath, line: 1, col: 1, severity: "error", rule: "registry", message };
    return { api, spectral: [missing], redocly: [], seconds: 0 };
  }
  const [s, r] = await Promise.all([spectral(api), redocly(api, config)]);
  return { api, spectral: s, redocly: r, seconds: (performance.now() - started) / 1000 };
}

/** Runs fn over items, at most `limit` at a time, keeping the order of the results. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function format(p: Problem): string {
  return `${relative(repoRoot, p.file)}:${p.line}:${p.col} ${p.severity} ${p.rule} ${p.message.replace(/\s+/g, " ").trim()}`;
}

const count = (problems: Problem[], severity: Severity) => problems.filter((p) => p.severity === severity).length;

async function main(): Promise<number> {
  let values: { config?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      options: { config: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = resolve(values.config ?? join(repoRoot, "redocly.yaml"));
  let registry: ApiEntry[];
  try {
    registry = loadRegistry(config);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const known = `known aliases: ${registry.map((a) => a.alias).join(", ")}`;
  if (values.help) {
    console.log(`${USAGE}\n${known}`);
    return 0;
  }
  const unknown = positionals.filter((alias) => !registry.some((a) => a.alias === alias));
  if (unknown.length > 0) {
    console.error(`unknown alias: ${unknown.join(", ")}\n${USAGE}\n${known}`);
    return 2;
  }
  const apis = positionals.length > 0 ? registry.filter((a) => positionals.includes(a.alias)) : registry;

  const limit = Math.max(1, Math.floor(availableParallelism() / 2));
  const reports = await mapLimit(apis, limit, (api) => lintApi(api, config));

  let failed = false;
  const printed = new Set<string>(); // config problems come once per API; print them once
  for (const { spectral: s, redocly: r } of reports) {
    const problems = [...s, ...r].sort(
      (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.rule.localeCompare(b.rule),
    );
    for (const line of problems.map(format)) {
      if (printed.has(line)) continue;
      printed.add(line);
      console.log(line);
    }
  }
  for (const { api, spectral: s, redocly: r, seconds } of reports) {
    const all = [...s, ...r];
    const others = all.length - count(all, "error") - count(all, "warning");
    failed ||= all.length > 0;
    console.log(
      `${all.length === 0 ? "ok  " : "FAIL"} ${api.alias}: ${count(all, "error")} errors, ${count(all, "warning")} warnings` +
        `${others ? `, ${others} info/hints` : ""} (spectral ${s.length}, redocly ${r.length}) in ${seconds.toFixed(1)}s`,
    );
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
