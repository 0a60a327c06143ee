/**
 * The registry the generic tests run over, each API's bundled document, and its generated client
 * (scripts/lib/test-client.ts).
 * `BANK_API_REGISTRY=<path to a redocly.yaml>` points the tests at another registry (one whose APIs
 * have been generated); by default it is the repository's redocly.yaml.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
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

/** `[name, case]` rows for `it.each(...)("%s", (_, c) => ...)`: the name shown whole and unquoted. */
export function named<T extends { name: string }>(cases: T[]): Array<[string, T]> {
  return cases.map((c) => [c.name, c]);
}
