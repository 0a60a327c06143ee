/**
 * src/registry.ts: reading `apis:` of a redocly.yaml, and each way a registry can be wrong, named in
 * the error with the file; the derived paths, ports, newest release and client factory names.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clientNames, compareReleases, defaultPort, findApi, loadRegistry } from "../../../src/registry.js";

const dir = mkdtempSync(join(tmpdir(), "registry-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** Writes a registry file with `text` and returns its path. */
function registryFile(text: string): string {
  const path = join(dir, `redocly-${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}

describe("loadRegistry", () => {
  it("derives paths, ports and the newest release of each service, in file order", () => {
    const path = registryFile(
      "apis:\n  shop@1.1.0:\n    root: specs/shop/1.1.0/openapi.yaml\n  shop@1.0.0:\n    root: specs/shop/1.0.0/openapi.yaml\n  key-store@2.0.0:\n    root: ks.yaml\n",
    );
    const registry = loadRegistry(path);
    expect(registry.map((e) => [e.alias, e.service, e.release, e.index, e.latest])).toEqual([
      ["shop@1.1.0", "shop", "1.1.0", 0, true],
      ["shop@1.0.0", "shop", "1.0.0", 1, false],
      ["key-store@2.0.0", "key-store", "2.0.0", 2, true],
    ]);
    expect(registry[0].rootPath).toBe(join(dir, "specs/shop/1.1.0/openapi.yaml"));
    expect(registry[1].bundlePath).toBe(join(dir, "generated/shop/1.0.0/openapi.yaml"));
    expect(registry[2].clientPath).toBe(join(dir, "generated/key-store/2.0.0/client.ts"));
    expect(registry.map((e) => defaultPort(e))).toEqual([4010, 4011, 4012]);
    expect(defaultPort(registry[2], 5000)).toBe(5002);
  });

  it.each([
    ["a missing file", undefined, /registry not found/],
    ["no apis", "extends: []\n", /no APIs under "apis:"/],
    ["an empty apis map", "apis: {}\n", /no APIs under "apis:"/],
    [
      "an alias without a release",
      "apis:\n  shop:\n    root: a.yaml\n",
      /apis key "shop" is not of the form <service>@<major\.minor\.patch>/,
    ],
    ["an alias with a two-part release", "apis:\n  shop@1.0:\n    root: a.yaml\n", /apis key "shop@1\.0" is not of the form/],
    ["an upper-case service", "apis:\n  Shop@1.0.0:\n    root: a.yaml\n", /apis key "Shop@1\.0\.0" is not of the form/],
    ["an entry without root", "apis:\n  shop@1.0.0:\n    rules: {}\n", /apis\.shop@1\.0\.0\.root is missing/],
  ])("refuses %s, naming the file", (_, text, message) => {
    const path = text === undefined ? join(dir, "absent.yaml") : registryFile(text);
    expect(() => loadRegistry(path)).toThrow(message);
    expect(() => loadRegistry(path)).toThrow(path);
  });
});

describe("findApi", () => {
  const registry = loadRegistry(registryFile("apis:\n  shop@1.0.0:\n    root: a.yaml\n  vault@2.1.0:\n    root: b.yaml\n"));

  it("finds an alias", () => {
    expect(findApi("vault@2.1.0", registry).service).toBe("vault");
  });

  it("names every known alias when the alias is unknown", () => {
    expect(() => findApi("shop@9.9.9", registry)).toThrow('unknown API "shop@9.9.9"; known: shop@1.0.0, vault@2.1.0');
  });
});

describe("compareReleases", () => {
  it("orders by major, minor, patch as numbers", () => {
    expect(["1.10.0", "1.2.0", "1.2.10", "1.2.9", "0.9.9"].sort(compareReleases)).toEqual(["0.9.9", "1.2.0", "1.2.9", "1.2.10", "1.10.0"]);
  });
});

describe("clientNames", () => {
  const registry = loadRegistry(
    registryFile("apis:\n  payment-initiation@1.0.0:\n    root: a.yaml\n  pay@1.3.0:\n    root: b.yaml\n  pay@1.2.0:\n    root: c.yaml\n"),
  );
  it.each([
    [
      "payment-initiation@1.0.0",
      { service: "PaymentInitiation", versioned: "PaymentInitiationV100", names: ["PaymentInitiationV100", "PaymentInitiation"] },
    ],
    ["pay@1.3.0", { service: "Pay", versioned: "PayV130", names: ["PayV130", "Pay"] }],
    ["pay@1.2.0", { service: "Pay", versioned: "PayV120", names: ["PayV120"] }],
  ])("%s", (alias, expected) => {
    expect(clientNames(findApi(alias, registry))).toEqual(expected);
  });
});
