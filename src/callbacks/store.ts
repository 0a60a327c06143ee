/**
 * Idempotency stores: where a callback handler records, per Idempotency-Key, that a delivery is
 * being processed (a lease that expires) and then that it was processed (kept for the retention
 * time), so that processing is at least once and its effects exactly once while the store is
 * healthy: a repeat of a processed event is acknowledged without processing it again, and an event
 * whose processing died with its process is processed again once its lease expires.
 */

/** What `claim` found: `acquired` (process it now), `busy` (another delivery holds an unexpired lease), `done` (processed already). */
export type ClaimResult = "acquired" | "busy" | "done";

/**
 * What the handler needs from a store. `claim` must be atomic: when several deliveries with one key
 * arrive at once (in one process or in several), at most one may get `acquired` until its lease
 * expires or it calls `release`.
 *
 * A shared store makes this hold across processes; with Redis, for example:
 *
 *     const store = {
 *       async claim(key, leaseMs) {
 *         if ((await redis.set(`cb:${key}`, "lease", { NX: true, PX: leaseMs })) === "OK") return "acquired";
 *         return (await redis.get(`cb:${key}`)) === "done" ? "done" : "busy";
 *       },
 *       complete: async (key) => void (await redis.set(`cb:${key}`, "done", { EX: 7 * 86400 })),
 *       release: async (key) => void (await redis.del(`cb:${key}`)),
 *     };
 *
 * (an SQL table with a unique key, a state and an expiry works the same way). Keep `done` keys at
 * least as long as the provider may repeat a delivery: a key forgotten earlier is processed again.
 */
export interface IdempotencyStore {
  /** Takes a lease on `key` for `leaseMs` when it is neither processed nor leased (see ClaimResult). */
  claim(key: string, leaseMs: number): Promise<ClaimResult>;
  /** Records `key` as processed (after onEvent succeeded); later claims answer `done` for the retention time. */
  complete(key: string): Promise<void>;
  /** Gives the lease up (onEvent failed): the provider's next delivery of the key is processed. */
  release(key: string): Promise<void>;
}

/** The store cannot take another key without forgetting one it must keep: the handler answers 503. */
export class StoreFullError extends Error {
  override readonly name = "StoreFullError";
}

export interface MemoryStoreOptions {
  /** How long a processed key is remembered, ms. Default 7 days. Never forgotten earlier. */
  retentionMs?: number;
  /** Most keys kept (leased or processed). When full of unexpired keys, a claim fails (the handler answers 503). Default 100000. */
  maxKeys?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/** Default of `retentionMs`: 7 days. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * An in-memory store: the handler's default. Deduplicates within one process only, and forgets
 * everything on restart; use a shared store (see IdempotencyStore) when you run several instances.
 * A processed key is kept for `retentionMs` and never evicted before: when `maxKeys` unexpired keys
 * are held, a new claim fails instead (the provider is asked to retry later).
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): IdempotencyStore & { readonly size: number } {
  const retention = options.retentionMs ?? DEFAULT_RETENTION_MS;
  const max = options.maxKeys ?? 100_000;
  const now = options.now ?? Date.now;
  if (!(Number.isFinite(retention) && retention > 0))
    throw new RangeError(`retentionMs must be a positive number, got ${options.retentionMs}`);
  if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`maxKeys must be a positive integer, got ${options.maxKeys}`);
  const keys = new Map<string, { state: "lease" | "done"; until: number }>();
  const sweep = (time: number) => {
    for (const [key, entry] of keys) if (entry.until <= time) keys.delete(key);
  };
  return {
    get size() {
      return keys.size;
    },
    // Every method checks and sets synchronously, with no await in between: atomic within the process.
    async claim(key: string, leaseMs: number): Promise<ClaimResult> {
      if (!(leaseMs > 0)) throw new RangeError(`leaseMs must be positive, got ${leaseMs}`);
      const time = now();
      const entry = keys.get(key);
      if (entry && entry.until > time) return entry.state === "done" ? "done" : "busy";
      if (!entry && keys.size >= max) {
        sweep(time);
        if (keys.size >= max) throw new StoreFullError(`the idempotency store holds ${max} unexpired keys (maxKeys)`);
      }
      keys.set(key, { state: "lease", until: time + leaseMs });
      return "acquired";
    },
    async complete(key: string): Promise<void> {
      keys.delete(key); // re-inserted last: the Map stays roughly in expiry order
      keys.set(key, { state: "done", until: now() + retention });
    },
    async release(key: string): Promise<void> {
      if (keys.get(key)?.state === "lease") keys.delete(key);
    },
  };
}
