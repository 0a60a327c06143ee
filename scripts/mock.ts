/**
 * `npm run mock [-- [--port-base N] [--host H] [alias...]]`: starts the Prism mock of every API of
 * the registry (or of the aliases given) on its default port, prints a table and runs until
 * SIGINT/SIGTERM, then closes the servers and exits 0. Bad arguments: usage on stderr, exit 2.
 * A port in use or a missing bundle: the error on stderr, exit 1.
 */
import { parseArgs } from "node:util";
import type { MockServer } from "../src/mock/index.js";
import { DEFAULT_PORT_BASE, loadRegistry } from "./lib/registry.js";

const registry = loadRegistry();

/** Prints the usage: on stdout and exit 0 when asked for, on stderr after the problem and exit 2 otherwise. */
function usage(problem?: string): never {
  (problem ? process.stderr : process.stdout).write(
    [
      ...(problem ? [`mock: ${problem}`, ""] : []),
      "usage: npm run mock -- [--port-base N] [--host HOST] [alias ...]   (Bad arguments exit 2.)",
      `  --port-base N  first port (default ${DEFAULT_PORT_BASE}); the APIs take N, N+1, ... in registry order`,
      "  --host HOST    interface to bind (default 127.0.0.1)",
      "  alias          APIs to start (default: all)",
      `known aliases: ${registry.map((e) => e.alias).join(", ")}`,
      "",
    ].join("\n"),
  );
  process.exit(problem ? 2 : 0);
}

function parseCli() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        "port-base": { type: "string" },
        host: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
}
const { values, positionals } = parseCli();
if (values.help) usage();

const portBaseArg = values["port-base"] ?? String(DEFAULT_PORT_BASE);
const portBase = Number(portBaseArg);
if (!/^\d+$/.test(portBaseArg) || portBase < 1 || portBase + registry.length - 1 > 65535) {
  usage(`--port-base must be an integer from 1 to ${65536 - registry.length}, got "${portBaseArg}"`);
}
const unknown = positionals.filter((alias) => !registry.some((e) => e.alias === alias));
if (unknown.length > 0) usage(`unknown API ${unknown.map((a) => `"${a}"`).join(", ")}`);
const entries = positionals.length > 0 ? registry.filter((e) => positionals.includes(e.alias)) : registry;

// Handlers first, so a signal during start-up also ends the run cleanly.
let mocks: MockServer[] = [];
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping the mocks\n`);
  // close() lets requests in flight finish; do not wait on a stuck client for more than 2 s.
  await Promise.race([Promise.allSettled(mocks.map((m) => m.close())), new Promise((r) => setTimeout(r, 2000).unref())]);
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));

// Imported after the arguments are checked: loading Prism takes most of the start-up time.
const { startMocks } = await import("../src/mock/index.js");
const started = Date.now();
try {
  mocks = await startMocks(entries, { portBase, host: values.host });
} catch (error) {
  process.stderr.write(`mock: ${(error as Error).message}\n`);
  process.exit(1);
}

const rows = [["API", "URL", "OPERATIONS", "AUTH"], ...mocks.map((m) => [m.alias, m.url, String(m.operations), m.auth.join(", ") || "none"])];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const row of rows) process.stdout.write(row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd() + "\n");
process.stdout.write(
  `\n${mocks.length} mock(s) ready in ${Date.now() - started} ms. Request violations are in the sl-violations response header. Ctrl+C stops.\n`,
);

