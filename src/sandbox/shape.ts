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
import { Instant, isPlainObject, type Json } from "./values.js";

/** `{seconds, nanos}` of an Instant. */
export function timestampOf(instant: Instant): { seconds: number; nanos: number } {
  const seconds = Math.floor(instant.ms / 1000);
  return { seconds, nanos: (instant.ms - seconds * 1000) * 1_000_000 };
}

/**
 * The value with every Instant rendered as an ISO 8601 string (no schema to say otherwise). A list
 * or plain object with nothing to render is the value itself.
 */
export function plain(value: Json): Json {
  if (value instanceof Instant) return value.toISOString();
  if (Array.isArray(value)) {
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const rendered = plain(item);
      if (out === undefined) {
        if (rendered === item && i in value) continue;
        out = value.slice(0, i);
      }
      out.push(rendered);
    }
    return out ?? value;
  }
  if (isPlainObject(value)) return mapMembers(value, plain);
  return value;
}

/**
 * A plain object of the members of `value` each as `render` gives it (undefined: left out; an
 * undefined member is left out unasked). When every member renders to itself, the value itself,
 * unless its prototype is not Object's (a copy then, as always).
 */
function mapMembers(value: Record<string, Json>, render: (member: Json, key: string) => Json): Record<string, Json> {
  let out: Record<string, Json> | undefined;
  if (Object.getPrototypeOf(value) === Object.prototype) {
    // for...in walks the own members here (nothing inherited to add) without making a list of them.
    for (const key in value) {
      const member = value[key];
      const rendered = member === undefined ? undefined : render(member, key);
      if (out === undefined) {
        if (rendered === member && member !== undefined && key !== "__proto__") continue;
        out = {};
        for (const before in value) {
          if (before === key) break;
          out[before] = value[before];
        }
      }
      // Set only when defined (never set then deleted: a deletion puts the object on V8's slow path).
      if (rendered !== undefined) out[key] = rendered;
    }
    return out ?? value;
  }
  out = {};
  for (const key of Object.keys(value)) {
    const member = value[key];
    const rendered = member === undefined ? undefined : render(member, key);
    if (rendered !== undefined) out[key] = rendered;
  }
  return out;
}

// A schema node is compiled once into a shaper (a function of the value): its `$ref`s resolved and
// `allOf` merged, the types it admits, its members' and branches' shapers, the pointers of its
// parts. The document is fixed, so a shaper depends on the schema node alone and is kept per node;
// the shapers of its parts are compiled on first use (which also ends recursive schemas). Shaping
// an answer then walks the value only.
type Shaper = (value: Json) => Json;

const compiled = new WeakMap<object, Shaper>();

const isUnconstrained = (schema: Json) =>
  schema === undefined || schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0);

const shapeToNothing: Shaper = () => undefined;
const shapePlain: Shaper = (value) => (value === undefined ? undefined : plain(value));

/** A function computed on its first call, then kept (errors are not kept: the next call tries again). */
function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/** The shaper of the schema `schema` found at `at` in `doc`, compiled on first use. */
function shaperOf(doc: Doc, schema: Json, at: string): Shaper {
  if (schema === false) return shapeToNothing;
  if (isUnconstrained(schema)) return shapePlain;
  if (!isPlainObject(schema)) return (value) => shapeUncompiled(doc, value, schema, at);
  let shaper = compiled.get(schema);
  if (!shaper) {
    shaper = compile(doc, schema, at);
    compiled.set(schema, shaper);
  }
  return shaper;
}

function declaredMembers(doc: Doc, schema: Json, at: string): Set<string> {
  try {
    const { schema: s } = resolveSchema(doc, schema, at);
    return new Set(Object.keys(s?.properties ?? {}));
  } catch {
    return new Set();
  }
}

