/**
 * The reference pages: one per API release and one for the sandbox control API, rendered in the
 * browser by Scalar's API reference (`@scalar/api-reference`, pinned in devDependencies), whose
 * request console ("Test Request") sends a real request from the page and shows the answer with its
 * headers. The site carries one local copy of Scalar's standalone bundle (`assets/scalar.js`); each
 * page is a small HTML shell that names its document and its servers in a JSON block read by
 * `assets/reference.js` (docs/reference.js), so no page has an inline script and nothing loads from
 * another host: no fonts (`withDefaultFonts: false`), no request proxy (`proxyUrl` unset: the
 * console calls the server directly, which the mocks allow by CORS), no telemetry.
 *
 * The console's servers: the local mock of the API first (`http://127.0.0.1:<its default port>`,
 * which serves the sandbox too with `--sandbox`), then the servers the spec declares. A page opened
 * with `?port=N` puts `http://127.0.0.1:N` first instead (a mock started with `--port-base`, or a
 * test's on a free port); only a loopback address is accepted that way.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
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

export interface ConsoleServer {
  url: string;
  description: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
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
}

/** Scalar's configuration for a page (see the module header). */
export function scalarConfig(page: ReferencePage) {
  return {
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

export function renderReferencePage(page: ReferencePage): string {
  const root = page.siteRoot;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(page.title)}</title>
  <link rel="icon" href="data:," />
  <link rel="stylesheet" href="${root}assets/site.css" />
  <script type="application/json" id="reference-config">${jsonInHtml(scalarConfig(page))}</script>
</head>
<body class="reference-page" data-kind="${page.kind}"${page.alias ? ` data-alias="${escapeHtml(page.alias)}"` : ""}>
  <nav class="site-bar" aria-label="Site">
    <a class="site-home" href="${root}index.html">API documentation</a>
    <a href="${root}guides/index.html">Guides</a>
    <a href="${root}open-questions.html">Open questions</a>
    <span class="site-spacer"></span>
    <span class="site-api">${escapeHtml(page.label)}</span>
    <a data-link="spec" href="${escapeHtml(page.specUrl)}" download>openapi.yaml</a>
  </nav>
  <div id="reference"></div>
  <noscript><p class="site-main">This reference is rendered by JavaScript; the document itself is
    <a href="${escapeHtml(page.specUrl)}">openapi.yaml</a>.</p></noscript>
  <script src="${root}assets/scalar.js"></script>
  <script src="${root}assets/reference.js"></script>
</body>
</html>
`;
}
