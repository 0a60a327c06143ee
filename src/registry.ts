/**
 * The registry: reads `apis:` from redocly.yaml and derives every path and default port from it.
 * Nothing else in the repository keeps a list of APIs.
 *
 * Shared by the repository's scripts and tests and by the
 * published package, which ships redocly.yaml and the bundled specs at its root: the package root
 * is the nearest folder above this module that holds a package.json, so the same lookup works from
 * src/ (run by tsx) and from dist/src/ (the build).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The folder holding package.json and redocly.yaml: the repository, or the installed package. */
export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
/** Same as packageRoot; the name the repository's scripts and tests use. */
export const repoRoot = packageRoot;
/** The registry the package and the scripts read by default. */
export const defaultRegistryPath = join(packageRoot, "redocly.yaml");
export const DEFAULT_PORT_BASE = 4010;

export interface ApiEntry {
  /** Registry alias, `<service>@<release>`, e.g. `pay@1.3.0`. */
  alias: string;
  service: string;
  release: string;
  /** Position in the registry; the default mock port is the base port plus this index. */
  index: number;
  /** Root spec file, relative to the repository root. */
  root: string;
  /** Root spec file, absolute. */
  rootPath: string;
  /** Folder of the generated files, relative to the repository root: generated/<service>/<release>. */
  generatedDir: string;
  /** Bundled single-file spec, absolute. */
  bundlePath: string;
  /** openapi-typescript output, absolute. */
  schemaPath: string;
  /** Generated client factory, absolute. */
  clientPath: string;
  /** True when this is the newest release of its service in the registry. */
  latest: boolean;
}

const ALIAS = /^([a-z][a-z0-9-]*)@(\d+\.\d+\.\d+)$/;

export function compareReleases(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

export function loadRegistry(configPath = defaultRegistryPath): ApiEntry[] {
  if (!existsSync(configPath)) throw new Error(`${configPath}: registry not found`);
  const config = parse(readFileSync(configPath, "utf8")) as { apis?: Record<string, { root?: string }> };
  const apis = config?.apis;
  if (!apis || typeof apis !== "object" || Object.keys(apis).length === 0) {
    throw new Error(`${configPath}: no APIs under "apis:"`);
  }
  const base = dirname(configPath);
  const entries = Object.entries(apis).map(([alias, value], index): ApiEntry => {
    const match = ALIAS.exec(alias);
    if (!match) throw new Error(`${configPath}: apis key "${alias}" is not of the form <service>@<major.minor.patch>`);
    if (!value?.root) throw new Error(`${configPath}: apis.${alias}.root is missing`);
    const [, service, release] = match;
    const generatedDir = `generated/${service}/${release}`;
    return {
      alias,
      service,
      release,
      index,
      root: value.root,
      rootPath: resolve(base, value.root),
      generatedDir,
      bundlePath: resolve(base, generatedDir, "openapi.yaml"),
      schemaPath: resolve(base, generatedDir, "schema.ts"),
      clientPath: resolve(base, generatedDir, "client.ts"),
      latest: false,
    };
  });
  for (const entry of entries) {
    const newest = entries
      .filter((e) => e.service === entry.service)
      .map((e) => e.release)
      .sort(compareReleases)
      .at(-1);
    entry.latest = newest === entry.release;
  }
  return entries;
}

export function defaultPort(entry: ApiEntry, portBase = DEFAULT_PORT_BASE): number {
  return portBase + entry.index;
}

const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * The names of an API's client factories, `create<name>Client`: `pay` + `1.3.0` -> `PayV130`, and for
 * the newest release of a service also the bare service name (`Pay`); `payment-initiation` -> `PaymentInitiation`.
 */
export function clientNames(entry: ApiEntry) {
  const service = pascal(entry.service);
  const versioned = `${service}V${entry.release.replaceAll(".", "")}`;
  return { service, versioned, names: entry.latest ? [versioned, service] : [versioned] };
}

/** Looks an alias up; the error names every known alias. */
export function findApi(alias: string, registry = loadRegistry()): ApiEntry {
  const entry = registry.find((e) => e.alias === alias);
  if (!entry) {
    throw new Error(`unknown API "${alias}"; known: ${registry.map((e) => e.alias).join(", ")}`);
  }
  return entry;
}
