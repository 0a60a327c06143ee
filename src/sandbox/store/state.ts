/**
 * One credential's state, in memory (CredentialState): keyed by a SHA-256 hash of the credential's
 * value (the value itself is never kept, logged or shown; the first 12 hex digits of the hash name a
 * state in listings). Everything a credential has is data here, nothing elsewhere: its records, its
 * clock offset, the callback URLs registered for it, the error rules queued for its next calls, the
 * sequence that orders what it keeps, the moves its test values scheduled and the clock's next wake,
 * its events, its delivery log and its delivery queue (./types.ts).
 *
 * Every change goes through a method here, which
 * - keeps the bounds (records, bytes and events per credential: LIMITS', or a hosted sandbox's
 *   partner's quotas, which the budget hands out, ./limits.ts `boundsOf`; the shared memory budget,
 *   delivery log entries): a record's size is its JSON form's, kept member by member;
 * - while a request runs (`atomically`), journals how to put the change back, so that a request that
 *   fails leaves the state as it found it;
 * - when the state is tracked (`track`: a durable store), marks the row it changes, which
 *   `takeChanges` hands over as rows (./rows.ts, ./backend.ts). The memory store never tracks: a
 *   change then costs one test more.
 */
import { hash } from "node:crypto";
import type { Json } from "../values.js";
import type { ChangeSet, Collection, Row, StoredCredential } from "./backend.js";
import { ChangeTracker } from "./changes.js";
import { checkRoom, LIMITS, SandboxBudget } from "./limits.js";
import { count, type IndexKey, type KeptIndex, measure, type RecordIndex, remeasure } from "./records.js";
import { deliveryRow, eventRow, META_ID, type Meta, metaRow, readRows, recordRow, recordRowId } from "./rows.js";
import type { DeliveryEntry, ErrorRule, KeptEvent, PendingDelivery, SandboxEvent, ScheduledMove, StoredRecord } from "./types.js";

/** The key of a credential: SHA-256 of its value, hex. */
export const credentialKey = (value: string): string => hash("sha256", value, "hex"); // one call, no Hash object

export class CredentialState {
  readonly records = new Map<string, Map<string, StoredRecord>>();
  private clockOffset = 0;
  private readonly callbacks = new Map<string, string>();
  private rules: ErrorRule[] = [];
  private seq = 0;
  private scheduledMoves: ScheduledMove[] = [];
  private wakeAt: number | undefined = undefined;
  private kept: KeptEvent[] = [];
  private log: DeliveryEntry[] = [];
  private pending: PendingDelivery[] = [];
  bytes = 0;
  /** JSON bytes of the events kept for this credential, in its bound and the budget. */
  eventBytes = 0;
  /** Set when the state is dropped (reset, eviction): events raised for it after that are not counted. */
  private released = false;
  count = 0;
  lastUsed = Date.now();
  /**
   * While a request runs (`atomically`): how to put back each change it makes, in order; undefined
   * otherwise.
   */
  journal: Array<() => void> | undefined = undefined;
  /** Counts the changes of records (added, replaced, removed): what is derived from them is kept until it moves. */
  changes = 0;
  private readonly lists = new Map<string, { changes: number; data: Json[] }>();
  /** The indexes asked for (index()), by resource and name. */
  private readonly indexes = new Map<string, Map<string, KeptIndex>>();
  private tracked: ChangeTracker | undefined = undefined;

  constructor(
    readonly key: string,
    readonly budget: SandboxBudget = new SandboxBudget(),
  ) {}

  /** The name shown for this credential: the first 12 hex digits of its hash. */
  get label(): string {
    return this.key.slice(0, 12);
  }

  /** The credential's sandbox clock, ms. */
  now(): number {
    return Date.now() + this.clockOffset;
  }

  get clockOffsetMs(): number {
    return this.clockOffset;
  }
  get callbackUrls(): ReadonlyMap<string, string> {
    return this.callbacks;
  }
  get errors(): readonly ErrorRule[] {
    return this.rules;
  }
  /** The moves test values scheduled, in the order they were scheduled. */
  get scheduled(): readonly ScheduledMove[] {
    return this.scheduledMoves;
  }
  /** When the clock next has something due (an expiry or a scheduled move; sandbox clock, ms). */
  get wake(): number | undefined {
    return this.wakeAt;
  }
  /** The events kept, oldest first. */
  get events(): readonly KeptEvent[] {
    return this.kept;
  }
  /** The delivery log, oldest first (the newest LIMITS.deliveryLog entries). */
  get deliveries(): readonly DeliveryEntry[] {
    return this.log;
  }
  /** The deliveries waiting to be made, in the order they are made. */
  get queue(): readonly PendingDelivery[] {
    return this.pending;
  }

