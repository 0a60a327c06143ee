/**
 * Every bound of the sandbox (LIMITS), the memory budget the stores share (SandboxBudget) with the
 * bounds of each credential it hands out (`boundsOf`: LIMITS', or a hosted sandbox's partner's
 * quotas), and the errors a bound raises: a LimitError is answered 507 on the API and 409 on the
 * control API, a CapacityError (no room for a new credential) 507 on both.
 */

export const LIMITS = {
  /** Credentials (buckets) per mock instance; the least recently used one is dropped beyond it. */
  credentials: 1000,
  /** Records per credential, all resources together. */
  records: 1000,
  /** Bytes of records per credential (their JSON size). */
  bytes: 16 * 1024 * 1024,
  /** Bytes of one record. */
  recordBytes: 256 * 1024,
  /** Error statuses queued per credential, and calls per queued status. */
  errorRules: 20,
  errorCount: 100,
  /** Delivery log entries kept per credential (the oldest go first), attempts kept per entry. */
  deliveryLog: 200,
  attemptsLogged: 20,
  /** One clock advance, and the total offset of a credential's clock, in seconds. */
  advanceSeconds: 400 * 24 * 3600,
  clockOffsetSeconds: 10 * 366 * 24 * 3600,
  /** Request bodies of the control API. */
  controlBodyBytes: 64 * 1024,
  /** Length of a callback URL. */
  urlLength: 2048,
  /** A credential used within this many seconds is never dropped to make room for a new one. */
  evictIdleSeconds: 600,
  /** The default memory budget of the sandbox (records' and events' JSON bytes), shared by every store of the process. */
  memoryBytes: 256 * 1024 * 1024,
  /**
   * Callbacks waiting to be delivered (or retried), per credential on a shared sandbox and on a local
   * one (bound to loopback: one developer, whose test may pay a few hundred invoices at once; as many
   * as the events and delivery log entries a credential keeps), and per mock instance.
   */
  deliveryQueue: 20,
  deliveryQueueLocal: 200,
  deliveryQueueTotal: 500,
} as const;

/** Expiry and scheduled moves are never further than the sandbox clock can reach (10 years). */
export const MAX_AHEAD_MS = LIMITS.clockOffsetSeconds * 1000;

/** The longest latency a forced rule may add to an answer. */
export const MAX_LATENCY_MS = 30_000;

/**
 * What one credential may hold: records, bytes of records and events (their JSON size), events
 * kept, callbacks waiting to be delivered (undefined: the sandbox's queue bound), and what the
 * refusal calls the bound.
 */
export interface CredentialBounds {
  records: number;
  bytes: number;
  events: number;
  queuedCallbacks?: number;
  /** How a refusal names it: "the sandbox's limit", or a partner's quota. */
  named: string;
}

/** The bounds of a credential of a local or shared sandbox: LIMITS'. */
export const DEFAULT_BOUNDS: Readonly<CredentialBounds> = Object.freeze({
  records: LIMITS.records,
  bytes: LIMITS.bytes,
  events: LIMITS.deliveryLog,
  named: "the sandbox's limit",
});

/**
 * The memory the sandbox's records may take, in bytes of their JSON form: one budget for every
 * store given it (the CLI gives one to all the mocks it starts; without one, every store of the
 * process shares DEFAULT_BUDGET). It hands each credential its bounds (`boundsOf`): LIMITS', unless
 * it is a view made by `withBounds` (a hosted sandbox: each partner's quotas), which counts in the
 * same memory as the budget it was made from.
 */
export class SandboxBudget {
  private readonly pool: { used: number };
  private readonly bounds: ((key: string) => CredentialBounds | undefined) | undefined;

  constructor(readonly limit: number = LIMITS.memoryBytes) {
    if (!Number.isInteger(limit) || limit <= 0)
      throw new RangeError(`the sandbox's memory budget must be a positive integer, got ${limit}`);
    this.pool = { used: 0 };
    this.bounds = undefined;
  }

  get used(): number {
    return this.pool.used;
  }

  /** Whether `bytes` more fit. */
  fits(bytes: number): boolean {
    return this.pool.used + bytes <= this.limit;
  }

  add(bytes: number): void {
    this.pool.used = Math.max(0, this.pool.used + bytes);
  }

  /** The bounds of the credential whose key is `key`. */
  boundsOf(key: string): CredentialBounds {
    return this.bounds?.(key) ?? DEFAULT_BOUNDS;
  }

  /**
   * This budget (the same memory, counted once) handing out the bounds `bounds` gives a key
   * (undefined: LIMITS').
   */
  withBounds(bounds: (key: string) => CredentialBounds | undefined): SandboxBudget {
    const view = Object.create(SandboxBudget.prototype) as SandboxBudget;
    Object.assign(view, { limit: this.limit, pool: this.pool, bounds });
    return view;
  }
}

/** The budget of every store not given one: the whole process's. */
export const DEFAULT_BUDGET = new SandboxBudget();

/** A sandbox bound was reached; answered 507 (API) or 409 (control) with the message. */
export class LimitError extends Error {
  override readonly name = "LimitError";
}

/** No room for a new credential: every state is in recent use. Answered 507 with the message. */
export class CapacityError extends LimitError {}

/** What a credential holds, as its bounds count it (`key`: whose bounds, `SandboxBudget.boundsOf`). */
export interface Held {
  key: string;
  count: number;
  bytes: number;
  eventBytes: number;
}

/**
 * Throws a LimitError naming the bound when `added` more would not fit what `held` holds: one
 * record's size, the records and bytes of a credential (its bounds: LIMITS', or a hosted sandbox's
 * partner's quotas), the shared memory budget.
 */
export function checkRoom(
  held: Held,
  budget: SandboxBudget,
  added: { addedBytes: number; addedRecords: number; recordBytes: number },
): void {
  const { addedBytes, addedRecords, recordBytes } = added;
  if (recordBytes > LIMITS.recordBytes) {
    throw new LimitError(`a record of ${recordBytes} bytes exceeds the sandbox's limit of ${LIMITS.recordBytes} bytes per record`);
  }
  const bounds = budget.boundsOf(held.key);
  if (held.count + addedRecords > bounds.records) {
    throw new LimitError(
      `this credential holds ${held.count} records, ${bounds.named}; reset its state (DELETE /_sandbox/state) to make room`,
    );
  }
  if (held.bytes + held.eventBytes + addedBytes > bounds.bytes) {
    throw new LimitError(
      `this credential's records and events would take more than ${bounds.bytes} bytes, ${bounds.named}; reset its state (DELETE /_sandbox/state)`,
    );
  }
  if (addedBytes > 0 && !budget.fits(addedBytes)) {
    throw new LimitError(
      `the sandbox's memory budget (${budget.limit} bytes for every credential together) is used up; reset states you no longer need (DELETE /_sandbox/state) or ask its operator for a larger budget`,
    );
  }
}
