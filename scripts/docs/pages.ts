/**
 * The site's own pages: the index (every API, grouped by service), the open-questions page (every
 * `x-unspecified`) and one page per service changelog. Plain HTML with the shared stylesheet; every
 * value from a spec is escaped.
 */
import type { ApiGaps } from "../lib/gaps.js";
import type { ApiSummary } from "./summary.js";
import { Marked } from "marked";
import { DEFAULT_PORT_BASE, defaultPort } from "../../src/registry.js";

export const escapeHtml = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Where an API's files go in the site, relative to the site root. */
export function apiPaths(alias: { service: string; release: string }) {
  const dir = `apis/${alias.service}/${alias.release}`;
  return {
    dir,
    page: `${dir}/index.html`,
    spec: `${dir}/openapi.yaml`,
    downloadName: `${alias.service}-${alias.release}-openapi.yaml`,
    /** From the API page back to the site root. */
    siteRoot: "../".repeat(dir.split("/").length),
  };
}

export const changelogPage = (service: string) => `changelogs/${service}.html`;

export interface SiteFacts {
  /** @scalar/api-reference's version, which renders the reference pages. */
  scalarVersion: string;
  /** The stylesheet, relative to the site root (its content-hashed name). */
  style: string;
  /** The first mock's port, as the pages name it. */
  portBase: number;
}

export function shell(title: string, body: string, facts: SiteFacts, root = ""): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(title)}</title>
  <link rel="icon" href="data:," />
  <link rel="stylesheet" href="${root}${escapeHtml(facts.style)}" />
</head>
<body>
  <nav class="site-bar" aria-label="Site">
    <a class="site-home" href="${root}index.html"><span class="site-home-long">API documentation</span><span class="site-home-short">Docs</span></a>
    <a class="site-link" href="${root}guides/index.html">Guides</a>
    <a class="site-link" href="${root}open-questions.html">Open questions</a>
  </nav>
  <main class="site-main">
${body}
    <footer class="site-footer">Generated from the registry (redocly.yaml), the bundled specs and docs/guides/ by <code>npm run docs:build</code>;
      reference pages rendered with Scalar ${escapeHtml(facts.scalarVersion)} (@scalar/api-reference). Works offline.</footer>
  </main>
