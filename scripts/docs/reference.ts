/**
 * The reference pages: one per API release and one for the sandbox control API, rendered in the
 * browser by Scalar's API reference (`@scalar/api-reference`, pinned in devDependencies), whose
 * request console ("Test Request") sends a real request from the page and shows the answer with its
 * headers. The site carries one local copy of Scalar's standalone bundle, under a content-hashed
 * name (`assets/scalar.<hash>.js`); each page is an HTML shell that names its document, its servers
 * and that bundle in a JSON block read by `assets/reference.<hash>.js` (docs/reference.js), so no
 * page has an inline script and nothing loads from another host: no fonts (`withDefaultFonts:
 * false`), no request proxy (`proxyUrl` unset: the console calls the server directly, which the
 * mocks allow by CORS), no telemetry.
 *
 * The page is usable before Scalar is: its HTML holds the page's frame (the site's bar, the API's
 * title and every operation and webhook by tag, each linking Scalar's route for it), painted at
 * once, while the bundle loads (preloaded, run after the first paint) and replaces the frame.
 *
 * The console's servers: the local mock of the API first (`http://127.0.0.1:<its port>`, from the
 * build's port base, which serves the sandbox too with `--sandbox`), then the servers the spec
 * declares. A page opened with `?port=N` puts `http://127.0.0.1:N` first instead (a test's mock on
 * a free port); only a loopback address is accepted that way.
 *
 * Scalar's own defaults that do not belong on a bank's portal are changed in the copy the site
 * carries (`SCALAR_PATCHES`: each must match the bundle exactly as often as stated, or the build
 * fails naming it, so an upgrade of Scalar cannot drop one silently).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type Doc, operations } from "../../src/document/index.js";
import { slug } from "./guides.js";
import { escapeHtml } from "./pages.js";

// The package exports neither its package.json nor its browser bundle: found from its main entry.
const _require = createRequire(import.meta.url);
const scalarDir = packageDir(dirname(_require.resolve("@scalar/api-reference")));
export const scalarVersion: string = JSON.parse(readFileSync(join(scalarDir, "package.json"), "utf8")).version;
/** The standalone browser bundle (Vue and the request console included). */
export const scalarBundlePath = join(scalarDir, "dist/browser/standalone.js");

/** The nearest folder above `from` holding @scalar/api-reference's package.json. */
function packageDir(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === "@scalar/api-reference") return dir;
  }
  throw new Error(`@scalar/api-reference's folder not found above ${from}`);
}

/** A change to Scalar's bundle: `find` replaced by `replace`, which must occur exactly `count` times. */
export interface ScalarPatch {
  why: string;
  find: string;
  replace: string;
  count: number;
}

export const SCALAR_PATCHES: ScalarPatch[] = [
  {
    why: "the API key and access token fields' placeholder is base64 of a joke and reads as a real key",
    find: 'placeholder:"QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT"',
    replace: 'placeholder:"any value: the local mock takes any"',
    count: 2,
  },
  {
    // The console's edits reach its request through an event bus that waits 328 ms after the last
    // one: Send within that time sent the previous body. Delivered on the next task instead.
    why: "the console sent the body as it was before the last 328 ms of edits",
    find: "const{execute:o}=VSe({delay:328})",
    replace: "const{execute:o}=VSe({delay:0})",
    count: 1,
  },
];

/** Scalar's bundle as the site carries it: `SCALAR_PATCHES` applied, each checked. */
export function patchedScalar(bundle: string, patches: ScalarPatch[] = SCALAR_PATCHES): string {
  let text = bundle;
  for (const patch of patches) {
    const found = text.split(patch.find).length - 1;
    if (found !== patch.count)
      throw new Error(
        `Scalar ${scalarVersion}'s bundle holds ${JSON.stringify(patch.find)} ${found} time(s), not ${patch.count}: ` +
          `the change for "${patch.why}" (scripts/docs/reference.ts SCALAR_PATCHES) no longer fits it`,
      );
    text = text.replaceAll(patch.find, patch.replace);
  }
  return text;
}

