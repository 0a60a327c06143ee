/**
 * The one way a script reads its command line: a commander program made by `script(name)` in a
 * factory, run by `runCommand` (tests and other scripts call it through the script's `main(argv)`)
 * or by `runProgram`, which runs it only when the module is the entry point: importing a script runs
 * nothing. Exit codes, the same for every script: 0 done (or --help), 1 failed, 2 misused.
 *
 * - An action returns its exit code (returning nothing is 0).
 * - An error it throws is printed as `<name>: <message>`, exit 1.
 * - A misuse prints one line (`error: ...`) and the hint `(add --help for usage)`, exit 2, never the
 *   whole usage: commander's own (unknown option, missing value, too many arguments), those an
 *   action finds (`misuse`, `selectApis`, `integer`), and options npm kept for itself (`npm run x
 *   --opt` without `--`; src/cli/npm.ts).
 *
 * Help and errors go through the program's `io` (default: the console), as the script's own output.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { optionsTakenFrom } from "../../src/cli/npm.js";
import type { ApiEntry } from "../../src/registry.js";

export const HINT = "(add --help for usage)";

/** Where a script writes: its output, then its errors and progress. */
export type Io = Pick<Console, "log" | "error">;

/** The exit code an action returned, per program (the root command). */
const exitCodes = new WeakMap<Command, number>();

const rootOf = (command: Command): Command => (command.parent ? rootOf(command.parent) : command);

/** A commander command whose action returns the exit code; its subcommands are scripts too. */
export class Script extends Command {
  override createCommand(name?: string): Script {
    return new Script(name);
  }

  override action(fn: (this: this, ...args: any[]) => unknown): this {
    return super.action(async (...args: unknown[]) => {
      const code = await fn.apply(this, args);
      if (typeof code === "number") exitCodes.set(rootOf(this), code);
    });
  }
}

/** A script's program with the settings every script shares (subcommands inherit them). */
export function script(name: string, io: Io = console): Script {
  const line = (write: (text: string) => void) => (text: string) => write(text.replace(/\n$/, ""));
  return new Script(name)
    .exitOverride()
    .showHelpAfterError(HINT)
    .configureOutput({ writeOut: line((text) => io.log(text)), writeErr: line((text) => io.error(text)) });
}

/** Parses `argv` (the arguments after the script) and runs the action; the exit code. */
export async function runCommand(program: Command, argv: readonly string[]): Promise<number> {
  const write = program.configureOutput().writeErr ?? ((text: string) => process.stderr.write(text));
  // `npm run <script> --port 1` without `--`: npm kept the option; say how to pass it.
  const taken = optionsTakenFrom(program, argv);
  if (taken) {
    write(`error: ${taken}\n`);
    write(`${HINT}\n`);
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCodes.get(program) ?? 0;
  } catch (error) {
    // Commander has printed the error line and the hint; exit code 0 is --help.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const message = error instanceof Error ? error.message : String(error);
    write(`${program.name()}: ${message}\n`);
    return 1;
  }
}

/** Whether the module at `moduleUrl` is the one node was asked to run. */
export function isEntryPoint(moduleUrl: string): boolean {
  const main = process.argv[1];
  if (main === undefined) return false;
  try {
    return moduleUrl === pathToFileURL(realpathSync(main)).href;
  } catch {
    return false;
  }
}

/** Runs the program `create` makes on the process's arguments, only when `moduleUrl` is the entry point. */
export async function runProgram(create: () => Command, moduleUrl: string): Promise<void> {
  if (!isEntryPoint(moduleUrl)) return;
  process.exitCode = await runCommand(create(), process.argv.slice(2));
}

/** A usage error an action found: one line and the hint, exit 2. */
export function misuse(command: Command, message: string): never {
  command.error(`error: ${message}`, { exitCode: 2, code: "script.misuse" });
}

/** The entries named by `aliases` in registry order (every entry when none); an unknown alias is a misuse. */
export function selectApis(command: Command, registry: ApiEntry[], aliases: string[]): ApiEntry[] {
  const unknown = aliases.filter((alias) => !registry.some((e) => e.alias === alias));
  if (unknown.length > 0) {
    misuse(command, `unknown API ${unknown.map((a) => `"${a}"`).join(", ")}; known: ${registry.map((e) => e.alias).join(", ")}`);
  }
  return aliases.length > 0 ? registry.filter((e) => aliases.includes(e.alias)) : registry;
}

/** An option parser for a whole number of at least `min` (commander reports a bad value as a misuse). */
export function integer(min: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`Expected an integer of at least ${min}.`);
    return Number(value);
  };
}
