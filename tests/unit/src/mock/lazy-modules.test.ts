/**
 * src/mock/lazy-modules.ts defers loading faker (and Prism's Postman converter) until first use: the
 * mock starts without faker's thousands of files, and a schema that asks for faker data
 * (json-schema-faker's `faker` keyword, with `Prefer: dynamic=true`) still gets it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { loadRegistry } from "../../../../src/registry.js";
import { startMock } from "../../../../src/mock/index.js";

const require = createRequire(import.meta.url);
const fakerFiles = () =>
  Object.keys(require.cache).filter((path) => /[/\\\\]@faker-js[/\\\\]faker[/\\\\]dist[/\\\\]/.test(path) && !path.endsWith("index.js"))
    .length;

const dir = mkdtempSync(join(tmpdir(), "lazy-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("starts the mock without loading faker, and loads it when a schema asks for faker data", async () => {
  const spec = join(dir, "openapi.yaml");
  writeFileSync(
    spec,
    [
      "openapi: 3.1.0",
      "jsonSchemaDialect: https://json-schema.org/draft/2020-12/schema",
      "info: { title: faker, version: 1.0.0 }",
      "paths:",
      "  /person:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: A person",
      "          content:",
      "            application/json:",
      "              schema:",
      "                type: object",
      "                required: [name]",
      "                properties:",
      "                  name: { type: string, faker: name.firstName }",
      "",
    ].join("\n"),
  );
  const [entry] = loadRegistry();
  const mock = await startMock(entry, { port: 0, specPath: spec });
  try {
    expect(fakerFiles(), "faker's files loaded at start-up").toBe(0);
    const response = await fetch(`${mock.url}/person`, { headers: { prefer: "dynamic=true" } });
    expect(response.status).toBe(200);
    const { name } = (await response.json()) as { name: string };
    expect(typeof name).toBe("string");
    expect(name.length).toBeGreaterThan(0);
    expect(fakerFiles(), "faker loaded for the faker keyword").toBeGreaterThan(0);
  } finally {
    await mock.close();
  }
});
