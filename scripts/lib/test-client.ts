/**
 * A generated client with a test credential, for the tests and the benchmark: each release's
 * factory `create<Service>V<release digits>Client` (which every release has; only the newest also
 * has the plain `create<Service>Client`), loaded from generated/<service>/<release>/client.ts, with
 * the test token or key in the option the generated module's `auth` names.
 */
import { pathToFileURL } from "node:url";
import { type ApiEntry, clientNames } from "../../src/registry.js";
import { TEST_API_KEY, TEST_TOKEN } from "../../src/testing/requests.js";

/** An openapi-fetch client: one function per upper-case HTTP method. */
export type AnyClient = Record<string, (path: string, init?: any) => Promise<{ data?: unknown; error?: unknown; response: Response }>>;

export async function createTestClient(entry: ApiEntry, baseUrl: string): Promise<AnyClient> {
  const module = (await import(pathToFileURL(entry.clientPath).href)) as Record<string, unknown>;
  const name = `create${clientNames(entry).versioned}Client`;
  if (typeof module[name] !== "function") throw new Error(`${entry.clientPath}: no ${name} export`);
  const auth = module.auth as { option?: "accessToken" | "apiKey" } | undefined;
  const credential =
    auth?.option === "accessToken" ? { accessToken: TEST_TOKEN } : auth?.option === "apiKey" ? { apiKey: TEST_API_KEY } : {};
  return (module[name] as (options: object) => AnyClient)({ baseUrl, ...credential });
}
