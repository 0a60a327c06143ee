/**
 * The connection settings of hosted mode (src/hosted/connections.ts): defaults that keep thousands of
 * slow connections from one or a few addresses from taking the others offline, within the process's
 * file descriptors, and an operator's settings checked against their bounds.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONNECTION_SETTINGS, connectionSettings, DEFAULT_CONNECTIONS } from "../../../../src/hosted/connections.js";

describe("the defaults", () => {
  it("are the documented ones", () => {
    expect(DEFAULT_CONNECTIONS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      checkIntervalMs: 1000,
      maxConnections: 4096,
      maxConnectionsPerAddress: 64,
    });
    expect(connectionSettings()).toEqual(DEFAULT_CONNECTIONS);
  });

  it("let at least 60 addresses at their cap in before the total is reached", () => {
    expect(DEFAULT_CONNECTIONS.maxConnections / DEFAULT_CONNECTIONS.maxConnectionsPerAddress).toBeGreaterThanOrEqual(60);
  });

  it("keep the total under this machine's file descriptors (Node raises its soft limit to the hard one)", () => {
    const limits = readFileSync("/proc/self/limits", "utf8");
    const hard = Number(/^Max open files\s+\d+\s+(\d+|unlimited)/m.exec(limits)?.[1] ?? Number.POSITIVE_INFINITY);
    expect(DEFAULT_CONNECTIONS.maxConnections).toBeLessThan(Number.isNaN(hard) ? Number.POSITIVE_INFINITY : hard);
  });
});

describe("an operator's settings", () => {
  it("replace their defaults, one by one", () => {
    expect(connectionSettings({ maxConnectionsPerAddress: 0, headersTimeoutMs: 2000 })).toEqual({
      ...DEFAULT_CONNECTIONS,
      maxConnectionsPerAddress: 0,
      headersTimeoutMs: 2000,
    });
  });

  it.each([
    [{ maxConnections: 0 }, "the hosted sandbox's maxConnections must be an integer from 1 to 1000000, got 0"],
    [{ maxConnectionsPerAddress: -1 }, "the hosted sandbox's maxConnectionsPerAddress must be an integer from 0 to 1000000, got -1"],
    [{ headersTimeoutMs: 999 }, "the hosted sandbox's headersTimeoutMs must be an integer from 1000 to 600000, got 999"],
    [{ requestTimeoutMs: 1.5e3 + 0.5 }, "the hosted sandbox's requestTimeoutMs must be an integer from 1000 to 3600000, got 1500.5"],
    [{ checkIntervalMs: 50 }, "the hosted sandbox's checkIntervalMs must be an integer from 100 to 30000, got 50"],
    [
      { headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 },
      "the hosted sandbox's headersTimeoutMs (20000) must not exceed its requestTimeoutMs (10000)",
    ],
  ])("%o is refused, naming the setting", (given, message) => {
    expect(() => connectionSettings(given)).toThrow(new RangeError(message));
  });

  it("have a bound for every setting", () => {
    expect(Object.keys(CONNECTION_SETTINGS).sort()).toEqual(Object.keys(DEFAULT_CONNECTIONS).sort());
  });
});
