/**
 * What the store derives from records as they change: a record's JSON size and member count (its
 * bounds and the memory budget; an update measures only the members it changes), and the indexes of
 * a resource's records (`$in` over `$all.<resource>` answered without walking them).
 */
import type { Json } from "../values.js";
import { keySize, sizeOf } from "./size.js";

const memberSize = (key: string, value: unknown) =>
  value === undefined || typeof value === "function" || typeof value === "symbol" ? 0 : keySize(key) + 1 + sizeOf(value);

/** The JSON size of a record and how many members its JSON form writes (a member left out counts none). */
export function measure(data: Json): { bytes: number; members: number } {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return { bytes: sizeOf(data), members: 0 };
  let bytes = 2;
  let members = 0;
  for (const key of Object.keys(data)) {
    const size = memberSize(key, data[key]);
    if (size === 0) continue;
    bytes += size;
    members++;
  }
  return { bytes: bytes + Math.max(0, members - 1), members };
}

/**
 * The JSON size of `data` replacing `previous` (measured as `bytes` with `members` members): only
 * the members that differ are measured, those of `data` and those of `previous` they replace (an
 * update spreads the old record: untouched members are the same references, their size unchanged).
 */
export function remeasure(data: Json, previous: Json, bytes: number, members: number): { bytes: number; members: number } {
  const objects = (value: Json) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (!objects(data) || !objects(previous)) return measure(data);
  let content = bytes - 2 - Math.max(0, members - 1);
  for (const key of Object.keys(previous)) {
    const value = previous[key];
    if (Object.hasOwn(data, key) && data[key] === value) continue;
    const size = memberSize(key, value);
    if (size === 0) continue;
    content -= size;
    members--;
  }
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (Object.hasOwn(previous, key) && previous[key] === value) continue;
    const size = memberSize(key, value);
    if (size === 0) continue;
    content += size;
    members++;
  }
  return { bytes: content + 2 + Math.max(0, members - 1), members };
}

/**
 * The records of one resource by a key computed from each (IndexKey): how many records have each
 * key. Kept as the records change, so that a question over every record of a credential (is this
 * value used already?) costs no walk of them.
 */
export type RecordIndex = ReadonlyMap<unknown, number>;
/** What an index counts of a record's data: its key, or undefined for a record it does not count. */
export type IndexKey = (data: Json) => unknown;

/** An index as kept: the key it was built with and its counts. */
export interface KeptIndex {
  keyOf: IndexKey;
  counts: Map<unknown, number>;
}

/** Counts a record's data in (1) or out of (-1) an index. */
export function count(index: KeptIndex, data: Json, by: 1 | -1): void {
  const key = index.keyOf(data);
  if (key === undefined) return;
  const n = (index.counts.get(key) ?? 0) + by;
  if (n > 0) index.counts.set(key, n);
  else index.counts.delete(key);
}
