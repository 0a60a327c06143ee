/**
 * The sandbox's ids (records, batches, events, queued errors): a prefix and 16 characters drawn
 * from the operating system's CSPRNG, Crockford base32 (80 random bits) or decimal digits.
 *
 * The random bytes come from a pool: one `randomBytes` call fills POOL_BYTES and each id takes
 * the next 16 of them, never reusing a byte: a call to the CSPRNG per id would cost more than the
 * rest of the id, and a pool of a few KB pays that call once per 256 ids. The ids are the same as
 * one call each would give: same source of randomness, same alphabet, same length.
 */
import { randomBytes } from "node:crypto";

/** Crockford base32: no I, L, O, U. */
export const ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Random characters in an id after its prefix. */
export const ID_LENGTH = 16;
/** Bytes drawn from the CSPRNG at a time. */
const POOL_BYTES = 4096;

let pool: Buffer = Buffer.alloc(0);
let offset = 0;

/** `count` fresh random bytes (at most POOL_BYTES), each handed out once. */
export function pooledRandomBytes(count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 0 || count > POOL_BYTES) throw new RangeError(`count must be 0-${POOL_BYTES}, got ${count}`);
  if (offset + count > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + count);
  offset += count;
  return bytes;
}

/** The characters of ID_ALPHABET as bytes, and digits, by random byte. */
const BASE32 = Buffer.from(Array.from({ length: 256 }, (_, byte) => ID_ALPHABET.charCodeAt(byte & 31)));
const DIGITS = Buffer.from(Array.from({ length: 256 }, (_, byte) => 48 + (byte % 10)));
/** Where an id's characters are written before they become one string. */
const scratch = Buffer.alloc(ID_LENGTH);

/** A fresh id: `prefix` and 16 base32 characters (80 random bits), or with `digits` 16 decimal digits. */
export function newId(prefix = "", digits = false): string {
  // The pool's next ID_LENGTH bytes, read in place (no view made per id), the id's characters
  // written as bytes and read as one string (no string per character).
  if (offset + ID_LENGTH > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const table = digits ? DIGITS : BASE32;
  for (let i = 0; i < ID_LENGTH; i++) scratch[i] = table[pool[offset + i]];
  offset += ID_LENGTH;
  return prefix + scratch.toString("latin1", 0, ID_LENGTH);
}