  // ---------------------------------------------------------------- requests

  /**
   * Runs `body` so that if it throws, the state is left as it found it: records added, replaced or
   * removed are put back, events and deliveries it added are taken out, the sequence, the scheduled
   * moves and the wake are restored, and a tracked state forgets the rows it marked.
   */
  atomically<T>(body: () => T): T {
    const outer = this.journal;
    const undo: Array<() => void> = [];
    const marks = this.tracked?.length ?? 0;
    this.journal = undo;
    try {
      const result = body();
      this.journal = outer;
      if (outer) for (const step of undo) outer.push(step);
      return result;
    } catch (error) {
      this.journal = undefined; // putting back is not itself put back
      for (let i = undo.length - 1; i >= 0; i--) undo[i]();
      this.journal = outer;
      this.tracked?.truncate(marks);
      throw error;
    }
  }

  private mark(collection: Collection, id: string): void {
    this.tracked?.mark(collection, id);
  }

  private markMeta(): void {
    this.tracked?.mark("meta", META_ID);
  }

  /** The next number of the sequence that orders records, events and deliveries. */
  private next(): number {
    const before = this.seq;
    this.journal?.push(() => {
      this.seq = before;
    });
    this.markMeta();
    return ++this.seq;
  }

  // ---------------------------------------------------------------- meta

  /** Moves the credential's clock `ms` ahead. */
  advanceClock(ms: number): void {
    const before = this.clockOffset;
    this.journal?.push(() => {
      this.clockOffset = before;
    });
    this.clockOffset += ms;
    this.markMeta();
  }

  setCallbackUrl(webhook: string, url: string): void {
    const before = this.callbacks.get(webhook);
    this.journal?.push(() => (before === undefined ? this.callbacks.delete(webhook) : this.callbacks.set(webhook, before)));
    this.callbacks.set(webhook, url);
    this.markMeta();
  }

  /** True when a URL was registered. */
  deleteCallbackUrl(webhook: string): boolean {
    const before = this.callbacks.get(webhook);
    if (before === undefined) return false;
    this.journal?.push(() => this.callbacks.set(webhook, before));
    this.callbacks.delete(webhook);
    this.markMeta();
    return true;
  }

  addErrorRule(rule: ErrorRule): void {
    this.setRules([...this.rules, rule]);
  }

  /** One call of `rule` used up (it goes once none is left). */
  useErrorRule(rule: ErrorRule): void {
    const remaining = rule.remaining;
    this.journal?.push(() => {
      rule.remaining = remaining;
    });
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.setRules(this.rules.filter((r) => r !== rule));
    this.markMeta();
  }

  /** Clears the queued error rules; returns how many there were. */
  clearErrorRules(): number {
    const n = this.rules.length;
    this.setRules([]);
    return n;
  }

  private setRules(rules: ErrorRule[]): void {
    const before = this.rules;
    this.journal?.push(() => {
      this.rules = before;
    });
    this.rules = rules;
    this.markMeta();
  }

  /** Schedules a move (the oldest scheduled gives way beyond LIMITS.records). */
  scheduleMove(move: ScheduledMove): void {
    const list = this.scheduledMoves.slice();
    if (list.length >= LIMITS.records) list.shift();
    list.push(move);
    this.setScheduled(list);
  }

  /** Takes the scheduled moves due at `now` (sandbox clock) out, earliest first. */
  takeDueMoves(now: number): ScheduledMove[] {
    if (this.scheduledMoves.length === 0) return [];
    const due = this.scheduledMoves.filter((s) => s.at <= now).sort((a, b) => a.at - b.at);
    if (due.length > 0) this.setScheduled(this.scheduledMoves.filter((s) => s.at > now));
    return due;
  }

  private setScheduled(list: ScheduledMove[]): void {
    const before = this.scheduledMoves;
    this.journal?.push(() => {
      this.scheduledMoves = before;
    });
    this.scheduledMoves = list;
    this.markMeta();
  }

  /** Makes the clock's next wake no later than `at` (an expiry or a scheduled move; sandbox clock, ms). */
  wakeBy(at: number): void {
    if (this.wakeAt === undefined || at < this.wakeAt) this.setWake(at);
  }

  /** Sets when the clock next has something due (undefined: nothing). */
  setWake(at: number | undefined): void {
    if (at === this.wakeAt) return;
    const before = this.wakeAt;
    this.journal?.push(() => {
      this.wakeAt = before;
    });
    this.wakeAt = at;
    this.markMeta();
  }

