/**
 * `npm run bench:docs [-- --site DIR] [--runs N] [--json FILE]`: the documentation site's weight and
 * speed. Builds the site when DIR holds no current build, then reports
 *
 * - the site's total bytes, and each page's own HTML bytes;
 * - what opening each page transfers (HTML + shared Scalar bundle + its document + stylesheet + ...),
 *   in bytes and requests, with a cold cache;
 * - for each reference page (every API's and the sandbox control API's), the time from navigation
 *   start to its first operation visible (the first operation's section in the DOM and on screen),
 *   in Debian's Chromium: cold cache (first run, fresh browser context) and the median over N
 *   repeated loads in that context.
 *
 * A measurement, not a test: it never fails on a figure (only on a missing browser or a broken site).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { join, relative, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { loadRegistry } from "../../src/registry.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../lib/chromium.js";
import { integer, runCommand, runProgram, script } from "../lib/cli.js";
import { buildDocs, DEFAULT_OUT_DIR } from "./build.js";
import { apiPaths } from "./pages.js";
import { serveStatic } from "./serve.js";

export interface PageFigures {
  page: string;
  alias?: string;
  htmlBytes: number;
  /** Bytes and requests of opening the page with a cold cache (everything it loads). */
  loadBytes: number;
  requests: number;
  foreignRequests: number;
  /** Reference pages: ms from navigation start to the first operation visible, cold and warm median. */
  firstOperationColdMs?: number;
  firstOperationWarmMs?: number;
}

export interface DocsBench {
  siteDir: string;
  machine: { cpus: number; model: string; node: string };
  siteBytes: number;
  files: number;
  scalarBundleBytes: number;
  pages: PageFigures[];
}

/** An operation's section as Scalar renders it (`api-1/tag/<tag>/<METHOD>/<path>`). */
const FIRST_OPERATION =
  "section[id^='api-1/tag/'][id*='/GET/'], section[id^='api-1/tag/'][id*='/POST/'], section[id^='api-1/tag/'][id*='/PUT/'], section[id^='api-1/tag/'][id*='/DELETE/']";

