/** scripts/generate.ts over the fixture registry: output files, names, determinism and --check. */
import { execFile } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "../../../src/registry.js";
import { generateFixture, runGenerate, type Fixture } from "./generate-fixture.js";

const script = join(repoRoot, "scripts/generate.ts");

/** Runs the script as `npm run generate` does, for its exit code. */
async function spawnGenerate(args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, ...args], { cwd: repoRoot });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let fx: Fixture;
const read = (file: string) => readFileSync(join(fx.dir, "generated", file), "utf8");
const files = ["shop/1.1.0", "shop/1.0.0", "key-store/1.0.0"].flatMap((d) =>
  ["openapi.yaml", "schema.ts", "client.ts"].map((f) => `${d}/${f}`),
);

beforeAll(async () => {
  fx = await generateFixture();
});
afterAll(() => fx?.remove());

describe("generate", () => {
  it("writes the three files of every API, each with a do-not-edit header naming the source and command", () => {
    for (const file of files) {
      const first = read(file).split("\n")[0];
      expect(first).toMatch(/^(#|\/\/) Generated from specs\/.+\/openapi\.yaml \(.+@\d+\.\d+\.\d+\) by `npm run generate`.*Do not edit\.$/);
    }
  });

  it("bundles to one file that keeps x- extensions and internal $refs", () => {
    const text = read("shop/1.1.0/openapi.yaml");
    const doc = parse(text);
    expect(doc.servers.map((s: { "x-environment": string }) => s["x-environment"])).toEqual(["sandbox", "live"]);
    expect(doc.components.schemas.Item.properties.price["x-unspecified"]).toBe("currency is not given");
    expect(doc.paths["/v1/items"].post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Item" });
    expect(text).not.toMatch(/\$ref: ['"]?\.\.?\//); // no file references left
  });

  it("writes openapi-typescript types", () => {
    const schema = read("shop/1.1.0/schema.ts");
    expect(schema).toContain("export interface paths");
    expect(schema).toContain('ItemStatus: "Draft" | "Listed" | "Sold";');
  });

  it("names factories after the service and release; the plain name only for the newest release", async () => {
    const latest = await fx.load("shop/1.1.0/client.ts");
    const previous = await fx.load("shop/1.0.0/client.ts");
    const keys = await fx.load("key-store/1.0.0/client.ts");
    expect(
      Object.keys(latest)
        .filter((k) => k.startsWith("create"))
        .sort(),
    ).toEqual(["createShopClient", "createShopV110Client"]);
    expect(Object.keys(previous).filter((k) => k.startsWith("create"))).toEqual(["createShopV100Client"]);
    expect(
      Object.keys(keys)
        .filter((k) => k.startsWith("create"))
        .sort(),
    ).toEqual(["createKeyStoreClient", "createKeyStoreV100Client"]);
  });

  it("exports servers and the auth kind from the spec", async () => {
    const shop = await fx.load("shop/1.1.0/client.ts");
    const keys = await fx.load("key-store/1.0.0/client.ts");
    expect(shop.servers).toEqual([
      { environment: "sandbox", url: "https://sandbox.{shop_domain}/api", variables: { shop_domain: { default: "shop.example.com" } } },
      { environment: "live", url: "https://{shop_domain}/api", variables: { shop_domain: { default: "shop.example.com" } } },
    ]);
    expect(shop.auth).toEqual({ kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" });
    expect(keys.auth).toEqual({ kind: "apiKey", scheme: "apiKeyAuth", header: "x-api-key", option: "apiKey" });
    expect(keys.servers[1].variables.region).toEqual({ default: "eu", enum: ["eu", "us"] });
  });

  it("keeps the per-API client free of logic: it imports the shared runtime", () => {
    const client = read("shop/1.1.0/client.ts");
    expect(client).toContain('from "../../../../../src/client/index.js"');
    expect(client).not.toMatch(/\bfetch\(|headers\.set|new Request/);
  });

  it("is deterministic: a second run writes nothing", async () => {
    const before = files.map(read);
    const again = await runGenerate(["--config", fx.config]);
    expect(again.code).toBe(0);
    expect(again.stdout.split("\n")).toEqual([
      expect.stringMatching(/^shop@1\.1\.0 +generated\/shop\/1\.1\.0: unchanged$/),
      expect.stringMatching(/^shop@1\.0\.0 +generated\/shop\/1\.0\.0: unchanged$/),
      expect.stringMatching(/^key-store@1\.0\.0 +generated\/key-store\/1\.0\.0: unchanged$/),
      expect.stringMatching(/^registry types +generated\/registry-types\.ts: unchanged$/),
      expect.stringMatching(/^misspelt-field type tests +tests\/apis\/fields\.test-d\.ts: unchanged$/),
    ]);
    expect(files.map(read)).toEqual(before);
  });

  it("writes the registry's aliases and each API's operationIds as literal types (generated/registry-types.ts)", () => {
    const types = read("registry-types.ts");
    expect(types.split("\n")[0]).toMatch(/^\/\/ Generated from the registry .* by `npm run generate`.*Do not edit\.$/);
    expect(types).toContain('import type { operations as ShopV110Operations } from "./shop/1.1.0/schema.js";');
    expect(types.match(/^ {2}"[^"]+": keyof \w+Operations & string;$/gm)).toEqual([
      '  "shop@1.1.0": keyof ShopV110Operations & string;',
      '  "shop@1.0.0": keyof ShopV100Operations & string;',
      '  "key-store@1.0.0": keyof KeyStoreV100Operations & string;',
    ]);
    expect(types).toContain("export type ApiAlias = keyof RegistryOperations;");
  });
});

describe("generate --check", () => {
  it("passes when generated/ is fresh", async () => {
    const result = await runGenerate(["--check", "--config", fx.config]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("fails listing every stale, missing and extra file, with the command that fixes it", async () => {
    const generated = join(fx.dir, "generated");
    const stale = read("shop/1.0.0/schema.ts");
    const missing = read("key-store/1.0.0/client.ts");
    appendFileSync(join(generated, "shop/1.0.0/schema.ts"), "// edited by hand\n");
    rmSync(join(generated, "key-store/1.0.0/client.ts"));
    mkdirSync(join(generated, "gone/1.0.0"), { recursive: true });
    writeFileSync(join(generated, "gone/1.0.0/client.ts"), "// an API no longer in the registry\n");
    try {
      const result = await spawnGenerate(["--check", "--config", fx.config]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/stale +generated\/shop\/1\.0\.0\/schema\.ts/);
      expect(result.stderr).toMatch(/missing +generated\/key-store\/1\.0\.0\/client\.ts/);
      expect(result.stderr).toMatch(/extra +generated\/gone\/1\.0\.0\/client\.ts/);
      expect(result.stderr).toContain("npm run generate");
      expect(result.stderr.match(/^ +(stale|missing|extra) /gm)).toHaveLength(3);

      // A normal run repairs all three.
      const repaired = await runGenerate(["--config", fx.config]);
      expect(repaired.code).toBe(0);
      expect(repaired.stdout).toContain("removed generated/gone/1.0.0/client.ts");
      expect(read("shop/1.0.0/schema.ts")).toBe(stale);
      expect(read("key-store/1.0.0/client.ts")).toBe(missing);
    } finally {
      writeFileSync(join(generated, "shop/1.0.0/schema.ts"), stale);
      writeFileSync(join(generated, "key-store/1.0.0/client.ts"), missing);
      rmSync(join(generated, "gone"), { recursive: true, force: true });
    }
  });
});

describe("misuse", () => {
  it("prints one error line and the hint, and exits 2, on an unknown flag, a positional argument or a missing value", async () => {
    const cases: Array<[string[], string]> = [
      [["--bogus"], "error: unknown option '--bogus'"],
      [["pay@1.3.0"], "error: too many arguments. Expected 0 arguments but got 1."],
      [["--config"], "error: option '--config <file>' argument missing"],
    ];
    for (const [args, line] of cases) {
      const result = await runGenerate(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(`${line}\n(add --help for usage)`);
    }
  });

  it("fails with the bundler's message and writes nothing when a spec does not bundle", async () => {
    const dir = join(fx.dir, "broken");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "redocly.yaml"),
      "apis:\n  shop@1.1.0:\n    root: ../specs/shop/1.1.0/openapi.yaml\n  shop@9.0.0:\n    root: specs/shop/9.0.0/openapi.yaml\n",
    );
    const result = await runGenerate(["--config", join(dir, "redocly.yaml")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /shop@9\.0\.0: bundling specs\/shop\/9\.0\.0\/openapi\.yaml failed:\n.*specs\/shop\/9\.0\.0\/openapi\.yaml/,
    );
    expect(existsSync(join(dir, "generated"))).toBe(false);
  });
});
