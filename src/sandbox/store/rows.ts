/**
 * A credential's state as the rows of ./backend.ts, and back: one `meta` row (clock offset, callback
 * URLs, queued error rules, the sequence that orders what it keeps, the moves its test values
 * scheduled, its next wake on the sandbox clock), one `record` row per record (`<resource>/<id>`),
 * one `event` row per event kept, one `delivery` row per delivery logged or queued. Values go
 * through ./codec.ts. ./state.ts builds and reads a CredentialState with these.
 */
import type { Json } from "../values.js";
import type { Row, StoredCredential } from "./backend.js";
import { decode, encode } from "./codec.js";
import type { DeliveryEntry, ErrorRule, KeptEvent, PendingDelivery, ScheduledMove, StoredRecord } from "./types.js";

/** The members of a state's `meta` row. */
export interface Meta {
  clockOffsetMs: number;
  callbackUrls: Array<[string, string]>;
  errors: ErrorRule[];
  seq: number;
  scheduled: ScheduledMove[];
  /** When the clock next has something due (sandbox clock, ms); absent when nothing is. */
  wake?: number;
}

export const META_ID = "meta";

/** The id of a record's row: `<resource>/<id>` (a resource's name has no `/`). */
export const recordRowId = (resource: string, id: string): string => `${resource}/${id}`;

export const metaRow = (meta: Meta): Row => ({ collection: "meta", id: META_ID, value: encode(meta) });

export const recordRow = (record: StoredRecord): Row => ({
  collection: "record",
  id: recordRowId(record.resource, record.id),
  value: {
    resource: record.resource,
    id: record.id,
    seq: record.seq,
    data: encode(record.data),
    ...(record.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }),
  },
});

export const eventRow = (kept: KeptEvent): Row => ({
  collection: "event",
  id: kept.event.id,
  value: { seq: kept.seq, bytes: kept.bytes, event: encode(kept.event) },
});

/** A delivery's row: its log entry, whether the log still shows it, and its place in the queue while pending. */
export function deliveryRow(entry: DeliveryEntry, logged: boolean, pending: PendingDelivery | undefined): Row {
  const queued = pending && {
    target: pending.target,
    attempts: pending.attempts,
    dueAt: pending.dueAt,
    next: pending.next,
    ...(pending.lease === undefined ? {} : { lease: pending.lease }),
  };
  return { collection: "delivery", id: entry.id, value: { logged, entry: encode(entry), ...(queued ? { pending: queued } : {}) } };
}

/** What a credential's rows hold, in order (records, events and deliveries by their sequence). */
export interface ReadState {
  meta: Meta;
  records: Array<Pick<StoredRecord, "resource" | "id" | "seq" | "data" | "expiresAt">>;
  events: KeptEvent[];
  /** The delivery log, oldest first. */
  log: DeliveryEntry[];
  /** The delivery queue, in order (entries shared with the log where it still shows them). */
  queue: PendingDelivery[];
}

const EMPTY_META: Meta = { clockOffsetMs: 0, callbackUrls: [], errors: [], seq: 0, scheduled: [] };

/** Reads a stored credential's rows; throws naming the row that cannot be read. */
export function readRows(stored: StoredCredential): ReadState {
  const read: ReadState = { meta: { ...EMPTY_META }, records: [], events: [], log: [], queue: [] };
  const deliveries: Array<{ entry: DeliveryEntry; logged: boolean; pending?: Json }> = [];
  for (const row of stored.rows) {
    const value = row.value as Json;
    if (value === null || typeof value !== "object")
      throw new TypeError(`credential ${stored.key.slice(0, 12)}: row ${row.collection}:${row.id} has no value`);
    switch (row.collection) {
      case "meta":
        read.meta = { ...EMPTY_META, ...decode(value) };
        break;
      case "record":
        read.records.push({ resource: value.resource, id: value.id, seq: value.seq, data: decode(value.data), expiresAt: value.expiresAt });
        break;
      case "event":
        read.events.push({ seq: value.seq, bytes: value.bytes, event: decode(value.event) });
        break;
      case "delivery":
        deliveries.push({ entry: decode(value.entry), logged: value.logged === true, pending: value.pending });
        break;
      default:
        throw new TypeError(`credential ${stored.key.slice(0, 12)}: row ${row.collection}:${row.id} is of no collection of a state`);
    }
  }
  read.records.sort((a, b) => a.seq - b.seq);
  read.events.sort((a, b) => a.seq - b.seq);
  deliveries.sort((a, b) => a.entry.seq - b.entry.seq);
  for (const { entry, logged, pending } of deliveries) {
    if (logged) read.log.push(entry);
    if (pending) read.queue.push({ entry, ...pending });
  }
  return read;
}
