/**
 * `npm run docs:build [-- --out DIR] [--config FILE] [--if-stale] [--port-base N]`: the static
 * documentation site, generic over the registry (redocly.yaml `apis:`), from the bundled specs in
 * generated/, for mocks on ports N, N+1, ... in registry order (default 4010: the ports the home
 * page's table and each reference page's console name):
 *
 *   index.html                          what to read first, where each API is served locally, every API
 *                                       grouped by service (releases side by side), the control API
 *   guides/index.html, guides/<name>.html every docs/guides/*.md (scripts/docs/guides.ts), whatever is there
 *   open-questions.html                 every x-unspecified of every spec (scripts/lib/gaps.ts)
 *   apis/<service>/<release>/index.html the reference and its request console (Scalar: scripts/docs/reference.ts)
 *   apis/<service>/<release>/openapi.yaml the bundled spec, which the page renders and offers for download
 *   sandbox/index.html, sandbox/openapi.yaml the sandbox control API (src/sandbox/openapi.yaml), when
 *                                       the registry's folder has it; its console's servers: every mock port
 *   changelogs/<service>.html|.md       when the service has a CHANGELOG.md (see findChangelogs)
 *   assets/scalar.<hash>.js             the one local Scalar bundle every reference page loads
 *   assets/reference.<hash>.js, assets/site.<hash>.css
 *
 * Assets are named by a hash of their content, so a server may let browsers keep them for good
 * (scripts/docs/serve.ts); every file of a compressible type over 1 KiB also gets a brotli (`.br`)
 * and a gzip (`.gz`) copy beside it, made here once rather than on every request (a hashed asset's
 * copies are kept between builds in `<tmpdir>/bank-api-contracts-<uid>/docs-compressed/`, by content
 * hash: brotli's best setting takes seconds on the Scalar bundle).
 *
 * Nothing on the site loads from another host. The output folder (default site/) is replaced
 * as a whole; a folder that is not a previous build is never deleted. Exit 1 when the build fails
 * (the error as `docs:build: <message>`), 2 on bad arguments.
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { integer } from "../../src/cli/options.js";
import { defaultCacheDir } from "../../src/mock/operations-cache.js";
import { runCommand, runProgram, script } from "../lib/cli.js";
import { collectRegistryGaps } from "../lib/gaps.js";
import { loadDocument } from "../../src/document/index.js";
import { DEFAULT_PORT_BASE, defaultPort, loadRegistry, repoRoot } from "../../src/registry.js";
import { findGuides, GUIDES_DIR, renderGuideHtml, repositoryFiles } from "./guides.js";
import {
  apiPaths,
  changelogPage,
  renderChangelog,
  renderGuide,
  renderGuidesIndex,
  renderIndex,
  renderOpenQuestions,
  type SiteFacts,
} from "./pages.js";
import {
  type ConsoleServer,
  frameOf,
  type PageAssets,
  patchedScalar,
  renderReferencePage,
  scalarBundlePath,
  scalarVersion,
} from "./reference.js";
import { summarize } from "./summary.js";

export const DEFAULT_OUT_DIR = join(repoRoot, "site");
export const TEMPLATE_DIR = join(repoRoot, "docs");
/** Written into every build; only a folder holding it may be replaced. */
export const MARKER = ".docs-site.json";

/** Types that get compressed copies (`.br`, `.gz`), when over COMPRESS_ABOVE bytes. */
export const COMPRESSIBLE = new Set([".html", ".js", ".css", ".yaml", ".md", ".json", ".svg", ".txt"]);
const COMPRESS_ABOVE = 1024;
/** A content-hashed asset's name: `assets/<name>.<10 hex>.<ext>`. */
export const HASHED_ASSET = /^assets\/[\w-]+\.[0-9a-f]{10}\.(?:js|css)$/;

/** Where a build is assembled before it replaces `outDir` (removed when the build fails). */
export const stagingDir = (outDir: string) => `${resolve(outDir)}.building-${process.pid}`;

export interface BuildOptions {
  outDir?: string;
  configPath?: string;
  /** Skip the build when outDir holds a build of the same inputs. */
  ifStale?: boolean;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** The first mock's port: the ports the pages name (default 4010). */
  portBase?: number;
}

export interface BuildResult {
  outDir: string;
  skipped: boolean;
  /** Registry aliases, in registry order. */
  apis: string[];
  gaps: number;
  ms: number;
}

