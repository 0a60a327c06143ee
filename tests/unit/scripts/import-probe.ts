/**
 * What importing a module does, for tests/unit/scripts/entry-points.test.ts. Run as
 *
 *   node --import tsx tests/unit/scripts/import-probe.ts <module> ...
 *
 * Imports each module in turn (in its own process, so that no test's module cache hides a top-level
 * run) and prints one JSON line per module: what it wrote to stdout or stderr, the exit code it set,
 * and the effects it tried (files written or removed, processes started, `process.exit`, an unhandled
 * rejection), then the handles it left open (servers, sockets, timers, file requests). Writing a file,
 * starting a process and exiting are refused (they throw), so nothing happens while probing. A module
 * is evaluated once: what it does shows under the first module given that imports it.
 */
import childProcess from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

export interface ImportEffects {
  module: string;
  /** What the module wrote to stdout and stderr while it was imported. */
  output: string[];
  /** `process.exitCode` after the import (undefined when left alone). */
  exitCode: string | number | undefined;
  /** Effects tried (each was refused): `fs.writeFileSync(<path>)`, `child_process.spawn(<file>)`, `process.exit(<code>)`, ... */
  tried: string[];
  /** Handles still open after the import that were not open before, by type (`TCPServerWrap`, `Timeout`, ...). */
  handles: string[];
  /** The import's error, when it threw (a refused effect throws). */
  error?: string;
}

let tried: string[] = [];
let output: string[] = [];

const refuse = (what: string): never => {
  tried.push(what);
  throw new Error(`import-probe: ${what} refused`);
};
const describe = (arg: unknown) => (typeof arg === "string" || arg instanceof URL ? String(arg) : typeof arg);

const FS_WRITES = [
  "appendFile",
  "chmod",
  "copyFile",
  "cp",
  "createWriteStream",
  "mkdir",
  "mkdtemp",
  "rename",
  "rm",
  "rmdir",
  "symlink",
  "truncate",
  "unlink",
  "writeFile",
] as const;
const patch = (target: Record<string, unknown>, name: string, label: string) => {
  if (typeof target[name] === "function") target[name] = (...args: unknown[]) => refuse(`${label}(${describe(args[0])})`);
};
for (const name of FS_WRITES) {
  patch(fs as unknown as Record<string, unknown>, name, `fs.${name}`);
  patch(fs as unknown as Record<string, unknown>, `${name}Sync`, `fs.${name}Sync`);
  patch(fs.promises as unknown as Record<string, unknown>, name, `fs.promises.${name}`);
}
// Opening a file with any flags but the read-only ones.
const readOnly = (flags: unknown) =>
  flags === undefined || flags === "r" || flags === "rs" || flags === "sr" || flags === fs.constants.O_RDONLY;
for (const name of ["open", "openSync"] as const) {
  const original = fs[name] as (...args: unknown[]) => unknown;
  (fs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
    readOnly(typeof args[1] === "function" ? undefined : args[1])
      ? original(...args)
      : refuse(`fs.${name}(${describe(args[0])}, ${String(args[1])})`);
}
for (const name of ["exec", "execFile", "execFileSync", "execSync", "fork", "spawn", "spawnSync"] as const) {
  patch(childProcess as unknown as Record<string, unknown>, name, `child_process.${name}`);
}
syncBuiltinESMExports();

const exit = process.exit.bind(process);
process.exit = ((code?: number) => refuse(`process.exit(${code ?? ""})`)) as typeof process.exit;
process.on("unhandledRejection", (reason) => tried.push(`unhandled rejection: ${(reason as Error)?.message ?? String(reason)}`));

const write = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
for (const stream of ["stdout", "stderr"] as const) {
  process[stream].write = ((chunk: unknown) => {
    output.push(`${stream}: ${String(chunk)}`);
    return true;
  }) as typeof process.stdout.write;
}

const count = (types: string[]) => types.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());

const results: ImportEffects[] = [];
for (const module of process.argv.slice(2)) {
  tried = [];
  output = [];
  const before = count(process.getActiveResourcesInfo());
  let error: string | undefined;
  try {
    await import(pathToFileURL(resolve(module)).href);
  } catch (e) {
    error = (e as Error).message ?? String(e);
  }
  // What the module started without awaiting it has had its first turn by the next macrotask.
  await new Promise((done) => setImmediate(done));
  const handles: string[] = [];
  for (const [type, n] of count(process.getActiveResourcesInfo())) {
    for (let i = before.get(type) ?? 0; i < n; i++) handles.push(type);
  }
  results.push({ module, output, exitCode: process.exitCode, tried, handles, ...(error === undefined ? {} : { error }) });
  process.exitCode = undefined;
}

write.stdout(`${results.map((r) => JSON.stringify(r)).join("\n")}\n`, () => exit(0));
