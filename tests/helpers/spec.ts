/**
 * The seed-conformance tests (tests/specs/<service>-<release>.test.ts) compare one bundled spec
 * with its source document. This holds what they share: the bundle and its schemas, `$ref`
 * following, allOf-merged properties, the source's type notation (`seedType`), Ajv validation of
 * a component schema, and the parsers for the tables the tests are written in.
 */
import { findApi } from "../../src/registry.js";
import { type SpecValidator, specValidator } from "./ajv.js";
import { deref as follow, loadDocument, operations } from "../../src/document/index.js";

export type Schema = Record<string, any>;

/** A field table in the source's notation, `name type; name type`, as `{ name: type }`. */
export const fields = (spec: string): Record<string, string> =>
  Object.fromEntries(
    spec
      .trim()
      .split(/\s*;\s*/)
      .map((pair) => pair.split(/\s+/) as [string, string]),
  );

/** A comma-separated value list, `A, B, C`, as `["A", "B", "C"]`. */
export const values = (list: string): string[] => list.trim().split(/\s*,\s*/);

/** The last segment of a `$ref`: `#/components/schemas/Amount` -> `Amount`. */
export const refName = (node: Schema): string => String(node.$ref.split("/").at(-1));

/**
 * Where one API's source writes a type differently from the others. Without options `seedType`
 * writes: `Name` for a `$ref` (and for `allOf: [one member]`), `[]T` for an array, `A|B` for a
 * oneOf/anyOf or a type list, `map<T>` for an object with additionalProperties (or one patternProperties
 * entry), the format of an
 * integer or number (else `integer`/`number`), `bool`, and `string` for every string.
 */
export interface SeedNotation {
  /** Referenced schemas the source writes otherwise, e.g. `{ Bytes: "bytes" }`. */
  refs?: Record<string, string>;
  /** String formats the source writes as their own type, e.g. `{ date: "date" }` (otherwise `string`). */
  stringFormats?: Record<string, string>;
  /**
   * A property that narrows a referenced schema (`allOf: [{ $ref }, { ... }]`, any length) has the
   * referenced schema's type (otherwise only a one-member allOf is looked through).
   */
  narrowing?: boolean;
  /** A `const` is written as its JSON value, e.g. `"Created"` (otherwise by its type: `bool` for `const: true`). */
  constValues?: boolean;
}

/** One API's bundled spec and the helpers its seed-conformance test reads it with. */
export function specUnderTest(alias: string, notation: SeedNotation = {}) {
  const entry = findApi(alias);
  const doc = loadDocument(entry.bundlePath);
  const schemas: Record<string, Schema> = doc.components.schemas;
  let validator: SpecValidator | undefined;

  /** The node a chain of local `$ref`s ends at. */
  const deref = (node: Schema): Schema => follow(doc, node, "").value;

  /** The properties of a schema, merged through allOf. */
  function propertiesOf(schema: Schema): Record<string, Schema> {
    const s = deref(schema);
    return Object.assign({}, ...(s.allOf ?? []).map(propertiesOf), s.properties ?? {});
  }

  /** A property's type in the source's notation (see SeedNotation). */
  function seedType(prop: Schema): string {
    const union = prop.oneOf ?? prop.anyOf;
    if (union) return union.map(seedType).join("|");
    if (notation.constValues && prop.const !== undefined) return JSON.stringify(prop.const);
    if (prop.type === "array") return `[]${seedType(prop.items)}`;
    if (Array.isArray(prop.allOf) && (prop.allOf.length === 1 || (notation.narrowing && prop.allOf[0]?.$ref))) {
      return seedType(prop.allOf[0]);
    }
    if (typeof prop.$ref === "string") return notation.refs?.[refName(prop)] ?? refName(prop);
    if (Array.isArray(prop.type)) return prop.type.join("|");
    if (prop.type === "object" && prop.additionalProperties) return `map<${seedType(prop.additionalProperties)}>`;
    const patterns = Object.values<Schema>(prop.patternProperties ?? {});
    if (prop.type === "object" && patterns.length === 1) return `map<${seedType(patterns[0])}>`;
    if (prop.type === "integer" || prop.type === "number") return prop.format ?? prop.type;
    if (prop.type === "boolean") return "bool";
    if (prop.type === "string") return notation.stringFormats?.[prop.format] ?? "string";
    return JSON.stringify(prop);
  }

  /** `{ field: seedType }` over a schema's allOf-merged properties. */
  const typesOf = (schema: Schema) => Object.fromEntries(Object.entries(propertiesOf(schema)).map(([k, v]) => [k, seedType(v)]));

  /** The `application/json` media object of a request body or response (following `$ref`s). */
  const jsonOf = (node: Schema | undefined) => deref(node ?? {}).content?.["application/json"];
  const jsonSchemaOf = (node: Schema | undefined) => jsonOf(node)?.schema;

  /** Whether `data` is valid against `#/components/schemas/<schema>` (Ajv 2020 over the bundle). */
  const valid = (schema: string, data: unknown): boolean => {
    validator ??= specValidator(doc);
    return validator.validate(`/components/schemas/${schema}`, data).valid;
  };

  /** Every operation of the document as `method path operationId`, sorted. */
  const operationKeys = (): string[] =>
    operations(doc)
      .map((op) => `${op.method} ${op.path} ${op.operationId}`)
      .sort();

  return { entry, doc, schemas, deref, propertiesOf, seedType, typesOf, jsonOf, jsonSchemaOf, valid, operationKeys };
}

/** The `method path operationId` keys of an endpoint table (rows start with those three), sorted. */
export const endpointKeys = (endpoints: ReadonlyArray<readonly [string, string, string, ...unknown[]]>): string[] =>
  endpoints.map(([m, p, id]) => `${m} ${p} ${id}`).sort();
