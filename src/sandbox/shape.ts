/**
 * Shaping a value built from sandbox state to a schema of the API's document: members the schema
 * does not declare are left out (a record may hold more than an answer shows), members it declares
 * are shaped by their own schemas, list items by `items`, and times (`Instant`) are rendered as the
 * schema at their place asks: a `{seconds, nanos}` object where it admits an object, else an ISO
 * 8601 string (`2025-11-21T10:00:00.000Z`). Of `anyOf`/`oneOf` branches, the one admitting the
 * value's JSON type whose declared members cover most of the value's is followed.
 *
 * What is shaped is validated afterwards all the same (src/validation/contract.ts): shaping only
 * removes what cannot be in the answer and renders times; it never invents a value.
 */
import { type Doc, pointer } from "../document/index.js";
import { admittedTypes, jsonType, resolveSchema } from "../document/schema.js";
import { Instant, isPlainObject, type Json } from "./template.js";

/** `{seconds, nanos}` of an Instant. */
export function timestampOf(instant: Instant): { seconds: number; nanos: number } {
  const seconds = Math.floor(instant.ms / 1000);
  return { seconds, nanos: (instant.ms - seconds * 1000) * 1_000_000 };
}

/** The value with every Instant rendered as an ISO 8601 string (no schema to say otherwise). */
export function plain(value: Json): Json {
  if (value instanceof Instant) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (isPlainObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v);
    return out;
  }
  return value;
}

// Resolving a schema ($refs, allOf) and the types it admits depend on the schema node alone (the
// document is fixed): kept per node, they are computed once, not on every answer.
const resolvedCache = new WeakMap<object, { schema: Json; at: string }>();
const typesCache = new WeakMap<object, Set<string> | undefined>();

function resolved(doc: Doc, schema: Json, at: string): { schema: Json; at: string } {
  if (!isPlainObject(schema)) return resolveSchema(doc, schema, at);
  let found = resolvedCache.get(schema);
  if (!found) {
    found = resolveSchema(doc, schema, at);
    resolvedCache.set(schema, found);
  }
  return found;
}

function admitted(doc: Doc, schema: Json, at: string): Set<string> | undefined {
  if (!isPlainObject(schema)) return admittedTypes(doc, schema, at);
  if (!typesCache.has(schema)) typesCache.set(schema, admittedTypes(doc, schema, at));
  return typesCache.get(schema);
}

const isUnconstrained = (schema: Json) =>
  schema === undefined || schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0);

function declaredMembers(doc: Doc, schema: Json, at: string): Set<string> {
  try {
    const { schema: s } = resolved(doc, schema, at);
    return new Set(Object.keys(s?.properties ?? {}));
  } catch {
    return new Set();
  }
}

/** Shapes `value` to the schema `schema` found at `at` in `doc` (see the module header). */
export function shape(doc: Doc, value: Json, schema: Json, at: string): Json {
  if (value === undefined) return undefined;
  if (schema === false) return undefined;
  if (isUnconstrained(schema)) return plain(value);
  if (value instanceof Instant) {
    const types = admitted(doc, schema, at);
    return types?.has("object") ? timestampOf(value) : value.toISOString();
  }
  const { schema: s, at: here } = resolved(doc, schema, at);
  if (!isPlainObject(s)) return plain(value);
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches: Json[] | undefined = s[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const type = jsonType(value);
    const candidates = branches
      .map((branch, i) => ({ branch, at: `${here}${pointer(keyword, i)}` }))
      .filter(({ branch, at: branchAt }) => {
        const types = admitted(doc, branch, branchAt);
        return types === undefined || types.has(type) || (type === "integer" && types.has("number"));
      });
    if (candidates.length === 0) return plain(value);
    let best = candidates[0];
    if (type === "object" && candidates.length > 1) {
      const keys = Object.keys(value);
      let bestScore = -1;
      for (const candidate of candidates) {
        const members = declaredMembers(doc, candidate.branch, candidate.at);
        const score = keys.filter((k) => members.has(k)).length;
        if (score > bestScore) {
          best = candidate;
          bestScore = score;
        }
      }
    }
    return shape(doc, value, best.branch, best.at);
  }
  if (Array.isArray(value)) {
    return value.map((item) => shape(doc, item, s.items, `${here}/items`)).filter((item) => item !== undefined);
  }
  if (isPlainObject(value)) {
    const properties: Record<string, Json> = isPlainObject(s.properties) ? s.properties : {};
    const extra: Json = s.additionalProperties ?? s.unevaluatedProperties;
    const declaresMembers = Object.keys(properties).length > 0 || extra !== undefined;
    const out: Record<string, Json> = {};
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      if (Object.hasOwn(properties, key)) out[key] = shape(doc, member, properties[key], `${here}${pointer("properties", key)}`);
      else if (extra !== undefined && extra !== false) {
        const keyword = s.additionalProperties !== undefined ? "additionalProperties" : "unevaluatedProperties";
        out[key] = shape(doc, member, extra === true ? undefined : extra, `${here}/${keyword}`);
      } else if (!declaresMembers) out[key] = plain(member);
      if (out[key] === undefined) delete out[key];
    }
    return out;
  }
  return value;
}
