/**
 * The mock's response cache filled to its bound through the HTTP layer (src/mock/server.ts): 1000
 * answers through Prism's pipeline, then the least recently used out first. In the full tier (a
 * thousand requests through Prism); tests/unit/src/mock/response-cache.test.ts checks the same
 * bound on the cache alone in the quick tier.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_ENTRIES } from "../../../../src/mock/limits.js";
import { createPrismServer, loadOperations, type PrismServer } from "../../../../src/mock/server.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const BEARER = { authorization: "Bearer t" };

let server: PrismServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(url: string, method: string, path: string, headers: Record<string, string>) {
  const response = await fetch(url + path, { method, headers });
  return { status: response.status, body: await response.text() };
}

describe("createPrismServer's response cache", () => {
  it("keeps at most 1000 answers in the response cache, the least recently used out first", async () => {
    server = createPrismServer(await loadOperations(shop.bundlePath));
    const url = await server.listen(0, "127.0.0.1");
    expect(CACHE_ENTRIES).toBe(1000); // the bound src/mock/limits.ts states
    const path = (n: number) => `/no-such-path/${n}`; // a 404 from Prism's routing, not a fast-path request
    for (let n = 0; n < CACHE_ENTRIES; n++) expect((await call(url, "GET", path(n), BEARER)).status).toBe(404);
    expect(server!.stats()).toEqual({ fast: 0, prism: CACHE_ENTRIES, cache: 0, judged: 0 });
    await call(url, "GET", path(0), BEARER); // a hit: 0 is now the most recently used
    expect(server!.stats().cache).toBe(1);
    await call(url, "GET", path(CACHE_ENTRIES), BEARER); // one more answer: the least recently used (1) goes
    await call(url, "GET", path(0), BEARER);
    expect(server!.stats()).toEqual({ fast: 0, prism: CACHE_ENTRIES + 1, cache: 2, judged: 0 });
    await call(url, "GET", path(1), BEARER);
    expect(server!.stats()).toEqual({ fast: 0, prism: CACHE_ENTRIES + 2, cache: 2, judged: 0 });
    // Answering 1 again made room by evicting 2, the least recently used now; 3 is still kept.
    await call(url, "GET", path(3), BEARER);
    expect(server!.stats()).toEqual({ fast: 0, prism: CACHE_ENTRIES + 2, cache: 3, judged: 0 });
    await call(url, "GET", path(2), BEARER);
    expect(server!.stats()).toEqual({ fast: 0, prism: CACHE_ENTRIES + 3, cache: 3, judged: 0 });
  });
});
