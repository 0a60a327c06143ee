/**
 * What the docs browser tests share: the site built once per run and the one Chromium of the run,
 * both made by the `docs` project's global setup (tests/setup/browser.ts) and handed over by
 * vitest's `inject`. A worker connects to the browser once for the files it runs (`useDocsSite()` in
 * a file's beforeAll, `release()` in its afterAll; the last release disconnects), its pages in one
 * context.
 *
 * Every page is opened with a route that aborts any request to another origin than the site's
 * and the loopback servers a test names, so nothing leaves the machine, and records it, so a test
 * fails on it.
 */
import { inject } from "vitest";
import type { BrowserContext, BrowserContextOptions } from "playwright-core";
import { type Browser, connectChromium, type PageRecord, recordedPage } from "./browser.js";

export interface DocsSite {
  siteDir: string;
  server: { url: string };
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** A page recording its requests and errors; requests to other origins than the site's and `allowed` are aborted. */
  page(allowed?: string[]): Promise<PageRecord>;
  /**
   * A browser profile of its own, as a reader's: no route (a route turns Chromium's HTTP cache off),
   * so what its pages request is not aborted: a test that uses it checks the requests itself. Closed by the caller.
   */
  profile(options?: BrowserContextOptions): Promise<BrowserContext>;
}

let connection: Promise<Browser> | undefined;
let users = 0;

/** The shared site and browser, for one test file; call `release()` in its afterAll. */
export async function useDocsSite(): Promise<DocsSite> {
  const handle = inject("docsSite");
  if (!handle)
    throw new Error("no docs site: tests/e2e/docs/ runs in vitest's `docs` project, whose global setup (tests/setup/browser.ts) makes it");
  if ("error" in handle) throw new Error(handle.error);
  users++;
  connection ??= connectChromium(handle.wsEndpoint);
  const browser = await connection;
  const origin = new URL(handle.url).origin;
  return {
    siteDir: handle.siteDir,
    server: { url: handle.url },
    origin,
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
    async profile(options: BrowserContextOptions = {}) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      context.setDefaultTimeout(120_000);
      return context;
    },
  };
}

export async function release(): Promise<void> {
  users = Math.max(0, users - 1);
  if (users > 0 || !connection) return;
  const closing = connection;
  connection = undefined;
  await (await closing.catch(() => undefined))?.close();
}
