/**
 * The mock library (src/mock/) against the fixture registry in tests/fixtures/mock/: independent
 * of the real specs, except the alias lookup, which goes through the repository's registry.
 */
import { connect } from "node:net";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { closeMocks, startMock, startMocks } from "../../../../src/mock/index.js";
import { operations, loadDocument } from "../../../../src/document/index.js";
import { credentialHeaders } from "../../../../src/testing/requests.js";
import { freePortRange, isPortFree, occupyPort } from "../../../helpers/ports.js";

const fixtures = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const [shop, vault] = fixtures;

describe("startMock", () => {
  it("serves the bundled spec on a free port and stops on close()", async () => {
    const doc = loadDocument(shop.bundlePath);
    const mock = await startMock(shop, { port: 0 });
    try {
      expect(mock).toMatchObject({ alias: shop.alias, operations: operations(doc).length, auth: ["Authorization: Bearer"] });
      expect(mock.port).toBeGreaterThan(0);
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      const op = operations(doc).find((o) => o.operationId === "getOrder")!;
      const response = await fetch(`${mock.url}/v1/order/o-1`, { headers: credentialHeaders(doc, op) });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(
        doc.paths["/v1/order/{order_id}"].get.responses["200"].content["application/json"].examples.paid.value,
      );
    } finally {
      await mock.close();
    }
    await expect(fetch(`${mock.url}/v1/order/o-1`)).rejects.toThrow();
    expect(await isPortFree(mock.port)).toBe(true);
  });

  it("reports an API-key scheme by its header", async () => {
    const mock = await startMock(vault, { port: 0 });
    await mock.close();
    expect(mock.auth).toEqual(["x-api-key (header)"]);
  });

  it("looks an alias up in the registry, and names the known aliases for an unknown one", async () => {
    const [first] = loadRegistry();
    const mock = await startMock(first.alias, { port: 0 });
    await mock.close();
    expect(mock.alias).toBe(first.alias);
    await expect(startMock("no-such-api@9.9.9", { port: 0 })).rejects.toThrow(
      `known: ${loadRegistry()
        .map((e) => e.alias)
        .join(", ")}`,
    );
  });

  it("fails with the port and the alias when the port is in use", async () => {
    const held = await occupyPort();
    try {
      await expect(startMock(shop, { port: held.port })).rejects.toThrow(`${shop.alias}: port ${held.port} on 127.0.0.1 is already in use`);
    } finally {
      await held.close();
    }
  });

  it("tells to run npm run generate when the bundle is missing", async () => {
    const missing = { ...shop, bundlePath: join(repoRoot, "tests/fixtures/mock/generated/none/openapi.yaml") };
    await expect(startMock(missing, { port: 0 })).rejects.toThrow(
      /shop@1\.0\.0: bundled spec .*none\/openapi\.yaml not found; run `npm run generate`/,
    );
  });
});

describe("startMocks", () => {
  it("starts several in parallel on free ports", async () => {
    const mocks = await startMocks(fixtures, { freePorts: true });
    try {
      expect(mocks.map((m) => m.alias)).toEqual(fixtures.map((e) => e.alias));
      expect(new Set(mocks.map((m) => m.port)).size).toBe(fixtures.length);
    } finally {
      await closeMocks(mocks);
    }
  });

  it("uses portBase + registry index, and on a taken port closes the others and names it", async () => {
    const base = await freePortRange(fixtures.length);
    const mocks = await startMocks(fixtures, { portBase: base });
    expect(mocks.map((m) => m.port)).toEqual(fixtures.map((_, i) => base + i));
    await closeMocks(mocks);

    const held = await occupyPort(base + 1);
    try {
      await expect(startMocks(fixtures, { portBase: base })).rejects.toThrow(`${vault.alias}: port ${base + 1}`);
      expect(await isPortFree(base)).toBe(true);
    } finally {
      await held.close();
    }
  });
});

