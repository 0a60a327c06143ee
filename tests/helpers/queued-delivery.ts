/**
 * A sandbox state as a store loads it (read back from its rows), holding one callback delivery of
 * the shop fixture's `orderPaid` queued: what a process finds after another stopped with the
 * delivery pending. For the deliverer's tests of deliveries it did not enqueue itself.
 */
import { CredentialState } from "../../src/sandbox/store/state.js";

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
