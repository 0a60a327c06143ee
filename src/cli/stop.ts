/**
 * When a long-running command (`mock`, `proxy`, `npm start`) stops: whatever a terminal or a CI
 * script does to end it, its ports are freed.
 *
 * - SIGINT, SIGTERM or SIGHUP (Ctrl-C, `kill PID`, a closed terminal).
 * - Its launcher went away. npm and npx run a command through `sh -c`, and forward SIGINT and
 *   SIGTERM only to that shell, which dies without passing them on: `npx bank-api-contracts mock &`
 *   then `kill $!` (or SIGTERM to `npm start`, or `npm run mock`) used to leave this process
 *   running, re-parented, holding the ports. So when npm started it (`npm_lifecycle_event` is set:
 *   `npx`, `npm run`, `npm start`), the process stops as soon as its parent changes, or, where
 *   /proc exists, its parent's parent (npm itself, killed with SIGKILL). A parent's death has no
 *   event: both are checked every PARENT_CHECK_MS. Started directly (`node_modules/.bin/...`,
 *   `nohup`), the parent is not watched, so a CI step may leave the mock running for the next one.
 * - Its standard input is closed, when it is a pipe or a socket that something held open when the
 *   command started (a test harness that spawned it with a pipe, and closed it or exited). An
 *   input that was closed already then (a CI runner's stdin), a terminal, a file or /dev/null
 *   (what `cmd &` gets in a script) is ignored.
 */
import { fstatSync, readFileSync, readSync } from "node:fs";

export const PARENT_CHECK_MS = 250;

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The parent pid of `pid` from /proc (Linux); undefined where there is no /proc or no such process. */
function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ...": comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `onGone` when the process's parent (or, on Linux, its parent's parent) is no longer the one it started with. */
function watchLauncher(onGone: () => void): () => void {
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  const timer = setInterval(() => {
    if (process.ppid !== parent || (grandparent !== undefined && parentOf(parent) !== grandparent)) onGone();
  }, PARENT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** True when standard input is a pipe or a socket. */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Calls `onClosed` when standard input, a pipe or socket with a writer now, reaches its end. The
 * probe reads one byte without blocking (Node makes a piped stdin non-blocking when it opens it):
 * EAGAIN or a byte means a writer is there; 0 bytes means it is closed already, and is ignored.
 */
function watchStdin(onClosed: () => void): () => void {
  if (!stdinIsPipe()) return () => {};
  const stdin = process.stdin; // opens fd 0 as a non-blocking stream
  let open: boolean;
  try {
    open = readSync(0, Buffer.alloc(1), 0, 1, null) > 0;
  } catch (error) {
    open = (error as NodeJS.ErrnoException).code === "EAGAIN";
  }
  if (!open) return () => {};
  const closed = () => onClosed();
  stdin.on("end", closed);
  stdin.on("error", closed);
  stdin.on("data", () => undefined); // input is not read; it is only drained
  stdin.resume();
  return () => {
    stdin.off("end", closed);
    stdin.off("error", closed);
    stdin.destroy();
  };
}

/**
 * Resolves with the reason to stop: the signal's name, `parent exited` or `standard input closed`
 * (see the module header); `dispose()` removes every watcher.
 */
export function untilStopped(): { signal: Promise<string>; dispose: () => void } {
  let dispose = () => {};
  const signal = new Promise<string>((resolve) => {
    const handlers = SIGNALS.map((name) => [name, () => resolve(name)] as const);
    for (const [name, handler] of handlers) process.once(name, handler);
    const stopLauncher = process.env.npm_lifecycle_event ? watchLauncher(() => resolve("parent exited")) : () => {};
    const stopStdin = watchStdin(() => resolve("standard input closed"));
    dispose = () => {
      for (const [name, handler] of handlers) process.off(name, handler);
      stopLauncher();
      stopStdin();
    };
  });
  return { signal, dispose };
}
