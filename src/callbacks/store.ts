/**
 * Idempotency stores: where a callback handler records the Idempotency-Key of each delivery it
 * accepted, so that a repeated delivery of the same event is acknowledged without processing it
 * again.
 */

/**
 * What the handler needs from a store. `claim` must be atomic: when several deliveries with one key
 * arrive at once (in one process or in several), exactly one `claim` may resolve `true`.
 *
 * A shared store makes deduplication hold across processes; with Redis, for example:
 *
 *     const store = {
 *       claim: async (key) => (await redis.set(`callback:${key}`, "1", { NX: true, EX: 7 * 86400 })) === "OK",
 *       release: async (key) => void (await redis.del(`callback:${key}`)),
 *     };
 *
 * (an SQL table with a unique key and `INSERT ... ON CONFLICT DO NOTHING` works the same way).
 */
export interface IdempotencyStore {
  /** Records `key`; resolves true when it was not recorded yet (process the event), false when it was (a repeat). */
  claim(key: string): Promise<boolean>;
  /**
   * Forgets `key`: called when processing the event failed, so that the provider's next delivery
   * of it is processed. Without it, a failed event is not processed again.
   */
  release?(key: string): Promise<void>;
}

export interface MemoryStoreOptions {
  /** How long a key is remembered, ms. Default 7 days. */
  ttlMs?: number;
  /** Most keys kept; the oldest are forgotten first. Default 100000. */
  maxKeys?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * An in-memory store: the handler's default. Deduplicates within one process only, and forgets
 * everything on restart; use a shared store (see IdempotencyStore) when you run several instances.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): IdempotencyStore & { readonly size: number } {
  const ttl = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
  const max = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  if (!(ttl > 0)) throw new RangeError(`ttlMs must be positive, got ${options.ttlMs}`);
  if (!(max >= 1)) throw new RangeError(`maxKeys must be at least 1, got ${options.maxKeys}`);
  /** key -> expiry time; Map keeps insertion order, so the first entries are the oldest. */
  const keys = new Map<string, number>();
  return {
    get size() {
      return keys.size;
    },
    // Check and set run synchronously, with no await in between: atomic within the process.
    async claim(key: string): Promise<boolean> {
      const time = now();
      const expiry = keys.get(key);
      if (expiry !== undefined && expiry > time) return false;
      keys.delete(key);
      keys.set(key, time + ttl);
      for (const [oldest, oldestExpiry] of keys) {
        if (keys.size <= max && oldestExpiry > time) break;
        keys.delete(oldest);
      }
      return true;
    },
    async release(key: string): Promise<void> {
      keys.delete(key);
    },
  };
}