  // ---------------------------------------------------------------- records

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
    const seq = ++this.seq;
    this.markMeta();
    const record: StoredRecord = { resource, id, data, seq, expiresAt, bytes, members };
    this.put(record);
    this.journal?.push(() => {
      this.remove(record);
      this.seq = seq - 1;
    });
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
    this.mark("record", recordRowId(record.resource, record.id));
  }

  remove(record: StoredRecord): void {
    if (this.records.get(record.resource)?.delete(record.id)) {
      this.indexed(record.resource, record.data, undefined);
      this.changes++;
      this.bytes -= record.bytes;
      this.budget.add(-record.bytes);
      this.count -= 1;
      this.mark("record", recordRowId(record.resource, record.id));
      this.journal?.push(() => this.put(record));
    }
  }

  /** Puts a record in, counted (a new one, one put back, one loaded). */
  private put(record: StoredRecord): void {
    this.of(record.resource).set(record.id, record);
    this.indexed(record.resource, undefined, record.data);
    this.changes++;
    this.bytes += record.bytes;
    this.budget.add(record.bytes);
    this.count += 1;
    this.mark("record", recordRowId(record.resource, record.id));
  }

  private checkRoom(addedBytes: number, addedRecords: number, recordBytes = addedBytes): void {
    checkRoom(this, this.budget, { addedBytes, addedRecords, recordBytes });
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

  // ---------------------------------------------------------------- events

  /** Whether an event of `bytes` fits this credential's bound and the memory budget (never once the state is dropped). */
  eventFits(bytes: number): boolean {
    return !this.released && this.bytes + this.eventBytes + bytes <= this.budget.boundsOf(this.key).bytes && this.budget.fits(bytes);
  }

  /** Counts `bytes` of events kept (negative: events dropped) in this credential's bytes and the budget. */
  private chargeEvents(bytes: number): void {
    if (this.released) return; // its budget was given back whole
    this.eventBytes = Math.max(0, this.eventBytes + bytes);
    this.budget.add(bytes);
  }

  /**
   * Keeps an event of `bytes`: the oldest events make room for it (the newest LIMITS.deliveryLog are
   * kept, or a partner's quota of them, within the bounds). False when it still does not fit (the
   * budget taken by other credentials' records): it is then not kept.
   */
  keepEvent(event: SandboxEvent, bytes: number): boolean {
    const before = this.kept;
    const charged = this.eventBytes;
    this.journal?.push(() => {
      this.kept = before;
      this.chargeEvents(charged - this.eventBytes);
    });
    const events = this.kept.slice();
    const most = this.budget.boundsOf(this.key).events;
    while (events.length > 0 && (events.length >= most || !this.eventFits(bytes))) {
      const dropped = events.shift()!;
      this.chargeEvents(-dropped.bytes);
      this.mark("event", dropped.event.id);
    }
    this.kept = events;
    if (!this.eventFits(bytes)) return false;
    events.push({ event, bytes, seq: this.next() });
    this.chargeEvents(bytes);
    this.mark("event", event.id);
    return true;
  }

  /** Counts `bytes` more of a kept event (a delivery id added by a send or a resend). */
  growEvent(event: SandboxEvent, bytes: number): void {
    const kept = this.kept.find((k) => k.event === event);
    if (!kept) return;
    this.journal?.push(() => {
      kept.bytes -= bytes;
      this.chargeEvents(-bytes);
    });
    kept.bytes += bytes;
    this.chargeEvents(bytes);
    this.mark("event", event.id);
  }

  /** Adds a delivery log entry's id to an event (its callbacks' first deliveries and resends). */
  addEventDelivery(event: SandboxEvent, deliveryId: string): void {
    this.journal?.push(() => {
      const at = event.deliveries.lastIndexOf(deliveryId);
      if (at >= 0) event.deliveries.splice(at, 1);
    });
    event.deliveries.push(deliveryId);
    this.growEvent(event, Buffer.byteLength(JSON.stringify(deliveryId)) + 1);
    this.mark("event", event.id);
  }

  findEvent(id: string): SandboxEvent | undefined {
    return this.kept.find((k) => k.event.id === id)?.event;
  }

  // ---------------------------------------------------------------- deliveries

  /** Logs a delivery (its `seq` given here); the oldest entries leave the log beyond LIMITS.deliveryLog. */
  logDelivery(entry: DeliveryEntry): void {
    entry.seq = this.next();
    const before = this.log;
    this.journal?.push(() => {
      this.log = before;
    });
    const log = [...this.log, entry];
    if (log.length > LIMITS.deliveryLog) for (const gone of log.splice(0, log.length - LIMITS.deliveryLog)) this.mark("delivery", gone.id);
    this.log = log;
    this.mark("delivery", entry.id);
  }

  /** Queues a logged delivery (last in the queue). */
  queueDelivery(pending: PendingDelivery): void {
    this.journal?.push(() => {
      this.pending = this.pending.filter((p) => p !== pending);
    });
    this.pending = [...this.pending, pending];
    this.mark("delivery", pending.entry.id);
  }

  /** Takes a delivery out of the queue (delivered, failed or cancelled). */
  unqueueDelivery(pending: PendingDelivery): void {
    this.pending = this.pending.filter((p) => p !== pending);
    this.mark("delivery", pending.entry.id);
  }

  /** Marks a delivery as changed (its entry or its place in the queue: an attempt made, a lease taken). */
  touchDelivery(entry: DeliveryEntry): void {
    this.mark("delivery", entry.id);
  }

  // ---------------------------------------------------------------- the state as a whole

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

  /** From now on, every change marks the row it changes, for `takeChanges` (a durable store's states). */
  track(): void {
    this.tracked ??= new ChangeTracker();
  }

  /**
   * The rows changed since the last call (or since `track`), as ./backend.ts writes them: the rows
   * put with their values now, the rows gone; and, when any changed, when the credential next has
   * work due (none changed: no `wakeAt`, which leaves the stored one). Only the rows marked are
   * written out, whatever the state holds besides.
   */
  takeChanges(): ChangeSet {
    if (!this.tracked) throw new Error(`credential ${this.label}: takeChanges() needs a tracked state (track() first)`);
    return this.tracked.take(
      (collection, id) => this.row(collection, id),
      () => this.nextWork(),
    );
  }

  /** Whether the state is tracked (a durable store's). */
  get isTracked(): boolean {
    return this.tracked !== undefined;
  }

  /** One row of the state as it is now; undefined when it has none of that id. */
  row(collection: Collection, id: string): Row | undefined {
    switch (collection) {
      case "meta":
        return id === META_ID ? metaRow(this.meta()) : undefined;
      case "record": {
        const slash = id.indexOf("/");
        const record = slash < 0 ? undefined : this.get(id.slice(0, slash), id.slice(slash + 1));
        return record && recordRow(record);
      }
      case "event": {
        const kept = this.kept.find((k) => k.event.id === id);
        return kept && eventRow(kept);
      }
      case "delivery": {
        const pending = this.pending.find((p) => p.entry.id === id);
        const logged = this.log.find((entry) => entry.id === id);
        const entry = logged ?? pending?.entry;
        return entry && deliveryRow(entry, logged !== undefined, pending);
      }
    }
  }

  /** Every row of the state. */
  rows(): Row[] {
    const rows: Row[] = [metaRow(this.meta())];
    for (const resource of this.records.keys()) for (const record of this.list(resource)) rows.push(recordRow(record));
    for (const kept of this.kept) rows.push(eventRow(kept));
    const queued = new Map(this.pending.map((p) => [p.entry, p]));
    const logged = new Set(this.log);
    for (const entry of this.log) rows.push(deliveryRow(entry, true, queued.get(entry)));
    for (const pending of this.pending) if (!logged.has(pending.entry)) rows.push(deliveryRow(pending.entry, false, pending));
    return rows;
  }

  private meta(): Meta {
    return {
      clockOffsetMs: this.clockOffset,
      callbackUrls: [...this.callbacks],
      errors: this.rules,
      seq: this.seq,
      scheduled: this.scheduledMoves,
      ...(this.wakeAt === undefined ? {} : { wake: this.wakeAt }),
    };
  }

  /** When the credential next has work due without a request (ms, real clock): a delivery's next step or a scheduled move; null when none. */
  nextWork(): number | null {
    let at = Number.POSITIVE_INFINITY;
    for (const pending of this.pending) at = Math.min(at, pending.lease ?? pending.dueAt);
    for (const move of this.scheduledMoves) at = Math.min(at, move.at - this.clockOffset);
    return at === Number.POSITIVE_INFINITY ? null : at;
  }

  /** A state rebuilt from its stored rows (./backend.ts), its records and events counted in `budget`. */
  static load(stored: StoredCredential, budget?: SandboxBudget): CredentialState {
    const read = readRows(stored);
    const state = new CredentialState(stored.key, budget);
    const { meta } = read;
    state.clockOffset = meta.clockOffsetMs;
    for (const [webhook, url] of meta.callbackUrls) state.callbacks.set(webhook, url);
    state.rules = meta.errors;
    state.seq = meta.seq;
    state.scheduledMoves = meta.scheduled;
    state.wakeAt = meta.wake;
    for (const record of read.records) state.put({ ...record, ...measure(record.data) });
    for (const kept of read.events) {
      state.kept.push(kept);
      state.chargeEvents(kept.bytes);
    }
    state.log = read.log;
    state.pending = read.queue;
    return state;
  }
}
