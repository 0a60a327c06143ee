/**
 * `npm start [-- --port N] [--port-base N] [--host H] [--docs-dir DIR] [--skip-generate] [--sandbox]`: regenerates
 * what is stale (`npm run generate`), rebuilds the docs site when its inputs changed
 * (`npm run docs:build -- --if-stale`), then serves the site on one port and every registered API's
 * Prism mock on its own port (`--sandbox`: the stateful sandbox, src/sandbox/), prints the URLs, and
 * runs until SIGINT/SIGTERM, when it closes every
 * server and exits 0. Bad arguments: usage on stderr, exit 2. A failed step or a port in use: the
 * error on stderr, exit 1.
 */
import { rmSync } from "node:fs";
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { MockServer } from "../src/mock/index.js";
import { DEFAULT_OUT_DIR, stagingDir } from "./docs/build.js";
import { apiPaths } from "./docs/pages.js";
import type { StaticServer } from "./docs/serve.js";
import { DEFAULT_PORT_BASE, loadRegistry, repoRoot } from "../src/registry.js";

export const DEFAULT_DOCS_PORT = 4000;

const registry = loadRegistry();

function usage(problem?: string): never {
  (problem ? process.stderr : process.stdout).write(
    [
      ...(problem ? [`start: ${problem}`, ""] : []),
      "usage: npm start -- [--port N] [--port-base N] [--host HOST] [--docs-dir DIR] [--skip-generate] [--sandbox]   (Bad arguments exit 2.)",
      `  --port N         port of the documentation site (default ${DEFAULT_DOCS_PORT})`,
      `  --port-base N    first mock port (default ${DEFAULT_PORT_BASE}); the APIs take N, N+1, ... in registry order`,
      "  --host HOST      interface to bind (default 127.0.0.1)",
      `  --docs-dir DIR   where the site is built (default ${relative(process.cwd(), DEFAULT_OUT_DIR) || "."})`,
      "  --skip-generate  serve generated/ as it is, without `npm run generate` first",
      "  --sandbox        serve the stateful sandbox (state per credential, callbacks, control API under /_sandbox/)",
      "",
    ].join("\n"),
  );
  process.exit(problem ? 2 : 0);
}

function parseCli() {
  try {
    return parseArgs({
      allowPositionals: false,
      options: {
        port: { type: "string" },
        "port-base": { type: "string" },
        host: { type: "string" },
        "docs-dir": { type: "string" },
        "skip-generate": { type: "boolean" },
        sandbox: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    return usage((error as Error).message);
  }
}

const values = parseCli();
if (values.help) usage();

function portOption(name: string, raw: string, max: number): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > max || (name !== "--port" && port < 1))
    usage(`${name} must be an integer from ${name === "--port" ? 0 : 1} to ${max}, got "${raw}"`);
  return port;
}
const docsPort = portOption("--port", values.port ?? String(DEFAULT_DOCS_PORT), 65535);
const portBase = portOption("--port-base", values["port-base"] ?? String(DEFAULT_PORT_BASE), 65536 - registry.length);
const host = values.host ?? "127.0.0.1";
const docsDir = resolve(values["docs-dir"] ?? DEFAULT_OUT_DIR);
if (docsPort >= portBase && docsPort < portBase + registry.length) {
  usage(`--port ${docsPort} is one of the mock ports ${portBase}-${portBase + registry.length - 1}; choose another --port or --port-base`);
}

// Handlers first, so that a signal during the build also ends the run cleanly.
let mocks: MockServer[] = [];
let site: StaticServer | undefined;
let stopping = false;
async function stop(signal: string, code = 0) {
  if (stopping) return;
  stopping = true;
  if (signal) process.stdout.write(`\n${signal}: stopping the documentation site and the mocks\n`);
  rmSync(stagingDir(docsDir), { recursive: true, force: true });
  const closing = [...mocks.map((m) => m.close()), ...(site ? [site.close()] : [])];
  // Let requests in flight finish, but do not wait on a stuck client for more than 2 s.
  await Promise.race([Promise.allSettled(closing), new Promise((r) => setTimeout(r, 2000).unref())]);
  process.exit(code);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));

const started = Date.now();
if (!values["skip-generate"]) {
  process.stdout.write("generate: bundles, types and clients of every registered API\n");
  const { main: generate } = await import("./generate.js");
  if ((await generate([])) !== 0) {
    process.stderr.write("start: `npm run generate` failed (above); nothing started\n");
    process.exit(1);
  }
}

const { buildDocs } = await import("./docs/build.js");
try {
  await buildDocs({ outDir: docsDir, ifStale: true, log: (line) => process.stdout.write(`${line}\n`) });
} catch (error) {
  process.stderr.write(`start: docs:build failed: ${(error as Error).message}\n`);
  process.exit(1);
}

// Imported here: loading Prism takes most of the start-up time.
const [{ serveStatic }, { startMocks }] = await Promise.all([import("./docs/serve.js"), import("../src/mock/index.js")]);
const [siteResult, mocksResult] = await Promise.allSettled([
  serveStatic(docsDir, { port: docsPort, host }),
  startMocks(registry, { portBase, host, sandbox: values.sandbox === true }),
]);
if (siteResult.status === "fulfilled") site = siteResult.value;
if (mocksResult.status === "fulfilled") mocks = mocksResult.value;
const failure = [siteResult, mocksResult].find((r): r is PromiseRejectedResult => r.status === "rejected");
if (failure) {
  process.stderr.write(`start: ${(failure.reason as Error).message ?? failure.reason}\n`);
  await stop("", 1);
}

const docsUrl = site!.url;
const rows = [
  ["API", "MOCK", "DOCS"],
  ...mocks.map((m) => {
    const entry = registry.find((e) => e.alias === m.alias)!;
    return [m.alias, m.url, new URL(apiPaths(entry).page, docsUrl).href];
  }),
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
process.stdout.write(
  [
    "",
    `Documentation   ${docsUrl}   (site: ${relative(repoRoot, docsDir) || docsDir})`,
    `Open questions  ${new URL("open-questions.html", docsUrl).href}`,
    "",
    ...rows.map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    ),
    "",
    `Ready in ${Date.now() - started} ms: ${mocks.length} mock(s)${values.sandbox ? " in sandbox mode (control API: <mock>/_sandbox)" : ""} and the documentation site. Ctrl+C stops.`,
    "",
  ].join("\n"),
);
