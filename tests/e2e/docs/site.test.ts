/**
 * The documentation site in a real browser (Debian's Chromium through playwright-core), built once
 * for this file from the registry into a temporary folder and served by the site's own static server.
 * Every expectation comes from the registry and the bundled specs, read here independently of the
 * site's code. Every page visited must make no request to any host but the local server and log no
 * error; each leaves a screenshot in test-output/docs/.
 *
 * The tests run concurrently, in one browser: up to PAGES pages are open at a time (a page mostly
 * waits for Redoc to render or for the network to settle, and pages do not share state).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocs } from "../../../scripts/docs/build.js";
import { serveStatic, type StaticServer } from "../../../scripts/docs/serve.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { type Doc, operations, type Operation, loadDocument } from "../../../src/document/index.js";
import { freePortRange } from "../../helpers/ports.js";
import { registry, registryPath } from "../../helpers/registry.js";
import { type Browser, launchChromium, type PageRecord, recordedPage, requireChromium, SCREENSHOTS } from "./browser.js";

interface Api {
  alias: string;
  service: string;
  release: string;
  bundlePath: string;
  doc: Doc;
  /** Operations under `paths`. */
  operations: Operation[];
  webhooks: Operation[];
  /** Site paths, as the site lays them out (apis/<service>/<release>/). */
  page: string;
  spec: string;
}

const apis: Api[] = registry.map((entry) => {
  const doc = loadDocument(entry.bundlePath);
  const all = operations(doc, { webhooks: true });
  const dir = `apis/${entry.service}/${entry.release}`;
  return {
    alias: entry.alias,
    service: entry.service,
    release: entry.release,
    bundlePath: entry.bundlePath,
    doc,
    operations: all.filter((op) => op.section === "paths"),
    webhooks: all.filter((op) => op.section === "webhooks"),
    page: `${dir}/index.html`,
    spec: `${dir}/openapi.yaml`,
  };
});

/** Every `x-unspecified` value in a document, walked here on its own (not with scripts/lib/gaps.ts). */
function unspecified(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(unspecified);
  if (!node || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "x-unspecified" ? [typeof value === "string" ? value.trim() : JSON.stringify(value)] : unspecified(value),
  );
}

/** Pages open at once. */
const PAGES = 3;
const waiting: Array<() => void> = [];
let open = 0;
async function withPageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (open >= PAGES) await new Promise<void>((resolve) => waiting.push(resolve));
  open++;
  try {
    return await work();
  } finally {
    open--;
    waiting.shift()?.();
  }
}

const summaryOf = (op: Operation): string => op.value.summary ?? op.operationId;
const screenshotName = (name: string) => join(SCREENSHOTS, `${name.replace(/[^\w.-]+/g, "-")}.png`);

let tmp: string;
let siteDir: string;
let server: StaticServer;
let origin: string;
let browser: Browser;
let launching: Promise<Browser> | undefined;

beforeAll(async () => {
  requireChromium(); // before the build: a missing browser fails fast, with the install command
  rmSync(SCREENSHOTS, { recursive: true, force: true }); // only this run's screenshots remain
  tmp = mkdtempSync(join(tmpdir(), "docs-site-"));
  siteDir = join(tmp, "site");
  const started = Date.now();
  launching = launchChromium(); // while the site builds
  launching.catch(() => {}); // awaited below, or closed in afterAll when the build fails
  await buildDocs({ outDir: siteDir, configPath: registryPath });
  // Reported, not asserted (the machine's load decides it): for the closing note and the CI log.
  console.log(`docs site: built ${apis.length} API page(s) in ${Date.now() - started} ms`);
  server = await serveStatic(siteDir);
  origin = new URL(server.url).origin;
  browser = await launching;
}, 600_000);

