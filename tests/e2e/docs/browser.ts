/**
 * Debian's Chromium driven by playwright-core, for the docs site's browser tests: launched once per
 * run with the flags of scripts/lib/chromium.ts (tests/setup/browser.ts) and connected to from each worker; a
 * page in a fresh context with a recorder of every request, console error and page error; waits
 * that the page itself ends (a MutationObserver), not polls. A missing Chromium is a failure that
 * says how to install it, never a skip.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page, type Request } from "playwright-core";
import { repoRoot } from "../../../src/registry.js";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../../scripts/lib/chromium.js";

export { CHROMIUM, CHROMIUM_FLAGS };
export type { Browser };

/** Screenshots land here (git-ignored). */
export const SCREENSHOTS = join(repoRoot, "test-output", "docs");

/**
 * Leaves a picture of what the page shows as `test-output/docs/<name>.jpg`, for a reader of the
 * run (nothing is asserted on it). JPEG, and the text caret left as it is: Playwright's default
 * hides the caret with a style sheet added and removed again, two style recalculations of the
 * whole document (30,000 nodes on a reference page), and a PNG costs Chromium about twice the
 * JPEG's encoding.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, "-")}.jpg`), type: "jpeg", quality: 80, caret: "initial" });
}

export function requireChromium(path = CHROMIUM): void {
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}. The docs site's browser tests drive Debian's Chromium: install it with ` +
        "`apt-get install -y chromium` (as root; run `apt-get update` first if the package is not found), " +
        "or set CHROMIUM_PATH to a Chromium binary. (`npx playwright install` cannot download here; `bash .ci/run` installs it.)",
    );
  }
}

/** The shared Chromium (tests/setup/browser.ts launches it once per run), connected to from this worker. */
export function connectChromium(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

/**
 * One context per connection, as a reader's one browser profile (a context per page cost more CPU).
 * Each page still fetches and compiles the 3.5 MB Scalar bundle: the tests' route (./setup.ts)
 * turns Chromium's HTTP cache off (the site itself lets a browser keep the bundle, which
 * site.test.ts checks in a profile of its own, without a route); about 3 s of Chromium's CPU a
 * reference page, nearly all of it Scalar rendering, not compiling.
 */
const contexts = new WeakMap<Browser, Promise<BrowserContext>>();

async function newPage(browser: Browser): Promise<Page> {
  let context = contexts.get(browser);
  if (!context) {
    context = browser.newContext({ viewport: { width: 1280, height: 900 } }).then((c) => {
      // Pages render concurrently on a busy machine: a wait gives up after two minutes, not Playwright's 30 s.
      c.setDefaultTimeout(120_000);
      return c;
    });
    contexts.set(browser, context);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return (await context).newPage();
}

/** Where a record stood at some moment (`PageRecord.mark()`). */
export interface Mark {
  requests: number;
  errors: number;
}

export interface PageRecord {
  page: Page;
  /** Every request the page made, in order. */
  requests: string[];
  /** Requests to anything but `origin` (blob: and data: URLs of the page itself are local). */
  foreign(): string[];
  /** console.error messages, failed loads and uncaught exceptions. */
  errors: string[];
  /** Where the record stands now. */
  mark(): Mark;
  /**
   * What came between `from` and `to` (now without one): the requests, those to anything but
   * `origin`, and the errors; so a test on a page that other tests share checks only its own.
   */
  between(from: Mark, to?: Mark): { requests: string[]; foreign: string[]; errors: string[] };
  /**
   * Resolves once every request the page has started has ended (answered or failed), on the
   * request events themselves: Playwright's `networkidle` never fires on Scalar's pages without a
   * route, and fired late or never on a busy machine with one.
   */
  settled(timeoutMs?: number): Promise<void>;
  /** Closes the page. */
  close(): Promise<void>;
}

/** Opens a page that records what it requests and every error it reports. */
export async function recordedPage(browser: Browser, origin: string): Promise<PageRecord> {
  const page = await newPage(browser);
  const close = () => page.close();
  const requests: string[] = [];
  const errors: string[] = [];
  const inflight = new Set<Request>();
  let onEnd = () => {};
  const ended = (request: Request) => {
    inflight.delete(request);
    if (inflight.size === 0) onEnd();
  };
  page.on("request", (request) => {
    requests.push(request.url());
    inflight.add(request);
  });
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
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
  const settled = (timeoutMs = 60_000) =>
    inflight.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`requests still pending after ${timeoutMs} ms: ${[...inflight].map((r) => r.url()).join(", ")}`)),
            timeoutMs,
          );
          onEnd = () => {
            clearTimeout(timer);
            resolve();
          };
        });
  const mark = (): Mark => ({ requests: requests.length, errors: errors.length });
  const between = (from: Mark, to: Mark = mark()) => {
    const made = requests.slice(from.requests, to.requests);
    return { requests: made, foreign: made.filter((url) => !local(url)), errors: errors.slice(from.errors, to.errors) };
  };
  return { page, requests, errors, foreign: () => requests.filter((url) => !local(url)), mark, between, settled, close };
}

