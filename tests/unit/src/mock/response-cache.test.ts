/**
 * The response cache (src/mock/response-cache.ts) on its own: at most CACHE_ENTRIES answers and
 * CACHE_BYTES bytes, the least recently used out first, an answer over a quarter of the bytes never
 * kept; the key holds method, target, headers (not the connection's own) and body bytes, and a body
 * over CACHE_MAX_REQUEST_BYTES gets no key. tests/unit/src/mock/server.slow.test.ts fills the same
 * bound through the mock's HTTP layer.
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { CACHE_BYTES, CACHE_ENTRIES, CACHE_MAX_REQUEST_BYTES } from "../../../../src/mock/limits.js";
import { cacheKey, ResponseCache } from "../../../../src/mock/response-cache.js";

const answer = (body = "{}") => ({
  status: 200,
  headers: [["Content-Type", "application/json"]] as Array<[string, string]>,
  body: Buffer.from(body),
});

describe("ResponseCache", () => {
  it(`keeps at most ${CACHE_ENTRIES} answers, the least recently used out first`, () => {
    const cache = new ResponseCache();
    for (let n = 0; n < CACHE_ENTRIES; n++) cache.set(`k${n}`, answer(String(n)));
    for (let n = 0; n < CACHE_ENTRIES; n++) expect(cache.get(`k${n}`)?.body?.toString()).toBe(String(n));
    // Each get made its key the most recently used, in order: k0 is the least recently used again.
    expect(cache.get("k0")).toBeDefined(); // now k1 is the least recently used
    cache.set(`k${CACHE_ENTRIES}`, answer());
    expect(cache.get("k1")).toBeUndefined();
    expect(cache.get("k0")).toBeDefined();
    expect(cache.get("k2")).toBeDefined();
    cache.set("k1", answer()); // k3 is the least recently used now
    expect(cache.get("k3")).toBeUndefined();
    expect(cache.get("k2")?.body?.toString()).toBe("2");
  });

  it(`keeps at most ${CACHE_BYTES} bytes, and no answer over a quarter of them`, () => {
    const cache = new ResponseCache();
    const eighth = "x".repeat(CACHE_BYTES / 8 - 300); // with its key and 256 bytes of headers, under an eighth
    for (let n = 0; n < 8; n++) cache.set(`big${n}`, answer(eighth));
    for (let n = 0; n < 8; n++) expect(cache.get(`big${n}`)).toBeDefined();
    cache.set("one-more", answer(eighth)); // over the bytes: big0, the least recently used, goes
    expect(cache.get("big0")).toBeUndefined();
    expect(cache.get("big1")).toBeDefined();
    cache.set("too-big", answer("x".repeat(CACHE_BYTES / 4)));
    expect(cache.get("too-big")).toBeUndefined();
    expect(cache.get("big2")).toBeDefined(); // and it pushed nothing out
  });

  it("replaces an answer kept under the same key, counting its bytes once", () => {
    const cache = new ResponseCache();
    const quarter = "x".repeat(CACHE_BYTES / 4 - 300);
    for (let n = 0; n < 10; n++) cache.set("same", answer(quarter));
    cache.set("other-1", answer(quarter));
    cache.set("other-2", answer(quarter));
    expect(cache.get("same")).toBeDefined(); // 3 quarters kept: replacing did not count 10
  });
});

describe("ResponseCache at its bounds", () => {
  /** An answer whose entry counts exactly `bytes` (its key, its body and 256 bytes for its headers). */
  const sized = (key: string, bytes: number) => answer("x".repeat(bytes - key.length - 256));

  it("an answer of exactly a quarter of the bytes is kept; one byte more is not", () => {
    const cache = new ResponseCache();
    cache.set("q", sized("q", CACHE_BYTES / 4));
    expect(cache.get("q")).toBeDefined();
    cache.set("r", sized("r", CACHE_BYTES / 4 + 1));
    expect(cache.get("r")).toBeUndefined();
  });

  it(`four quarters fill exactly ${CACHE_BYTES} bytes: all four kept; one byte more pushes the oldest out`, () => {
    const cache = new ResponseCache();
    for (const key of ["a", "b", "c", "d"]) cache.set(key, sized(key, CACHE_BYTES / 4));
    for (const key of ["a", "b", "c", "d"]) expect(cache.get(key), key).toBeDefined();
    cache.set("e", sized("e", 257));
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBeDefined();
  });

  it("an answer without a body is kept", () => {
    const cache = new ResponseCache();
    cache.set("no-body", { status: 204, headers: [], body: undefined });
    expect(cache.get("no-body")).toMatchObject({ status: 204, body: undefined });
  });

  it("a miss keeps nothing: it takes no room from the answers kept", () => {
    const cache = new ResponseCache();
    for (let n = 0; n < CACHE_ENTRIES; n++) cache.set(`k${n}`, answer());
    for (let n = 0; n < 10; n++) expect(cache.get(`missing${n}`)).toBeUndefined();
    cache.set("k0", answer("again"));
    for (let n = 0; n < CACHE_ENTRIES; n++) expect(cache.get(`k${n}`), `k${n}`).toBeDefined();
  });
});

describe("cacheKey", () => {
  const request = (rawHeaders: string[], url = "/v1/items?a=1") => ({ method: "POST", url, rawHeaders }) as unknown as IncomingMessage;
  const body = (text: string, present = true) => ({ present, bytes: Buffer.from(text, "latin1") });

  it("holds method, target, the headers Prism reads and the body's bytes; not the connection's own headers", () => {
    const key = cacheKey(
      request(["Host", "a:1", "Authorization", "Bearer t", "Connection", "keep-alive", "Content-Length", "2"]),
      body("{}"),
    );
    expect(key).toBe("POST /v1/items?a=1\nauthorization: Bearer t\nbody\n{}");
    expect(cacheKey(request(["Host", "b:2", "Authorization", "Bearer t"]), body("{}"))).toBe(key);
    expect(cacheKey(request(["Authorization", "Bearer u"]), body("{}"))).not.toBe(key);
    expect(cacheKey(request(["Authorization", "Bearer t"], "/v1/items?a=2"), body("{}"))).not.toBe(key);
    expect(cacheKey(request(["Authorization", "Bearer t"]), body("{ }"))).not.toBe(key);
  });

  it("tells no body from an empty one", () => {
    expect(cacheKey(request([]), body("", false))).not.toBe(cacheKey(request([]), body("")));
  });

  it(`gives no key to a body over ${CACHE_MAX_REQUEST_BYTES} bytes`, () => {
    expect(cacheKey(request([]), body("x".repeat(CACHE_MAX_REQUEST_BYTES)))).toBeDefined();
    expect(cacheKey(request([]), body("x".repeat(CACHE_MAX_REQUEST_BYTES + 1)))).toBeUndefined();
  });
});
