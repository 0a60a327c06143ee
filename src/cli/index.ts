/**
 * The `bank-api-contracts` command line (commander): `mock`, `proxy`, `validate` and `list`, every
 * one generic over the registry. `run(argv)` resolves to the exit code: 0 done, 1 failed (a port in
 * use, violations found, a missing optional dependency), 2 misused (the usage is printed).
 *
 * Prism and Ajv are optional peer dependencies: they are imported by the commands that need them,
 * so `list` and `--help` work without them, and a missing one is named with the install command.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { parse } from "yaml";
import { type ApiEntry, DEFAULT_PORT_BASE, defaultPort, loadRegistry, packageRoot } from "../registry.js";
import { defineCallback } from "./callback.js";
import { httpUrl, integer } from "./options.js";
import { defineWorkflows } from "./workflows.js";

/** Optional peer dependencies, by feature: what `npm install` needs to add. */
const PEERS = {
  prism: ["@stoplight/prism-http", "@stoplight/prism-http-server", "@stoplight/prism-core"],
  ajv: ["ajv", "ajv-formats"],
};

function packageJson(): { name: string; version: string; peerDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
}

/** A failure the user can act on: its message is printed and the command exits 1. */
class CliFailure extends Error {}

/** Imports a module that needs optional peer dependencies; when one is missing, says how to install them. */
async function needs<T>(feature: keyof typeof PEERS, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = PEERS[feature].find((name) => String((error as Error).message).includes(`'${name}'`));
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" || !missing) throw error;
    const pkg = packageJson();
    const specs = PEERS[feature].map((name) => `${name}@${pkg.peerDependencies?.[name] ?? "latest"}`);
    throw new CliFailure(
      `this command needs ${PEERS[feature].join(", ")} (optional peer dependencies of ${pkg.name}), and ${missing} is not installed:\n  npm install --save-dev ${specs.join(" ")}`,
    );
  }
}