/** A destination keeping the JSON lines written. */
function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { stream, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const OPERATOR_TOKEN = "operator-token-for-mock-tests-01";

describe("hosted mode", () => {
  it("does not start without an operator token, and says how to give one", async () => {
    vi.stubEnv("BANK_API_CONTRACTS_OPERATOR_TOKEN", "");
    try {
      await expect(startMock(shop, { port: 0, sandbox: { hosted: true } })).rejects.toThrow(
        "hosted mode needs an operator token: set $BANK_API_CONTRACTS_OPERATOR_TOKEN",
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("logs each request with its API and operation, is ready while it serves, and drains and stops on close()", async () => {
    const { stream, records, lines } = logSink();
    const doc = loadDocument(shop.bundlePath);
    const op = operations(doc).find((o) => o.operationId === "getOrder")!;
    const mock = await startMock(shop, { port: 0, sandbox: { operatorToken: OPERATOR_TOKEN, hosted: { log: stream } } });
    const partner = await mock.hosted!.partners.issue({ name: "Shop partner" });
    const credentials = credentialHeaders(doc, op, { token: partner.credential });
    try {
      expect(mock.hosted?.health.answer()).toEqual({ status: 200, body: { status: "ready" } });
      expect((await fetch(`${mock.url}/v1/order/o-1?secret=x`, { headers: credentials })).status).toBe(200);
      expect((await fetch(`${mock.url}/v1/order/o-1`)).status).toBe(401);
      expect((await fetch(`${mock.url}/v1/order/o-1`, { headers: credentialHeaders(doc, op) })).status).toBe(401);
      expect((await fetch(`${mock.url}/nowhere`)).status).toBe(404);
    } finally {
      await mock.close();
    }
    expect(mock.hosted?.health.state).toBe("draining");
    const requests = records().filter((r) => r.msg === "request");
    expect(requests.map((r) => [r.api, r.operation, r.method, r.path, r.status, r.partner])).toEqual([
      [shop.alias, "getOrder", "GET", "/v1/order/o-1", 200, partner.id],
      [shop.alias, "getOrder", "GET", "/v1/order/o-1", 401, "unissued"],
      [shop.alias, "getOrder", "GET", "/v1/order/o-1", 401, "unissued"],
      [shop.alias, null, "GET", "/nowhere", 404, "unissued"],
    ]);
    expect(requests[0].query).toEqual(["secret"]);
    expect(records().map((r) => r.msg)).toEqual([
      "sandbox starting",
      "sandbox ready",
      "request",
      "request",
      "request",
      "request",
      "sandbox draining",
      "sandbox stopped",
    ]);
    for (const value of [...Object.values(credentials), ...Object.values(credentialHeaders(doc, op))])
      expect(lines.join("\n")).not.toContain(String(value).replace(/^Bearer /, ""));
  });

  it("applies the shared callback policy on a loopback interface, where a local sandbox is local", async () => {
    const hosted = await startMock(shop, { port: 0, sandbox: { operatorToken: OPERATOR_TOKEN, hosted: { log: logSink().stream } } });
    const local = await startMock(shop, { port: 0, sandbox: true });
    try {
      expect(hosted.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      const sharing = async (url: string) =>
        ((await (await fetch(`${url}/_sandbox`)).json()) as { sharing: { mode: string } }).sharing.mode;
      expect(await sharing(hosted.url)).toBe("shared");
      expect(await sharing(local.url)).toBe("local");
    } finally {
      await closeMocks([hosted, local]);
    }
  });

  it("guards the server's connections with the settings given, logging what it refuses", async () => {
    const { stream, records } = logSink();
    const mock = await startMock(shop, {
      port: 0,
      sandbox: { operatorToken: OPERATOR_TOKEN, hosted: { log: stream, connections: { maxConnectionsPerAddress: 2 } } },
    });
    const sockets = Array.from({ length: 5 }, () => connect({ host: "127.0.0.1", port: mock.port, localAddress: "127.0.0.9" }));
    try {
      // Three are closed by the server at once; two stay open.
      await new Promise<void>((resolve) => {
        let closed = 0;
        for (const socket of sockets) {
          socket.on("error", () => {});
          socket.once("close", () => ++closed === 3 && resolve());
        }
      });
      expect(sockets.filter((s) => !s.closed)).toHaveLength(2);
      expect((await fetch(`${mock.url}/nowhere`)).status).toBe(404);
    } finally {
      for (const socket of sockets) socket.destroy();
      await mock.close();
    }
    expect(records().filter((r) => r.msg === "connection refused")).toEqual([
      expect.objectContaining({ level: "warn", reason: "max-connections-per-address", address: "127.0.0.9" }),
    ]);
    expect(records().find((r) => r.msg === "connections refused")).toMatchObject({ address: "127.0.0.9", count: 2 });
  });

  it("through startMocks: one service for every mock, ready once they all listen", async () => {
    const { stream, records } = logSink();
    const mocks = await startMocks([shop, vault], { freePorts: true, sandbox: { operatorToken: OPERATOR_TOKEN, hosted: { log: stream } } });
    try {
      expect(mocks[0].hosted).toBeDefined();
      expect(mocks[1].hosted).toBe(mocks[0].hosted);
      expect(mocks[0].hosted?.health.state).toBe("ready");
      expect(records().filter((r) => r.msg === "sandbox ready")).toHaveLength(1);
    } finally {
      await closeMocks(mocks);
    }
    expect(records().map((r) => r.msg)).toEqual(["sandbox starting", "sandbox ready", "sandbox draining", "sandbox stopped"]);
  });
});
