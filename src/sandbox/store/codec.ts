/**
 * The codec of a state's rows (./backend.ts `Row.value`): the sandbox's values as plain JSON and
 * back. JSON cannot say an `Instant` (a point in time inside a record): it is written
 * `{"$instant": <ms>}`. An object of the data whose only member is named `$instant` or `$object` is
 * written `{"$object": {...}}`, so that nothing a partner sends reads back as something else.
 * Everything else is written as JSON writes it (a member whose value is undefined is left out, as
 * the sandbox's answers and sizes leave it out).
 */
import { Instant, type Json } from "../values.js";

const INSTANT = "$instant";
const OBJECT = "$object";

/** Sets a member, `__proto__` included as a member of its own. */
function put(out: Record<string, Json>, key: string, value: Json): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

const isPlain = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** A value of the sandbox as plain JSON (see the module header). */
export function encode(value: Json): Json {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return null;
    return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  }
  if (value instanceof Instant) return { [INSTANT]: Number.isFinite(value.ms) ? value.ms : String(value.ms) };
  if (Array.isArray(value)) return value.map((item) => encode(item) ?? null);
  if (!isPlain(value)) return JSON.parse(JSON.stringify(value) ?? "null");
  const out: Record<string, Json> = {};
  const keys = Object.keys(value);
  for (const key of keys) {
    const encoded = encode(value[key]);
    if (encoded !== undefined) put(out, key, encoded);
  }
  const members = Object.keys(out);
  return members.length === 1 && (members[0] === INSTANT || members[0] === OBJECT) ? { [OBJECT]: out } : out;
}

/** A value written by `encode`, read back. */
export function decode(json: Json): Json {
  if (json === null || typeof json !== "object") return json;
  if (Array.isArray(json)) return json.map(decode);
  const keys = Object.keys(json);
  if (keys.length === 1 && keys[0] === INSTANT) return new Instant(Number(json[INSTANT]));
  const members: Record<string, Json> = keys.length === 1 && keys[0] === OBJECT ? json[OBJECT] : json;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(members)) put(out, key, decode(members[key]));
  return out;
}
