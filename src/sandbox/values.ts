/**
 * The values the sandbox keeps and builds: JSON as requests carry it, and `Instant`s, points in
 * time inside records that ./shape.ts renders as the schema at their place asks (`{seconds, nanos}`
 * or ISO 8601). Every other module of the sandbox that handles records reads these helpers; this
 * one imports nothing of the sandbox.
 */

export type Json = any;

/** The last instant rendered, and its text: requests within one millisecond render the same. */
let lastRenderedMs = Number.NaN;
let lastRendered = "";

/** A point in time inside a record; rendered by ./shape.ts. */
export class Instant {
  #iso: string | undefined; // rendered once: records, answers and sizes all render the same instant
  constructor(readonly ms: number) {}
  toISOString(): string {
    if (this.#iso === undefined) {
      // NaN is never equal to itself: an invalid instant throws, as Date's toISOString does.
      if (this.ms !== lastRenderedMs) {
        lastRendered = new Date(this.ms).toISOString();
        lastRenderedMs = this.ms;
      }
      this.#iso = lastRendered;
    }
    return this.#iso;
  }
  toJSON(): string {
    return this.toISOString();
  }
}

/** True for an object that is neither a list nor an Instant. */
export const isPlainObject = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Instant);

/**
 * `{ ...a, ...b }`: the same own members in the same order (a member named `__proto__` kept as a
 * member), copied one by one: Node 20's V8 spreads an object followed by other members on a slow path.
 */
export function merged(...sources: Json[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const source of sources) assignMembers(out, source);
  return out;
}

/** `{ ...out, ...source }` into `out` itself (see merged). */
export function assignMembers(out: Record<string, Json>, source: Json): Record<string, Json> {
  if (source === undefined || source === null) return out;
  for (const key of Object.keys(source)) {
    if (key === "__proto__") Object.defineProperty(out, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    else out[key] = source[key];
  }
  return out;
}

/** A deep copy of a record (plain JSON values and Instants). */
export function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (isPlainObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = copy(v);
    return out as T;
  }
  return value;
}

/** An Instant from a `{seconds, nanos}` object, an ISO 8601 string or an Instant; undefined otherwise (a number included). */
export function toInstant(value: unknown): Instant | undefined {
  if (value instanceof Instant) return value;
  if (isPlainObject(value) && (typeof value.seconds === "number" || typeof value.seconds === "string")) {
    const seconds = Number(value.seconds);
    const nanos = Number(value.nanos ?? 0);
    if (Number.isFinite(seconds) && Number.isFinite(nanos)) return new Instant(seconds * 1000 + Math.floor(nanos / 1e6));
    return undefined;
  }
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? new Instant(ms) : undefined;
  }
  return undefined;
}