/** Left-aligned columns, two spaces apart. */
function table(rows: string[][]): string {
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

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Operations the mock serves: paths x methods of the bundled spec (webhooks are not served). */
function countOperations(entry: ApiEntry): number {
  let text: string;
  try {
    text = readFileSync(entry.bundlePath, "utf8");
  } catch {
    throw new CliFailure(`${entry.alias}: bundled spec ${entry.bundlePath} not found`);
  }
  const doc = parse(text) as {
    paths?: Record<string, Record<string, unknown> & { $ref?: string }>;
    components?: { pathItems?: Record<string, Record<string, unknown>> };
  };
  return Object.values(doc.paths ?? {}).reduce((sum, item) => {
    const target = item.$ref?.startsWith("#/components/pathItems/")
      ? (doc.components?.pathItems?.[item.$ref.split("/").pop()!] ?? {})
      : item;
    return sum + METHODS.filter((m) => m in target).length;
  }, 0);
}

/** Resolves when SIGINT or SIGTERM arrives; the handlers are removed then. */
function untilSignal(): { signal: Promise<string>; dispose: () => void } {
  let dispose = () => {};
  const signal = new Promise<string>((resolve) => {
    const onInt = () => resolve("SIGINT");
    const onTerm = () => resolve("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    dispose = () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    };
  });
  return { signal, dispose };
}

/** Closes servers, letting requests in flight finish, but waiting at most 2 s for a stuck client. */
async function closeAll(servers: Array<{ close(): Promise<void> }>): Promise<void> {
  await Promise.race([Promise.allSettled(servers.map((s) => s.close())), new Promise((r) => setTimeout(r, 2000).unref())]);
}

interface Context {
  registry: ApiEntry[];
  /** Set by a command's action: the process's exit code. */
  exitCode: number;
}

function lookup(command: Command, ctx: Context, aliases: string[]): ApiEntry[] {
  const unknown = aliases.filter((alias) => !ctx.registry.some((e) => e.alias === alias));
  if (unknown.length > 0) {
    command.error(`error: unknown API ${unknown.map((a) => `"${a}"`).join(", ")}; known: ${ctx.registry.map((e) => e.alias).join(", ")}`, {
      exitCode: 2,
      code: "bank-api-contracts.unknownApi",
    });
  }
  return aliases.map((alias) => ctx.registry.find((e) => e.alias === alias)!);
}

/** Settings every command shares: usage after an error, exit codes through run(), the known aliases in the help. */
function configure(command: Command, ctx: Context): Command {
  return command
    .exitOverride()
    .showHelpAfterError()
    .addHelpText(
      "afterAll",
      `\nKnown APIs (registry order, default ports from ${DEFAULT_PORT_BASE}): ${ctx.registry.map((e) => e.alias).join(", ")}`,
    );
}

/** `mock [alias...]`: also what `npm run mock` runs. */
export function defineMock(command: Command, ctx: Context): Command {
  const maxBase = 65536 - ctx.registry.length;
  return command
    .description(
      "Serve the contract mock (Prism, the spec's examples) of each API given, default all, each on its default port; Ctrl-C stops",
    )
    .argument("[alias...]", "APIs to serve (default: all)")
    .option(
      "--port-base <n>",
      `first port; the APIs take N, N+1, ... in registry order`,
      integer("--port-base", 1, maxBase),
      DEFAULT_PORT_BASE,
    )
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .action(async (aliases: string[], options: { portBase: number; host: string }, cmd: Command) => {
      const entries = aliases.length > 0 ? lookup(cmd, ctx, aliases) : ctx.registry;
      // Handlers first, so that a signal during start-up also ends the run cleanly.
      const { signal, dispose } = untilSignal();
      const { startMocks } = await needs("prism", () => import("../mock/index.js"));
      const started = Date.now();
      let mocks;
      try {
        mocks = await startMocks(entries, { portBase: options.portBase, host: options.host });
      } catch (error) {
        dispose();
        throw new CliFailure((error as Error).message);
      }
      process.stdout.write(
        table([
          ["API", "URL", "OPERATIONS", "AUTH"],
          ...mocks.map((m) => [m.alias, m.url, String(m.operations), m.auth.join(", ") || "none"]),
        ]) +
          `\n${mocks.length} mock(s) ready in ${Date.now() - started} ms. Request violations are in the sl-violations response header. Ctrl+C stops.\n`,
      );
      const received = await signal;
      dispose();
      process.stdout.write(`\n${received}: stopping the mocks\n`);
      await closeAll(mocks);
    });
}

function defineProxy(command: Command, ctx: Context): Command {
  return command
    .description(
      "Validating proxy (Prism) in front of a real server: forwards every request to the upstream and reports each request or response that breaks the contract; Ctrl-C stops",
    )
    .argument("<alias>", "API whose contract applies, e.g. pay@1.3.0")
    .requiredOption("--upstream <url>", "base URL of the real server (the sandbox); request paths are appended to it", httpUrl)
    .option("--port <n>", "port to listen on (default: the API's default mock port)", integer("--port", 0, 65535))
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .addHelpText(
      "after",
      "\nEach exchange prints one line, then one line per finding:\n  GET /v1/merchant -> 200: 1 violation(s)\n    response.body.name: Response body property name must be string\n" +
        "The findings also reach the client in the sl-violations response header (a JSON array).",
    )
    .action(async (alias: string, options: { upstream: string; port?: number; host: string }, cmd: Command) => {
      const [entry] = lookup(cmd, ctx, [alias]);
      const { signal, dispose } = untilSignal();
      const { startProxy } = await needs("prism", () => import("../proxy/index.js"));
      let proxy;
      try {
        proxy = await startProxy(entry, {
          upstream: options.upstream,
          port: options.port ?? defaultPort(entry),
          host: options.host,
          onExchange(exchange) {
            const outcome = exchange.error
              ? `failed: ${exchange.error}`
              : exchange.violations.length === 0
                ? "ok"
                : `${exchange.violations.length} violation(s)`;
            const lines = [`${exchange.method} ${exchange.url} -> ${exchange.status ?? "-"}: ${outcome}`];
            for (const v of exchange.violations)
              lines.push(`    ${v.location.join(".")}: ${v.message}${v.severity === "Error" ? "" : ` (${v.severity.toLowerCase()})`}`);
            process.stdout.write(`${lines.join("\n")}\n`);
          },
        });
      } catch (error) {
        dispose();
        throw new CliFailure((error as Error).message);
      }
      process.stdout.write(
        `${entry.alias} proxy ready: ${proxy.url} -> ${proxy.upstream}. Violations are printed below and sent in the sl-violations response header. Ctrl+C stops.\n`,
      );
      const received = await signal;
      dispose();
      process.stdout.write(`\n${received}: stopping the proxy\n`);
      await closeAll([proxy]);
    });
}

function readInput(command: Command, file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    command.error(`error: cannot read ${file === "-" ? "standard input" : file}: ${(error as Error).message}`, {
      exitCode: 2,
      code: "bank-api-contracts.input",
    });
  }
}

function defineValidate(command: Command, ctx: Context): Command {
  return command
    .description(
      "Validate a captured response body against the contract; prints each violation with its JSON path and exits 1 on any, 0 when it matches",
    )
    .argument("<alias>", "API, e.g. pay@1.3.0")
    .argument("<file>", "the body: a JSON file, or - for standard input (an empty file means no body)")
    .requiredOption("--operation <operationId>", "operation that produced the response, e.g. getMerchant")
    .requiredOption("--status <code>", "HTTP status of the response", integer("--status", 100, 599))
    .action(async (alias: string, file: string, options: { operation: string; status: number }, cmd: Command) => {
      const [entry] = lookup(cmd, ctx, [alias]);
      const text = readInput(cmd, file);
      const name = file === "-" ? "standard input" : file;
      let body: unknown;
      try {
        body = text.trim() === "" ? undefined : JSON.parse(text);
      } catch (error) {
        cmd.error(`error: ${name} is not JSON: ${(error as Error).message}`, { exitCode: 2, code: "bank-api-contracts.input" });
      }
      const { createValidator, OperationNotFoundError, formatViolations } = await needs("ajv", () => import("../validation/contract.js"));
      let result;
      try {
        result = createValidator(entry).validateResponse({ operationId: options.operation, status: options.status, body });
      } catch (error) {
        if (error instanceof OperationNotFoundError)
          cmd.error(`error: ${error.message}`, { exitCode: 2, code: "bank-api-contracts.unknownOperation" });
        throw error;
      }
      const what = `${entry.alias} ${options.operation} ${options.status}`;
      if (result.valid) {
        process.stdout.write(`${name}: matches the ${what} response\n`);
      } else {
        process.stdout.write(
          `${name}: ${result.violations.length} violation(s) of the ${what} response\n${formatViolations(result.violations)}\n`,
        );
        ctx.exitCode = 1;
      }
    });
}

function defineList(command: Command, ctx: Context): Command {
  return command
    .description("List every API: alias, service, release, operation count and default mock port")
    .option("--json", "print JSON instead of a table")
    .action((options: { json?: boolean }) => {
      const rows = ctx.registry.map((entry) => ({
        alias: entry.alias,
        api: entry.service,
        release: entry.release,
        latest: entry.latest,
        operations: countOperations(entry),
        port: defaultPort(entry),
      }));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        table([
          ["ALIAS", "API", "RELEASE", "OPERATIONS", "PORT"],
          ...rows.map((r) => [r.alias, r.api, r.release + (r.latest ? "" : " (older)"), String(r.operations), String(r.port)]),
        ]),
      );
    });
}

