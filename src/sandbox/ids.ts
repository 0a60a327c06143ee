/**
 * The sandbox's ids (records, batches, events, queued errors): a prefix and 16 characters drawn
 * from the operating system's CSPRNG, Crockford base32 (80 random bits) or decimal digits.
 *
 * The random bytes come from a pool: one `randomBytes` call fills POOL_BYTES and each id takes
 * the next 16 of them, never reusing a byte. `crypto.randomBytes(16)` once per id was 12% of a
 * disbursement create's CPU time (issue 27); a pool of a few KB pays that call once per 256 ids.
 * The ids are the same: same source of randomness, same alphabet, same length.
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

/** A fresh id: `prefix` and 16 base32 characters (80 random bits), or with `digits` 16 decimal digits. */
export function newId(prefix = "", digits = false): string {
  // The pool's next ID_LENGTH bytes, read in place (no view made per id).
  if (offset + ID_LENGTH > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const start = offset;
  offset += ID_LENGTH;
  let out = prefix;
  if (digits) for (let i = start; i < start + ID_LENGTH; i++) out += String(pool[i] % 10);
  else for (let i = start; i < start + ID_LENGTH; i++) out += ID_ALPHABET[pool[i] & 31];
  return out;
}