/**
 * Sets the page's hash to `hash` (a reference page's route: Scalar renders what it names; with
 * `ifMissing`, only when some element of `ids` is not in the document yet), then resolves with the
 * text of every element of `ids` once all are in the document. Watched in the page
 * by a MutationObserver, so it ends on the DOM change that completes it; rejects naming the missing
 * elements after `timeoutMs`.
 */
export function renderedTexts(
  page: Page,
  ids: string[],
  hash?: string,
  { ifMissing = false, timeoutMs = 120_000 } = {},
): Promise<string[]> {
  return page.evaluate(
    ({ ids, hash, ifMissing, timeoutMs }) =>
      new Promise<string[]>((resolve, reject) => {
        // The renderer may take over the page's hash as it mounts: while the ids are missing, the
        // hash is asked for again every few seconds (a hashchange from "" to it).
        const again =
          hash === undefined
            ? undefined
            : setInterval(() => {
                if (ids.every((id) => document.getElementById(id))) return;
                window.location.hash = "";
                window.location.hash = hash;
              }, 5000);
        const check = () => {
          const found = ids.map((id) => document.getElementById(id));
          if (!found.every(Boolean)) return;
          observer.disconnect();
          clearTimeout(timer);
          clearInterval(again);
          resolve(found.map((element) => element!.textContent ?? ""));
        };
        const observer = new MutationObserver(check);
        const timer = setTimeout(() => {
          observer.disconnect();
          clearInterval(again);
          reject(new Error(`not rendered after ${timeoutMs} ms: ${ids.filter((id) => !document.getElementById(id)).join(", ")}`));
        }, timeoutMs);
        observer.observe(document, { childList: true, subtree: true });
        if (hash !== undefined && !(ifMissing && ids.every((id) => document.getElementById(id)))) window.location.hash = hash;
        check();
      }),
    { ids, hash, ifMissing, timeoutMs },
  );
}

/**
 * The text of the element `selector` names (looked up again on every change: the element may be
 * rendered anew) once it matches `pattern`: checked in the page after DOM changes (a
 * MutationObserver), not polled; fails after `timeoutMs` with what it shows then.
 */
export function textMatching(page: Page, selector: string, pattern: RegExp, timeoutMs = 60_000): Promise<string> {
  return page.evaluate(
    ({ selector, source, flags, timeoutMs }) =>
      new Promise<string>((resolve, reject) => {
        const re = new RegExp(source, flags);
        const text = () => document.querySelector(selector)?.textContent ?? "";
        const check = () => {
          const shown = text();
          if (!re.test(shown)) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve(shown);
        };
        // A burst of changes (the console renders an answer as thousands of nodes) is read once, 50 ms after it starts.
        let scheduled = false;
        const observer = new MutationObserver(() => {
          if (scheduled) return;
          scheduled = true;
          setTimeout(() => {
            scheduled = false;
            check();
          }, 50);
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`${selector} never showed ${re}; it shows: ${text().slice(-1500)}`));
        }, timeoutMs);
        observer.observe(document, { childList: true, subtree: true, characterData: true });
        check();
      }),
    { selector, source: pattern.source, flags: pattern.flags, timeoutMs },
  );
}
