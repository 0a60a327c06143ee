/** Runs the package CLI from its sources (`node --import tsx src/cli/bin.ts ...`), as a separate process. */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { vi } from "vitest";
import { repoRoot } from "../../src/registry.js";
import { type Captured, capture, waitForOutput } from "./processes.js";

const bin = join(repoRoot, "src/cli/bin.ts");

export interface Run extends Captured {
  child: ChildProcess;
  /** The CLI's arguments (they name the process in a failure). */
  args: string[];
}

/**
 * Starts `node --import tsx <script> <args>` in the repository (a script or the CLI, as npm runs them).
 * `input` is written to its standard input, which is then closed; with `null` it has none (/dev/null):
 * a mock stops when a standard input it was given closes.
 */
export function runScript(script: string, args: string[], input: string | null = ""): Run {
  // tsx as a loader in one process (its own command starts a second Node process to run the file).
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: repoRoot,
    stdio: [input === null ? "ignore" : "pipe", "pipe", "pipe"],
  });
  const captured = capture(child);
  if (input !== null) child.stdin!.end(input);
  return { child, args, ...captured };
}

/** Starts `bank-api-contracts <args>`; `input` is written to its standard input (then closed). */
export function cli(args: string[], input?: string): Run {
  return runScript(bin, args, input ?? "");
}

/** Runs to the end; resolves to the exit code and the output. */
export async function cliDone(args: string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = cli(args, input);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Waits until stdout contains `text` (the process is under load in a full run: generous, below the 120 s test timeout so that this message, which names the command with any URL password masked, is what fails). */
export function waitFor(run: Run, text: string, timeoutMs = 100_000): Promise<void> {
  return waitForOutput(run.child, run.stdout, text, `bank-api-contracts ${run.args.join(" ").replace(/\/\/[^/@\s]*@/g, "//***@")}`, {
    timeoutMs,
    streams: ["stdout"],
  }).catch((error: Error) => {
    throw new Error(`${error.message}${run.stderr() ? `\n(stderr)\n${run.stderr()}` : ""}`);
  });
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Runs the CLI in this process (`run()` from src/cli), capturing what it writes; much faster than a
 * process. Not for `mock`/`proxy` (they wait for a signal) nor `-` (standard input). Calls must not
 * overlap: the capture replaces process.stdout.write and process.stderr.write while one runs.
 */
export async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { run } = await import("../../src/cli/index.js");
  let stdout = "";
  let stderr = "";
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await run(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

/**
 * Runs a script's `main(argv)` (scripts/*.ts) in this process, capturing what it prints through the
 * console or the streams, line by line; for what is not about the process itself (its exit code
 * through `process.exitCode`, signals, stdio), which a spawn of the script checks once.
 */
export async function scriptInProcess(
  main: (argv: string[]) => Promise<number>,
  argv: string[],
): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(...String(chunk).replace(/\n$/, "").split("\n"));
    return true;
  };
  const spies = [
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void stdout.push(a.join(" "))),
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void stderr.push(a.join(" "))),
    vi.spyOn(process.stdout, "write").mockImplementation(lines(stdout)),
    vi.spyOn(process.stderr, "write").mockImplementation(lines(stderr)),
  ];
  try {
    return { code: await main(argv), stdout, stderr };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
