/**
 * What the CLI's commands share: the context (registry, exit code), the exit-code mapping, the
 * error for a failure the user can act on, loading optional peer dependencies with the install
 * line, the table printer, signal handling and closing servers.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Command, CommanderError } from "commander";
import { type ApiEntry, DEFAULT_PORT_BASE, loadRegistry, packageRoot } from "../registry.js";
import { optionsTakenFrom } from "./npm.js";
import { withoutUserinfo } from "./options.js";

export interface CliContext {
  registry: ApiEntry[];
  /** Set by a command's action: the process's exit code. */
  exitCode: number;
}

export function context(): CliContext {
  return { registry: loadRegistry(), exitCode: 0 };
}

/** Optional peer dependencies, by feature: what `npm install` needs to add. */
const PEERS = {
  prism: ["@stoplight/prism-http", "@stoplight/prism-http-server", "@stoplight/prism-core"],
  ajv: ["ajv", "ajv-formats"],
  redocly: ["@redocly/cli"],
  hosted: ["pino", "prom-client", "rate-limiter-flexible"],
};

/** `npm install --save-dev name@version ...` for these optional peers, at the versions package.json asks for. */
function installLine(names: string[]): string {
  const pkg = packageJson();
  return `npm install --save-dev ${names.map((name) => `${name}@${pkg.peerDependencies?.[name] ?? "latest"}`).join(" ")}`;
}

/**
 * Fails, naming one line that installs all of them, when an optional peer of `features` cannot be
 * found from the package (`what` says what needs them).
 */
export function requirePeers(what: string, features: Array<keyof typeof PEERS>): void {
  const resolve = createRequire(import.meta.url).resolve;
  const names = features.flatMap((feature) => PEERS[feature]);
  const missing = names.filter((name) => {
    try {
      resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  throw new CliFailure(
    `${what} needs ${names.join(", ")} (optional peer dependencies of ${packageJson().name}); not installed: ${missing.join(", ")}. Install them with:\n  ${installLine(names)}`,
  );
}

export function packageJson(): { name: string; version: string; peerDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
}

/** A failure the user can act on: its message is printed and the command exits 1. */
export class CliFailure extends Error {}

/** Imports a module that needs optional peer dependencies; when one is missing, says how to install them. */
export async function needs<T>(feature: keyof typeof PEERS, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = PEERS[feature].find((name) => String((error as Error).message).includes(`'${name}'`));
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" || !missing) throw error;
    throw new CliFailure(
      `this command needs ${PEERS[feature].join(", ")} (optional peer dependencies of ${packageJson().name}), and ${missing} is not installed:\n  ${installLine(PEERS[feature])}`,
    );
  }
}

/** Left-aligned columns, two spaces apart. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}

/** Resolves with the reason to stop: a signal, the launcher gone, standard input closed (see stop.ts). */
export { untilStopped as untilSignal } from "./stop.js";

/** Closes servers, letting requests in flight finish, but waiting at most 2 s for a stuck client. */
export async function closeAll(servers: Array<{ close(): Promise<void> }>): Promise<void> {
  await Promise.race([Promise.allSettled(servers.map((s) => s.close())), new Promise((r) => setTimeout(r, 2000).unref())]);
}

export function lookup(command: Command, ctx: CliContext, aliases: string[]): ApiEntry[] {
  const unknown = aliases.filter((alias) => !ctx.registry.some((e) => e.alias === alias));
  if (unknown.length > 0) {
    command.error(`error: unknown API ${unknown.map((a) => `"${a}"`).join(", ")}; known: ${ctx.registry.map((e) => e.alias).join(", ")}`, {
      exitCode: 2,
      code: "bank-api-contracts.unknownApi",
    });
  }
  return aliases.map((alias) => ctx.registry.find((e) => e.alias === alias)!);
}

/** What a misuse prints after its one line of error (subcommands inherit it). */
export const HINT = "(add --help for usage)";

/**
 * A port in use, as a command reports it: the error's message, and for EADDRINUSE the option of
 * this command that moves the port (`--port-base <n>` for mocks, `--port <n>` for a proxy).
 */
export function withPortOption(error: unknown, option: string): string {
  const message = (error as Error).message ?? String(error);
  if ((error as { code?: unknown }).code !== "EADDRINUSE") return message;
  return `${message.replace(/; stop what holds it or choose another port$/, "")}; stop what holds it, or ${option}`;
}

/** Settings every command shares: one line and a hint after an error, exit codes through run(), the known aliases in the help. */
export function configure(command: Command, ctx: CliContext): Command {
  return (
    command
      .exitOverride()
      // Commander quotes a rejected option value in its error: never let a password in a URL through.
      .configureOutput({ outputError: (text, write) => write(withoutUserinfo(text)) })
      .showHelpAfterError(HINT)
      .addHelpText(
        "afterAll",
        `\nKnown APIs (registry order, default ports from ${DEFAULT_PORT_BASE}): ${ctx.registry.map((e) => e.alias).join(", ")}`,
      )
  );
}

/** Runs `command` on `argv`; maps commander's exits and failures to an exit code. */
export async function execute(command: Command, ctx: CliContext, argv: string[]): Promise<number> {
  const taken = optionsTakenFrom(command, argv);
  if (taken) {
    process.stderr.write(`error: ${taken}\n`);
    return 2;
  }
  try {
    await command.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    // Commander has printed the message and the hint; 0 is --help or --version.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`${command.name()}: ${(error as Error).message}\n`);
    return 1;
  }
}
