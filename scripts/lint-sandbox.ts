/**
 * lint:sandbox — lints the sandbox control API's document (src/sandbox/openapi.yaml) with the same
 * tools and rules as the APIs: Spectral with .spectral.yaml (spectral:oas, OWASP, the local rules;
 * its overrides name what does not apply to the control API and why) and Redocly with the root
 * redocly.yaml's rules (recommended-strict). It is not an API of the registry, so scripts/lint.ts
 * does not see it.
 *
 *   tsx scripts/lint-sandbox.ts [--file <openapi.yaml>]
 *
 * Prints each problem as `file:line:col severity rule message`; exits 1 when there is any (error,
 * warning, info or hint), 2 on bad arguments.
 */
import { execFile } from "node:child_process";
import { join, relative, resolve } from "node:path";
import { withoutRedoclyBanner } from "../src/redocly.js";
import { repoRoot } from "../src/registry.js";
import { runCommand, runProgram, script } from "./lib/cli.js";

const bin = (name: string) => join(repoRoot, "node_modules", ".bin", name);

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[]): Promise<Result> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      { cwd: repoRoot, env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr: stderr || (error && typeof error.code !== "number" ? error.message : ""),
        }),
    );
  });
}

/** Problems as `file:line:col severity rule message`. */
export async function lintSandboxDocument(file: string): Promise<string[]> {
  const shown = relative(repoRoot, file);
  const [spectral, redocly] = await Promise.all([
    run(bin("spectral"), [
      "lint",
      file,
      "--ruleset",
      join(repoRoot, ".spectral.yaml"),
      "--format",
      "json",
      "--fail-severity",
      "hint",
      "--quiet",
    ]),
    run(bin("redocly"), ["lint", file, "--config", join(repoRoot, "redocly.yaml"), "--format", "json"]),
  ]);
  const problems: string[] = [];
  try {
    const results = JSON.parse(spectral.stdout) as Array<{
      code: string;
      message: string;
      severity: number;
      range: { start: { line: number; character: number } };
    }>;
    for (const r of results) {
      problems.push(
        `${shown}:${r.range.start.line + 1}:${r.range.start.character + 1} ${["error", "warning", "info", "hint"][r.severity]} ${r.code} ${r.message}`,
      );
    }
  } catch {
    problems.push(`${shown}:1:1 error spectral spectral failed (exit ${spectral.code}): ${spectral.stderr || spectral.stdout}`);
  }
  try {
    const report = JSON.parse(redocly.stdout) as {
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ start?: { line: number; col: number } }> }>;
    };
    for (const p of report.problems) {
      const at = p.location[0]?.start;
      problems.push(`${shown}:${at?.line ?? 1}:${at?.col ?? 1} ${p.severity === "warn" ? "warning" : p.severity} ${p.ruleId} ${p.message}`);
    }
  } catch {
    problems.push(
      `${shown}:1:1 error redocly redocly failed (exit ${redocly.code}): ${withoutRedoclyBanner(redocly.stderr || redocly.stdout)}`,
    );
  }
  return problems;
}

/** Lints `file`, printing each problem and a summary line; the exit code. */
async function report(file: string): Promise<number> {
  const problems = await lintSandboxDocument(file);
  for (const line of problems) console.log(line);
  console.log(
    `${problems.length === 0 ? "ok  " : "FAIL"} sandbox control API (${relative(repoRoot, file)}): ${problems.length} problem(s)`,
  );
  return problems.length === 0 ? 0 : 1;
}

function program() {
  return script("lint:sandbox")
    .description("Lint the sandbox control API's document with Spectral and Redocly, as the APIs are")
    .option("--file <openapi.yaml>", "the document to lint (default: src/sandbox/openapi.yaml)")
    .action((options: { file?: string }) => report(resolve(options.file ?? join(repoRoot, "src/sandbox/openapi.yaml"))));
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
