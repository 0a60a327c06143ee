/**
 * The sandbox's state, in memory, one mock instance each: one bucket per credential, keyed by a
 * SHA-256 hash of the credential's value (the value itself is never kept, logged or shown; the
 * first 12 hex digits of the hash name a bucket in listings). A bucket holds the records of each
 * resource, its clock offset, the callback URLs registered for it, the error statuses queued for
 * its next calls and its callback delivery log.
 *
 * Everything is bounded (see LIMITS): records and bytes per credential, credentials per instance
 * (the least recently used bucket is dropped when a new credential arrives at the limit), queued
 * errors, delivery log entries, clock advance.
 */
import { createHash } from "node:crypto";
import { type Json, sizeOf } from "./template.js";

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
} as const;

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
  durationMs: number;
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
  count = 0;
  private seq = 0;
  lastUsed = Date.now();

  constructor(readonly key: string) {}

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
    const bytes = sizeOf(data);
    this.checkRoom(bytes, 1);
    const record: StoredRecord = { resource, id, data, seq: ++this.seq, expiresAt, bytes };
    this.of(resource).set(id, record);
    this.bytes += bytes;
    this.count += 1;
    return record;
  }

  /** Replaces a record's data (after an update); throws a LimitError when a bound would be exceeded. */
  replace(record: StoredRecord, data: Json): void {
    const bytes = sizeOf(data);
    this.checkRoom(bytes - record.bytes, 0, bytes);
    this.bytes += bytes - record.bytes;
    record.bytes = bytes;
    record.data = data;
  }

  remove(record: StoredRecord): void {
    if (this.records.get(record.resource)?.delete(record.id)) {
      this.bytes -= record.bytes;
      this.count -= 1;
    }
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
    if (this.bytes + addedBytes > LIMITS.bytes) {
      throw new LimitError(
        `this credential's records would take more than ${LIMITS.bytes} bytes, the sandbox's limit; reset its state (DELETE /_sandbox/state)`,
      );
    }
  }

  /** Records of a resource in creation order. */
  list(resource: string): StoredRecord[] {
    return [...(this.records.get(resource)?.values() ?? [])].sort((a, b) => a.seq - b.seq);
  }

  log(entry: DeliveryEntry): void {
    this.deliveries.push(entry);
    if (this.deliveries.length > LIMITS.deliveryLog) this.deliveries.splice(0, this.deliveries.length - LIMITS.deliveryLog);
  }
}

/** A sandbox bound was reached; answered 507 (API) or 409 (control) with the message. */
export class LimitError extends Error {
  override readonly name = "LimitError";
}

/** The key of a credential: SHA-256 of its value, hex. */
export const credentialKey = (value: string) => createHash("sha256").update(value).digest("hex");

export class SandboxStore {
  private readonly states = new Map<string, CredentialState>();

  /** The bucket of a credential value (created on first use; the least recently used one is dropped at the limit). */
  forCredential(value: string): CredentialState {
    return this.forKey(credentialKey(value));
  }

  forKey(key: string): CredentialState {
    let state = this.states.get(key);
    if (state) {
      // Map order is insertion order: move it to the young end.
      this.states.delete(key);
    } else {
      state = new CredentialState(key);
      if (this.states.size >= LIMITS.credentials) {
        const oldest = this.states.keys().next().value;
        if (oldest !== undefined) this.states.delete(oldest);
      }
    }
    state.lastUsed = Date.now();
    this.states.set(key, state);
    return state;
  }

  /** The bucket of a credential, if it has one; does not create it. */
  peek(value: string): CredentialState | undefined {
    return this.states.get(credentialKey(value));
  }

  all(): CredentialState[] {
    return [...this.states.values()];
  }

  reset(value?: string): number {
    if (value === undefined) {
      const n = this.states.size;
      this.states.clear();
      return n;
    }
    return this.states.delete(credentialKey(value)) ? 1 : 0;
  }
}