export interface ConsoleServer {
  url: string;
  description: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

/** One operation or webhook as the page's frame lists it. */
export interface FrameOperation {
  method: string;
  /** The path, or `webhook <name>`. */
  path: string;
  summary: string;
  /** Scalar's route of it (the page's hash): `tag/<tag>/<METHOD><path>`, `tag/<tag>/webhook/<METHOD>/<name>`. */
  route: string;
  deprecated: boolean;
}

export interface Frame {
  title: string;
  version: string;
  summary?: string;
  tags: Array<{ name: string; operations: FrameOperation[] }>;
}

/** The frame of a document: its title and every operation and webhook by first tag, in the document's tag order. */
export function frameOf(doc: Doc): Frame {
  const declared: string[] = (doc.tags ?? []).map((t: { name: string }) => String(t.name));
  const tags = new Map<string, FrameOperation[]>(declared.map((name) => [name, []]));
  for (const op of operations(doc, { webhooks: true })) {
    const tag = String(op.value.tags?.[0] ?? "default");
    const method = op.method.toUpperCase();
    const route =
      op.section === "webhooks" ? `tag/${slug(tag)}/webhook/${method}/${op.path.toLowerCase()}` : `tag/${slug(tag)}/${method}${op.path}`;
    if (!tags.has(tag)) tags.set(tag, []);
    tags.get(tag)!.push({
      method,
      path: op.section === "webhooks" ? `webhook ${op.path}` : op.path,
      summary: String(op.value.summary ?? op.operationId),
      route,
      deprecated: op.value.deprecated === true,
    });
  }
  return {
    title: String(doc.info?.title ?? ""),
    version: String(doc.info?.version ?? ""),
    ...(typeof doc.info?.summary === "string" ? { summary: doc.info.summary } : {}),
    tags: [...tags].filter(([, ops]) => ops.length > 0).map(([name, ops]) => ({ name, operations: ops })),
  };
}

/** The site's assets as a page links them, relative to the site root (content-hashed names). */
export interface PageAssets {
  scalar: string;
  script: string;
  style: string;
}

export interface ReferencePage {
  title: string;
  /** Shown in the site's bar. */
  label: string;
  /** From the page to the site root (`../../../`). */
  siteRoot: string;
  /** The document, relative to the page. */
  specUrl: string;
  /** The console's servers, in order. */
  servers: ConsoleServer[];
  /** The page's kind, for the tests and the benchmark: `api` or `sandbox`. */
  kind: "api" | "sandbox";
  alias?: string;
  /** What the page shows before Scalar has loaded. */
  frame: Frame;
  assets: PageAssets;
}

/** Scalar's configuration for a page (see the module header); `scalar` is the bundle, for docs/reference.js. */
export function scalarConfig(page: ReferencePage) {
  return {
    scalar: `${page.siteRoot}${page.assets.scalar}`,
    url: page.specUrl,
    servers: page.servers,
    withDefaultFonts: false,
    hideClientButton: true,
    hideDarkModeToggle: true,
    showDeveloperTools: "never",
    documentDownloadType: "yaml",
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    metaData: { title: page.title },
  };
}

/** A JSON value safe inside `<script type="application/json">` (no `</script>`, no `<!--`). */
const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The frame's HTML: the API's title and every operation by tag, each linking Scalar's route for it. */
function renderFrame(frame: Frame, specUrl: string): string {
  let first = true;
  const tags = frame.tags
    .map(
      (tag) => `
        <section class="frame-tag"><h2>${escapeHtml(tag.name)}</h2>
          <ul>${tag.operations
            .map((op) => {
              // The browser's Element Timing records when the first operation's text is painted (npm run bench:docs reads it;
              // text is timed on its block, the link).
              const timing = first ? ' elementtiming="first-operation"' : "";
              first = false;
              return `
            <li class="frame-operation"${op.deprecated ? ' data-deprecated=""' : ""}><a href="#${escapeHtml(op.route)}"${timing}><span class="frame-method" data-method="${escapeHtml(op.method.toLowerCase())}">${escapeHtml(op.method)}</span> <span class="frame-summary">${escapeHtml(op.summary)}</span> <code class="frame-path">${escapeHtml(op.path)}</code></a></li>`;
            })
            .join("")}
          </ul>
        </section>`,
    )
    .join("");
  return `
    <div class="frame" data-frame="">
      <div class="frame-head">
        <h1>${escapeHtml(frame.title)} <span class="frame-version">${escapeHtml(frame.version)}</span></h1>
        ${frame.summary ? `<p class="frame-lede">${escapeHtml(frame.summary)}</p>` : ""}
        <p class="frame-loading" role="status">Loading the full reference and its request console&hellip; (the document itself:
          <a href="${escapeHtml(specUrl)}">openapi.yaml</a>)</p>
      </div>
      <nav class="frame-operations" aria-label="Operations">${tags}
      </nav>
    </div>`;
}

export function renderReferencePage(page: ReferencePage): string {
  const root = page.siteRoot;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(page.title)}</title>
  <link rel="icon" href="data:," />
  <link rel="stylesheet" href="${root}${page.assets.style}" />
  <link rel="preload" as="script" href="${root}${page.assets.scalar}" />
  <script type="application/json" id="reference-config">${jsonInHtml(scalarConfig(page))}</script>
  <script src="${root}${page.assets.script}" defer></script>
</head>
<body class="reference-page" data-kind="${page.kind}"${page.alias ? ` data-alias="${escapeHtml(page.alias)}"` : ""}>
  <nav class="site-bar" aria-label="Site">
    <a class="site-home" href="${root}index.html"><span class="site-home-long">API documentation</span><span class="site-home-short">Docs</span></a>
    <a class="site-link" href="${root}guides/index.html">Guides</a>
    <a class="site-link" href="${root}open-questions.html">Open questions</a>
    <span class="site-spacer"></span>
    <span class="site-api">${escapeHtml(page.label)}</span>
    <a class="site-link" data-link="spec" href="${escapeHtml(page.specUrl)}" download>openapi.yaml</a>
  </nav>
  <div id="reference">${renderFrame(page.frame, page.specUrl)}
  </div>
  <noscript><p class="site-main">The request console needs JavaScript; the document itself is
    <a href="${escapeHtml(page.specUrl)}">openapi.yaml</a>.</p></noscript>
</body>
</html>
`;
}
