/**
 * `npm test`: every check of the repository, the stages side by side.
 *
 *   node --import tsx scripts/test.ts [vitest argument ...]
 *
 * The stages are package.json scripts (the one place their commands are written): the TypeScript
 * formatter and linter, the spec and workflow lints, the generated-files check, the type check and
 * vitest. They all start at once, each in its own shell as npm would run it (node_modules/.bin on
 * the PATH): on two cores the short stages take the CPU that vitest leaves while it waits on a
 * browser, a child process or a socket, and none of them is left to run alone after vitest.
 * Each stage's output is kept apart and printed whole when the stage ends; then one line per stage
 * with its result, wall time and CPU time (its processes' user + system time). Every stage runs to
 * its end; the exit code is 1 when any failed (2 when package.json lacks a stage). Arguments go to
 * vitest (`npm test -- -t <name>`), except `-h`/`--help`, this script's own.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { repoRoot } from "../src/registry.js";
import { runCommand, runProgram, script } from "./lib/cli.js";

/** package.json scripts run by `npm test`; the last is vitest (the extra arguments go to it). */
export const STAGES = ["lint:ts", "lint:spec", "lint:sandbox", "lint:workflows", "check:generated", "typecheck", "test:vitest"] as const;
const VITEST = "test:vitest";

export interface StageResult {
  name: string;
  command: string;
  code: number;
  output: string;
  seconds: number;
  /** User + system CPU seconds of the stage's processes (undefined when the shell did not report them). */
  cpu?: number;
}

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/** `1m2.500s` (the format of the shell's `times`) in seconds. */
const seconds = (text: string) => {
  const match = /^(\d+)m([\d.]+)s$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};

/**
 * Runs one package.json script in `sh`, stdout and stderr as one stream. The shell's `times` (written
 * to a descriptor of its own, apart from the output) gives its children's CPU time.
 */
function runStage(name: string, command: string): Promise<StageResult> {
  const started = performance.now();
  // In a subshell (an `exit` in the command ends only that), stderr into stdout (one stream, in the
  // order written), without descriptor 3 (a process it leaves behind cannot hold the report open).
  const script = `(\n${command}\n) 2>&1 3>&-\nstatus=$?\ntimes >&3\nexit $status`;
  const env = { ...process.env, PATH: [join(repoRoot, "node_modules", ".bin"), process.env.PATH].join(delimiter) };
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", script], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    let output = "";
    let times = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk)); // the shell's own messages
    (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk) => (times += chunk));
    const done = (code: number, error = "") => {
      // `times`: the shell's own user and system time, then its children's.
      const children = times.trim().split("\n")[1]?.trim().split(/\s+/).map(seconds);
      const cpu = children?.length === 2 && children.every(Number.isFinite) ? children[0] + children[1] : undefined;
      resolve({ name, command, code, output: output + error, seconds: (performance.now() - started) / 1000, cpu });
    };
    child.once("error", (error) => done(1, `\n${error.message}`));
    child.once("close", (code, signal) => done(code ?? 1, signal ? `\nkilled by ${signal}` : ""));
  });
}

export interface Stage {
  name: string;
  command: string;
}

/** Runs the stages at the same time; prints each one's output when it ends, then the summary; the exit code. */
export async function runStages(stages: Stage[], log: (text: string) => void = console.log): Promise<number> {
  const started = performance.now();
  const results = await Promise.all(
    stages.map(async ({ name, command }) => {
      const result = await runStage(name, command);
      const status = result.code === 0 ? "ok" : `FAILED (exit ${result.code})`;
      log(`\n── ${name}: ${command}\n${result.output.trimEnd()}\n── ${name}: ${status}`);
      return result;
    }),
  );
  const wall = (performance.now() - started) / 1000;
  const lines = ["", "npm test:"];
  for (const r of results) {
    const cpu = r.cpu === undefined ? "" : `, ${r.cpu.toFixed(1)} s cpu`;
    lines.push(`  ${r.code === 0 ? "ok    " : "FAILED"} ${r.name.padEnd(16)} ${r.seconds.toFixed(1).padStart(6)} s${cpu}`);
  }
  const cpu = results.reduce((sum, r) => sum + (r.cpu ?? 0), 0);
  const failed = results.filter((r) => r.code !== 0);
  lines.push(`  ${failed.length === 0 ? "all passed" : `${failed.length} failed`} in ${wall.toFixed(1)} s (${cpu.toFixed(1)} s cpu)`);
  log(lines.join("\n"));
  return failed.length === 0 ? 0 : 1;
}

/** Runs the stages, the extra arguments going to vitest; the exit code. */
async function test(vitestArgs: string[]): Promise<number> {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const missing = STAGES.filter((name) => !scripts[name]);
  if (missing.length > 0) {
    console.error(`package.json has no script ${missing.join(", ")}; scripts/test.ts runs ${STAGES.join(", ")}`);
    return 2;
  }
  return runStages(
    STAGES.map((name) =>
      name === VITEST ? { name, command: [scripts[name], ...vitestArgs.map(quote)].join(" ") } : { name, command: scripts[name] },
    ),
  );
}

function program() {
  return (
    script("test")
      .description(`Run every check of the repository, the stages side by side: ${STAGES.join(", ")}`)
      .argument("[vitest-argument...]", "passed to vitest, in order (e.g. a test file, -t <name>)")
      // Vitest's options are not this script's: they go to vitest with the rest.
      .allowUnknownOption()
      .action((vitestArgs: string[]) => test(vitestArgs))
  );
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
