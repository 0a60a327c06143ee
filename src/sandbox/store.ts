/**
 * The sandbox's state, in memory, one mock instance each: one bucket per credential, keyed by a
 * SHA-256 hash of the credential's value (the value itself is never kept, logged or shown; the
 * first 12 hex digits of the hash name a bucket in listings). A bucket holds the records of each
 * resource, its clock offset, the callback URLs registered for it, the error statuses queued for
 * its next calls and its callback delivery log.
 *
 * Everything is bounded (see LIMITS): records and bytes per credential, one memory budget for every
 * store that shares it (SandboxBudget: by default one for the whole process), credentials per
 * instance, queued errors, delivery log entries, clock advance. At the credential limit a new
 * credential takes the place of the least recently used one only when that one has been idle for
 * `evictIdleSeconds`; otherwise the newcomer is refused (CapacityError, answered 507), so a flood of
 * made-up credentials never pushes out a partner who is working. A record's size is the size of its
 * JSON form, kept member by member: an update measures only the members that changed.
 */
import { hash } from "node:crypto";
import { type Json, keySize, sizeOf } from "./template.js";

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
  /** Callbacks waiting to be delivered (or retried), per credential and per mock instance. */
  deliveryQueue: 20,
  deliveryQueueTotal: 500,
} as const;

/**
 * The memory the sandbox's records may take, in bytes of their JSON form: one budget for every
 * store given it (the CLI gives one to all the mocks it starts; without one, every store of the
 * process shares DEFAULT_BUDGET).
 */
export class SandboxBudget {
  used = 0;
  constructor(readonly limit: number = LIMITS.memoryBytes) {
    if (!Number.isInteger(limit) || limit <= 0)
      throw new RangeError(`the sandbox's memory budget must be a positive integer, got ${limit}`);
  }

  /** Whether `bytes` more fit. */
  fits(bytes: number): boolean {
    return this.used + bytes <= this.limit;
  }

  add(bytes: number): void {
    this.used = Math.max(0, this.used + bytes);
  }
}

/** The budget of every store not given one: the whole process's. */
export const DEFAULT_BUDGET = new SandboxBudget();

const memberSize = (key: string, value: unknown) =>
  value === undefined || typeof value === "function" || typeof value === "symbol" ? 0 : keySize(key) + 1 + sizeOf(value);

