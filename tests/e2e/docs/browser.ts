/**
 * Debian's Chromium driven by playwright-core, for the docs site's browser tests: launched with the
 * flags DESIGN.md gives and a fresh user-data-dir, and a recorder of every request, console error and
 * page error of a page. A missing Chromium is a failure that says how to install it, never a skip.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { repoRoot } from "../../../src/registry.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../../scripts/lib/chromium.js";

export { CHROMIUM, CHROMIUM_FLAGS };

/** Screenshots land here (git-ignored). */
export const SCREENSHOTS = join(repoRoot, "test-output", "docs");

export function requireChromium(path = CHROMIUM): void {
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}. The docs site's browser tests drive Debian's Chromium: install it with ` +
        "`apt-get install -y chromium` (as root; run `apt-get update` first if the package is not found), " +
        "or set CHROMIUM_PATH to a Chromium binary. (`npx playwright install` cannot download here; `bash .ci/run` installs it.)",
    );
  }
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  requireChromium();
  const userDataDir = mkdtempSync(join(tmpdir(), "docs-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  // Pages render concurrently on a busy machine: a wait gives up after two minutes, not Playwright's 30 s.
  context.setDefaultTimeout(120_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface PageRecord {
  page: Page;
  /** Every request the page made, in order. */
  requests: string[];
  /** Requests to anything but `origin` (blob: and data: URLs of the page itself are local). */
  foreign(): string[];
  /** console.error messages, failed loads and uncaught exceptions. */
  errors: string[];
}

/** Opens a page that records what it requests and every error it reports. */
export async function recordedPage(browser: Browser, origin: string): Promise<PageRecord> {
  const page = await browser.context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => errors.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("response", (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  const local = (url: string) => {
    if (url.startsWith("data:")) return true;
    try {
      return new URL(url.startsWith("blob:") ? url.slice(5) : url).origin === origin;
    } catch {
      return false;
    }
  };
  return { page, requests, errors, foreign: () => requests.filter((url) => !local(url)) };
}
