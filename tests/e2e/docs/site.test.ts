/**
 * The documentation portal in a real browser (Debian's Chromium through playwright-core), built once
 * per run and shared with the other docs test files (./setup.ts), served by the site's own static
 * server. Every expectation comes from the registry, the bundled specs and docs/guides/, read here
 * independently of the site's code. Every page of the site is opened: it renders, requests nothing
 * outside the machine (every other request is aborted and fails the test), logs no error, and every
 * link on it resolves (a page of the site answers 200 and an anchor names an element of it; links to
 * other hosts are https and never to a hosted console that would be handed the document). Each page
 * leaves a screenshot in test-output/docs/.
 *
 * Each reference page (one per API, and the control API's) is opened once, for all of its tests,
 * which run one after another on it, each checking only the requests and errors of its own steps:
 * that every operation renders, then its request console ("Test Request", ./console.ts) used as a
 * reader uses it against a sandbox started here on a free port (the page opened with `?port=N`,
 * which puts that server first). For every API whose sandbox declaration has a `create` and a
 * `list` operation (at least three), the create is sent from its page with a credential typed into
 * the console, the answer shown is the sandbox's (a new id), then the list is sent from the same
 * page and shows that id: the record is there. On the control API's page, an error rule is queued
 * and then listed. A request without the credential shows the 401 and its `sl-violations` header
 * (the mocks' CORS exposes it). Nothing is requested outside the machine but the site and the
 * sandbox (./setup.ts aborts anything else).
 *
 * The pages' tests run concurrently, in one browser: up to PAGES pages are open at a time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { slug } from "../../../scripts/docs/guides.js";
import { defaultPort, loadRegistry, repoRoot } from "../../../src/registry.js";
import { type Doc, findOperation, loadDocument, type Operation, operations, securitySchemes } from "../../../src/document/index.js";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { type Run, runScript } from "../../helpers/cli.js";
import { freePortRange } from "../../helpers/ports.js";
import { waitForOutput } from "../../helpers/processes.js";
import { registry, registryPath } from "../../helpers/registry.js";
import type { PageRecord } from "./browser.js";
import { type Mark, renderedTexts, screenshot, textMatching } from "./browser.js";
import { DIALOG, type Flow, flows, openConsole, send, typeCredential } from "./console.js";
import { type DocsSite, release, useDocsSite } from "./setup.js";

interface Api {
  alias: string;
  service: string;
  release: string;
  bundlePath: string;
  doc: Doc;
  /** Operations under `paths`. */
  operations: Operation[];
  webhooks: Operation[];
  port: number;
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
    port: defaultPort(entry),
    page: `${dir}/index.html`,
    spec: `${dir}/openapi.yaml`,
  };
});

/** The guides, read here from docs/guides/ (the registry's folder's). */
const guidesDir = join(registryPath ? join(registryPath, "..") : repoRoot, "docs/guides");
const guides = existsSync(guidesDir)
  ? readdirSync(guidesDir)
      .filter((f) => f.endsWith(".md") && f !== "README.md") // the folder's index: the site's guides/index.html
      .map((f) => ({ name: f.slice(0, -3), source: readFileSync(join(guidesDir, f), "utf8") }))
  : [];

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
/** Waits for one of the PAGES slots; the function it resolves with gives it back. */
async function pageSlot(): Promise<() => void> {
  if (open >= PAGES) await new Promise<void>((resolve) => waiting.push(resolve));
  open++;
  let given = false;
  return () => {
    if (given) return;
    given = true;
    open--;
    waiting.shift()?.();
  };
}

async function withPageSlot<T>(work: () => Promise<T>): Promise<T> {
  const giveBack = await pageSlot();
  try {
    return await work();
  } finally {
    giveBack();
  }
}

let site: DocsSite;
/**
 * Why there is no site (Chromium missing, with the command that installs it; the build failed).
 * Kept, not thrown, in the beforeAll: vitest reports the tests of a file whose beforeAll throws as
 * skipped; thrown from beforeEach instead, every test fails with it.
 */
