/**
 * The response cache: a request that the fast path does not take, whose method, URL, headers and
 * body bytes equal an earlier one's, gets that earlier answer replayed (dynamic answers and 5xx
 * never; at most CACHE_ENTRIES answers and CACHE_BYTES bytes, least recently used out first).
 */
import type { IncomingMessage } from "node:http";
import { CACHE_BYTES, CACHE_ENTRIES, CACHE_MAX_REQUEST_BYTES } from "./limits.js";
import type { RawBody } from "./types.js";

export interface CachedResponse {
  status: number;
  /** Header names as set (their case kept) and values. */
  headers: Array<[string, string | number]>;
  body: Buffer | undefined;
  bytes: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  get(key: string): CachedResponse | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: move the hit to the young end.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, response: Omit<CachedResponse, "bytes">): void {
    const bytes = key.length + (response.body?.length ?? 0) + 256;
    if (bytes > CACHE_BYTES / 4) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.bytes;
    }
    this.entries.set(key, { ...response, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= CACHE_ENTRIES && this.bytes <= CACHE_BYTES) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

/** Request headers that say nothing Prism reads; left out of the cache key. */
const NOT_IN_KEY = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"]);

/** The key of a request in the cache: method, target, headers and body bytes; undefined for a body too large to keep. */
export function cacheKey(request: IncomingMessage, raw: RawBody): string | undefined {
  if (raw.bytes.length > CACHE_MAX_REQUEST_BYTES) return undefined;
  let key = `${request.method} ${request.url}`;
  const headers = request.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i].toLowerCase();
    if (!NOT_IN_KEY.has(name)) key += `\n${name}: ${headers[i + 1]}`;
  }
  // latin1 maps each byte to one character: exact and cheap.
  return `${key}\n${raw.present ? "body" : "no body"}\n${raw.bytes.toString("latin1")}`;
}
