/**
 * The shop fixture's `orderPaid` callback for the deliverer's tests: the event a move of order
 * `o-1` from CREATED to PAID raises (`orderPaidEvent`), and a sandbox state as a store loads it
 * (read back from its rows) holding one such delivery queued (`queuedDeliveryState`): what a process
 * finds after another stopped with the delivery pending.
 */
import type { CallbackEvent } from "../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../src/sandbox/store/state.js";

/** The `orderPaid` event of an order (`o-1` unless given) sent to `url`, once unless `times` says twice; its payload names the order. */
export const orderPaidEvent = (url: string | undefined, event: Partial<Omit<CallbackEvent, "url">> = {}): CallbackEvent => {
  const resourceId = event.resourceId ?? "o-1";
  return {
    webhook: "orderPaid",
    resource: "order",
    resourceId,
    event: { from: "CREATED", to: "PAID", cause: "control" },
    url,
    payload: { order_id: resourceId, status: "PAID" },
    times: 1,
    ...event,
  };
};

export interface QueuedDelivery {
  /** Names the delivery: its id is `dlv_<name>`, its Idempotency-Key `key-of-the-<name>-delivery`. */
  name: string;
  /** The callback's body. */
  payload: unknown;
  /** Attempts already made (0 by default). */
  attempts?: number;
  /** Attempts already in the delivery's log, each a 503 (0 by default). */
  logged?: number;
  /** When the next attempt is due, epoch milliseconds (now by default). */
  due?: number;
  /** The lease of an attempt no process of the test holds, epoch milliseconds (none by default). */
  lease?: number;
}

/** The state of credential `k` with the delivery to `url` queued, read back from its rows. */
export function queuedDeliveryState(url: string, queued: QueuedDelivery): CredentialState {
  const original = new CredentialState("k");
  const entry = {
    id: `dlv_${queued.name}`,
    seq: 0,
    webhook: "orderPaid",
    resource: "order",
    resourceId: "o-1",
    event: { from: "CREATED", to: "PAID", cause: "control" },
    url,
    idempotencyKey: `key-of-the-${queued.name}-delivery`,
    payload: queued.payload,
    state: "pending" as const,
    times: 1,
    deliveredCount: 0,
    attempts: Array.from({ length: queued.logged ?? 0 }, () => ({ at: new Date().toISOString(), status: 503, durationMs: 1 })),
    createdAt: new Date().toISOString(),
  };
  original.logDelivery(entry);
  original.queueDelivery({
    entry,
    target: url,
    attempts: queued.attempts ?? 0,
    dueAt: queued.due ?? Date.now(),
    next: "attempt",
    lease: queued.lease,
  });
  return CredentialState.load({ key: "k", version: 1, rows: JSON.parse(JSON.stringify(original.rows())) });
}