/** Runs `command` on `argv`; maps commander's exits and failures to an exit code. */
async function execute(command: Command, ctx: Context, argv: string[]): Promise<number> {
  try {
    await command.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    // Commander has printed the message (and the usage after an error); 0 is --help or --version.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`${command.name()}: ${(error as Error).message}\n`);
    return 1;
  }
}

function context(): Context {
  return { registry: loadRegistry(), exitCode: 0 };
}

/** The whole CLI, as `bank-api-contracts <command>`. */
export function createProgram(ctx: Context = context(), name = "bank-api-contracts"): Command {
  const program = configure(new Command(name), ctx)
    .description("Contract mocks, a validating proxy and a response validator for the APIs of bank-api-contracts")
    .version(packageJson().version)
    .helpCommand(true);
  // Subcommands inherit the error handling and the help text's footer.
  defineMock(program.command("mock"), ctx);
  defineProxy(program.command("proxy"), ctx);
  defineValidate(program.command("validate"), ctx);
  defineList(program.command("list"), ctx);
  defineWorkflows(program.command("workflows"), ctx);
  defineCallback(program.command("callback"), ctx);
  return program;
}

/** Runs the CLI on `argv` (without the node and script paths); resolves to the exit code. */
export async function run(argv: string[]): Promise<number> {
  let ctx: Context;
  try {
    ctx = context();
  } catch (error) {
    process.stderr.write(`bank-api-contracts: ${(error as Error).message}\n`);
    return 1;
  }
  return execute(createProgram(ctx), ctx, argv);
}

/** Runs the `mock` command alone under another name (`npm run mock --`). */
export async function runMock(argv: string[], name: string): Promise<number> {
  let ctx: Context;
  try {
    ctx = context();
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n`);
    return 1;
  }
  return execute(defineMock(configure(new Command(name), ctx), ctx), ctx, argv);
}
