/**
 * The definitions the declaration's modules make when they load, each module loaded as a new
 * instance by the test (tests/helpers/fresh-module.ts) and its exports used:
 *
 * - src/sandbox/declaration.ts: a declaration trusted for its bytes (`trustDeclaration`) is read
 *   without its statuses checked against the document again (the check it passed stands in), so an
 *   initial status the schema does not allow is read as written.
 * - src/sandbox/declaration-schema.ts: the declaration file's JSON Schema, compiled with Ajv as the
 *   check compiles it, on the fixture declaration (tests/fixtures/sandbox/shop.sandbox.yaml): a
 *   `source` is `<the provider's document by title>, line <n>` (src/sandbox/README.md), the example
 *   its description gives among them; a list of statuses (`status.values`, an expiry's `from`) has
 *   at least one status, each a string.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type * as DeclarationModule from "../../../../src/sandbox/declaration.js";
import { bytesHash } from "../../../../src/sandbox/declaration-file.js";
import type * as SchemaModule from "../../../../src/sandbox/declaration-schema.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const fixturePath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const fixture = readFileSync(fixturePath, "utf8");
const work = mkdtempSync(join(repoRoot, ".tmp", "declaration-definitions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a trusted declaration", () => {
  it("is read without its statuses checked again: an initial status the schema does not allow is read as written", async () => {
    const { loadDeclaration, trustDeclaration } = await freshModule<typeof DeclarationModule>("src/sandbox/declaration.ts");
    const path = join(work, "trusted.sandbox.yaml");
    writeFileSync(path, fixture.replace("initial: CREATED", "initial: SHIPPED"));
    const doc = loadDocument(shop.bundlePath);
    trustDeclaration(doc, path, bytesHash(readFileSync(path)));
    const declaration = loadDeclaration(path, doc);
    expect(declaration.resources.order.status?.initial).toBe("SHIPPED");
    expect(Object.keys(declaration.operations)).toEqual(["createOrder", "listOrders", "getOrder", "updateOrder", "deleteOrder"]);
  });
});

describe("the declaration file's schema", () => {
  /** The fresh instance's schema, compiled as the declaration check compiles it. */
  const compiled = async () => {
    const { DECLARATION_SCHEMA } = await freshModule<typeof SchemaModule>("src/sandbox/declaration-schema.ts");
    return { schema: DECLARATION_SCHEMA, validate: new Ajv2020({ allErrors: true, strict: false }).compile(DECLARATION_SCHEMA) };
  };
  /** The fixture declaration, parsed, with `change` made to it. */
  const changed = (change: (declaration: any) => void) => {
    const declaration = parse(fixture);
    change(declaration);
    return declaration;
  };
  /** Where and by which keyword the schema refuses `declaration` ([] when it accepts it). */
  const refusals = (validate: Awaited<ReturnType<typeof compiled>>["validate"], declaration: unknown) =>
    validate(declaration) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);

  it("accepts the fixture declaration", async () => {
    const { validate } = await compiled();
    expect(refusals(validate, parse(fixture))).toEqual([]);
  });

  it("refuses a source that is not a document's title and a line, and accepts the example its description gives", async () => {
    const { schema, validate } = await compiled();
    const source = (value: string) =>
      refusals(
        validate,
        changed((d) => {
          d.resources.order.source = value;
        }),
      );
    expect(source("the docs")).toEqual(["/resources/order/source pattern"]);
    expect(source("Pay Service Interface, line 7")).toEqual([]);
    const description: string = (schema.properties.resources.additionalProperties.properties.source as { description: string }).description;
    const example = description.slice(description.lastIndexOf(": ") + 2);
    expect(example).toMatch(/^Pay Service Interface, line \d+$/);
    expect(source(example)).toEqual([]);
  });

  it("refuses a list of statuses that is empty or holds a status that is not a string", async () => {
    const { validate } = await compiled();
    const values = (list: unknown[]) =>
      refusals(
        validate,
        changed((d) => {
          d.resources.order.status.values = list;
        }),
      );
    expect(values([])).toEqual(["/resources/order/status/values minItems"]);
    expect(values([1])).toEqual(["/resources/order/status/values/0 type"]);
    expect(values(["CREATED", "PAID", "Created"])).toEqual([]);
    const expiryFrom = refusals(
      validate,
      changed((d) => {
        d.resources.order.expiry.from = [];
      }),
    );
    expect(expiryFrom).toEqual(["/resources/order/expiry/from minItems"]);
  });
});
