/**
 * What the docs browser tests share: one built site and one browser.
 *
 * - The site is built once per content of its inputs, into `.tmp/docs-test-site-<registry>/` with
 *   `--if-stale` under a lock folder, so test files in other workers (and the next run, when
 *   nothing changed) reuse it instead of building again.
 * - The browser and the site's server are opened once per worker and shared by every docs test
 *   file that runs there: `useDocsSite()` in a file's beforeAll, `release()` in its afterAll; the
 *   last release closes them a moment later unless another file takes them up meanwhile.
 *
 * Every page is opened with a route that aborts any request to another origin than the site's
 * and the loopback servers a test names, so nothing leaves the machine, and records it, so a test
 * fails on it.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildDocs } from "../../../scripts/docs/build.js";
import { serveStatic, type StaticServer } from "../../../scripts/docs/serve.js";
import { repoRoot } from "../../../src/registry.js";
import { takeLock } from "../../helpers/lock.js";
import { registryPath } from "../../helpers/registry.js";
import { type Browser, launchChromium, type PageRecord, recordedPage, requireChromium } from "./browser.js";

export interface DocsSite {
  siteDir: string;
  server: StaticServer;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  browser: Browser;
  /** A page recording its requests and errors; requests to other origins than the site's and `allowed` are aborted. */
  page(allowed?: string[]): Promise<PageRecord>;
}

/** The site, built (or found current) once for every worker: see the module header. */
async function builtSite(): Promise<string> {
  const key = createHash("sha256")
    .update(registryPath ?? "repository")
    .digest("hex")
    .slice(0, 12);
  const root = join(repoRoot, ".tmp");
  const outDir = join(root, `docs-test-site-${key}`);
  const lock = `${outDir}.lock`;
  mkdirSync(root, { recursive: true });
  await takeLock(lock);
  try {
    const started = Date.now();
    const result = await buildDocs({ outDir, configPath: registryPath, ifStale: true });
    // Reported, not asserted (the machine's load decides it).
    console.log(
      `docs site: ${result.skipped ? "current build reused" : `built ${result.apis.length} API page(s)`} in ${Date.now() - started} ms`,
    );
    return outDir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function open(): Promise<DocsSite> {
  requireChromium(); // before the build: a missing browser fails fast, with the install command
  const launching = launchChromium(); // while the site builds
  launching.catch(() => {}); // awaited below
  let server: StaticServer | undefined;
  try {
    const siteDir = await builtSite();
    server = await serveStatic(siteDir);
    const origin = new URL(server.url).origin;
    const browser = await launching;
    return {
      siteDir,
      server,
      origin,
      browser,
      async page(allowed: string[] = []) {
        const record = await recordedPage(browser, origin);
        const local = new Set([origin, ...allowed.map((url) => new URL(url).origin)]);
        await record.page.route("**/*", (route) => {
          const url = route.request().url();
          if (url.startsWith("data:") || url.startsWith("blob:") || local.has(new URL(url).origin)) return route.continue();
          return route.abort("blockedbyclient");
        });
        return record;
      },
    };
  } catch (error) {
    await (await launching.catch(() => undefined))?.close();
    await server?.close();
    throw error;
  }
}

let shared: Promise<DocsSite> | undefined;
let users = 0;
let closing: NodeJS.Timeout | undefined;

/** The shared site and browser, for one test file; call `release()` in its afterAll. */
export async function useDocsSite(): Promise<DocsSite> {
  users++;
  if (closing) clearTimeout(closing);
  closing = undefined;
  shared ??= open();
  return shared;
}

export function release(): void {
  users--;
  if (users > 0 || !shared) return;
  const site = shared;
  closing = setTimeout(() => {
    if (users > 0 || shared !== site) return;
    shared = undefined;
    void site.then(
      async (s) => {
        await s.browser.close();
        await s.server.close();
      },
      () => {},
    );
  }, 2_000);
}