/**
 * A service's changelog, first found of: changelogs/<service>.md, changelogs/<service>/CHANGELOG.md,
 * specs/<service>/CHANGELOG.md (relative to the registry's folder).
 */
export function findChangelogs(baseDir: string, services: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const service of services) {
    const candidates = [`changelogs/${service}.md`, `changelogs/${service}/CHANGELOG.md`, `specs/${service}/CHANGELOG.md`];
    const hit = candidates.map((c) => join(baseDir, c)).find((p) => existsSync(p));
    if (hit) found.set(service, hit);
  }
  return found;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
}

/** The sandbox control API's document beside a registry (the package's own has one). */
export const sandboxDocument = (baseDir: string) => join(baseDir, "src/sandbox/openapi.yaml");
const SANDBOX_PAGE = "sandbox/index.html";
const SANDBOX_SPEC = "sandbox/openapi.yaml";

/** Everything the site is made from: registry, bundles, changelogs, guides, templates, the code that writes it, Scalar. */
function inputFiles(configPath: string, bundlePaths: string[], changelogs: string[]): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const code = ["build.ts", "pages.ts", "guides.ts", "reference.ts", "summary.ts"].map((name) => join(here, name));
  const sandbox = sandboxDocument(dirname(configPath));
  return [
    configPath,
    ...bundlePaths,
    ...(existsSync(sandbox) ? [sandbox] : []),
    ...changelogs,
    ...filesUnder(TEMPLATE_DIR),
    ...filesUnder(join(dirname(configPath), GUIDES_DIR)),
    join(repoRoot, "package.json"),
    ...code,
    join(repoRoot, "scripts/lib/gaps.ts"),
    scalarBundlePath,
  ];
}

/** A content hash of each input, by path relative to the repository (the build marker keeps them). */
function inputHashes(files: string[], portBase: number): Record<string, string> {
  const hashes: Record<string, string> = { "@scalar/api-reference": scalarVersion, "port base": String(portBase) };
  for (const file of files) hashes[relative(repoRoot, file)] = createHash("sha256").update(readFileSync(file)).digest("hex");
  return hashes;
}

/** The inputs whose hash differs between two builds (added, removed or changed). */
function changedInputs(before: Record<string, string> | undefined, after: Record<string, string>): string[] {
  if (!before) return ["(no record of the previous build's inputs)"];
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]).sort();
}

function readMarker(outDir: string): { inputs?: Record<string, string>; gaps?: number } | undefined {
  try {
    return JSON.parse(readFileSync(join(outDir, MARKER), "utf8"));
  } catch {
    return undefined;
  }
}

/** A console server on this machine's loopback. */
const localServer = (port: number, description: string): ConsoleServer => ({ url: `http://127.0.0.1:${port}`, description });