</body>
</html>
`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function releaseCard(api: ApiSummary, gaps: number, portBase: number): string {
  const { entry } = api;
  const paths = apiPaths(entry);
  const servers =
    api.servers.length === 0
      ? `<dt>Servers</dt><dd class="none">none declared</dd>`
      : api.servers
          .map(
            (s) =>
              `<dt>${escapeHtml(s.label.charAt(0).toUpperCase() + s.label.slice(1))}</dt>` +
              `<dd data-field="server" data-label="${escapeHtml(s.label)}"><code>${escapeHtml(s.example)}</code>` +
              (s.example !== s.template ? `<br /><span class="url-template">${escapeHtml(s.template)}</span>` : "") +
              `</dd>`,
          )
          .join("\n          ");
  const auth =
    api.auth.length === 0
      ? `<dd data-field="auth" class="none">none</dd>`
      : `<dd data-field="auth">${api.auth.map((a) => `<span data-scheme="${escapeHtml(a.name)}">${escapeHtml(a.text)}</span>`).join("<br />")}</dd>`;
  return `
      <article class="release" id="${escapeHtml(entry.alias)}" data-alias="${escapeHtml(entry.alias)}" data-service="${escapeHtml(entry.service)}" data-release="${escapeHtml(entry.release)}">
        <h3>${escapeHtml(entry.release)}${entry.latest ? ` <span class="badge">latest</span>` : ""}</h3>
        <p class="title">${escapeHtml(api.title)}${api.summary ? ` — ${escapeHtml(api.summary)}` : ""}</p>
        <dl class="facts">
          <dt>Service</dt><dd data-field="service"><code>${escapeHtml(entry.service)}</code></dd>
          <dt>Release</dt><dd data-field="release"><code>${escapeHtml(entry.release)}</code></dd>
          ${servers}
          <dt>Local mock</dt><dd data-field="local"><code>http://127.0.0.1:${defaultPort(entry, portBase)}</code></dd>
          <dt>Auth</dt>${auth}
          <dt>Operations</dt><dd data-field="operations">${api.operations.length}${api.deprecatedOperations > 0 ? ` <span class="url-template">(${api.deprecatedOperations} deprecated)</span>` : ""}</dd>
          <dt>Webhooks</dt><dd data-field="webhooks">${api.webhooks.length}</dd>
          <dt>Open questions</dt><dd data-field="gaps"><a href="open-questions.html#${escapeHtml(entry.alias)}">${gaps}</a></dd>
        </dl>
        <div class="links">
          <a class="button primary" data-link="page" href="${escapeHtml(paths.page)}">API reference and console</a>
          <a class="button" data-link="spec" href="${escapeHtml(paths.spec)}" download="${escapeHtml(paths.downloadName)}">Download openapi.yaml</a>
        </div>
      </article>`;
}

function compareReleases(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** Services in registry order (of their first release), each with its releases newest first. */
export function groupByService(apis: ApiSummary[]): Array<{ service: string; releases: ApiSummary[] }> {
  const groups = new Map<string, ApiSummary[]>();
  for (const api of apis) groups.set(api.entry.service, [...(groups.get(api.entry.service) ?? []), api]);
  return [...groups].map(([service, releases]) => ({
    service,
    releases: [...releases].sort((a, b) => compareReleases(b.entry.release, a.entry.release)),
  }));
}

/** The sandbox control API's section of the index: its page and its document. */
function sandboxSection(sandbox: { page: string; spec: string }): string {
  return `
    <section class="service" id="sandbox-control-api" data-sandbox="control-api">
      <div class="service-head"><h2>Sandbox control API</h2><span class="service-id">/_sandbox/</span></div>
      <p class="lede">Every mock started in sandbox mode (<code>bank-api-contracts mock --sandbox</code>) keeps what each credential
        creates and serves this API on its own port, under <code>/_sandbox/</code>: move a record to another status (its callbacks
        are sent), register the callback URLs a dashboard would hold, advance the clock, make the next calls of an operation fail,
        read the delivery log. It is the same for every API; it is not an API of the provider.</p>
      <div class="links">
        <a class="button primary" data-link="sandbox-page" href="${escapeHtml(sandbox.page)}">Control API reference</a>
        <a class="button" data-link="sandbox-spec" href="${escapeHtml(sandbox.spec)}" download="sandbox-control-openapi.yaml">Download openapi.yaml</a>
      </div>
    </section>`;
}

/** A guide as the site lists it. */
export interface GuideLink {
  name: string;
  title: string;
  summary: string;
  page: string;
}

/** The first guides a reader needs, in the home page's "Start here" (those present). */
const START_HERE = ["quick-start", "installing", "contract-testing", "sandbox"];

function guideList(guides: GuideLink[], root = ""): string {
  return `<ul class="guide-list">
