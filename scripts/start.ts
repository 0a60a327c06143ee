/**
 * `npm start [-- --port N] [--port-base N] [--host H] [--docs-dir DIR] [--skip-generate] [--sandbox | --no-mocks]`:
 * regenerates what is stale (`npm run generate`), rebuilds the docs portal (guides, references with a
 * request console) for the mocks' ports when its inputs changed (`npm run docs:build -- --if-stale
 * --port-base N`), then serves the site on one port and every registered API's Prism mock on its own
 * port (`--sandbox`: the stateful sandbox, src/sandbox/; `--no-mocks`: the portal alone, for mocks
 * already running on those ports, e.g. `npx bank-api-contracts mock --sandbox`), prints the URLs, and
 * runs until SIGINT/SIGTERM, when it closes every server and exits 0; also when npm, which started
 * it, is stopped (`kill` of `npm start`'s PID) or a piped standard input closes (src/cli/stop.ts).
 * The home page's table and every reference page's console name the ports of `--port-base`.
 * Bad arguments: one line and a hint on stderr, exit 2. A failed step or a port in use (named with
 * the option that moves it): the error on stderr, exit 1.
 */
import { rmSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Command } from "commander";
import type { MockServer } from "../src/mock/index.js";
import { DEFAULT_OUT_DIR, stagingDir } from "./docs/build.js";
import { apiPaths } from "./docs/pages.js";
import type { StaticServer } from "./docs/serve.js";
import { withPortOption } from "../src/cli/common.js";
import { integer } from "../src/cli/options.js";
import { untilStopped } from "../src/cli/stop.js";
import { type ApiEntry, DEFAULT_PORT_BASE, defaultPort, loadRegistry, repoRoot } from "../src/registry.js";
import { isEntryPoint, misuse, runCommand, script } from "./lib/cli.js";

export const DEFAULT_DOCS_PORT = 4000;

interface StartOptions {
  port: number;
  portBase: number;
  host: string;
  docsDir: string;
  skipGenerate?: boolean;
  sandbox?: boolean;
  /** false with --no-mocks. */
  mocks: boolean;
}

function program() {
  const registry = loadRegistry();
  return script("start")
    .description(
      "Regenerate what is stale, rebuild the docs site when its inputs changed, then serve it and every registered API's mock until stopped",
    )
    .option("--port <n>", "port of the documentation site", integer("--port", 0, 65535), DEFAULT_DOCS_PORT)
    .option(
      "--port-base <n>",
      "first mock port; the APIs take N, N+1, ... in registry order",
      integer("--port-base", 1, 65536 - registry.length),
      DEFAULT_PORT_BASE,
    )
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--docs-dir <dir>", "where the site is built", relative(process.cwd(), DEFAULT_OUT_DIR) || ".")
    .option("--skip-generate", "serve generated/ as it is, without `npm run generate` first")
    .option("--sandbox", "serve the stateful sandbox (state per credential, callbacks, control API under /_sandbox/)")
    .option("--no-mocks", "serve the documentation portal alone, for mocks already running on the --port-base ports")
    .action((options: StartOptions, command: Command) => start(registry, options, command));
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

/** A host as it stands in a URL (an IPv6 address in brackets). */
const shownHost = (host: string) => (host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host);

async function start(registry: ApiEntry[], values: StartOptions, command: Command): Promise<number> {
  const { port: docsPort, portBase, host } = values;
  const docsDir = resolve(values.docsDir);
  if (values.sandbox && !values.mocks) misuse(command, "--sandbox and --no-mocks contradict each other: --no-mocks starts no mock");
  if (docsPort >= portBase && docsPort < portBase + registry.length) {
    misuse(
      command,
      `--port ${docsPort} is one of the mock ports ${portBase}-${portBase + registry.length - 1}; choose another --port or --port-base`,
    );
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
  void untilStopped().signal.then((reason) => stop(reason));

  const started = Date.now();
  if (!values.skipGenerate) {
    process.stdout.write("generate: bundles, types and clients of every registered API\n");
    const { main: generate } = await import("./generate.js");
    if ((await generate([])) !== 0) {
      process.stderr.write("start: `npm run generate` failed (above); nothing started\n");
      await stop("", 1);
    }
  }

  const { buildDocs } = await import("./docs/build.js");
  try {
    await buildDocs({ outDir: docsDir, ifStale: true, portBase, log: (line) => process.stdout.write(`${line}\n`) });
  } catch (error) {
    process.stderr.write(`start: docs:build failed: ${(error as Error).message}\n`);
    await stop("", 1);
  }

  // Imported here: loading Prism takes most of the start-up time.
  const [{ serveStatic }, { startMocks }] = await Promise.all([import("./docs/serve.js"), import("../src/mock/index.js")]);
  const [siteResult, mocksResult] = await Promise.allSettled([
    serveStatic(docsDir, { port: docsPort, host }),
    values.mocks ? startMocks(registry, { portBase, host, sandbox: values.sandbox === true }) : Promise.resolve([]),
  ]);
  if (siteResult.status === "fulfilled") site = siteResult.value;
  if (mocksResult.status === "fulfilled") mocks = mocksResult.value;
  const failure = [siteResult, mocksResult].find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) {
    process.stderr.write(
      `start: ${withPortOption(failure.reason, "move the mocks with --port-base <n>, or add --no-mocks to serve the portal for the mocks already running there")}\n`,
    );
    await stop("", 1);
  }

  const docsUrl = site!.url;
  // The ports the site was built for: the mocks started here, or those it expects (--no-mocks).
  const rows = [
    ["API", values.mocks ? "MOCK" : "MOCK (expected, not started here)", "DOCS"],
    ...registry.map((entry) => [
      entry.alias,
      `http://${shownHost(host)}:${defaultPort(entry, portBase)}`,
      new URL(apiPaths(entry).page, docsUrl).href,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  process.stdout.write(
    [
      "",
      `Documentation   ${docsUrl}   (site: ${relative(repoRoot, docsDir) || docsDir})`,
      `Guides          ${new URL("guides/index.html", docsUrl).href}`,
      `Open questions  ${new URL("open-questions.html", docsUrl).href}`,
      "",
      ...rows.map((row) =>
        row
          .map((cell, i) => cell.padEnd(widths[i]))
          .join("  ")
          .trimEnd(),
      ),
      "",
      values.mocks
        ? `Ready in ${Date.now() - started} ms: ${mocks.length} mock(s)${values.sandbox ? " in sandbox mode (control API: <mock>/_sandbox)" : ""} and the documentation site. Ctrl+C stops.`
        : `Ready in ${Date.now() - started} ms: the documentation site alone, its consoles pointed at ports ${portBase}-${portBase + registry.length - 1}. Ctrl+C stops.`,
      "",
    ].join("\n"),
  );
  // Runs until stopped: stop() exits the process.
  return new Promise<number>(() => {});
}

if (isEntryPoint(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