/** The servers a bundled spec declares, for the console after the local one. */
function specServers(bundlePath: string): ConsoleServer[] {
  const servers = (loadDocument(bundlePath).servers ?? []) as ConsoleServer[];
  return servers.map(({ url, description, variables }) => ({
    url,
    description: `${description ?? url} (the provider's: this site's console reaches local servers only)`,
    ...(variables ? { variables } : {}),
  }));
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

/** Writes `assets/<name>.<hash>.<ext>` into `stage`; its path relative to the site root. */
function writeAsset(stage: string, name: string, content: string | Buffer): string {
  const hash = createHash("sha256").update(content).digest("hex").slice(0, 10);
  const ext = extname(name);
  const path = `assets/${name.slice(0, -ext.length)}.${hash}${ext}`;
  writeFileSync(join(stage, path), content);
  return path;
}

/**
 * The folder where compressed copies of hashed assets are kept between builds (whatever their
 * output folder): `<tmpdir>/bank-api-contracts-<uid>/docs-compressed`, used only when it is a
 * directory of this user closed to others; undefined otherwise.
 */
function compressedCache(): string | undefined {
  const dir = join(defaultCacheDir(), "docs-compressed");
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const folder of [defaultCacheDir(), dir]) {
      const stat = lstatSync(folder);
      if (!stat.isDirectory() || (process.getuid && (stat.uid !== process.getuid() || (stat.mode & 0o077) !== 0))) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

const ENCODERS = {
  ".br": (content: Buffer) =>
    brotliCompressSync(content, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
    }),
  ".gz": (content: Buffer) => gzipSync(content, { level: zlib.Z_BEST_COMPRESSION }),
};

/**
 * A brotli (best setting) and a gzip copy of every file of `stage` of a compressible type over
 * COMPRESS_ABOVE bytes. A hashed asset's copies are taken from `previous` (the build being
 * replaced) or from the cache of compressed copies when either has them, and kept in that cache.
 */
function compressAll(stage: string, previous: string): void {
  const cache = compressedCache();
  for (const file of filesUnder(stage)) {
    const path = relative(stage, file);
    if (path === MARKER || !COMPRESSIBLE.has(extname(file)) || statSync(file).size <= COMPRESS_ABOVE) continue;
    const content = readFileSync(file);
    const hashed = HASHED_ASSET.test(path);
    const key = hashed ? createHash("sha256").update(content).digest("hex") : "";
    for (const [suffix, encode] of Object.entries(ENCODERS)) {
      const kept = [join(previous, path + suffix), ...(cache ? [join(cache, key + suffix)] : [])].find((p) => hashed && existsSync(p));
      if (kept) {
        copyFileSync(kept, file + suffix);
        continue;
      }
      const encoded = encode(content);
      writeFileSync(file + suffix, encoded);
      if (hashed && cache) {
        // Written aside and renamed: a build at the same time never reads half a copy.
        const aside = join(cache, `${key}${suffix}.${process.pid}`);
        writeFileSync(aside, encoded);
        renameSync(aside, join(cache, key + suffix));
      }
    }
  }
}

export async function buildDocs(options: BuildOptions = {}): Promise<BuildResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const configPath = resolve(options.configPath ?? join(repoRoot, "redocly.yaml"));
  const baseDir = dirname(configPath);
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const registry = loadRegistry(configPath);

  const missing = registry.filter((e) => !existsSync(e.bundlePath));
  if (missing.length > 0) {
    throw new Error(
      `bundled spec missing for ${missing.map((e) => `${e.alias} (${e.generatedDir}/openapi.yaml)`).join(", ")}; run \`npm run generate\` first`,
    );
  }
  const services = [...new Set(registry.map((e) => e.service))];
  const changelogs = findChangelogs(baseDir, services);
  const portBase = options.portBase ?? DEFAULT_PORT_BASE;
  const inputs = inputHashes(
    inputFiles(
      configPath,
      registry.map((e) => e.bundlePath),
      [...changelogs.values()],
    ),
    portBase,
  );

  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    const marker = readMarker(outDir);
    if (!marker)
      throw new Error(
        `${outDir} exists and is not a docs build (no ${MARKER}); refusing to replace it. Choose another --out or remove it.`,
      );
    if (options.ifStale) {
      const changed = changedInputs(marker.inputs, inputs);
      if (changed.length === 0) {
        log(`docs: ${relative(process.cwd(), outDir) || "."} is up to date`);
        return { outDir, skipped: true, apis: registry.map((e) => e.alias), gaps: marker.gaps ?? 0, ms: Date.now() - started };
      }
      log(`docs: rebuilding, changed since the last build: ${changed.join(", ")}`);
    }
  }

  // Build next to the output and swap at the end, so a failed build leaves the previous site whole.
  const stage = stagingDir(outDir);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, "assets"), { recursive: true });
  try {
    const assets: PageAssets = {
      scalar: writeAsset(stage, "scalar.js", patchedScalar(readFileSync(scalarBundlePath, "utf8"))),
      script: writeAsset(stage, "reference.js", readFileSync(join(TEMPLATE_DIR, "reference.js"))),
      style: writeAsset(stage, "site.css", readFileSync(join(TEMPLATE_DIR, "site.css"))),
    };
    const facts: SiteFacts = { scalarVersion, style: assets.style, portBase };
    const port = (entry: (typeof registry)[number]) => defaultPort(entry, portBase);

    const summaries = registry.map((entry) => summarize(entry));
    const gaps = collectRegistryGaps(registry);
    const writePage = (page: string, html: string) => {
      const external = externalResources(html);
      if (external.length > 0) throw new Error(`${page} would load from other hosts: ${external.join(", ")}`);
      mkdirSync(dirname(join(stage, page)), { recursive: true });
      writeFileSync(join(stage, page), html);
    };

    for (const entry of registry) {
      const paths = apiPaths(entry);
      const summary = summaries[entry.index];
      mkdirSync(join(stage, paths.dir), { recursive: true });
      cpSync(entry.bundlePath, join(stage, paths.spec));
      const html = renderReferencePage({
        title: `${summary.title} ${entry.release} · API reference`,
        label: entry.alias,
        siteRoot: paths.siteRoot,
        specUrl: "openapi.yaml",
        servers: [localServer(port(entry), `${entry.alias}'s local mock or sandbox`), ...specServers(entry.bundlePath)],
        kind: "api",
        alias: entry.alias,
        frame: frameOf(loadDocument(entry.bundlePath)),
        assets,
      });
      writePage(paths.page, html);
      log(`docs: ${entry.alias.padEnd(28)} ${paths.page} (${Math.round(Buffer.byteLength(html) / 1024)} KiB)`);
    }

    const sandbox = sandboxDocument(baseDir);
    const hasSandbox = existsSync(sandbox);
    if (hasSandbox) {
      mkdirSync(join(stage, dirname(SANDBOX_PAGE)), { recursive: true });
      cpSync(sandbox, join(stage, SANDBOX_SPEC));
      writePage(
        SANDBOX_PAGE,
        renderReferencePage({
          title: "Sandbox control API · reference",
          label: "sandbox control API",
          siteRoot: "../",
          specUrl: "openapi.yaml",
          // The control API is served under /_sandbox/ on every mock's port.
          servers: registry.map((entry) => localServer(port(entry), `${entry.alias}'s sandbox (mock --sandbox)`)),
          kind: "sandbox",
          frame: frameOf(loadDocument(sandbox)),
          assets,
        }),
      );
      log(`docs: sandbox control API      ${SANDBOX_PAGE}`);
    }

    const guides = findGuides(join(baseDir, GUIDES_DIR));
    const context = {
      guides: new Set(guides.map((g) => g.name)),
      changelogs: new Set(changelogs.keys()),
      repositoryFiles: repositoryFiles(JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"))),
    };
    for (const guide of guides) {
      writePage(guide.page, renderGuide(guide, renderGuideHtml(guide.source, context), guides, facts));
      log(`docs: guide ${guide.page} (from ${relative(baseDir, guide.file)})`);
    }
    writePage("guides/index.html", renderGuidesIndex(guides, facts));

    for (const [service, file] of changelogs) {
      const title = summaries.find((s) => s.entry.service === service && s.entry.latest)?.title ?? service;
      const page = join(stage, changelogPage(service));
      mkdirSync(dirname(page), { recursive: true });
      const markdown = readFileSync(file, "utf8");
      writeFileSync(page, renderChangelog(service, title, markdown, facts));
      writeFileSync(join(stage, `changelogs/${service}.md`), markdown);
      log(`docs: changelog ${changelogPage(service)} (from ${relative(baseDir, file)})`);
    }

    writePage(
      "index.html",
      renderIndex(summaries, gaps, changelogs, facts, hasSandbox ? { page: SANDBOX_PAGE, spec: SANDBOX_SPEC } : undefined, guides),
    );
    writePage("open-questions.html", renderOpenQuestions(summaries, gaps, facts));
    const total = gaps.reduce((n, g) => n + g.gaps.length, 0);
    compressAll(stage, outDir);
    writeFileSync(
      join(stage, MARKER),
      `${JSON.stringify({ apis: registry.map((e) => e.alias), gaps: total, scalar: scalarVersion, portBase, inputs }, null, 2)}\n`,
    );

    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(dirname(outDir), { recursive: true });
    renameSync(stage, outDir);
    const ms = Date.now() - started;
    log(
      `docs: ${registry.length} API page(s), ${guides.length} guide(s), ${total} open question(s) -> ${relative(process.cwd(), outDir) || "."} in ${ms} ms`,
    );
    return { outDir, skipped: false, apis: registry.map((e) => e.alias), gaps: total, ms };
  } catch (error) {
    rmSync(stage, { recursive: true, force: true });
    throw error;
  }
}

function program() {
  return script("docs:build")
    .description("Build the static documentation site for every API in the registry")
    .option("--out <dir>", "output folder (default: site/); replaced as a whole")
    .option("--config <file>", "registry to read (default: redocly.yaml at the repository root)")
    .option("--if-stale", "do nothing when the output folder already holds a build of the same inputs")
    .option(
      "--port-base <n>",
      "the first mock's port, which the pages name; the APIs take N, N+1, ... in registry order",
      integer("--port-base", 1, 65535),
    )
    .action(async (options: { out?: string; config?: string; ifStale?: boolean; portBase?: number }) => {
      await buildDocs({
        outDir: options.out,
        configPath: options.config,
        ifStale: options.ifStale,
        log: (line) => console.log(line),
        ...(options.portBase === undefined ? {} : { portBase: options.portBase }),
      });
    });
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
