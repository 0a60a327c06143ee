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
 *   /proc exists and the parent is that shell, the shell's parent (npm itself, killed with
 *   SIGKILL). A parent's death has no event: both are checked every PARENT_CHECK_MS. Started
 *   directly (`node_modules/.bin/...`), the parent is not watched, so a CI step may leave the mock
 *   running for the next one. (SIGINT sent to npm's PID stays with that shell, which holds it back
 *   until its child exits: nothing here sees it. `npx -c 'exec bank-api-contracts ...'` makes this
 *   process npm's own child, which every signal npm forwards reaches.)
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

/** True when `pid` is a shell running a command string (`sh -c ...`): how npm runs a script or a bin. */
function isCommandShell(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[1] === "-c";
  } catch {
    return false;
  }
}

/**
 * Calls `onGone` when the process's parent is no longer the one it started with, or, when that
 * parent is npm's `sh -c` (Linux), when the shell's own parent (npm) is gone.
 */
function watchLauncher(onGone: () => void): () => void {
  const parent = process.ppid;
  const grandparent = isCommandShell(parent) ? parentOf(parent) : undefined;
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
 * True when standard input is a pipe or socket that something holds open now. The probe reads one
 * byte without blocking (Node makes a piped stdin non-blocking when it opens it): EAGAIN or a byte
 * means a writer is there; 0 bytes means it is closed already. Opens `process.stdin`.
 */
export function stdinIsOpenPipe(): boolean {
  if (!stdinIsPipe()) return false;
  void process.stdin; // opens fd 0 as a non-blocking stream
  try {
    return readSync(0, Buffer.alloc(1), 0, 1, null) > 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EAGAIN";
  }
}

/** Calls `onClosed` when standard input, a pipe or socket held open at the start, reaches its end. */
function watchStdin(onClosed: () => void): () => void {
  if (!stdinIsOpenPipe()) return () => {};
  const stdin = process.stdin;
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
