/**
 * `npm run docs:build [-- --out DIR] [--config FILE] [--if-stale]`: the static documentation site,
 * generic over the registry (redocly.yaml `apis:`), from the bundled specs in generated/:
 *
 *   index.html                          every API grouped by service, releases side by side
 *   open-questions.html                 every x-unspecified of every spec (scripts/lib/gaps.ts)
 *   apis/<service>/<release>/index.html Redoc page (redocly build-docs)
 *   apis/<service>/<release>/openapi.yaml the bundled spec, for download
 *   sandbox/index.html, sandbox/openapi.yaml the sandbox control API (src/sandbox/openapi.yaml), when
 *                                       the registry's folder has it
 *   changelogs/<service>.html|.md       when the service has a CHANGELOG.md (see findChangelogs)
 *   assets/redoc.standalone.js          the one local Redoc bundle every API page imports
 *   assets/site.css
 *
 * Nothing on the site loads from another host. The output folder (default site/) is replaced
 * as a whole; a folder that is not a previous build is never deleted. Exit 1 when the build fails
 * (the error as `docs:build: <message>`), 2 on bad arguments.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runCommand, runProgram, script } from "../lib/cli.js";
import { collectRegistryGaps } from "../lib/gaps.js";
import { loadRegistry, repoRoot } from "../../src/registry.js";
import { apiPaths, changelogPage, renderChangelog, renderIndex, renderOpenQuestions, type SiteFacts } from "./pages.js";
import { buildRedocPage, externalResources, localizePage, localRedocBundle, redoclyVersion, redocBundlePath } from "./redoc.js";
import { summarize } from "./summary.js";

export const DEFAULT_OUT_DIR = join(repoRoot, "site");
export const TEMPLATE_DIR = join(repoRoot, "docs");
/** Written into every build; only a folder holding it may be replaced. */
export const MARKER = ".docs-site.json";
const REDOC_ASSET = "assets/redoc.standalone.js";

/** Where a build is assembled before it replaces `outDir` (removed when the build fails). */
export const stagingDir = (outDir: string) => `${resolve(outDir)}.building-${process.pid}`;

export interface BuildOptions {
  outDir?: string;
  configPath?: string;
  /** Skip the build when outDir holds a build of the same inputs. */
  ifStale?: boolean;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
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

/** Everything the site is made from: registry, bundles, changelogs, templates, the code that writes it, Redoc. */
/** The sandbox control API's document beside a registry (the package's own has one). */
export const sandboxDocument = (baseDir: string) => join(baseDir, "src/sandbox/openapi.yaml");
const SANDBOX_PAGE = "sandbox/index.html";
const SANDBOX_SPEC = "sandbox/openapi.yaml";

function inputFiles(configPath: string, bundlePaths: string[], changelogs: string[]): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const code = ["build.ts", "pages.ts", "redoc.ts", "summary.ts"].map((name) => join(here, name));
  const sandbox = sandboxDocument(dirname(configPath));
  return [
    configPath,
    ...bundlePaths,
    ...(existsSync(sandbox) ? [sandbox] : []),
    ...changelogs,
    ...filesUnder(TEMPLATE_DIR),
    ...code,
    join(repoRoot, "scripts/lib/gaps.ts"),
    redocBundlePath,
  ];
}

