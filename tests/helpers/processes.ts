/**
 * Watching processes a test started indirectly (through npm, npx, a shell): which are alive, and
 * waiting until a condition holds. Linux: processes are read from /proc.
 */
import { readdirSync, readFileSync } from "node:fs";
import { isPortFree } from "./ports.js";

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
