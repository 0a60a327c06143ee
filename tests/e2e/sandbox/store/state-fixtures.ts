/**
 * What the `state-*` tests of a credential's state (src/sandbox/store/state.ts) build states from:
 * events, delivery log entries and queued deliveries as the engine and the deliverer make them, and
 * a state's observable whole (its rows, its counts, the budget's use) to compare before and after.
 */
import type { CredentialState } from "../../../../src/sandbox/store/state.js";
import type { DeliveryEntry, PendingDelivery, SandboxEvent } from "../../../../src/sandbox/store/types.js";

/** A credential key as the sandbox makes them (64 hex digits). */
export const KEY = "c".repeat(64);

export const event = (id: string): SandboxEvent => ({
  id,
  type: "order.pay",
  resource: "order",
  resourceId: "o-1",
  from: "CREATED",
  to: "PAID",
  action: "pay",
  cause: "control",
  createdAt: "2026-01-01T00:00:00.000Z",
  idempotencyKey: `key-${id}`,
  callbacks: [{ webhook: "orderPaid", url: "http://127.0.0.1:9/hook", payload: { order_id: "o-1" } }],
  deliveries: [],
});

export const entry = (id: string, state: DeliveryEntry["state"] = "skipped"): DeliveryEntry => ({
  id,
  seq: 0,
  webhook: "orderPaid",
  resource: "order",
  resourceId: "o-1",
  event: { from: "CREATED", to: "PAID", cause: "control" },
  url: "http://127.0.0.1:9/hook",
  idempotencyKey: `key-${id}`,
  payload: { order_id: "o-1" },
  state,
  times: 1,
  deliveredCount: 0,
  attempts: [],
  createdAt: "2026-01-01T00:00:00.000Z",
});

export const pending = (id: string, dueAt: number, lease?: number): PendingDelivery => ({
  entry: entry(id, "pending"),
  target: "http://127.0.0.1:9/hook",
  attempts: 0,
  dueAt,
  next: "attempt",
  ...(lease === undefined ? {} : { lease }),
});

/** Everything of a state a reader can see, as one text: equal texts, the same state. */
export const whole = (state: CredentialState): string =>
  JSON.stringify({
    rows: state.rows(),
    bytes: state.bytes,
    eventBytes: state.eventBytes,
    count: state.count,
    used: state.budget.used,
    callbacks: [...state.callbackUrls],
    errors: state.errors,
    scheduled: state.scheduled,
    wake: state.wake ?? null,
    events: state.events,
    log: state.deliveries,
    queue: state.queue,
    lists: [...state.records.keys()].map((resource) => state.list(resource).map((r) => r.id)),
  });