afterAll(async () => {
  await (browser ?? (await launching?.catch(() => undefined)))?.close();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Opens `path` on the local server, runs `check`, takes the screenshot, then asserts no foreign request and no error. */
async function visit(path: string, screenshot: string, check: (record: PageRecord) => Promise<void>): Promise<void> {
  await withPageSlot(() => visitNow(path, screenshot, check));
}

async function visitNow(path: string, screenshot: string, check: (record: PageRecord) => Promise<void>): Promise<void> {
  const record = await recordedPage(browser, origin);
  try {
    const response = await record.page.goto(new URL(path, server.url).href, { waitUntil: "load" });
    expect(response?.status(), `${path}: HTTP status`).toBe(200);
    await check(record);
    await record.page.screenshot({ path: screenshotName(screenshot) });
    await record.page.waitForLoadState("networkidle");
    expect(record.foreign(), `${path}: requests to hosts other than ${origin}`).toEqual([]);
    expect(record.errors, `${path}: console errors, failed requests and uncaught exceptions`).toEqual([]);
    expect(record.requests.length, `${path}: the page's own requests were recorded`).toBeGreaterThan(0);
  } finally {
    await record.page.close();
  }
}

/** Redoc has hydrated and loaded its search index when the search box stops saying "Loading...". */
async function redocReady(record: PageRecord): Promise<void> {
  await record.page.waitForFunction(() => {
    const trigger = document.querySelector("[data-testid='search-trigger']");
    return !!trigger && /search/i.test(trigger.textContent ?? "") && !/loading/i.test(trigger.textContent ?? "");
  });
}

async function showRoute(record: PageRecord, route: string): Promise<void> {
  await record.page.evaluate((hash) => {
    window.location.hash = hash;
  }, route);
}

describe.concurrent("docs site: files", () => {
  it("holds one Redoc bundle that every API page imports, and each API's bundled spec byte for byte", () => {
    const scripts = readdirSync(siteDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && /\.m?js$/.test(d.name))
      .map((d) => relative(siteDir, join(d.parentPath, d.name)));
    expect(scripts).toEqual(["assets/redoc.standalone.js"]);
    const bundleBytes = statSync(join(siteDir, scripts[0])).size;
    expect(bundleBytes).toBeGreaterThan(1_000_000);

    for (const api of apis) {
      const html = readFileSync(join(siteDir, api.page), "utf8");
      const depth = api.page.split("/").length - 1;
      expect(html, `${api.alias}: imports the shared bundle`).toContain(
        `import { hydrate } from "${"../".repeat(depth)}assets/redoc.standalone.js"`,
      );
      expect(Buffer.byteLength(html), `${api.alias}: the bundle is not inlined`).toBeLessThan(bundleBytes / 2);
      expect(readFileSync(join(siteDir, api.spec)).equals(readFileSync(api.bundlePath)), `${api.alias}: ${api.spec}`).toBe(true);
    }
  });

  it("names no resource on another host in any page (scripts, styles, images, fonts, module imports)", () => {
    const pages = readdirSync(siteDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith(".html"))
      .map((d) => join(d.parentPath, d.name));
    expect(pages.length).toBeGreaterThanOrEqual(apis.length + 2);
    const external =
      /<(?:script|link|img|iframe|source|video|audio)\b[^>]*\s(?:src|href|srcset)=["']?(?:https?:)?\/\/|url\(\s*["']?(?:https?:)?\/\/|@import\s+["'](?:https?:)?\/\/|\bfrom\s*["'](?:https?:)?\/\//i;
    for (const page of pages) expect(readFileSync(page, "utf8"), relative(siteDir, page)).not.toMatch(external);
  });
});

describe.concurrent("docs site: index", () => {
  it("lists every registered API with its service, release, servers, auth, counts and links, releases grouped by service", async () => {
    await visit("index.html", "index", async ({ page }) => {
      expect(await page.locator("article[data-alias]").count()).toBe(apis.length);
      for (const api of apis) {
        const card = page.locator(`article[data-alias="${api.alias}"]`);
        await expect(card.count(), api.alias).resolves.toBe(1);
        const field = (name: string) => card.locator(`[data-field="${name}"]`).first().innerText();
        expect(await field("service")).toBe(api.service);
        expect(await field("release")).toBe(api.release);
        expect(parseInt(await field("operations"), 10), `${api.alias} operations`).toBe(api.operations.length);
        expect(parseInt(await field("webhooks"), 10), `${api.alias} webhooks`).toBe(api.webhooks.length);
        expect(parseInt(await field("gaps"), 10), `${api.alias} open questions`).toBe(unspecified(api.doc).length);

        // Every server's base address, with the variables' defaults filled in (sandbox and live forms).
        const servers = await card.locator('[data-field="server"]').allInnerTexts();
        expect(servers.length, `${api.alias} servers`).toBe((api.doc.servers ?? []).length);
        for (const s of api.doc.servers ?? []) {
          const example = String(s.url).replace(/\{([^}]+)\}/g, (whole, name) => s.variables?.[name]?.default ?? whole);
          expect(servers.join("\n"), `${api.alias} server ${s.url}`).toContain(example);
        }
        // Every security scheme the root requirement names, with the header it is sent in.
        const auth = await field("auth");
        for (const name of Object.keys(Object.assign({}, ...(api.doc.security ?? [])))) {
          const scheme = api.doc.components.securitySchemes[name];
          expect(auth, `${api.alias} auth ${name}`).toContain(scheme.type === "apiKey" ? scheme.name : "Authorization");
        }

        // The page link opens the API's Redoc page; the spec link downloads its bundled spec.
        const pageHref = await card.locator('a[data-link="page"]').getAttribute("href");
        expect(new URL(pageHref!, server.url).pathname).toBe(`/${api.page}`);
        const specLink = card.locator('a[data-link="spec"]');
        expect(await specLink.getAttribute("download")).toMatch(/\.yaml$/);
        const spec = await fetch(new URL((await specLink.getAttribute("href"))!, server.url));
        expect(spec.status).toBe(200);
        expect(Buffer.from(await spec.arrayBuffer()).equals(readFileSync(api.bundlePath)), `${api.alias} download`).toBe(true);
      }

      // One section per service holding all of its releases, side by side.
      const services = [...new Set(apis.map((a) => a.service))];
      expect(await page.locator("section[data-service]").count()).toBe(services.length);
      for (const service of services) {
        const releases = apis.filter((a) => a.service === service);
        const cards = page.locator(`section[data-service="${service}"] article[data-alias]`);
        expect(await cards.count(), service).toBe(releases.length);
        if (releases.length > 1) {
          const boxes = await cards.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
          expect(new Set(boxes.map(Math.round)).size, `${service}: releases side by side`).toBe(1);
        }
      }
    });
  }, 60_000);

  it("links a service's changelog exactly when it has one (changelogs/<service>.md, changelogs/<service>/CHANGELOG.md or specs/<service>/CHANGELOG.md)", async () => {
    const base = registryPath ? join(registryPath, "..") : repoRoot;
    const services = [...new Set(apis.map((a) => a.service))];
    const withChangelog = services.filter((s) =>
      [`changelogs/${s}.md`, `changelogs/${s}/CHANGELOG.md`, `specs/${s}/CHANGELOG.md`].some((p) => existsSync(join(base, p))),
    );
    const html = readFileSync(join(siteDir, "index.html"), "utf8");
    for (const service of services) {
      const linked = html.includes(`href="changelogs/${service}.html"`);
      expect(linked, `${service}: changelog link`).toBe(withChangelog.includes(service));
    }
    await Promise.all(
      withChangelog.map((service) =>
        visit(`changelogs/${service}.html`, `changelog-${service}`, async ({ page }) => {
          // Rendered from Markdown: one section per release of the service.
          const releases = registry.filter((e) => e.service === service).map((e) => e.release);
          const headings = await page.locator(".changelog h2").allInnerTexts();
          expect(headings.map((h) => h.trim()).sort()).toEqual([...releases].sort());
        }),
      ),
    );
  }, 120_000);
});

describe.concurrent("docs site: sandbox control API", () => {
  it("links the control API's page from the index; the page renders every tag of src/sandbox/openapi.yaml offline", async () => {
    const control = loadDocument(join(repoRoot, "src/sandbox/openapi.yaml"));
    const tags = (control.tags as Array<{ name: string }>).map((t) => t.name);
    expect(readFileSync(join(siteDir, "index.html"), "utf8")).toContain('data-link="sandbox-page" href="sandbox/index.html"');
    expect(readFileSync(join(siteDir, "sandbox/openapi.yaml"), "utf8")).toBe(
      readFileSync(join(repoRoot, "src/sandbox/openapi.yaml"), "utf8"),
    );
    await visit("sandbox/index.html", "sandbox-control-api", async (record) => {
      await redocReady(record);
      const groups = await record.page.locator("[data-component-name='Menu/MenuItem'].menu-item-type-group > a").allInnerTexts();
      expect(groups.map((g) => g.trim())).toEqual(tags);
    });
  }, 120_000);
});

describe.concurrent.each(apis.map((api) => [api.alias, api] as const))("docs site: %s page", (_, api) => {
  it(`renders every operation (${api.operations.length}) and webhook (${api.webhooks.length}) of the bundled spec; the search box finds one by name`, async () => {
    await visit(api.page, `api-${api.service}-${api.release}`, async (record) => {
      const { page } = record;
      await redocReady(record);
      await page.screenshot({ path: screenshotName(`api-${api.service}-${api.release}-overview`) });
      // Server-rendered sidebar links are hash routes, as the client router renders them.
      const sidebar = await page
        .locator("[data-component-name='Menu/Menu'] a[href]")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
      expect(
        sidebar.filter((href) => !href.startsWith("#/")),
        "sidebar links that are not hash routes",
      ).toEqual([]);

      // Every operation's route: the operations each tag's page lists, and any untagged operation,
      // which the sidebar shows at its top level.
      const routes = new Set<string>(
        await page
          .locator("[data-component-name='Menu/Menu']")
          .first()
          .locator(":scope > [data-component-name='Menu/MenuItem'].menu-item-type-operation > a")
          .evaluateAll((as) => as.map((a) => a.getAttribute("href")!)),
      );
      const groups = await page
        .locator("[data-component-name='Menu/MenuItem'].menu-item-type-group > a")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
      for (const route of groups) {
        await showRoute(record, route);
        const list = page.locator(`[data-section-id="${route.slice(1)}"] [data-testid="items-navigation-list"]`);
        await list.waitFor({ state: "attached" });
        for (const href of await list.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")!))) routes.add(href);
      }

      // Each route renders one operation: its heading, the webhook tag, and the method and path (or
      // webhook name) that the request panel shows.
      const rendered = new Map<string, { heading: string }>();
      for (const route of routes) {
        await showRoute(record, route);
        const section = page.locator(`[data-section-id="${route.slice(1)}"][data-item-kind="httpItem"]`);
        await section.locator("h2").first().waitFor({ state: "attached" });
        const seen = await section.evaluate((el) => {
          const heading = el.querySelector("h2");
          const panel = el.querySelector("[data-component-name='Panel/PanelHeader']");
          const method = panel?.querySelector("[data-component-name='Tag/Tag']");
          return {
            heading: heading?.textContent ?? "",
            webhook: Array.from(heading?.querySelectorAll("[data-component-name='Tag/Tag']") ?? []).some(
              (t) => t.textContent === "Webhook",
            ),
            method: (method?.textContent ?? "").toUpperCase(),
            target: method?.nextElementSibling?.textContent ?? "",
          };
        });
        rendered.set(`${seen.webhook ? "webhook" : "operation"} ${seen.method} ${seen.target}`, { heading: seen.heading });
      }
      const key = (op: Operation) => `${op.section === "webhooks" ? "webhook" : "operation"} ${op.method.toUpperCase()} ${op.path}`;
      const keys = (kind: string) => [...rendered.keys()].filter((k) => k.startsWith(`${kind} `)).sort();
      expect(keys("operation"), `operations rendered (${api.operations.length} in the spec)`).toEqual(api.operations.map(key).sort());
      expect(keys("webhook"), `webhooks rendered (${api.webhooks.length} in the spec)`).toEqual(api.webhooks.map(key).sort());
      for (const op of [...api.operations, ...api.webhooks]) {
        expect(rendered.get(key(op))?.heading, `${op.operationId}: heading`).toContain(summaryOf(op));
      }

      // The search box finds an operation by its name (the longest summary) and opens it.
      await showRoute(record, "#/");
      const op = [...api.operations].sort((a, b) => summaryOf(b).length - summaryOf(a).length)[0];
      const name = summaryOf(op);
      await page.locator("[data-testid='search-trigger']").click();
      await page.keyboard.type(name);
      const hit = page
        .locator("[data-component-name='Search/SearchItem']", { hasText: name })
        .filter({ has: page.locator("[data-component-name='Tags/HttpTag']") })
        .first();
      await hit.waitFor();
      expect((await hit.locator("[data-component-name='Tags/HttpTag']").textContent())?.toUpperCase(), `search hit for "${name}"`).toBe(
        op.method.toUpperCase(),
      );
      await page.screenshot({ path: screenshotName(`api-${api.service}-${api.release}-search`) });
      await hit.click();
      await page.locator("[data-item-kind='httpItem'] h2", { hasText: name }).first().waitFor();
      expect(page.url(), "the search hit opens the operation's route").toMatch(/#\/.+/);
    });
  }, 180_000);
});

describe.concurrent("docs site: open questions", () => {
  it("lists every x-unspecified of every spec, with its API, location and text", async () => {
    await visit("open-questions.html", "open-questions", async ({ page }) => {
      const total = apis.reduce((n, api) => n + unspecified(api.doc).length, 0);
      expect(await page.locator("tr[data-gap]").count()).toBe(total);
      expect(await page.locator('[data-field="total"]').innerText()).toBe(String(total));
      for (const api of apis) {
        const rows = page.locator(`tr[data-gap="${api.alias}"]`);
        const texts = await rows.locator('[data-field="text"]').allInnerTexts();
        expect(texts.sort(), api.alias).toEqual(unspecified(api.doc).sort());
        for (const pointer of await rows.locator('[data-field="pointer"]').allInnerTexts()) expect(pointer, api.alias).toMatch(/^\//);
      }
    });
  }, 60_000);
});

describe.concurrent("npm start", () => {
  interface Run {
    child: ChildProcess;
    stdout: () => string;
    stderr: () => string;
    exit: Promise<number | null>;
  }
  const start = (...args: string[]): Run => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    return { child, stdout: () => stdout, stderr: () => stderr, exit: new Promise((resolve) => child.on("exit", (code) => resolve(code))) };
  };

  it("serves the built site and every mock, prints their URLs, and exits 0 on SIGTERM", async () => {
    // npm start serves the repository's registry; the site built above is reused (not rebuilt)
    // when it was built from that registry.
    const served = loadRegistry();
    const docsDir = registryPath ? join(tmp, "start-site") : siteDir;
    const portBase = await freePortRange(served.length);
    const run = start("--skip-generate", "--docs-dir", docsDir, "--port", "0", "--port-base", String(portBase));
    try {
      const until = Date.now() + 240_000;
      while (!run.stdout().includes("Ctrl+C stops")) {
        if (run.child.exitCode !== null) throw new Error(`npm start exited ${run.child.exitCode}: ${run.stderr()}`);
        if (Date.now() > until) throw new Error(`npm start not ready: ${run.stdout()} ${run.stderr()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const out = run.stdout();
      const docs = /^Documentation\s+(http:\/\/\S+)/m.exec(out)?.[1];
      expect(docs, out).toBeDefined();
      const index = await fetch(docs!);
      expect(index.status).toBe(200);
      const html = await index.text();
      if (!registryPath) expect(out, "the site built from the same inputs is reused").toContain("is up to date");
      for (const entry of served) {
        const page = `apis/${entry.service}/${entry.release}/index.html`;
        expect(html).toContain(`data-alias="${entry.alias}"`);
        const mock = `http://127.0.0.1:${portBase + entry.index}`;
        expect(out).toMatch(new RegExp(`^${entry.alias.replace(/[.@]/g, "\\$&")}\\s+${mock}\\s+${docs}${page}$`, "m"));
        expect((await fetch(`${mock}/no-such-path`)).status, `${entry.alias} mock`).toBe(404);
        expect((await fetch(new URL(page, docs))).status, `${entry.alias} page`).toBe(200);
      }
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toContain("SIGTERM: stopping");
  }, 300_000);

  it("rejects bad arguments with one line and a hint, exit code 2", async () => {
    const run = start("--port", "eighty");
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toContain('--port must be an integer from 0 to 65535, got "eighty"');
    expect(run.stderr()).toContain("(add --help for usage)");
  });
});