/** The JSON size of a record and how many members its JSON form writes (a member left out counts none). */
function measure(data: Json): { bytes: number; members: number } {
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
function remeasure(data: Json, previous: Json, bytes: number, members: number): { bytes: number; members: number } {
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

/** One stored resource. */
export interface StoredRecord {
  resource: string;
  id: string;
  /** The API's own members (values may be Instants). */
  data: Json;
  /** Creation order within the credential. */
  seq: number;
  /** When the record expires (sandbox clock, ms), if an expiry rule applies. */
  expiresAt?: number;
  bytes: number;
  /** Members its JSON form writes (see measure()). */
  members: number;
}

export interface ErrorRule {
  id: string;
  operationId: string;
  status: number;
  remaining: number;
}

export interface DeliveryAttempt {
  at: string;
  /** HTTP status; 0 when the request failed. */
  status: number;
  error?: string;
  /** How long it took; absent on a shared sandbox for a failed request (see delivery.ts). */
  durationMs?: number;
}

export interface DeliveryEntry {
  id: string;
  webhook: string;
  resource: string;
  resourceId: string;
  /** The status change that caused it. */
  event: { from?: string; to: string; cause: string };
  /** The target URL without userinfo; absent when none was registered. */
  url?: string;
  idempotencyKey?: string;
  payload?: unknown;
  /** pending: being delivered or waiting for a retry; delivered: a 2xx; failed: every attempt failed; skipped: no URL. */
  state: "pending" | "delivered" | "failed" | "skipped";
  /** How many times it is to be delivered after a success (2 when asked to deliver twice). */
  times: number;
  deliveredCount: number;
  attempts: DeliveryAttempt[];
  note?: string;
  createdAt: string;
}

export class CredentialState {
  readonly records = new Map<string, Map<string, StoredRecord>>();
  clockOffsetMs = 0;
  readonly callbackUrls = new Map<string, string>();
  errors: ErrorRule[] = [];
  deliveries: DeliveryEntry[] = [];
  bytes = 0;
  /** JSON bytes of the events kept for this credential (lifecycle.ts EventLog), in its bound and the budget. */
  eventBytes = 0;
  /** Set when the state is dropped (reset, eviction): events raised for it after that are not counted. */
  private released = false;
  count = 0;
  private seq = 0;
  lastUsed = Date.now();
  /**
   * While a request runs (the engine's transaction): how to put back each change it makes to the
   * records, in order; undefined otherwise.
   */
  journal: Array<() => void> | undefined = undefined;
  /** Counts the changes of records (added, replaced, removed): what is derived from them is kept until it moves. */
  changes = 0;
  private readonly lists = new Map<string, { changes: number; data: Json[] }>();
  /** The indexes asked for (index()), by resource and name. */
  private readonly indexes = new Map<string, Map<string, { keyOf: IndexKey; counts: Map<unknown, number> }>>();

  constructor(
    readonly key: string,
    readonly budget: SandboxBudget = new SandboxBudget(),
  ) {}

  /** The name shown for this credential: the first 12 hex digits of its hash. */
  get label(): string {
    return this.key.slice(0, 12);
  }

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  of(resource: string): Map<string, StoredRecord> {
    let map = this.records.get(resource);
    if (!map) {
      map = new Map();
      this.records.set(resource, map);
    }
    return map;
  }

  get(resource: string, id: string): StoredRecord | undefined {
    return this.records.get(resource)?.get(id);
  }

  /** Stores a new record; throws a LimitError when a bound would be exceeded. */
  add(resource: string, id: string, data: Json, expiresAt?: number): StoredRecord {
    const { bytes, members } = measure(data);
    this.checkRoom(bytes, 1);
    const record: StoredRecord = { resource, id, data, seq: ++this.seq, expiresAt, bytes, members };
    this.of(resource).set(id, record);
    this.indexed(resource, undefined, data);
    this.changes++;
    this.bytes += bytes;
    this.budget.add(bytes);
    this.count += 1;
    this.journal?.push(() => this.remove(record));
    return record;
  }

  /** Replaces a record's data (after an update); throws a LimitError when a bound would be exceeded. */
  replace(record: StoredRecord, data: Json): void {
    const { bytes, members } = remeasure(data, record.data, record.bytes, record.members);
    this.checkRoom(bytes - record.bytes, 0, bytes);
    const old = record.data;
    this.journal?.push(() => this.replace(record, old));
    this.bytes += bytes - record.bytes;
    this.budget.add(bytes - record.bytes);
    record.bytes = bytes;
    record.members = members;
    record.data = data;
    this.indexed(record.resource, old, data);
    this.changes++;
  }

  remove(record: StoredRecord): void {
    if (this.records.get(record.resource)?.delete(record.id)) {
      this.indexed(record.resource, record.data, undefined);
      this.changes++;
      this.bytes -= record.bytes;
      this.budget.add(-record.bytes);
      this.count -= 1;
      this.journal?.push(() => {
        this.of(record.resource).set(record.id, record);
        this.indexed(record.resource, undefined, record.data);
        this.changes++;
        this.bytes += record.bytes;
        this.budget.add(record.bytes);
        this.count += 1;
      });
    }
  }

  /** Whether an event of `bytes` fits this credential's bound and the memory budget (never once the state is dropped). */
  eventFits(bytes: number): boolean {
    return !this.released && this.bytes + this.eventBytes + bytes <= LIMITS.bytes && this.budget.fits(bytes);
  }

  /** Counts `bytes` of events kept (negative: events dropped) in this credential's bytes and the budget. */
  chargeEvents(bytes: number): void {
    if (this.released) return; // its budget was given back whole
    this.eventBytes = Math.max(0, this.eventBytes + bytes);
    this.budget.add(bytes);
  }

  /** Gives the budget back everything this credential holds (when it is dropped). */
  release(): void {
    this.released = true;
    this.budget.add(-(this.bytes + this.eventBytes));
    this.bytes = 0;
    this.eventBytes = 0;
    this.count = 0;
    this.records.clear();
    this.indexes.clear();
    this.changes++;
  }

  private checkRoom(addedBytes: number, addedRecords: number, recordBytes = addedBytes): void {
    if (recordBytes > LIMITS.recordBytes) {
      throw new LimitError(`a record of ${recordBytes} bytes exceeds the sandbox's limit of ${LIMITS.recordBytes} bytes per record`);
    }
    if (this.count + addedRecords > LIMITS.records) {
      throw new LimitError(
        `this credential holds ${this.count} records, the sandbox's limit; reset its state (DELETE /_sandbox/state) to make room`,
      );
    }
    if (this.bytes + this.eventBytes + addedBytes > LIMITS.bytes) {
      throw new LimitError(
        `this credential's records and events would take more than ${LIMITS.bytes} bytes, the sandbox's limit; reset its state (DELETE /_sandbox/state)`,
      );
    }
    if (addedBytes > 0 && !this.budget.fits(addedBytes)) {
      throw new LimitError(
        `the sandbox's memory budget (${this.budget.limit} bytes for every credential together) is used up; reset states you no longer need (DELETE /_sandbox/state) or ask its operator for a larger budget`,
      );
    }
  }

  /** Records of a resource in creation order. */
  list(resource: string): StoredRecord[] {
    const records = [...(this.records.get(resource)?.values() ?? [])];
    // Kept in creation order but for a record put back by an undone request: sorted only then.
    for (let i = 1; i < records.length; i++) if (records[i - 1].seq > records[i].seq) return records.sort((a, b) => a.seq - b.seq);
    return records;
  }

  /**
   * The data of a resource's records in creation order (`$all.<resource>` of the templates): the same
   * list, not to be changed by its reader, until a record changes.
   */
  dataOf(resource: string): Json[] {
    const kept = this.lists.get(resource);
    if (kept?.changes === this.changes) return kept.data;
    const data = this.list(resource).map((r) => r.data);
    this.lists.set(resource, { changes: this.changes, data });
    return data;
  }

  /**
   * The index `name` of a resource's records: how many records have each key `keyOf` gives (undefined:
   * not counted), built on first use from the records, then kept as they are added, replaced and
   * removed. `keyOf` must depend on the record's data alone; an index keeps the `keyOf` it was built with.
   */
  index(resource: string, name: string, keyOf: IndexKey): RecordIndex {
    let byName = this.indexes.get(resource);
    if (!byName) this.indexes.set(resource, (byName = new Map()));
    let index = byName.get(name);
    if (!index) {
      index = { keyOf, counts: new Map() };
      for (const record of this.records.get(resource)?.values() ?? []) count(index, record.data, 1);
      byName.set(name, index);
    }
    return index.counts;
  }

  /** Keeps the indexes of `resource` as a record's data goes from `before` to `after` (undefined: none). */
  private indexed(resource: string, before: Json, after: Json): void {
    const byName = this.indexes.get(resource);
    if (!byName) return;
    for (const index of byName.values()) {
      if (before !== undefined) count(index, before, -1);
      if (after !== undefined) count(index, after, 1);
    }
  }

  log(entry: DeliveryEntry): void {
    this.deliveries.push(entry);
    if (this.deliveries.length > LIMITS.deliveryLog) this.deliveries.splice(0, this.deliveries.length - LIMITS.deliveryLog);
  }
}

function count(index: { keyOf: IndexKey; counts: Map<unknown, number> }, data: Json, by: 1 | -1): void {
  const key = index.keyOf(data);
  if (key === undefined) return;
  const n = (index.counts.get(key) ?? 0) + by;
  if (n > 0) index.counts.set(key, n);
  else index.counts.delete(key);
}

/** A sandbox bound was reached; answered 507 (API) or 409 (control) with the message. */
export class LimitError extends Error {
  override readonly name = "LimitError";
}

/** No room for a new credential: every state is in recent use. Answered 507 with the message. */
export class CapacityError extends LimitError {}

/** The key of a credential: SHA-256 of its value, hex. */
export const credentialKey = (value: string): string => hash("sha256", value, "hex"); // one call, no Hash object

export interface SandboxStoreOptions {
  /** The memory budget (default: DEFAULT_BUDGET, the process's). */
  budget?: SandboxBudget;
  /** Called for every state dropped (reset, eviction, close): what was queued for it is cancelled there. */
  onDrop?: (state: CredentialState) => void;
  /** The real clock, ms (tests). */
  now?: () => number;
  /** A credential idle this long (seconds) may give way to a new one (default LIMITS.evictIdleSeconds). */
  evictIdleSeconds?: number;
}

export class SandboxStore {
  private readonly states = new Map<string, CredentialState>();
  readonly budget: SandboxBudget;
  onDrop?: (state: CredentialState) => void;
  private readonly now: () => number;
  readonly evictIdleSeconds: number;

  constructor(options: SandboxStoreOptions = {}) {
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.evictIdleSeconds = options.evictIdleSeconds ?? LIMITS.evictIdleSeconds;
    this.onDrop = options.onDrop;
    this.now = options.now ?? Date.now;
  }

  /** The bucket of a credential value (created on first use; see forKey). */
  forCredential(value: string): CredentialState {
    return this.forKey(credentialKey(value));
  }

  /**
   * The bucket of a key, created on first use. At the credential limit, the least recently used
   * bucket is dropped for a new one only when it has been idle for `evictIdleSeconds`; otherwise
   * the new credential is refused with a CapacityError.
   */
  forKey(key: string): CredentialState {
    const now = this.now();
    let state = this.states.get(key);
    if (state) {
      // Map order is insertion order: move it to the young end.
      this.states.delete(key);
    } else {
      if (this.states.size >= LIMITS.credentials) {
        const oldest = this.states.values().next().value;
        if (oldest === undefined || now - oldest.lastUsed < this.evictIdleSeconds * 1000) {
          throw new CapacityError(
            `the sandbox holds state for ${this.states.size} credentials, its limit, and every one was used in the last ${this.evictIdleSeconds} seconds: a new credential is refused rather than pushing out one in use; retry later, or reset states you no longer need (DELETE /_sandbox/state)`,
          );
        }
        this.drop(oldest);
      }
      state = new CredentialState(key, this.budget);
    }
    state.lastUsed = now;
    this.states.set(key, state);
    return state;
  }

  private drop(state: CredentialState): void {
    this.states.delete(state.key);
    state.release();
    this.onDrop?.(state);
  }

  /** The bucket of a credential, if it has one; does not create it. */
  peek(value: string): CredentialState | undefined {
    return this.states.get(credentialKey(value));
  }

  all(): CredentialState[] {
    return [...this.states.values()];
  }

  /** The number of credentials with state. */
  get size(): number {
    return this.states.size;
  }

  reset(value?: string): number {
    if (value === undefined) {
      const states = this.all();
      for (const state of states) this.drop(state);
      return states.length;
    }
    const state = this.states.get(credentialKey(value));
    if (!state) return 0;
    this.drop(state);
    return 1;
  }
}
