/**
 * What a credential's state holds, as data: its records, its queued error rules, the moves its test
 * values scheduled, its events and its deliveries (each pending one with its place in the queue).
 * ./state.ts keeps them in memory (CredentialState) and ./rows.ts writes them as the rows of
 * ./backend.ts; every module that reads or changes a state names these types.
 */
import type { Json } from "../values.js";

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
  /** Members its JSON form writes (see ./records.ts measure). */
  members: number;
}

/**
 * A forced answer queued through the control API (POST /_sandbox/errors): a status (any 400-599,
 * declared by the operation or not; 0 when it forces none), an optional Retry-After, a delay before
 * answering, or a dropped connection, for the next `remaining` calls of the operation.
 */
export interface ErrorRule {
  id: string;
  operationId: string;
  status: number;
  remaining: number;
  retryAfter?: number;
  latencyMs?: number;
  /** Close the connection before the request is processed, or after (its answer lost); `true`, an earlier form, is "before". */
  drop?: "before" | "after" | true;
}

/** A move a test value scheduled for later on the credential's clock (the record as it was then: its id and seq). */
export interface ScheduledMove {
  resource: string;
  id: string;
  seq: number;
  action: string;
  /** Sandbox clock, ms. */
  at: number;
  cause: string;
}

/** One callback of an event: where it goes and what it carries (kept to resend it). */
export interface EventCallback {
  webhook: string;
  url?: string;
  payload: unknown;
}

/** One status change. */
export interface SandboxEvent {
  id: string;
  /** `<resource>.<move>` (`<resource>.status` where the resource declares no lifecycle). */
  type: string;
  resource: string;
  resourceId: string;
  from?: string;
  to: string;
  action?: string;
  cause: string;
  /** On the credential's sandbox clock. */
  createdAt: string;
  /** Carried by every delivery of this event's callbacks. */
  idempotencyKey: string;
  callbacks: EventCallback[];
  /** Delivery log entries (GET /_sandbox/deliveries), first deliveries and resends. */
  deliveries: string[];
}

/** An event kept in its credential's log: its JSON bytes (counted in the bounds) and its place. */
export interface KeptEvent {
  event: SandboxEvent;
  bytes: number;
  seq: number;
}

export interface DeliveryAttempt {
  at: string;
  /** HTTP status; 0 when the request failed. */
  status: number;
  error?: string;
  /** How long it took; absent on a shared sandbox for a failed request (see ../delivery/deliverer.ts). */
  durationMs?: number;
}

export interface DeliveryEntry {
  id: string;
  /** Its place among the credential's deliveries. */
  seq: number;
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

/**
 * A delivery in its credential's queue (the entry's state is "pending"): what the scheduler
 * (../delivery/deliverer.ts) needs for its next step. Deliveries of one credential go one after the
 * other, in queue order.
 */
export interface PendingDelivery {
  entry: DeliveryEntry;
  /** Where it goes: the URL as registered (the entry shows it without userinfo, which a queued URL never has). */
  target: string;
  /** Attempts made of the current delivery (of `entry.times`). */
  attempts: number;
  /** When the next step is due (ms since the epoch, real clock). */
  dueAt: number;
  /** The next step: another attempt, or giving up (a shared sandbox's failed attempt first takes its whole timeout). */
  next: "attempt" | "give-up";
  /** While an attempt is in flight: until when (ms, real clock) it holds the delivery. */
  lease?: number;
}
