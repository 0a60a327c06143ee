/**
 * Watching processes a test started: waiting for a line of their output (an event: each chunk they
 * write, and their exit), and, for processes started indirectly (through npm, npx, a shell), which
 * are alive and waiting until a condition holds. Linux: processes are read from /proc.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { isPortFree } from "./ports.js";

/** What a started process wrote, so far, and its end. */
export interface Captured {
  stdout: () => string;
  stderr: () => string;
  /** stdout and stderr together, in the order written. */
  output: () => string;
  /**
   * The exit code (null: ended by a signal), once the process has ended and its output is read
   * whole: on "close", not "exit", which can come before the last of stderr is read (a one-line
   * error then read as empty).
   */
  exit: Promise<number | null>;
}

/** Keeps what `child` (spawned with piped stdout and stderr) writes, and resolves its exit once that is read whole. */
export function capture(child: ChildProcess): Captured {
  let stdout = "";
  let stderr = "";
  let output = "";
  child.stdout!.on("data", (chunk) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
    output += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { stdout: () => stdout, stderr: () => stderr, output: () => output, exit };
}

/** Pids of the processes whose command line holds every one of `parts` as whole arguments, in order. */
export function processesWith(...parts: string[]): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // it exited meanwhile
    }
    const at = args.findIndex((_, i) => parts.every((part, j) => args[i + j] === part));
    if (at !== -1) pids.push(Number(name));
  }
  return pids;
}

/**
 * Resolves when `child` has written `text` (to stdout or stderr, per `streams`; `output()` is all it
 * wrote so far, including what it wrote before this call). Rejects, naming `what`, the text, the
 * exit code and the output, when the process ends first (its exit and its output streams closed) or
 * after `timeoutMs`.
 */
export function waitForOutput(
  child: ChildProcess,
  output: () => string,
  text: string,
  what: string,
  { timeoutMs = 120_000, streams = ["stdout", "stderr"] as ("stdout" | "stderr")[] } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const sources = streams.map((name) => child[name]).filter((stream) => stream !== null);
    const done = (error?: Error) => {
      clearTimeout(timer);
      for (const stream of sources) stream.off("data", check);
      child.off("close", exited);
      if (error) reject(error);
      else resolve();
    };
    // Listeners added after the process's own: each chunk is in `output()` when this runs.
    const check = () => {
      if (output().includes(text)) done();
    };
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      if (output().includes(text)) return done();
      done(new Error(`${what}: the process exited (${signal ?? `code ${code}`}) before writing "${text}"; it wrote:\n${output()}`));
    };
    const timer = setTimeout(
      () => done(new Error(`${what}: no "${text}" within ${timeoutMs} ms; the process wrote:\n${output()}`)),
      timeoutMs,
    );
    for (const stream of sources) stream.on("data", check);
    child.on("close", exited);
    const ended = child.exitCode !== null || child.signalCode !== null;
    if (ended && sources.every((stream) => stream.readableEnded || stream.destroyed)) exited(child.exitCode, child.signalCode);
    else check();
  });
}

/**
 * Resolves once `check` returns true, checking every 100 ms; rejects naming `what` after
 * `timeoutMs` (generous: the machine may be busy). For conditions that have no event to wait on,
 * such as another process's exit.
 */
export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** True when every port from `base` to `base + count - 1` can be bound again on 127.0.0.1. */
export async function portsFree(base: number, count: number): Promise<boolean> {
  const free = await Promise.all(Array.from({ length: count }, (_, i) => isPortFree(base + i)));
  return free.every(Boolean);
}
