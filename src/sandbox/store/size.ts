/**
 * The size of a value's JSON form in bytes, counted without writing it: the store measures every
 * record it keeps (its bounds, the memory budget), member by member.
 */
import { Instant } from "../values.js";
/** A character JSON does not write as it is, one byte: outside printable ASCII, or `"` or `\`. */
const WRITTEN_OTHERWISE = /[^ !#-[\]-~]/;

/**
 * The JSON size of a string in bytes: its length and two quotes when JSON writes it as it is
 * (printable ASCII but `"` and `\`, one byte a character), else what JSON.stringify writes. One
 * search for a character that is written otherwise: the store measures every string of every record
 * it keeps, and one search is cheaper than a loop over the characters or a match of the whole string.
 */
function stringSize(value: string): number {
  return WRITTEN_OTHERWISE.test(value) ? Buffer.byteLength(JSON.stringify(value)) : value.length + 2;
}

/** The size of a value's JSON form in bytes (what `JSON.stringify` writes), without writing it. */
export function sizeOf(value: unknown): number {
  // The store measures every member of every record it keeps: plain JSON values are counted as
  // JSON.stringify would write them; anything else (an object with toJSON, a class) is written.
  if (typeof value === "string") return stringSize(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  // An instant's text is printable ASCII without quotes (digits, signs, T, Z, colons, a dot).
  if (value instanceof Instant) return value.toISOString().length + 2;
  if (Array.isArray(value)) {
    let bytes = 2 + Math.max(0, value.length - 1);
    for (const item of value) bytes += item === undefined || typeof item === "function" || typeof item === "symbol" ? 4 : sizeOf(item);
    return bytes;
  }
  if (typeof value === "object" && isPlainPrototype(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
    let bytes = 2;
    let members = 0;
    // for...in: the own members (a plain or null prototype adds none), without making a list of them.
    for (const key in value) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      bytes += keySize(key) + 1 + sizeOf(member);
      members++;
    }
    return bytes + Math.max(0, members - 1);
  }
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}

const isPlainPrototype = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** Member names seen, with their JSON size: records of a resource repeat the same few names. */
const keySizes = new Map<string, number>();
const KEY_SIZES_KEPT = 4096;

/** The JSON size of a member's name with its quotes. */
export const keySize = (key: string): number => {
  let size = keySizes.get(key);
  if (size === undefined) {
    size = stringSize(key);
    if (keySizes.size < KEY_SIZES_KEPT) keySizes.set(key, size);
  }
  return size;
};