${guides
  .map(
    (g) =>
      `        <li data-guide="${escapeHtml(g.name)}"><a href="${root}${escapeHtml(g.page)}">${escapeHtml(g.title)}</a>${g.summary ? `<span class="guide-summary">${escapeHtml(g.summary)}</span>` : ""}</li>`,
  )
  .join("\n")}
      </ul>`;
}

/** Where each API is served on this machine: the mock's (and the sandbox's) port and the reference page. */
function localServers(apis: ApiSummary[], portBase: number): string {
  const rows = apis.map((api) => {
    const port = defaultPort(api.entry, portBase);
    return (
      `<tr data-alias="${escapeHtml(api.entry.alias)}"><td><code>${escapeHtml(api.entry.alias)}</code></td><td>${escapeHtml(api.title)}</td>` +
      `<td data-field="local"><code>http://127.0.0.1:${port}</code></td><td><a href="${escapeHtml(apiPaths(api.entry).page)}">reference and console</a></td></tr>`
    );
  });
  return `
    <section class="local" id="local-servers">
      <h2>Where each API is served locally</h2>
      <p>${
        portBase === DEFAULT_PORT_BASE
          ? "<code>npx bank-api-contracts mock</code> serves every API's contract mock on these ports"
          : `This portal was started for mocks on ports ${portBase} upwards: <code>npx bank-api-contracts mock --port-base ${portBase}</code> serves every API's contract mock on them`
      }
        (<code>--sandbox</code>: the stateful sandbox on the same ports, with its control API under <code>/_sandbox/</code>;
        <code>--port-base N</code> moves them). Each reference page's console lists its local port among its servers:
        send a request from the page and read the answer, with the <code>sl-violations</code> header that names what
        breaks the contract. (A mock on another port: add <code>?port=N</code> to the reference page's address.)</p>
      <table class="data">
        <thead><tr><th>API</th><th>Title</th><th>Local mock and sandbox</th><th></th></tr></thead>
        <tbody>
        ${rows.join("\n        ")}
        </tbody>
      </table>
    </section>`;
}

export function renderIndex(
  apis: ApiSummary[],
  gaps: ApiGaps[],
  changelogs: Map<string, string>,
  facts: SiteFacts,
  sandbox?: { page: string; spec: string },
  guides: GuideLink[] = [],
): string {
  const gapCount = new Map(gaps.map((g) => [g.alias, g.gaps.length]));
  const total = gaps.reduce((n, g) => n + g.gaps.length, 0);
  const services = groupByService(apis);
  const sections = services.map(({ service, releases }) => {
    const title = releases[0].title;
    const changelog = changelogs.has(service) ? ` <a data-link="changelog" href="${escapeHtml(changelogPage(service))}">Changelog</a>` : "";
    return `
    <section class="service" id="service-${escapeHtml(service)}" data-service="${escapeHtml(service)}">
      <div class="service-head"><h2>${escapeHtml(title)}</h2><span class="service-id">${escapeHtml(service)}</span>
        <span>${plural(releases.length, "release")}</span>${changelog}</div>
      <div class="releases">${releases.map((api) => releaseCard(api, gapCount.get(api.entry.alias) ?? 0, facts.portBase)).join("")}
      </div>
    </section>`;
  });
  const first = START_HERE.map((name) => guides.find((g) => g.name === name)).filter((g): g is GuideLink => g !== undefined);
  const start =
    first.length === 0
      ? ""
      : `
    <section class="start" id="start-here">
      <h2>Start here</h2>
      ${guideList(first)}
      <p>Every guide: <a href="guides/index.html">${plural(guides.length, "guide")}</a>.</p>
    </section>`;
  const body = `    <h1>API documentation</h1>
    <p class="lede">${plural(apis.length, "API release")} of ${plural(services.length, "service")}, each with a reference page whose
      console sends requests to your local mock or sandbox, and its bundled OpenAPI 3.1 document; the
      <a href="guides/index.html">guides</a> say how to install, call, test and receive callbacks; the
      <a href="open-questions.html">open questions</a> page lists the ${total} things the provider's documents do not specify yet.</p>
${start}
${localServers(apis, facts.portBase)}
${sections.join("\n")}${sandbox ? `\n${sandboxSection(sandbox)}` : ""}`;
  return shell("API documentation", body, facts);
}

/** guides/index.html: every guide, in reading order. */
export function renderGuidesIndex(guides: GuideLink[], facts: SiteFacts): string {
  const body = `    <h1>Guides</h1>
    <p class="lede">Each guide is a Markdown file of the repository (<code>docs/guides/</code>), readable there on its own.</p>
    ${guideList(guides.map((g) => ({ ...g, page: g.page.replace(/^guides\//, "") })))}`;
  return shell("Guides", body, facts, "../");
}

/** guides/<name>.html: one guide, with the list of the others beside it. */
export function renderGuide(guide: GuideLink, html: string, guides: GuideLink[], facts: SiteFacts): string {
  const nav = guides
    .map(
      (g) =>
        `<li${g.name === guide.name ? ' aria-current="page"' : ""}><a href="${escapeHtml(g.name)}.html">${escapeHtml(g.title)}</a></li>`,
    )
    .join("");
  const body = `    <div class="guide-layout">
      <nav class="guide-nav" aria-label="Guides"><ul>${nav}</ul></nav>
      <article class="guide" data-guide="${escapeHtml(guide.name)}">${html}</article>
    </div>`;
  return shell(`${guide.title} · Guides`, body, facts, "../");
}

export function renderOpenQuestions(apis: ApiSummary[], gaps: ApiGaps[], facts: SiteFacts): string {
  const titles = new Map(apis.map((a) => [a.entry.alias, a.title]));
  const total = gaps.reduce((n, g) => n + g.gaps.length, 0);
  const overview = gaps
    .map(
      (g) =>
        `<tr data-alias="${escapeHtml(g.alias)}"><td><a href="#${escapeHtml(g.alias)}">${escapeHtml(g.alias)}</a></td><td>${escapeHtml(titles.get(g.alias) ?? "")}</td><td class="num" data-field="count">${g.gaps.length}</td></tr>`,
    )
    .join("\n        ");
  const sections = gaps.map((g) => {
    const page = apiPaths(g).page;
    const rows = g.gaps
      .map(
        (gap, i) =>
          `<tr data-gap="${escapeHtml(g.alias)}" id="${escapeHtml(`${g.alias}-${i + 1}`)}"><td class="num">${i + 1}</td>` +
          `<td>${escapeHtml(gap.where)}<code class="pointer" data-field="pointer">${escapeHtml(gap.pointer || "/")}</code></td>` +
          `<td data-field="text">${escapeHtml(gap.text)}</td></tr>`,
      )
      .join("\n          ");
    const table =
      g.gaps.length === 0
        ? `<p class="none">No open questions: the spec records no <code>x-unspecified</code>.</p>`
        : `<table class="data">
        <thead><tr><th>#</th><th>Location in the bundled spec</th><th>What the source does not give</th></tr></thead>
        <tbody>
          ${rows}
        </tbody>
      </table>`;
    return `
    <section class="gap-api" id="${escapeHtml(g.alias)}" data-alias="${escapeHtml(g.alias)}">
      <h2>${escapeHtml(g.alias)} — ${escapeHtml(titles.get(g.alias) ?? "")}</h2>
      <p>${plural(g.gaps.length, "open question")} · <a href="${escapeHtml(page)}">API reference</a> ·
        <a href="${escapeHtml(apiPaths(g).spec)}" download="${escapeHtml(apiPaths(g).downloadName)}">openapi.yaml</a></p>
      ${table}
    </section>`;
  });
  const body = `    <h1>Open questions</h1>
    <p class="lede">What the provider's source documents do not specify, recorded in the specs as
      <code>x-unspecified</code> on the node it concerns and collected here from the bundled specs:
      <strong data-field="total">${total}</strong> in ${plural(gaps.length, "API release")}. Each row names the place (a JSON
      pointer into the release's <code>openapi.yaml</code>) and what is missing, so the provider can close them one by one.</p>
      <table class="data">
        <thead><tr><th>API</th><th>Title</th><th>Open questions</th></tr></thead>
        <tbody>
        ${overview}
        </tbody>
      </table>
${sections.join("\n")}`;
  return shell("Open questions", body, facts);
}

/** Markdown to HTML; raw HTML in the Markdown is shown as text, never interpreted. */
const markdown = new Marked({ gfm: true, renderer: { html: (html: string) => escapeHtml(html) } });

export function renderChangelog(service: string, title: string, source: string, facts: SiteFacts): string {
  // The changelog's own first heading is replaced by the page's.
  const html = markdown.parse(source.replace(/^(<!--.*?-->\s*)?# [^\n]*\n/s, ""), { async: false }) as string;
  const body = `    <h1>${escapeHtml(title)} changelog</h1>
    <p class="lede">Service <code>${escapeHtml(service)}</code> · <a href="${escapeHtml(service)}.md" download>CHANGELOG.md</a></p>
    <div class="changelog">${html}</div>`;
  return shell(`${title} changelog`, body, facts, "../");
}
