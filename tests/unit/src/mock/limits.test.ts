/**
 * src/mock/limits.ts's bounds and src/mock/prism.ts's configuration of Prism, each module evaluated
 * afresh in the test that reads it (its values are computed as it loads): the bounds prism-http-server
 * sets are the ones it sets, the others are the ones this package documents; the mock runs Prism on
 * its examples, checks security, validates both ways and reports without blocking, and the logger
 * it hands Prism says nothing.
 */
import { expect, it } from "vitest";
import { freshModule } from "../../../helpers/fresh-module.js";

/** A new instance of `src/mock/<name>.ts`, evaluated now. */
const fresh = <T>(name: string) => freshModule<T>(`src/mock/${name}.ts`);

const KIB = 1024;
const MIB = 1024 * KIB;

it("bounds what a request can make the mock spend as prism-http-server does, and as documented", async () => {
  const limits = await fresh<typeof import("../../../../src/mock/limits.js")>("limits");
  expect({ ...limits }).toStrictEqual({
    // prism-http-server reads a body with `{ limit: '10mb' }` (bytes: 10 x 2^20).
    MAX_BODY_BYTES: 10 * MIB,
    MAX_DRAIN_BYTES: 64 * MIB,
    MAX_DRAIN_MS: 5000,
    MAX_JSON_DEPTH: 1000,
    // docs/adr/0002-large-bodies-in-a-worker.md: bodies over 256 KiB are judged by a worker.
    LARGE_BODY_BYTES: 256 * KIB,
    // prism-http-server's MAX_SAFE_HEADER_LENGTH: 8 * 1024 - 100.
    MAX_SAFE_HEADER_LENGTH: 8092,
    MAX_LISTED_VIOLATIONS: 100,
    MAX_UNKNOWN_MEMBERS: 10,
    ROUTES_KEPT: 1000,
    CACHE_ENTRIES: 1000,
    CACHE_BYTES: 16 * MIB,
    CACHE_MAX_REQUEST_BYTES: 64 * KIB,
  });
});

it("runs Prism on the spec's examples, checking security, validating both ways, reporting without blocking", async () => {
  const prism = await fresh<typeof import("../../../../src/mock/prism.js")>("prism");
  expect(prism.mockConfig).toStrictEqual({
    mock: { dynamic: false },
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
  });
  const upstream = new URL("https://bank.example.test/v1");
  expect(prism.proxyConfig(upstream)).toStrictEqual({ ...prism.mockConfig, isProxy: true, upstream });
});

it("hands Prism a logger that is silent at every level of Prism's (pino's and its own `success`), and is its own child", async () => {
  const { silentLogger } = await fresh<typeof import("../../../../src/mock/prism.js")>("prism");
  expect(silentLogger.level).toBe("silent");
  for (const level of ["trace", "debug", "info", "success", "warn", "error", "fatal"]) {
    const log = silentLogger[level] as (...args: unknown[]) => unknown;
    expect(typeof log, level).toBe("function");
    expect(log("a message with a secret")).toBeUndefined();
  }
  expect((silentLogger.child as () => unknown)()).toBe(silentLogger);
});
