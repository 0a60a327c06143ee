/**
 * Redoc pages without the network. `redocly build-docs` (the pinned @redocly/cli, Redoc 3) renders a
 * page that imports Redoc from the Redocly CDN; `--inlineBundle` would embed the 2.3 MB bundle in
 * every page. Instead the site carries one local copy of the bundle that ships inside @redocly/cli
 * (the very file `--inlineBundle` reads), and each page imports it by a relative URL:
 *
 * - `localRedocBundle()` returns that copy, with the two images it would fetch from cdn.redoc.ly
 *   (the "API docs by Redoc" logo) replaced by inline SVG data URLs, and its sha384 integrity.
 * - `buildRedocPage()` runs build-docs for one API and `localizePage()` points the page's module
 *   import and modulepreload at the local copy.
 * - `externalResources()` lists what a page would still load from another host (the build fails
 *   when it finds any).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { redoclyCli as locateRedoclyCli, redoclyPackageDir, withoutRedoclyBanner } from "../../src/redocly.js";

const run = promisify(execFile);
const _require = createRequire(import.meta.url);

export const redoclyCli = locateRedoclyCli("building the docs");
const redoclyDir = redoclyPackageDir("building the docs");
export const redoclyVersion: string = JSON.parse(readFileSync(join(redoclyDir, "package.json"), "utf8")).version;
/** The Redoc standalone bundle build-docs embeds with `--inlineBundle`. */
export const redocBundlePath = join(redoclyDir, "lib/chunks/redoc.standalone.js");

/** The bundle's own images on cdn.redoc.ly, and what replaces them. */
const LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/(logo-mini(?:-full)?)\.svg/g;
const logoSvg = (full: boolean) =>
  full
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="44" height="14" viewBox="0 0 44 14"><text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="700" fill="#0044D4">Redoc</text></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" viewBox="0 0 14 14"><text x="2" y="11" font-family="sans-serif" font-size="11" font-weight="700" fill="#0044D4">R</text></svg>`;
const dataUrl = (svg: string) => `data:image/svg+xml,${encodeURIComponent(svg)}`;

export interface LocalBundle {
  content: string;
  /** `sha384-...`, for the pages' modulepreload integrity. */
  integrity: string;
  /** Redoc's version, from the bundle's banner. */
  version: string;
}

export function localRedocBundle(): LocalBundle {
  let source: string;
  try {
    source = readFileSync(redocBundlePath, "utf8");
  } catch {
    throw new Error(
      `Redoc bundle not found at ${redocBundlePath}: the installed @redocly/cli ${redoclyVersion} no longer ships it where scripts/docs/redoc.ts expects; update redocBundlePath`,
    );
  }
  let replaced = 0;
  const content = source.replace(LOGO, (_, name: string) => {
    replaced++;
    return dataUrl(logoSvg(name.endsWith("-full")));
  });
  // (The bundle also knows an icon CDN, cdn.redocly.com/icons, used only for icons a Redocly config
  // names; build-docs pages name none, and the browser tests record every request.)
  if (replaced === 0 || content.includes("cdn.redoc.ly/")) {
    throw new Error(
      `${redocBundlePath}: the Redoc bundle's CDN images changed (@redocly/cli ${redoclyVersion}); update LOGO in scripts/docs/redoc.ts so the site stays offline`,
    );
  }
  const version = /Version:\s*([\w.-]+)/.exec(source.slice(0, 400))?.[1] ?? "unknown";
  return { content, integrity: `sha384-${createHash("sha384").update(content).digest("base64")}`, version };
}

/** build-docs's CDN import: `https://cdn.redocly.com/redoc/v<version>/bundles/redoc.standalone.js`. */
const CDN_BUNDLE = /https:\/\/cdn\.redocly\.com\/redoc\/v[^"'\s]+\/bundles\/redoc\.standalone\.js/g;
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]*)" integrity="[^"]*" crossorigin="anonymous" \/>/g;

/**
 * Points a build-docs page at the local bundle (`bundleUrl`, relative to the page) and makes the
 * server-rendered links hash routes, as Redoc's client router renders them (`/tag/op` -> `#/tag/op`),
 * so that they work before hydration and when opened in a new tab.
 */
export function localizePage(html: string, bundleUrl: string, integrity: string): string {
  let imports = 0;
  let out = html.replace(CDN_BUNDLE, () => {
    imports++;
    return bundleUrl;
  });
  if (imports === 0 || !out.includes(`import { hydrate } from "${bundleUrl}"`)) {
    throw new Error(
      `build-docs (@redocly/cli ${redoclyVersion}) no longer imports Redoc from ${CDN_BUNDLE.source}; update localizePage in scripts/docs/redoc.ts`,
    );
  }
  out = out.replace(MODULE_PRELOAD, (_, href: string) => `<link rel="modulepreload" href="${href}" integrity="${integrity}" />`);
  out = out.replace(
    /<a ([^>]*?)href="\/([^"]*)" data-discover="true"/g,
    (_, before: string, route: string) => `<a ${before}href="#/${route}" data-discover="true"`,
  );
  return out;
}

/**
 * Resources a page would load from another host: `src`, `srcset`, `<link href>`, CSS `url()` and
 * `@import`, and ES module imports that name an absolute http(s) URL. Plain `<a href>` links (which
 * load nothing until followed) are not resources.
 */
export function externalResources(html: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\ssrc(?:set)?=["']?\s*((?:https?:)?\/\/[^"'\s>]+)/gi,
    /<link\b[^>]*\shref=["']?((?:https?:)?\/\/[^"'\s>]+)/gi,
    /url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi,
    /@import\s+["']((?:https?:)?\/\/[^"']+)/gi,
    /\bimport\s*(?:[^"'();]*?\bfrom\s*)?["']((?:https?:)?\/\/[^"']+)["']/g,
  ];
  for (const pattern of patterns) for (const match of html.matchAll(pattern)) found.add(match[1]);
  return [...found];
}

export interface RedocPageOptions {
  /** The bundled spec to render. */
  specPath: string;
  outFile: string;
  /** Handlebars page template (`{{{redocHead}}}`, `{{{redocHTML}}}`, `{{title}}`, `{{templateOptions.*}}`). */
  template: string;
  title: string;
  /** Values for `{{templateOptions.<name>}}`. */
  templateOptions: Record<string, string>;
  /** Redocly config (for its `openapi:` Redoc options). */
  configPath: string;
  cwd: string;
}

/** Runs `redocly build-docs` for one spec; the error carries the CLI's output without its banner. */
export async function buildRedocPage(options: RedocPageOptions): Promise<void> {
  const args = [
    redoclyCli,
    "build-docs",
    options.specPath,
    "--output",
    options.outFile,
    "--template",
    options.template,
    "--title",
    options.title,
    "--config",
    options.configPath,
    ...Object.entries(options.templateOptions).flatMap(([name, value]) => [`--templateOptions.${name}`, value]),
  ];
  try {
    await run(process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true", NO_COLOR: "1" },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`build-docs failed for ${options.specPath}:\n${withoutRedoclyBanner(`${stderr}\n${stdout}`) || String(error)}`);
  }
}