/** A loaded machine renders slowly: a wait gives up after three minutes, not Playwright's 30 s. */
const TIMEOUT = 180_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchDocs(siteDir: string, runs: number): Promise<DocsBench> {
  const { chromium } = await import("playwright-core");
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  const files = readdirSync(siteDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && !d.name.startsWith("."));
  const size = (path: string) => statSync(join(siteDir, path)).size;
  const siteBytes = files.reduce((n, d) => n + statSync(join(d.parentPath, d.name)).size, 0);
  const registry = loadRegistry();
  const reference = new Set([...registry.map((e) => apiPaths(e).page), "sandbox/index.html"]);
  const pages: Array<{ page: string; alias?: string }> = [
    ...files
      .map((d) => relative(siteDir, join(d.parentPath, d.name)))
      .filter((path) => path.endsWith(".html") && !reference.has(path))
      .sort()
      .map((page) => ({ page })),
    ...registry.map((e) => ({ page: apiPaths(e).page, alias: e.alias })),
    ...(existsSync(join(siteDir, "sandbox/index.html")) ? [{ page: "sandbox/index.html", alias: "sandbox control API" }] : []),
  ];

  const server = await serveStatic(siteDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const results: PageFigures[] = [];
  try {
    for (const { page: path, alias } of pages) {
      const url = new URL(path, server.url).href;
      // Cold: a fresh context (empty cache) per measurement.
      const context = await browser.newContext();
      context.setDefaultTimeout(TIMEOUT);
      const page = await context.newPage();
      let loadBytes = 0;
      let requests = 0;
      let foreignRequests = 0;
      page.on("request", (r) => {
        requests++;
        if (!r.url().startsWith(server.url) && !r.url().startsWith("data:") && !r.url().startsWith(`blob:${server.url}`)) foreignRequests++;
      });
      page.on("response", (r) => {
        void r.body().then(
          (b) => (loadBytes += b.length),
          () => {},
        );
      });
      const figures: PageFigures = {
        page: path,
        ...(alias ? { alias } : {}),
        htmlBytes: size(path),
        loadBytes: 0,
        requests: 0,
        foreignRequests: 0,
      };
      if (alias) {
        // Everything the page loads until the first operation is shown, then until the network is idle.
        await page.goto(url, { waitUntil: "load" });
        await page.locator(FIRST_OPERATION).first().waitFor({ state: "visible" });
        // Then what it loads meanwhile (its document is fetched before the first operation shows).
        await page.waitForTimeout(1_000);
        figures.loadBytes = loadBytes;
        figures.requests = requests;
        figures.foreignRequests = foreignRequests;
        await context.close();

        const timeToOperation = async (target: import("playwright-core").Page) => {
          await target.goto("about:blank");
          await target.goto(url, { waitUntil: "commit" });
          // Polled on every animation frame in the page: the time the first operation's section is on screen.
          const at = await target.waitForFunction((sel) => {
            const section = document.querySelector(sel);
            return section && section.getBoundingClientRect().height > 0 ? Math.round(performance.now()) : 0;
          }, FIRST_OPERATION);
          return (await at.jsonValue()) as number;
        };
        const coldContext = await browser.newContext();
        coldContext.setDefaultTimeout(TIMEOUT);
        const cold = await coldContext.newPage();
        figures.firstOperationColdMs = await timeToOperation(cold);
        const warm: number[] = [];
        for (let i = 0; i < runs; i++) warm.push(await timeToOperation(cold));
        figures.firstOperationWarmMs = median(warm);
        await coldContext.close();
      } else {
        await page.goto(url, { waitUntil: "networkidle" });
        figures.loadBytes = loadBytes;
        figures.requests = requests;
        figures.foreignRequests = foreignRequests;
        await context.close();
      }
      results.push(figures);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    siteDir,
    machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? "unknown", node: process.version },
    siteBytes,
    files: files.length,
    scalarBundleBytes: size("assets/scalar.js"),
    pages: results,
  };
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

export function formatBench(bench: DocsBench): string {
  const rows = [
    ["page", "HTML", "opened (cold)", "requests", "foreign", "1st operation, cold", "repeat median"],
    ...bench.pages.map((p) => [
      p.page,
      kib(p.htmlBytes),
      kib(p.loadBytes),
      String(p.requests),
      String(p.foreignRequests),
      p.firstOperationColdMs === undefined ? "" : `${p.firstOperationColdMs} ms`,
      p.firstOperationWarmMs === undefined ? "" : `${p.firstOperationWarmMs} ms`,
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return [
    `Docs site: ${kib(bench.siteBytes)} in ${bench.files} files (shared Scalar bundle ${kib(bench.scalarBundleBytes)}, ${kib(gzipSync(readFileSync(join(bench.siteDir, "assets/scalar.js"))).length)} gzipped); ${bench.machine.cpus} CPUs (${bench.machine.model}), Node ${bench.machine.node}`,
    "",
    ...rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ")),
  ].join("\n");
}

function program() {
  return script("bench:docs")
    .description(
      "Report the docs site's total bytes, what each page loads and, in Chromium, each reference page's time to its first operation visible",
    )
    .option("--site <dir>", "the built site (default: site/; built or rebuilt when stale)")
    .option("--runs <N>", "repeated loads per page for the median", integer(1), 5)
    .option("--json <file>", "also write the figures as JSON")
    .action(async (options: { site?: string; runs: number; json?: string }) => {
      const site = resolve(options.site ?? DEFAULT_OUT_DIR);
      await buildDocs({ outDir: site, ifStale: true, log: (line) => console.error(line) });
      const bench = await benchDocs(site, options.runs);
      console.log(formatBench(bench));
      if (options.json) writeFileSync(options.json, `${JSON.stringify(bench, null, 2)}\n`);
    });
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
