/**
 * fast-check arbitraries from the JSON Schema (2020-12) subset the specs use: local `$ref`, `type`
 * (one or a list), `enum`, `const`, `format` (date-time, date, time, email, uri, uuid, byte,
 * int32, int64, float, double, ipv4, hostname), `pattern`, `minLength`/`maxLength`,
 * `minimum`/`maximum` and their exclusive forms (integers within the safe-integer range), `multipleOf`, `items`, `minItems`/`maxItems`,
 * `uniqueItems`, `properties`, `required`, `additionalProperties`, `propertyNames`, `allOf`
 * (merged), `oneOf`/`anyOf` (one branch). Keywords it does not model (`if`/`then`, `not`,
 * `unevaluatedProperties`, ...) are left to the caller, which checks every generated value with
 * Ajv and discards the few that miss. The values are request data: `readOnly` properties, which a
 * request does not send and Prism does not validate in one, are neither generated nor mutated. Also: where in a value the schema allows a meaningful
 * mutation (a wrong type, a missing required member, an out-of-enum value, an oversized string).
 */
import fc from "fast-check";
import { type Doc, type Json, pointer } from "../../../src/document/index.js";
import { admittedTypes, jsonType, resolveSchema, types } from "../../../src/document/schema.js";

const MAX_DEPTH = 6;
const INT32 = 2 ** 31;

function stringArbitrary(schema: Json): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 24);
  // A format or pattern gives its own length (a uuid has 36 characters): only a declared maxLength bounds it.
  const lengthOk = (s: string) => [...s].length >= minLength && [...s].length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  const pattern = typeof schema.pattern === "string" ? new RegExp(schema.pattern, "u") : undefined;
  const byFormat: Record<string, fc.Arbitrary<string>> = {
    "date-time": fc
      .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true })
      .map((d) => d.toISOString()),
    date: fc
      .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    time: fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(11)),
    email: fc.emailAddress(),
    uri: fc.webUrl(),
    url: fc.webUrl(),
    uuid: fc.uuid(),
    byte: fc.base64String({ maxLength: 64 }),
    ipv4: fc.ipV4(),
    hostname: fc.domain(),
  };
  let base: fc.Arbitrary<string>;
  if (schema.format && byFormat[schema.format])
    base = pattern ? byFormat[schema.format].filter((s) => pattern.test(s)) : byFormat[schema.format];
  else if (pattern) base = fc.stringMatching(pattern);
  // Printable ASCII half the time, any code point (Ajv counts code points, as the "binary" unit does) otherwise.
  else return fc.oneof(fc.string({ unit: "grapheme-ascii", minLength, maxLength }), fc.string({ unit: "binary", minLength, maxLength }));
  return base.filter(lengthOk);
}

function numberArbitrary(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const format = schema.format;
  let min: number = schema.minimum ?? (format === "int32" ? -INT32 : integer ? -1e9 : -1e9);
  let max: number = schema.maximum ?? (format === "int32" ? INT32 - 1 : integer ? 1e9 : 1e9);
  if (typeof schema.exclusiveMinimum === "number") min = integer ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum;
  if (typeof schema.exclusiveMaximum === "number") max = integer ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum;
  if (typeof schema.multipleOf === "number" && schema.multipleOf > 0) {
    const step = schema.multipleOf;
    return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((k) => k * step);
  }
  // fast-check draws integers from the safe range only (wider bounds, e.g. int64's, never return).
  if (integer)
    return fc.integer({ min: Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER), max: Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER) });
  const exclusive = typeof schema.exclusiveMinimum === "number" || typeof schema.exclusiveMaximum === "number";
  return fc
    .double({
      min,
      max,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: exclusive && typeof schema.exclusiveMinimum === "number",
      maxExcluded: exclusive && typeof schema.exclusiveMaximum === "number",
    })
    .map((v) => (Object.is(v, -0) ? 0 : v));
}

/** An arbitrary of values meant to validate against `schema` (found at `at` in `doc`). */
export function arbitraryFor(doc: Doc, schema: Json, at: string, depth = 0): fc.Arbitrary<Json> {
  const { schema: s, at: here } = resolveSchema(doc, schema, at);
  if (s === true || s === undefined) return fc.jsonValue({ maxDepth: 1 });
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  for (const key of ["oneOf", "anyOf"]) {
    if (Array.isArray(s[key])) {
      const { [key]: branches, ...rest } = s;
      return fc.oneof(
        ...branches.map((branch: Json, i: number) => {
          const b = resolveSchema(doc, branch, `${here}${pointer(key, i)}`);
          // Keywords beside oneOf/anyOf (a type, properties) apply to every branch.
          return arbitraryFor(doc, { ...rest, ...b.schema }, b.at, depth + 1);
        }),
      );
    }
  }
  const kinds = types(s);
  if (kinds.length === 0) return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  return fc.oneof(...kinds.map((kind) => arbitraryOfType(doc, s, here, kind, depth)));
}

