/**
 * Hosted mode's deliberate differences from stock Prism (src/mock/deviations.ts DEVIATIONS
 * `rateLimit` and `hostedTimeouts`), each shown against stock Prism's own server
 * (scripts/lib/stock-prism.ts) serving the same document: a partner over its rate is answered 429
 * where stock Prism answers every request; a request whose headers do not arrive in time is
 * answered 408 and its connection closed, where stock Prism still holds it. Slow: it waits out
 * Node's own headers timeout (a second here), which no fake clock drives.
 */
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStockPrism, type StockPrism } from "../../../../scripts/lib/stock-prism.js";
import { closeMocks, type MockServer, startMock } from "../../../../src/mock/index.js";
import { DEVIATIONS } from "../../../../src/mock/validate.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const OPERATOR = "operator-token-of-the-deviation-tests";
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

let stock: StockPrism;
let hosted: MockServer;
beforeAll(async () => {
  stock = await startStockPrism(shop.bundlePath);
  hosted = await startMock(shop, {
    port: 0,
    sandbox: {
      declarationPath: join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"),
      registry: registryPath,
      operatorToken: OPERATOR,
      // The headers' time limit shortened so that the test waits a second, not ten; Node checks it every 100 ms here.
      hosted: { log: quiet, connections: { headersTimeoutMs: 1000, requestTimeoutMs: 1000, checkIntervalMs: 100 } },
    },
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([stock?.close(), hosted && closeMocks([hosted])]);
});

describe("hosted mode's deviations from stock Prism", () => {
  it("are listed", () => {
    expect(DEVIATIONS).toEqual(expect.arrayContaining(["rateLimit", "hostedTimeouts"]));
  });

  it("rateLimit: a partner over its rate gets 429 problem+json with Retry-After, named in sl-violations; stock Prism answers every request", async () => {
    const issued = await hosted.hosted!.partners.issue({ name: "Limited", quotas: { requests_per_second: 1, burst: 0 } });
    const headers = { authorization: `Bearer ${issued.credential}` };
    const send = (base: string) => Promise.all(Array.from({ length: 4 }, () => fetch(`${base}/v1/order/o-1`, { headers })));
    const [mine, theirs] = await Promise.all([send(hosted.url), send(stock.url)]);
    expect(theirs.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const limited = mine.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(2);
    for (const answer of limited) {
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(answer.headers.get("sl-violations")!)).toEqual([expect.objectContaining({ code: "sandbox-rate-limit" })]);
      expect(((await answer.json()) as { title: string }).title).toBe("Sandbox rate limit reached");
    }
  });

  it("hostedTimeouts: headers that do not arrive in time get 408 and the connection closed; stock Prism still holds it", async () => {
    const slow = (base: string): Socket => {
      const { port } = new URL(base);
      const socket = connect({ host: "127.0.0.1", port: Number(port) });
      socket.on("error", () => {});
      socket.once("connect", () => socket.write("GET /v1/order/o-1 HTTP/1.1\r\nHost: sandbox\r\nX-Slow: "));
      return socket;
    };
    const mine = slow(hosted.url);
    const theirs = slow(stock.url);
    try {
      let answered = "";
      mine.on("data", (chunk) => {
        answered += chunk;
      });
      await new Promise((resolve) => mine.once("close", resolve));
      expect(answered).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(theirs.closed).toBe(false);
    } finally {
      mine.destroy();
      theirs.destroy();
    }
  });
});