/** A content hash of each input, by path relative to the repository (the build marker keeps them). */
function inputHashes(files: string[]): Record<string, string> {
  const hashes: Record<string, string> = { "@redocly/cli": redoclyVersion };
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

/** Runs `work` over `items`, at most `limit` at a time; rejects with every failure's message. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const errors: string[] = [];
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
        try {
          await work(item);
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
    }),
  );
  if (errors.length > 0) throw new Error(errors.join("\n\n"));
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
  const inputs = inputHashes(
    inputFiles(
      configPath,
      registry.map((e) => e.bundlePath),
      [...changelogs.values()],
    ),
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
    const bundle = localRedocBundle();
    writeFileSync(join(stage, REDOC_ASSET), bundle.content);
    cpSync(join(TEMPLATE_DIR, "site.css"), join(stage, "assets/site.css"));
    const facts: SiteFacts = { redocVersion: bundle.version, redoclyVersion };

    const summaries = registry.map((entry) => summarize(entry));
    const gaps = collectRegistryGaps(registry);

    await pool(registry, Math.max(1, Math.min(availableParallelism(), 4)), async (entry) => {
      const paths = apiPaths(entry);
      const summary = summaries[entry.index];
      const outFile = join(stage, paths.page);
      mkdirSync(dirname(outFile), { recursive: true });
      cpSync(entry.bundlePath, join(stage, paths.spec));
      const t0 = Date.now();
      await buildRedocPage({
        specPath: entry.bundlePath,
        outFile,
        template: join(TEMPLATE_DIR, "redoc-page.hbs"),
        title: `${summary.title} ${entry.release} · API reference`,
        templateOptions: { siteRoot: paths.siteRoot, alias: entry.alias, anchor: entry.alias, downloadName: paths.downloadName },
        configPath,
        cwd: baseDir,
      });
      const html = localizePage(readFileSync(outFile, "utf8"), paths.siteRoot + REDOC_ASSET, bundle.integrity);
      const external = externalResources(html);
      if (external.length > 0) throw new Error(`${entry.alias}: the Redoc page would load from other hosts: ${external.join(", ")}`);
      writeFileSync(outFile, html);
      log(`docs: ${entry.alias.padEnd(28)} ${paths.page} (${Math.round(Buffer.byteLength(html) / 1024)} KiB, ${Date.now() - t0} ms)`);
    });

    const sandbox = sandboxDocument(baseDir);
    const hasSandbox = existsSync(sandbox);
    if (hasSandbox) {
      const outFile = join(stage, SANDBOX_PAGE);
      mkdirSync(dirname(outFile), { recursive: true });
      cpSync(sandbox, join(stage, SANDBOX_SPEC));
      await buildRedocPage({
        specPath: sandbox,
        outFile,
        template: join(TEMPLATE_DIR, "redoc-page.hbs"),
        title: "Sandbox control API · reference",
        templateOptions: { siteRoot: "../", alias: "sandbox control API", anchor: "", downloadName: "sandbox-control-openapi.yaml" },
        configPath,
        cwd: baseDir,
      });
      const html = localizePage(readFileSync(outFile, "utf8"), `../${REDOC_ASSET}`, bundle.integrity);
      const external = externalResources(html);
      if (external.length > 0) throw new Error(`sandbox control API: the Redoc page would load from other hosts: ${external.join(", ")}`);
      writeFileSync(outFile, html);
      log(`docs: sandbox control API      ${SANDBOX_PAGE}`);
    }

    for (const [service, file] of changelogs) {
      const title = summaries.find((s) => s.entry.service === service && s.entry.latest)?.title ?? service;
      const page = join(stage, changelogPage(service));
      mkdirSync(dirname(page), { recursive: true });
      const markdown = readFileSync(file, "utf8");
      writeFileSync(page, renderChangelog(service, title, markdown, facts));
      writeFileSync(join(stage, `changelogs/${service}.md`), markdown);
      log(`docs: changelog ${changelogPage(service)} (from ${relative(baseDir, file)})`);
    }

    writeFileSync(
      join(stage, "index.html"),
      renderIndex(summaries, gaps, changelogs, facts, hasSandbox ? { page: SANDBOX_PAGE, spec: SANDBOX_SPEC } : undefined),
    );
    writeFileSync(join(stage, "open-questions.html"), renderOpenQuestions(summaries, gaps, facts));
    for (const page of ["index.html", "open-questions.html"]) {
      const external = externalResources(readFileSync(join(stage, page), "utf8"));
      if (external.length > 0) throw new Error(`${page} would load from other hosts: ${external.join(", ")}`);
    }
    const total = gaps.reduce((n, g) => n + g.gaps.length, 0);
    writeFileSync(
      join(stage, MARKER),
      `${JSON.stringify({ apis: registry.map((e) => e.alias), gaps: total, redoc: bundle.version, inputs }, null, 2)}\n`,
    );

    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(dirname(outDir), { recursive: true });
    renameSync(stage, outDir);
    const ms = Date.now() - started;
    log(`docs: ${registry.length} API page(s), ${total} open question(s) -> ${relative(process.cwd(), outDir) || "."} in ${ms} ms`);
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
    .action(async (options: { out?: string; config?: string; ifStale?: boolean }) => {
      await buildDocs({ outDir: options.out, configPath: options.config, ifStale: options.ifStale, log: (line) => console.log(line) });
    });
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