let noSite: unknown;
beforeAll(async () => {
  try {
    site = await useDocsSite();
  } catch (error) {
    noSite = error;
  }
}, 600_000);
beforeEach(() => {
  if (noSite) throw noSite;
});
afterAll(async () => {
  await Promise.all(tabs.splice(0).map((tab) => tab.close()));
  await release();
});

/** Every HTML page of the built site, relative to it. */
const sitePages = () =>
  readdirSync(site.siteDir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".html"))
    .map((d) => relative(site.siteDir, join(d.parentPath, d.name)))
    .sort();

/** A reference page (Scalar, rendered in the browser: its anchors are the renderer's routes). */
const isReference = (path: string) => /^(apis\/.*|sandbox)\/index\.html$/.test(path);

/** Links already checked (a URL without its hash -> its HTML, or null when it is not a page). */
const checked = new Map<string, Promise<string | null>>();

/** Every link on the page resolves: see the module header. */
async function checkLinks(record: PageRecord, path: string): Promise<void> {
  const hrefs = await record.page.locator("a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  const base = new URL(path, site.server.url);
  const problems: string[] = [];
  for (const href of new Set(hrefs)) {
    const url = new URL(href, base);
    if (["blob:", "data:", "mailto:", "javascript:"].includes(url.protocol)) continue;
    if (url.origin !== site.origin) {
      if (url.protocol !== "https:") problems.push(`${href}: a link off the site that is not https`);
      if (/(^|\.)client\.scalar\.com$|^proxy\.scalar\.com$/.test(url.hostname)) problems.push(`${href}: a hosted console`);
      continue;
    }
    const target = `${url.origin}${url.pathname}`;
    if (!checked.has(target))
      checked.set(
        target,
        fetch(target).then(async (res) =>
          res.status !== 200 ? `HTTP ${res.status}` : res.headers.get("content-type")?.startsWith("text/html") ? await res.text() : null,
        ),
      );
    const html = await checked.get(target)!;
    if (html?.startsWith("HTTP ")) {
      problems.push(`${href}: ${html}`);
      continue;
    }
    const targetPath = url.pathname.slice(1) || "index.html";
    if (url.hash && html !== null && !isReference(targetPath.endsWith("/") ? `${targetPath}index.html` : targetPath)) {
      const id = decodeURIComponent(url.hash.slice(1));
      if (!html.includes(`id="${id}"`)) problems.push(`${href}: no element with id "${id}"`);
    }
  }
  expect(problems, `${path}: links that do not resolve`).toEqual([]);
}

/**
 * The tabs visit() opens its pages in, kept between visits (at most one per page slot): a page of
 * the site opened in a tab that showed another reuses that tab's renderer process, where a new tab
 * starts one (about a third of the browser's CPU for a static page with its screenshot).
 */
const tabs: PageRecord[] = [];

/**
 * Opens `path` (in a tab of `tabs`, or a new one), runs `check`, takes the screenshot, checks its
 * links, then asserts that the page requested nothing on another host and reported no error since
 * it was opened. A tab whose visit failed is closed, not reused.
 */
async function visit(path: string, shot: string, check: (record: PageRecord) => Promise<void>): Promise<void> {
  await withPageSlot(async () => {
    const record = tabs.pop() ?? (await site.page());
    const from = record.mark();
    let passed = false;
    try {
      const response = await record.page.goto(new URL(path, site.server.url).href, { waitUntil: "load" });
      expect(response?.status(), `${path}: HTTP status`).toBe(200);
      await check(record);
      await screenshot(record.page, shot);
      await record.settled();
      await checkLinks(record, path);
      const own = record.between(from);
      expect(own.foreign, `${path}: requests to hosts other than ${site.origin}`).toEqual([]);
      expect(own.errors, `${path}: console errors, failed requests and uncaught exceptions`).toEqual([]);
      expect(own.requests.length, `${path}: the page's own requests were recorded`).toBeGreaterThan(0);
      passed = true;
    } finally {
      if (passed) tabs.push(record);
      else await record.close();
    }
  });
}

/** Scalar has rendered the document: the first tag's operations are in the page. */
async function referenceReady(record: PageRecord): Promise<void> {
  await record.page.locator("[id^='api-1/tag/']").first().waitFor({ state: "attached" });
}

/** Scalar's element id of an operation or webhook: `api-1/tag/<tag slug>/<METHOD><path>` (webhooks: `webhook/POST/<name>`). */
const elementId = (op: Operation) => {
  const tag = slug(String(op.value.tags?.[0] ?? "default"));
  return op.section === "webhooks"
    ? `api-1/tag/${tag}/webhook/${op.method.toUpperCase()}/${op.path.toLowerCase()}`
    : `api-1/tag/${tag}/${op.method.toUpperCase()}${op.path}`;
};

/**
 * Every operation and webhook of `ops` renders: each tag opened by its route (unless all of its
 * elements are rendered already, as the first tag's are), then each element found (waited for in
 * the page).
 */
async function everyOperationRenders(record: PageRecord, ops: Operation[]): Promise<void> {
  const tags = [...new Set(ops.map((op) => slug(String(op.value.tags?.[0] ?? "default"))))];
  for (const tag of tags) {
    const tagged = ops.filter((o) => slug(String(o.value.tags?.[0] ?? "default")) === tag);
    const texts = await renderedTexts(record.page, tagged.map(elementId), `tag/${tag}`, { ifMissing: true });
    tagged.forEach((op, i) => {
      const summary = op.value.summary ?? op.operationId;
      expect(texts[i], `${op.operationId}: rendered with its summary`).toContain(summary);
    });
  }
}

/** A reference page opened once for the tests of one describe (./console.ts's steps run on it). */
interface OpenPage {
  path: string;
  record: PageRecord;
  /** The sandbox the page's console is pointed at (`?port=`), when the describe started one. */
  sandbox?: MockServer;
  /** The HTTP status of the page's load. */
  status?: number;
  /** Where the record stood once the page had loaded: what came before belongs to the load. */
  loaded: Mark;
}

/**
 * Opens the reference page `path` in the calling describe's beforeAll (holding a page slot until its
 * afterAll), with `?port=` of a sandbox of `sandboxAlias` started for it when one is named.
 */
function openOnce(path: string, sandboxAlias?: string): OpenPage {
  const opened = { path } as OpenPage;
  let giveBack: (() => void) | undefined;
  beforeAll(async () => {
    if (noSite) return; // each test fails with it (the top-level beforeEach)
    if (sandboxAlias) opened.sandbox = await startMock(sandboxAlias, { sandbox: true, port: 0 });
    giveBack = await pageSlot();
    opened.record = await site.page(opened.sandbox ? [opened.sandbox.url] : []);
    const query = opened.sandbox ? `?port=${opened.sandbox.port}` : "";
    const response = await opened.record.page.goto(new URL(`${path}${query}`, site.server.url).href, { waitUntil: "load" });
    opened.status = response?.status();
    opened.loaded = opened.record.mark();
  }, 300_000);
  afterAll(async () => {
    await opened.record?.close();
    giveBack?.();
    await opened.sandbox?.close();
  });
  return opened;
}

/**
 * On an open reference page: the load answered 200, every operation and webhook of `ops` renders,
 * the screenshot, every link resolves, and neither the load nor these steps requested anything
 * outside the machine or reported an error.
 */
async function rendersOnce({ path, record, status, loaded }: OpenPage, shot: string, ops: Operation[]): Promise<void> {
  const from = record.mark();
  expect(status, `${path}: HTTP status`).toBe(200);
  await referenceReady(record);
  await everyOperationRenders(record, ops);
  await screenshot(record.page, shot);
  await record.settled();
  await checkLinks(record, path);
  const load = record.between({ requests: 0, errors: 0 }, loaded);
  const own = record.between(from);
  expect([...load.foreign, ...own.foreign], `${path}: requests to hosts other than ${site.origin}`).toEqual([]);
  expect([...load.errors, ...own.errors], `${path}: console errors, failed requests and uncaught exceptions`).toEqual([]);
  expect(load.requests.length + own.requests.length, `${path}: the page's own requests were recorded`).toBeGreaterThan(0);
}

/**
 * Runs `work` in the open page's console, closes the console, then asserts that these steps
 * requested nothing but the site and the sandbox and reported no error but a 401.
 */
async function inConsole<T>({ path, record, sandbox }: OpenPage, work: (record: PageRecord) => Promise<T>): Promise<T> {
  await referenceReady(record);
  const from = record.mark();
  const result = await work(record);
  await record.page.keyboard.press("Escape"); // the console closed: the page as the next test expects it, whichever runs next
  await record.settled();
  const own = record.between(from);
  expect(own.foreign, `${path}: requests to hosts other than the site and the sandbox`).toEqual(
    own.foreign.filter((url) => url.startsWith(sandbox!.url)),
  );
  expect(
    own.errors.filter((e) => !/HTTP 401|status of 401/.test(e)),
    `${path}: errors`,
  ).toEqual([]);
  return result;
}

describe.concurrent("docs site: files", () => {
  it("holds one Scalar bundle that every reference page loads, and each API's bundled spec byte for byte", () => {
    const scripts = readdirSync(site.siteDir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && /\.m?js$/.test(d.name))
      .map((d) => relative(site.siteDir, join(d.parentPath, d.name)))
      .sort();
    expect(scripts).toEqual(["assets/reference.js", "assets/scalar.js"]);
    const bundleBytes = statSync(join(site.siteDir, "assets/scalar.js")).size;
    expect(bundleBytes).toBeGreaterThan(1_000_000);
    for (const api of apis) {
      const html = readFileSync(join(site.siteDir, api.page), "utf8");
      const depth = api.page.split("/").length - 1;
      expect(html, `${api.alias}: loads the shared bundle`).toContain(`<script src="${"../".repeat(depth)}assets/scalar.js"></script>`);
      expect(Buffer.byteLength(html), `${api.alias}: the bundle is not inlined`).toBeLessThan(bundleBytes / 100);
      expect(readFileSync(join(site.siteDir, api.spec)).equals(readFileSync(api.bundlePath)), `${api.alias}: ${api.spec}`).toBe(true);
    }
  });

  it("names no resource on another host in any page (scripts, styles, images, fonts, module imports)", () => {
    const pages = sitePages();
    expect(pages.length).toBeGreaterThanOrEqual(apis.length + 3 + guides.length);
    const external =
      /<(?:script|link|img|iframe|source|video|audio)\b[^>]*\s(?:src|href|srcset)=["']?(?:https?:)?\/\/|url\(\s*["']?(?:https?:)?\/\/|@import\s+["'](?:https?:)?\/\/|\bfrom\s*["'](?:https?:)?\/\//i;
    for (const page of pages) expect(readFileSync(join(site.siteDir, page), "utf8"), page).not.toMatch(external);
  });
});

describe.concurrent("docs site: every page", () => {
  it("each page of the site renders, requests nothing outside the machine, logs no error, and its links resolve", async () => {
    // The pages the other tests open (through visit() or openOnce() and rendersOnce(), which check all of that) and the rest, opened here.
    const elsewhere = new Set([
      "index.html",
      "open-questions.html",
      "sandbox/index.html",
      ...apis.map((api) => api.page),
      ...guides.map((guide) => `guides/${guide.name}.html`),
      ...sitePages().filter((path) => path.startsWith("changelogs/")),
    ]);
    const pages = sitePages();
    const rest = pages.filter((path) => !elsewhere.has(path));
    expect(rest).toContain("guides/index.html");
    await Promise.all(
      rest.map((path) =>
        visit(path, `page-${path}`, async (record) => {
          expect((await record.page.locator("main").innerText()).trim().length, `${path}: text`).toBeGreaterThan(0);
        }),
      ),
    );
  }, 600_000);
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

        // Where it is served on this machine: the mock's default port, by registry position.
        expect(await field("local")).toBe(`http://127.0.0.1:${api.port}`);
        // The page link opens the API's reference; the spec link downloads its bundled spec.
        const pageHref = await card.locator('a[data-link="page"]').getAttribute("href");
        expect(new URL(pageHref!, site.server.url).pathname).toBe(`/${api.page}`);
        const specLink = card.locator('a[data-link="spec"]');
        expect(await specLink.getAttribute("download")).toMatch(/\.yaml$/);
        const spec = await fetch(new URL((await specLink.getAttribute("href"))!, site.server.url));
        expect(spec.status).toBe(200);
        expect(Buffer.from(await spec.arrayBuffer()).equals(readFileSync(api.bundlePath)), `${api.alias} download`).toBe(true);
      }

      // What to read first, and the table of local servers: one row per API with its port.
      expect(await page.locator("#start-here li[data-guide]").count()).toBeGreaterThan(0);
      for (const api of apis)
        expect(await page.locator(`#local-servers tr[data-alias="${api.alias}"] [data-field="local"]`).innerText()).toBe(
          `http://127.0.0.1:${api.port}`,
        );

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
    const html = readFileSync(join(site.siteDir, "index.html"), "utf8");
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

describe.concurrent("docs site: guides", () => {
  it("renders every docs/guides/*.md: its title, every heading with GitHub's anchor, listed on the guides page", async () => {
    const listed = readFileSync(join(site.siteDir, "guides/index.html"), "utf8");
    expect(guides.length).toBeGreaterThan(0);
    await Promise.all(
      guides.map((guide) => {
        expect(listed, `guides/index.html lists ${guide.name}`).toContain(`href="${guide.name}.html"`);
        const source = guide.source.replace(/^```[\s\S]*?^```$/gm, "");
        const headings = [...source.matchAll(/^(#{1,6}) (.+)$/gm)].map((m) => m[2].replace(/`/g, "").trim());
        return visit(`guides/${guide.name}.html`, `guide-${guide.name}`, async ({ page }) => {
          const rendered = await page
            .locator("article.guide")
            .locator("h1, h2, h3, h4, h5, h6")
            .evaluateAll((hs) => hs.map((h) => ({ id: h.id, text: (h.textContent ?? "").trim() })));
          expect(
            rendered.map((h) => h.text),
            `${guide.name}: headings`,
          ).toEqual(headings.map((h) => h.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")));
          for (const h of rendered) expect(h.id, `${guide.name}: anchor of "${h.text}"`).toBe(slug(h.text));
          // The tests' marker comments are not shown.
          expect(await page.locator("article.guide").innerText()).not.toContain("<!--");
        });
      }),
    );
  }, 600_000);
});

/** The API whose page shows a request that breaks the contract in its console. */
const violations: Flow | undefined = flows.find((f) => f.entry.alias === "pay@1.3.0") ?? flows[0];

// One page per describe, opened once; its tests run in order on it (the describes side by side).
describe.concurrent("docs site: sandbox control API", () => {
  const control = loadDocument(join(repoRoot, "src/sandbox/openapi.yaml"));
  const opened = openOnce("sandbox/index.html", "pay@1.3.0");

  it.sequential("links the control API's page from the index; the page renders every operation of src/sandbox/openapi.yaml offline", async () => {
    expect(readFileSync(join(site.siteDir, "index.html"), "utf8")).toContain('data-link="sandbox-page" href="sandbox/index.html"');
    expect(readFileSync(join(site.siteDir, "sandbox/openapi.yaml"), "utf8")).toBe(
      readFileSync(join(repoRoot, "src/sandbox/openapi.yaml"), "utf8"),
    );
    await rendersOnce(opened, "sandbox-control-api", operations(control));
  }, 300_000);

  it.sequential("the control API's page queues an error rule on a sandbox, then lists it", async () => {
    await inConsole(opened, async (record) => {
      const queue = await openConsole(record, findOperation(control, "createError")!);
      await typeCredential(queue, "docs-console-control");
      const answer = await send(queue, 201);
      const id = /"id":\s*"([^"]+)"/.exec(answer)?.[1];
      expect(id, "the queued rule's id in the console's answer").toBeDefined();
      const list = await openConsole(record, findOperation(control, "listErrors")!);
      const field = list.locator("input[id^='scalar-client']:not([type=checkbox])").first();
      if ((await field.inputValue()) !== "docs-console-control") await typeCredential(list, "docs-console-control");
      expect(await send(list, 200)).toContain(id);
      await screenshot(record.page, "console-sandbox-control");
    });
  }, 300_000);
});

describe.concurrent.each(apis.map((api) => [api.alias, api] as const))("docs site: %s page", (alias, api) => {
  const flow = flows.find((f) => f.entry.alias === alias);
  const opened = openOnce(api.page, flow ? alias : undefined);

  it.sequential(`renders every operation (${api.operations.length}) and webhook (${api.webhooks.length}) of the bundled spec`, async () => {
    await rendersOnce(opened, `api-${api.service}-${api.release}`, [...api.operations, ...api.webhooks]);
  }, 300_000);

  if (flow)
    it.sequential(`${alias}: the create sent from the page makes a record, and the list sent from the page shows it`, async () => {
      const sandbox = opened.sandbox!;
      const credential = `docs-console-${flow.entry.service}`;
      await inConsole(opened, async (record) => {
        const created = await openConsole(record, flow.create);
        // The console's first server is the sandbox named by ?port=.
        expect(await created.textContent()).toContain(`${sandbox.url}${flow.create.path}`);
        await typeCredential(created, credential);
        const answer = await send(created, Number(Object.keys(flow.create.value.responses).find((s) => /^2/.test(s))));
        const id = new RegExp(`"${flow.id.field}":\\s*"(${flow.id.prefix}[^"]+)"`).exec(answer)?.[1];
        expect(id, `${alias}: the id of the record in the console's answer`).toBeDefined();
        await screenshot(record.page, `console-${flow.entry.service}-${flow.entry.release}-create`);

        const listed = await openConsole(record, flow.list);
        const field = listed.locator("input[id^='scalar-client']:not([type=checkbox])").first();
        if ((await field.inputValue()) !== credential) await typeCredential(listed, credential);
        expect(await send(listed, 200), `${alias}: the list shows the record created from the page`).toContain(id);
        await screenshot(record.page, `console-${flow.entry.service}-${flow.entry.release}-list`);
      });
      // Read back outside the browser too: the sandbox holds it for that credential.
      const schemes = securitySchemes(flow.doc, flow.list);
      const header = schemes.some((s) => s.type === "apiKey")
        ? { [schemes.find((s) => s.type === "apiKey")!.parameter!]: credential }
        : { authorization: `Bearer ${credential}` };
      const state = await fetch(`${sandbox.url}/_sandbox/state`, { headers: header });
      expect(state.status).toBe(200);
    }, 300_000);

  if (flow && flow === violations)
    it.sequential("a request that breaks the contract shows its status and the sl-violations header in the console", async () => {
      await inConsole(opened, async (record) => {
        const dialog = await openConsole(record, flow.list);
        await typeCredential(dialog, ""); // no credential: the contract's 401
        await send(dialog, 401);
        await dialog
          .getByText(/Response Headers/)
          .first()
          .click();
        // The header as the mock sent it: Prism's finding for the missing credential.
        const shown = await textMatching(record.page, DIALOG, /sl-violations/i, 30_000);
        expect(shown).toMatch(/sl-violations\s*\[\{"location":\["request"\],"severity":"Error","code":401/i);
        await screenshot(record.page, "console-sl-violations");
      });
    }, 300_000);
});

describe("the reference pages' request console, against a running sandbox", () => {
  it("finds at least three APIs whose sandbox creates and lists a record", () => {
    expect(flows.map((f) => f.entry.alias).length).toBeGreaterThanOrEqual(3);
  });
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
  /** `npm start <args>` as npm runs it, with no standard input. */
  const start = (...args: string[]): Run => runScript("scripts/start.ts", args, null);

  it("serves the built site and every mock, prints their URLs, and exits 0 on SIGTERM", async () => {
    // npm start serves the repository's registry; the site built above is reused (not rebuilt)
    // when it was built from that registry.
    const served = loadRegistry();
    const docsDir = registryPath ? join(site.siteDir, "..", "start-site") : site.siteDir;
    const portBase = await freePortRange(served.length);
    const run = start("--skip-generate", "--docs-dir", docsDir, "--port", "0", "--port-base", String(portBase));
    try {
      // Ready when it prints how to stop it (on its output, not polled); fails on its exit or after 240 s with what it wrote.
      await waitForOutput(run.child, run.stdout, "Ctrl+C stops", "npm start", { timeoutMs: 240_000, streams: ["stdout"] }).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n(stderr)\n${run.stderr()}`);
        },
      );
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
