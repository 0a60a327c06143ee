/**
 * src/mock/lazy-modules.ts defers loading faker and json-schema-faker (and Prism's reading of a spec
 * file, its Postman and Swagger 2 converters, the forwarder's HTTP client and proxy agents, prism-core's pino, lodash/fp)
 * until first use: the mock starts without them, and a schema that asks for faker data
 * (json-schema-faker's `faker` keyword, with `Prefer: dynamic=true`) still gets it, with Prism's
 * generator options.
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
/** Files of a package that only the deferred modules load (json-schema-faker's, the proxy agents', pino's). */
const filesOf = (name: string) =>
  Object.keys(require.cache).filter((path) => path.replaceAll("\\", "/").includes(`/node_modules/${name}/`)).length;
const OPTIONAL = Array.from({ length: 12 }, (_, i) => `optional${i}`);
/** Files only Prism's getHttpOperationsFromSpec (prism-http's utils/operations.js) loads. */
const SPEC_READING = ["@stoplight/json-schema-ref-parser", "@stoplight/http-spec/oas3"];
const DEFERRED = ["jsonpath-plus", "agent-base", "@stoplight/prism-core/node_modules/pino/lib", "lodash/fp"];

const dir = mkdtempSync(join(tmpdir(), "lazy-modules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("imports the mock without Prism's spec reading and starts it without faker, loading each when first needed", async () => {
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
      // Optional: Prism's generator options fill every one of them (alwaysFakeOptionals).
      ...OPTIONAL.map((key) => `                  ${key}: { type: integer }`),
      "",
    ].join("\n"),
  );
  const [entry] = loadRegistry();
  // Importing the mock reads none of Prism's spec reading (its $ref parser, http-spec's OpenAPI 3 converter).
  for (const name of SPEC_READING) expect(filesOf(name), `${name} loaded by importing the mock`).toBe(0);
  const mock = await startMock(entry, { port: 0, specPath: spec });
  try {
    // A spec given by path is read by Prism's getHttpOperationsFromSpec: the stand-in loaded it.
    for (const name of SPEC_READING) expect(filesOf(name), `${name} loaded to read the spec`).toBeGreaterThan(0);
    expect(fakerFiles(), "faker's files loaded at start-up").toBe(0);
    for (const name of DEFERRED) expect(filesOf(name), `${name} loaded at start-up`).toBe(0);
    const response = await fetch(`${mock.url}/person`, { headers: { prefer: "dynamic=true" } });
    expect(response.status).toBe(200);
    const { name, ...optional } = (await response.json()) as { name: string };
    expect(typeof name).toBe("string");
    expect(name.length).toBeGreaterThan(0);
    // Prism's options, given to json-schema-faker before it loaded, apply.
    expect(Object.keys(optional).sort()).toEqual([...OPTIONAL].sort());
    expect(fakerFiles(), "faker loaded for the faker keyword").toBeGreaterThan(0);
    expect(filesOf("jsonpath-plus"), "json-schema-faker loaded for a dynamic answer").toBeGreaterThan(0);
  } finally {
    await mock.close();
  }
});
