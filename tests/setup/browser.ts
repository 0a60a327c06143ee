/**
 * Vitest global setup of the `docs` project (tests/e2e/docs/): one docs site build and one browser
 * per run, whichever files and workers use them.
 *
 * - The site is built (or found current: `--if-stale`) once, into `.tmp/docs-test-site-<registry>/`,
 *   under a lock folder, so two runs at once in one worktree never build into the same folder, and
 *   served by the site's own static server.
 * - Debian's Chromium is launched once as a Playwright browser server; the test files connect to
 *   its WebSocket endpoint (tests/e2e/docs/setup.ts), one context per worker.
 * - Both are closed at teardown.
 *
 * What the files get, by vitest's `inject("docsSite")`: the endpoint, the site's folder and URL, or
 * the reason there are none (Chromium missing, the build failed), which every test that needs them
 * then fails with (a missing Chromium fails loudly, with the command that installs it, never skips;
 * the tests that need no browser still run).
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { type BrowserServer, chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { buildDocs } from "../../scripts/docs/build.js";
import { serveStatic, type StaticServer } from "../../scripts/docs/serve.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../scripts/lib/chromium.js";
import { repoRoot } from "../../src/registry.js";
import { requireChromium } from "../e2e/docs/browser.js";
import { takeLock } from "../helpers/lock.js";

export type DocsSiteHandle =
  | {
      /** Playwright's WebSocket endpoint of the shared Chromium (`chromium.connect`). */
      wsEndpoint: string;
      siteDir: string;
      /** The static server's URL, `http://127.0.0.1:<port>/`. */
      url: string;
    }
  | { error: string };

declare module "vitest" {
  export interface ProvidedContext {
    docsSite: DocsSiteHandle;
  }
}

/** As tests/helpers/registry.ts reads it (not imported: that module parses every bundled spec). */
const registryPath = process.env.BANK_API_REGISTRY ? resolve(repoRoot, process.env.BANK_API_REGISTRY) : undefined;

/** The site, built (or found current) under a lock: see the module header. */
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let browser: BrowserServer | undefined;
  let server: StaticServer | undefined;
  try {
    requireChromium(); // before the build: a missing browser is reported at once, with the install command
    const launching = chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS }); // while the site builds
    launching.catch(() => {}); // awaited below
    let siteDir: string;
    try {
      siteDir = await builtSite();
      server = await serveStatic(siteDir);
    } finally {
      browser = await launching.catch((error) => {
        throw new Error(`Chromium (${CHROMIUM}) did not start: ${error instanceof Error ? error.message : error}`);
      });
    }
    project.provide("docsSite", { wsEndpoint: browser.wsEndpoint(), siteDir, url: server.url });
  } catch (error) {
    await browser?.close();
    await server?.close();
    browser = server = undefined;
    project.provide("docsSite", { error: error instanceof Error ? error.message : String(error) });
  }
  return async () => {
    await server?.close();
    await browser?.close();
  };
}
