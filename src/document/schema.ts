/**
 * Reading JSON Schemas inside a document: a schema with its `$ref`s resolved and `allOf` merged,
 * the JSON types it admits, and the JSON type of a value (`integer` for whole numbers). Used by the
 * example requests of the testing entry and by the fuzz model.
 */
import { deref, type Doc, type Json } from "./index.js";
import { pointer } from "./pointer.js";

/** A schema with every `$ref` on the way resolved and its `allOf` parts merged into it. */
export interface Resolved {
  schema: Json;
  /** Canonical pointer of the schema (the first `allOf` part's when merged). */
  at: string;
}

/** Resolves `$ref`s and merges `allOf` (properties and required unioned, other keywords: the later part wins). */
export function resolveSchema(doc: Doc, schema: Json, at: string): Resolved {
  const { value, at: here } = deref(doc, schema, at);
  if (!value || typeof value !== "object" || !Array.isArray(value.allOf)) return { schema: value ?? {}, at: here };
  const merged: Json = { ...value };
  delete merged.allOf;
  const properties: Json = { ...(value.properties ?? {}) };
  const required = new Set<string>(value.required ?? []);
  value.allOf.forEach((_: Json, i: number) => {
    const part = resolveSchema(doc, value.allOf[i], `${here}${pointer("allOf", i)}`).schema;
    for (const [key, v] of Object.entries(part)) {
      if (key === "properties") Object.assign(properties, v);
      else if (key === "required") for (const name of v as string[]) required.add(name);
      else if (!(key in value)) merged[key] = v;
    }
  });
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return { schema: merged, at: here };
}

/** The types a schema names, or implies by its keywords (`properties` -> object, `items` -> array). */
export function types(schema: Json): string[] {
  if (schema.type !== undefined) return [schema.type].flat();
  if (schema.properties || schema.additionalProperties || schema.required) return ["object"];
  if (schema.items) return ["array"];
  return [];
}

/** The JSON type of a value: `null`, `array`, `integer` (a whole number), `number`, `string`, `boolean`, `object`. */
export function jsonType(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * The JSON types a schema admits, or undefined when it does not constrain the type. A union that
 * refers back to itself (`anyOf: [{type: string}, {$ref: <itself>}]`) admits what its other
 * branches admit: a branch met again while it is being read adds no type (`expanding`: the unions
 * being read, by pointer).
 */
export function admittedTypes(doc: Doc, schema: Json, at: string, expanding: ReadonlySet<string> = new Set()): Set<string> | undefined {
  const { schema: s, at: here } = resolveSchema(doc, schema, at);
  if (!s || typeof s !== "object") return undefined;
  if (expanding.has(here)) return new Set();
  if (s.type !== undefined) {
    const set = new Set<string>([s.type].flat());
    if (set.has("number")) set.add("integer");
    return set;
  }
  const values: Json[] | undefined = s.const !== undefined ? [s.const] : s.enum;
  if (values) return new Set(values.map(jsonType));
  for (const key of ["oneOf", "anyOf"]) {
    if (!Array.isArray(s[key])) continue;
    const inside = new Set(expanding).add(here);
    const parts = s[key].map((branch: Json, i: number) => admittedTypes(doc, branch, `${here}${pointer(key, i)}`, inside));
    if (!parts.every(Boolean)) return undefined;
    const union = new Set<string>(parts.flatMap((p: Set<string> | undefined) => [...p!]));
    // Only branches that refer back: nothing says which types it admits.
    return union.size > 0 ? union : undefined;
  }
  return types(s).length > 0 ? new Set(types(s).flatMap((t) => (t === "number" ? ["number", "integer"] : [t]))) : undefined;
}