/** What `compile` knows of a schema after resolving it: how a value that is not an Instant is shaped. */
function compileResolved(doc: Doc, schema: Json, at: string): Shaper {
  const { schema: s, at: here } = resolveSchema(doc, schema, at);
  if (!isPlainObject(s)) return shapePlain;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const list: Json[] | undefined = s[keyword];
    if (!Array.isArray(list) || list.length === 0) continue;
    const branches = list.map((branch, i) => {
      const branchAt = `${here}${pointer(keyword, i)}`;
      return {
        types: admittedTypes(doc, branch, branchAt),
        members: once(() => declaredMembers(doc, branch, branchAt)),
        shaper: once(() => shaperOf(doc, branch, branchAt)),
      };
    });
    return (value) => {
      const type = jsonType(value);
      const candidates = branches.filter(
        ({ types }) => types === undefined || types.has(type) || (type === "integer" && types.has("number")),
      );
      if (candidates.length === 0) return plain(value);
      let best = candidates[0];
      if (type === "object" && candidates.length > 1) {
        const keys = Object.keys(value);
        let bestScore = -1;
        for (const candidate of candidates) {
          const members = candidate.members();
          let score = 0;
          for (const key of keys) if (members.has(key)) score++;
          if (score > bestScore) {
            best = candidate;
            bestScore = score;
          }
        }
      }
      return best.shaper()(value);
    };
  }
  const items = once(() => shaperOf(doc, s.items, `${here}/items`));
  const properties: Record<string, Json> = isPlainObject(s.properties) ? s.properties : {};
  const members = new Map<string, () => Shaper>();
  // The members whose schema gives any scalar back as it is (keepsScalars): a string, number or
  // boolean there is answered without its shaper.
  const scalarsKept = new Set<string>();
  for (const key of Object.keys(properties)) {
    const memberAt = `${here}${pointer("properties", key)}`;
    members.set(
      key,
      once(() => shaperOf(doc, properties[key], memberAt)),
    );
    if (keepsScalars(doc, properties[key], memberAt)) scalarsKept.add(key);
  }
  const extra: Json = s.additionalProperties ?? s.unevaluatedProperties;
  const extraKeyword = s.additionalProperties !== undefined ? "additionalProperties" : "unevaluatedProperties";
  const extraShaper =
    extra !== undefined && extra !== false
      ? once(() => shaperOf(doc, extra === true ? undefined : extra, `${here}/${extraKeyword}`))
      : undefined;
  const declaresMembers = members.size > 0 || extra !== undefined;
  const shapeMember = (member: Json, key: string): Json => {
    if (typeof member !== "object" && scalarsKept.has(key)) return member;
    const shaper = Object.hasOwn(properties, key) ? members.get(key) : undefined;
    if (shaper) return shaper()(member);
    if (extraShaper) return extraShaper()(member);
    return declaresMembers ? undefined : plain(member);
  };
  // A list or object whose every part shapes to itself is answered as it is (no copy): shaping
  // only leaves members out and renders times, so a copy is made from the first part that differs.
  return (value) => {
    if (Array.isArray(value)) {
      const shapeItem = items();
      let out: Json[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        const shaped = shapeItem(item);
        if (out === undefined) {
          if (shaped === item && shaped !== undefined) continue;
          out = value.slice(0, i);
        }
        if (shaped !== undefined) out.push(shaped);
      }
      return out ?? value;
    }
    if (isPlainObject(value)) return mapMembers(value, shapeMember);
    return value;
  };
}

/**
 * Whether the shaper of `schema` gives every string, number and boolean back as it is: shaping
 * changes only objects, lists and Instants, except where a `false` schema leaves a value out, which
 * an `anyOf`/`oneOf` branch may hold (then false, as for branches nested deeper than a few levels).
 */
function keepsScalars(doc: Doc, schema: Json, at: string, depth = 0): boolean {
  if (schema === false || depth > 4) return false;
  if (isUnconstrained(schema)) return true;
  let resolved: Json;
  let here: string;
  try {
    ({ schema: resolved, at: here } = resolveSchema(doc, schema, at));
  } catch {
    return false; // its shaper throws as it always did
  }
  if (!isPlainObject(resolved)) return resolved !== false;
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const list: Json[] | undefined = resolved[keyword];
    if (!Array.isArray(list) || list.length === 0) continue;
    return list.every((branch, i) => keepsScalars(doc, branch, `${here}${pointer(keyword, i)}`, depth + 1));
  }
  return true;
}

/** Compiles a schema node that is a non-empty object (see shaperOf). */
function compile(doc: Doc, schema: Json, at: string): Shaper {
  const instantAsObject = once(() => admittedTypes(doc, schema, at)?.has("object") ?? false);
  const shapeValue = once(() => compileResolved(doc, schema, at));
  return (value) => {
    if (value === undefined) return undefined;
    if (value instanceof Instant) return instantAsObject() ? timestampOf(value) : value.toISOString();
    return shapeValue()(value);
  };
}

/** Shapes `value` to the schema `schema` found at `at` in `doc` (see the module header). */
export function shape(doc: Doc, value: Json, schema: Json, at: string): Json {
  if (value === undefined) return undefined;
  return shaperOf(doc, schema, at)(value);
}

/** A schema node that is neither an object nor a boolean: shaped as it always was, without compiling. */
function shapeUncompiled(doc: Doc, value: Json, schema: Json, at: string): Json {
  if (value === undefined) return undefined;
  if (value instanceof Instant) return admittedTypes(doc, schema, at)?.has("object") ? timestampOf(value) : value.toISOString();
  // Resolving such a node gives it back, or {} for null: then shaped as an object schema with no members.
  const { schema: s } = resolveSchema(doc, schema, at);
  return isPlainObject(s) ? compileResolved(doc, s, at)(value) : plain(value);
}
