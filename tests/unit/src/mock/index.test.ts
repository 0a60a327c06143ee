/**
 * The mock library (src/mock/) against the fixture registry in tests/fixtures/mock/: independent
 * of the real specs, except the alias lookup, which goes through the repository's registry.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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