function arbitraryOfType(doc: Doc, s: Json, at: string, kind: string, depth: number): fc.Arbitrary<Json> {
  switch (kind) {
    case "string":
      return stringArbitrary(s);
    case "integer":
      return numberArbitrary(s, true);
    case "number":
      return numberArbitrary(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = s.minItems ?? 0;
      const maxLength = depth >= MAX_DEPTH ? minLength : Math.min(s.maxItems ?? minLength + 3, minLength + 3);
      const items = s.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : arbitraryFor(doc, s.items, `${at}/items`, depth + 1);
      return s.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case "object": {
      const properties = writableProperties(doc, s, at);
      const required = new Set<string>(s.required ?? []);
      const names = Object.keys(properties).filter((name) => required.has(name) || depth < MAX_DEPTH);
      const record = fc.record(
        Object.fromEntries(
          names.map((name) => [name, arbitraryFor(doc, properties[name], `${at}${pointer("properties", name)}`, depth + 1)]),
        ),
        { requiredKeys: names.filter((name) => required.has(name)) },
      );
      const extra = s.additionalProperties;
      if (!extra || typeof extra !== "object" || depth >= MAX_DEPTH) return record;
      // A map: keys from propertyNames (a pattern), values from additionalProperties.
      const keyPattern = s.propertyNames?.pattern;
      const keys = (keyPattern ? fc.stringMatching(new RegExp(keyPattern, "u")) : fc.string({ minLength: 1, maxLength: 12 })).filter(
        (key) => !(key in properties) && key !== "__proto__",
      );
      const map = fc.dictionary(keys, arbitraryFor(doc, extra, `${at}/additionalProperties`, depth + 1), { maxKeys: 3 });
      return fc.tuple(record, map).map(([own, more]) => ({ ...more, ...own }));
    }
    default:
      return fc.constant(null);
  }
}

/** The properties of an object schema that a request sends: all but the `readOnly` ones. */
function writableProperties(doc: Doc, s: Json, at: string): Record<string, Json> {
  return Object.fromEntries(
    Object.entries<Json>(s.properties ?? {}).filter(
      ([name, p]) => resolveSchema(doc, p, `${at}${pointer("properties", name)}`).schema?.readOnly !== true,
    ),
  );
}

/* ------------------------------------------------------------------ mutations */

export type MutationKind = "wrong-type" | "missing-required" | "out-of-enum" | "oversized-string";

/** A place in a value where a mutation of `kind` can be made. */
export interface MutationSite {
  kind: MutationKind;
  /** Path to the member mutated (for missing-required: to the member removed). */
  path: Array<string | number>;
  apply(value: Json): Json;
}

const WRONG_VALUES: Json[] = [true, "wrong-type", 12.5, 7, { wrong: "type" }, ["wrong-type"], null];

function setAt(value: Json, path: Array<string | number>, replacement: Json | typeof REMOVE): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: Json = Array.isArray(value) ? [...value] : { ...value };
  if (rest.length === 0 && replacement === REMOVE) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head];
  } else {
    copy[head] = setAt(value?.[head], rest, replacement);
  }
  return copy;
}
const REMOVE = Symbol("remove");

/**
 * The places in `value` (valid against `schema`) where each kind of mutation applies: members
 * present in the value (and absent optional members of objects present), walked through objects
 * and arrays; `oneOf`/`anyOf` members are mutated as a whole, not walked into.
 */
export function mutationSites(doc: Doc, schema: Json, at: string, value: Json, path: Array<string | number> = []): MutationSite[] {
  const { schema: s, at: here } = resolveSchema(doc, schema, at);
  if (!s || typeof s !== "object") return [];
  const sites: MutationSite[] = [];
  const admitted = admittedTypes(doc, s, here);
  if (admitted) {
    const wrong = WRONG_VALUES.find((candidate) => !admitted.has(jsonType(candidate)));
    if (wrong !== undefined) sites.push({ kind: "wrong-type", path, apply: (v) => setAt(v, path, wrong) });
  }
  if (Array.isArray(s.enum) && s.enum.every((e: Json) => typeof e === "string")) {
    const outside = `not-in-enum-${s.enum.join("|").length}`;
    sites.push({ kind: "out-of-enum", path, apply: (v) => setAt(v, path, outside) });
  }
  if (typeof s.maxLength === "number" && [s.type].flat().includes("string")) {
    const long = "x".repeat(s.maxLength + 1 + (s.maxLength % 7));
    sites.push({ kind: "oversized-string", path, apply: (v) => setAt(v, path, long) });
  }
  if (s.oneOf || s.anyOf) return sites;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const name of s.required ?? []) {
      if (name in value) sites.push({ kind: "missing-required", path: [...path, name], apply: (v) => setAt(v, [...path, name], REMOVE) });
    }
    for (const [name, propertySchema] of Object.entries<Json>(writableProperties(doc, s, here))) {
      const inner = mutationSites(doc, propertySchema, `${here}${pointer("properties", name)}`, value[name], [...path, name]);
      // An absent optional member can be added with a wrong value, not mutated inside.
      sites.push(
        ...(name in value ? inner : inner.filter((site) => site.path.length === path.length + 1 && site.kind !== "missing-required")),
      );
    }
  }
  if (Array.isArray(value) && s.items !== undefined && value.length > 0) {
    sites.push(...mutationSites(doc, s.items, `${here}/items`, value[0], [...path, 0]));
  }
  return sites;
}
