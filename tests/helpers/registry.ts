/**
 * The registry the generic tests run over, each API's bundled document, and its generated client
 * (scripts/lib/test-client.ts).
 * `BANK_API_REGISTRY=<path to a redocly.yaml>` points the tests at another registry (one whose APIs
 * have been generated); by default it is the repository's redocly.yaml.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ApiEntry, loadRegistry, repoRoot } from "../../src/registry.js";
import { type Doc, loadDocument } from "../../src/document/index.js";

export const registryPath = process.env.BANK_API_REGISTRY ? resolve(repoRoot, process.env.BANK_API_REGISTRY) : undefined;

export const registry: ApiEntry[] = loadRegistry(registryPath);

export interface BundledApi {
  entry: ApiEntry;
  doc: Doc;
}

/** The APIs whose bundle exists, with the parsed bundle. */
export const bundled: BundledApi[] = registry
  .filter((entry) => existsSync(entry.bundlePath))
  .map((entry) => ({ entry, doc: loadDocument(entry.bundlePath) }));

export { type AnyClient, createTestClient } from "../../scripts/lib/test-client.js";

/**
 * The alias of the source document an entry serves, `<service>@<release>` from its root spec's folder
 * (`specs/pay/1.3.0/openapi.yaml`: `pay@1.3.0`). In the repository's registry it is the entry's own
 * alias; in a registry of copies (the benchmark's), every copy maps to its original, so counts
 * written by hand from the sources still apply.
 */
export function sourceAlias(entry: ApiEntry): string {
  const match = /specs\/([^/]+)\/([^/]+)\/[^/]+$/.exec(entry.rootPath.replaceAll("\\", "/"));
  if (!match) throw new Error(`${entry.alias}: root spec ${entry.rootPath} is not under specs/<service>/<release>/`);
  return `${match[1]}@${match[2]}`;
}

/** `[name, case]` rows for `it.each(...)("%s", (_, c) => ...)`: the name shown whole and unquoted. */
export function named<T extends { name: string }>(cases: T[]): Array<[string, T]> {
  return cases.map((c) => [c.name, c]);
}

export interface ValidationTarget {
  alias: string;
  specPath: string;
  doc: Doc;
}

/**
 * What the mock's request validation is compared with stock Prism on: every registered API, and the
 * mock library's fixtures (tests/fixtures/mock and tests/fixtures/mock-quirks: parameter styles,
 * header parameters, security alternatives, form and text bodies... that the real specs do not use).
 */
export function validationTargets(): ValidationTarget[] {
  const quirks = join(repoRoot, "tests/fixtures/mock-quirks/openapi.yaml");
  return [
    ...bundled.map((api) => ({ alias: api.entry.alias, specPath: api.entry.bundlePath, doc: api.doc })),
    ...loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml")).map((entry) => ({
      alias: `${entry.alias} (fixture)`,
      specPath: entry.bundlePath,
      doc: loadDocument(entry.bundlePath),
    })),
    { alias: "quirks@1.0.0 (fixture)", specPath: quirks, doc: loadDocument(quirks) },
  ];
}
