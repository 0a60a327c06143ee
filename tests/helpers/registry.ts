/**
 * The registry the generic tests run over, each API's bundled document, and its generated client.
 * `BANK_API_REGISTRY=<path to a redocly.yaml>` points the tests at another registry (one whose APIs
 * have been generated); by default it is the repository's redocly.yaml.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type ApiEntry, loadRegistry, repoRoot } from "../../src/registry.js";
import { type Doc, loadDocument } from "../../src/document/index.js";
import { TEST_API_KEY, TEST_TOKEN } from "../../src/testing/requests.js";

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

/** An openapi-fetch client: one function per upper-case HTTP method. */
export type AnyClient = Record<string, (path: string, init?: any) => Promise<{ data?: unknown; error?: unknown; response: Response }>>;

/**
 * A client for this release, made by its generated factory `create<Service>V<release digits>Client`
 * (which every release has; only the newest also has the plain `create<Service>Client`), with a
 * test credential in the option the generated module's `auth` names.
 */
export async function createTestClient(entry: ApiEntry, baseUrl: string): Promise<AnyClient> {
  const module = (await import(pathToFileURL(entry.clientPath).href)) as Record<string, unknown>;
  const suffix = `V${entry.release.replace(/\./g, "")}Client`;
  const names = Object.keys(module).filter(
    (name) => name.startsWith("create") && name.endsWith(suffix) && typeof module[name] === "function",
  );
  if (names.length !== 1) {
    throw new Error(`${entry.clientPath}: expected one create...${suffix} export, found ${names.join(", ") || "none"}`);
  }
  const auth = module.auth as { option?: "accessToken" | "apiKey" } | undefined;
  const credential =
    auth?.option === "accessToken" ? { accessToken: TEST_TOKEN } : auth?.option === "apiKey" ? { apiKey: TEST_API_KEY } : {};
  return (module[names[0]] as (options: object) => AnyClient)({ baseUrl, ...credential });
}

/** `[name, case]` rows for `it.each(...)("%s", (_, c) => ...)`: the name shown whole and unquoted. */
export function named<T extends { name: string }>(cases: T[]): Array<[string, T]> {
  return cases.map((c) => [c.name, c]);
}
