/**
 * `npm run bench:docs [-- --site DIR] [--runs N] [--json FILE]`: the documentation site's weight and
 * speed, in Debian's Chromium, as a reader meets them. Builds the site when DIR holds no current
 * build, serves it with the site's own server (scripts/docs/serve.ts: compressed copies, immutable
 * hashed assets, validators), then reports
 *
 * - the site's total bytes and files (without the compressed copies), and the Scalar bundle's size
 *   as stored and as sent (brotli);
 * - a visit: every reference page in registry order, then the first again, in one browser profile
 *   (the HTTP cache on, as a reader's): the bytes transferred for each page (what the network
 *   carried, compressed, headers included: the DevTools `encodedDataLength` of every response; 0 for
 *   what the cache served without asking), its requests, and its times (below);
 * - each page opened with a cold cache (a fresh profile): bytes transferred and requests, and for a
 *   reference page its times: the first contentful paint, the first operation visible (the page's
 *   frame, or Scalar's own when it comes first: an operation's name on screen) and the console ready
 *   (Scalar's first operation section rendered, which the console opens from), and the median of N
 *   repeated loads (`--runs`, default 5) in that profile.
 *
 * Times run from navigation start; "visible" is the first animation frame in which the element has a
 * box, checked in the page. The machine's load average is printed with the figures.
 *
 * A measurement, not a test: it never fails on a figure (only on a missing browser or a broken site).
 */
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { join, relative, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { loadRegistry } from "../../src/registry.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../lib/chromium.js";
import { integer, runCommand, runProgram, script } from "../lib/cli.js";
import { buildDocs, DEFAULT_OUT_DIR } from "./build.js";
import { apiPaths } from "./pages.js";
import { serveStatic } from "./serve.js";

export interface LoadFigures {
  page: string;
  alias?: string;
  /** Bytes the network carried for the page and everything it loaded (compressed, with headers). */
  transferred: number;
  requests: number;
  foreignRequests: number;
  /** Reference pages: ms from navigation start to the first operation on screen (the frame's or Scalar's). */
  firstOperationMs?: number;
  /** Reference pages: ms to Scalar's first operation section (the console can be opened). */
  consoleReadyMs?: number;
  /** Reference pages: ms to the first contentful paint. */
  firstPaintMs?: number;
}

export interface PageFigures extends LoadFigures {
  htmlBytes: number;
  /** Reference pages: the medians of the repeated loads in the same profile. */
  repeatFirstOperationMs?: number;
  repeatConsoleReadyMs?: number;
  repeatTransferred?: number;
}

export interface DocsBench {
  siteDir: string;
  machine: { cpus: number; model: string; node: string; loadBefore: number[]; loadAfter: number[] };
  siteBytes: number;
  files: number;
  scalarBundleBytes: number;
  scalarBundleBrotliBytes: number;
  /** Every reference page in registry order, then the first again, in one profile. */
  visit: LoadFigures[];
  pages: PageFigures[];
}

/** An operation's section as Scalar renders it (`api-1/tag/<tag>/<METHOD>/<path>`). */
const SCALAR_OPERATION = "section[id^='api-1/tag/']";

/** A loaded machine renders slowly: a wait gives up after three minutes, not Playwright's 30 s. */
const TIMEOUT = 180_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Opens `url` in `page` and measures it: the bytes transferred (DevTools' encodedDataLength of every
 * response that finished), the requests, and for a reference page the two times (see the module header).
 */
async function load(context: BrowserContext, page: Page, url: string, origin: string, reference: boolean): Promise<LoadFigures> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  let transferred = 0;
  let requests = 0;
  let foreignRequests = 0;
  const pending = new Set<string>();
  let settle = () => {};
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.request.url.startsWith("data:")) return;
    requests++;
    pending.add(e.requestId);
    if (!e.request.url.startsWith(origin) && !e.request.url.startsWith(`blob:${origin}`)) foreignRequests++;
  });
  const done = (id: string) => {
    pending.delete(id);
    if (pending.size === 0) settle();
  };
  cdp.on("Network.loadingFinished", (e) => {
    transferred += e.encodedDataLength;
    done(e.requestId);
  });
  cdp.on("Network.loadingFailed", (e) => done(e.requestId));
  const path = new URL(url).pathname;
  // Whether the page's HTML carries a frame of operations (scripts/docs/reference.ts), read from the file served.
  const framed = reference && (await (await fetch(url)).text()).includes('elementtiming="first-operation"');
  await page.goto("about:blank");
  const figures: LoadFigures = { page: path.slice(1), transferred: 0, requests: 0, foreignRequests: 0 };
  if (reference) {
    await page.goto(url, { waitUntil: "commit" });
    // Polled on every animation frame in the page: the first frame in which each is on screen.
    // Scalar's first operation: polled on every animation frame in the page. (No function inside:
    // tsx would wrap it in a helper the page lacks.)
    const at = await page.waitForFunction(
      (scalar) => {
        const rendered = document.querySelector(scalar);
        return rendered !== null && rendered.getBoundingClientRect().height > 0 ? Math.round(performance.now()) : 0;
      },
      SCALAR_OPERATION,
      { polling: "raf" },
    );
    figures.consoleReadyMs = (await at.jsonValue()) as number;
    // The frame's first operation: when the browser painted its text (Element Timing, recorded by the
    // browser itself, so a busy main thread does not delay the reading). Chromium drops that entry
    // when Scalar has replaced the frame before the paint was presented (a cached bundle, soon after
    // the first paint); the first contentful paint stands for it then: the frame is in the page's
    // HTML, above the fold, and painted with the rest of it. Scalar's first operation when it came first.
    // (No function declared inside: tsx would wrap it in a helper the page lacks.)
    const paints = await page.evaluate(
      () =>
        new Promise<{ element: number; contentful: number }>((resolve) => {
          const contentful = Math.round(performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1);
          new PerformanceObserver((list) => {
            const entry = list.getEntries().find((e) => (e as PerformanceEntry & { identifier?: string }).identifier === "first-operation");
            if (entry)
              resolve({
                element: Math.round((entry as PerformanceEntry & { renderTime: number }).renderTime || entry.startTime),
                contentful,
              });
          }).observe({ type: "element", buffered: true });
          setTimeout(() => resolve({ element: -1, contentful }), 1000);
        }),
    );
    figures.firstPaintMs = paints.contentful;
    const framePainted = paints.element >= 0 ? paints.element : framed ? paints.contentful : -1;
    figures.firstOperationMs = framePainted < 0 ? figures.consoleReadyMs : Math.min(framePainted, figures.consoleReadyMs);
  } else {
    await page.goto(url, { waitUntil: "load" });
  }
  // What the page still loads (its document, fetched by Scalar) counts too: until every request ended.
  if (pending.size > 0)
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${path}: requests still pending after ${TIMEOUT} ms`)), TIMEOUT);
      settle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  figures.transferred = transferred;
  figures.requests = requests;
  figures.foreignRequests = foreignRequests;
  await cdp.detach();
  return figures;
}

export async function benchDocs(siteDir: string, runs: number): Promise<DocsBench> {
  const { chromium } = await import("playwright-core");
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  const loadBefore = loadavg();
  const files = readdirSync(siteDir, { recursive: true, withFileTypes: true }).filter(
    (d) => d.isFile() && !d.name.startsWith(".") && !/\.(br|gz)$/.test(d.name),
  );
  const size = (path: string) => statSync(join(siteDir, path)).size;
  const siteBytes = files.reduce((n, d) => n + statSync(join(d.parentPath, d.name)).size, 0);
  const scalarAsset = files
    .map((d) => relative(siteDir, join(d.parentPath, d.name)))
    .find((p) => /^assets\/scalar\.[0-9a-f]+\.js$/.test(p));
  if (!scalarAsset) throw new Error(`${siteDir} holds no assets/scalar.<hash>.js: not a build of this version of docs:build`);
  const registry = loadRegistry();
  const references = [
    ...registry.map((e) => ({ page: apiPaths(e).page, alias: e.alias })),
    ...(existsSync(join(siteDir, "sandbox/index.html")) ? [{ page: "sandbox/index.html", alias: "sandbox control API" }] : []),
  ];
  const referencePages = new Set(references.map((r) => r.page));
  const pages: Array<{ page: string; alias?: string }> = [
    ...files
      .map((d) => relative(siteDir, join(d.parentPath, d.name)))
      .filter((path) => path.endsWith(".html") && !referencePages.has(path))
      .sort()
      .map((page) => ({ page })),
    ...references,
  ];

  const server = await serveStatic(siteDir);
  const origin = new URL(server.url).origin;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const newContext = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(TIMEOUT);
    return context;
  };
  const results: PageFigures[] = [];
  const visit: LoadFigures[] = [];
  try {
    // The visit: one profile, every reference page, then the first again.
    {
      const context = await newContext();
      const page = await context.newPage();
      for (const { page: path, alias } of [...references, references[0]]) {
        visit.push({ ...(await load(context, page, new URL(path, server.url).href, origin, true)), alias });
      }
      await context.close();
    }
    for (const { page: path, alias } of pages) {
      const url = new URL(path, server.url).href;
      const reference = alias !== undefined;
      const context = await newContext();
      const page = await context.newPage();
      const cold = await load(context, page, url, origin, reference);
      const figures: PageFigures = { ...cold, ...(alias ? { alias } : {}), htmlBytes: size(path) };
      if (reference) {
        const repeats: LoadFigures[] = [];
        for (let i = 0; i < runs; i++) repeats.push(await load(context, page, url, origin, true));
        figures.repeatFirstOperationMs = median(repeats.map((r) => r.firstOperationMs!));
        figures.repeatConsoleReadyMs = median(repeats.map((r) => r.consoleReadyMs!));
        figures.repeatTransferred = median(repeats.map((r) => r.transferred));
      }
      await context.close();
      results.push(figures);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    siteDir,
    machine: {
      cpus: availableParallelism(),
      model: cpus()[0]?.model ?? "unknown",
      node: process.version,
      loadBefore,
      loadAfter: loadavg(),
    },
    siteBytes,
    files: files.length,
    scalarBundleBytes: size(scalarAsset),
    scalarBundleBrotliBytes: existsSync(join(siteDir, `${scalarAsset}.br`)) ? size(`${scalarAsset}.br`) : size(scalarAsset),
    visit,
    pages: results,
  };
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
const ms = (n: number | undefined) => (n === undefined ? "" : `${n} ms`);
const load3 = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
}

export function formatBench(bench: DocsBench): string {
  const [first, next] = bench.visit;
  const firstOperations = bench.pages.filter((p) => p.firstOperationMs !== undefined).map((p) => p.firstOperationMs!);
  return [
    `Docs site: ${kb(bench.siteBytes)} in ${bench.files} files (Scalar bundle ${kb(bench.scalarBundleBytes)}, ${kb(bench.scalarBundleBrotliBytes)} as sent, brotli); ` +
      `${bench.machine.cpus} CPUs (${bench.machine.model}), Node ${bench.machine.node}; load average ${load3(bench.machine.loadBefore)} before, ${load3(bench.machine.loadAfter)} after`,
    "",
    `First reference page (${first.page}, cold cache): ${kb(first.transferred)} transferred (goal: at most 1300 kB); ` +
      `next (${next.page}): ${kb(next.transferred)} (goal: under 50 kB); ` +
      `first operation visible on the cold pages: ${Math.min(...firstOperations)}-${Math.max(...firstOperations)} ms (goal: within 1000 ms)`,
    "",
    "A visit in one browser profile (HTTP cache on):",
    ...table([
      ["page", "transferred", "requests", "first paint", "1st operation", "console ready"],
      ...bench.visit.map((v) => [
        v.page,
        kb(v.transferred),
        String(v.requests),
        ms(v.firstPaintMs),
        ms(v.firstOperationMs),
        ms(v.consoleReadyMs),
      ]),
    ]),
    "",
    "Each page with a cold cache (a fresh profile), and repeated in it (median):",
    ...table([
      [
        "page",
        "HTML",
        "transferred",
        "requests",
        "foreign",
        "1st operation",
        "console ready",
        "repeat: transferred",
        "1st operation",
        "console ready",
      ],
      ...bench.pages.map((p) => [
        p.page,
        kb(p.htmlBytes),
        kb(p.transferred),
        String(p.requests),
        String(p.foreignRequests),
        ms(p.firstOperationMs),
        ms(p.consoleReadyMs),
        p.repeatTransferred === undefined ? "" : kb(p.repeatTransferred),
        ms(p.repeatFirstOperationMs),
        ms(p.repeatConsoleReadyMs),
      ]),
    ]),
  ].join("\n");
}

function program() {
  return script("bench:docs")
    .description(
      "Report the docs site's weight and, in Chromium, what each page transfers and when its first operation and its console show",
    )
    .option("--site <dir>", "the built site (default: site/; built or rebuilt when stale)")
    .option("--runs <N>", "repeated loads per reference page for the medians", integer(1), 5)
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
