/**
 * A delivery as the control API shows it (src/sandbox/control/views.ts `deliveryView`), in the
 * control document's Delivery schema (src/sandbox/openapi.yaml): each attempt's time, the
 * receiver's status (0 when the request failed), why it failed when it did (absent for an answer,
 * and on a shared sandbox, where the log does not tell an open port from a closed one) and its
 * duration when known; the members a delivery may lack (URL, key, payload, note) absent, not empty.
 */
import { describe, expect, it } from "vitest";
import { deliveryView } from "../../../../src/sandbox/control/views.js";
import type { DeliveryEntry } from "../../../../src/sandbox/store/types.js";

const entry: DeliveryEntry = {
  id: "dlv_1",
  seq: 1,
  webhook: "invoicePaid",
  resource: "invoice",
  resourceId: "inv_1",
  event: { from: "Created", to: "Success", cause: "action pay" },
  url: "http://127.0.0.1:9/hooks",
  idempotencyKey: "evt_1",
  payload: { invoice_id: "inv_1" },
  state: "failed",
  times: 1,
  deliveredCount: 0,
  attempts: [
    // A local sandbox's failed request: why, and how long it took.
    { at: "2026-03-01T10:00:00.000Z", status: 0, error: "connect ECONNREFUSED 127.0.0.1:9", durationMs: 2 },
    // An answer: its status, no error.
    { at: "2026-03-01T10:00:00.250Z", status: 503, durationMs: 5 },
    // A shared sandbox's failed request: neither why nor how long.
    { at: "2026-03-01T10:00:00.750Z", status: 0 },
  ],
  note: "every attempt failed",
  createdAt: "2026-03-01T10:00:00.000Z",
};

describe("a delivery's view", () => {
  it("shows each attempt's status, its error only when it has one, its duration when known", () => {
    expect(JSON.parse(JSON.stringify(deliveryView(entry)))).toEqual({
      id: "dlv_1",
      webhook: "invoicePaid",
      resource: "invoice",
      resource_id: "inv_1",
      event: { from: "Created", to: "Success", cause: "action pay" },
      url: "http://127.0.0.1:9/hooks",
      idempotency_key: "evt_1",
      payload: { invoice_id: "inv_1" },
      state: "failed",
      times: 1,
      delivered_count: 0,
      attempts: [
        { at: "2026-03-01T10:00:00.000Z", status: 0, error: "connect ECONNREFUSED 127.0.0.1:9", duration_ms: 2 },
        { at: "2026-03-01T10:00:00.250Z", status: 503, duration_ms: 5 },
        { at: "2026-03-01T10:00:00.750Z", status: 0 },
      ],
      note: "every attempt failed",
      created_at: "2026-03-01T10:00:00.000Z",
    });
  });

  it("of a skipped delivery (no URL registered) has no URL, key, payload or attempts", () => {
    const skipped: DeliveryEntry = { ...entry, state: "skipped", attempts: [], note: "no URL registered" };
    delete skipped.url;
    delete skipped.idempotencyKey;
    delete skipped.payload;
    const view = deliveryView(skipped);
    expect(Object.keys(view).filter((k) => k === "url" || k === "idempotency_key" || k === "payload")).toEqual([]);
    expect(view.attempts).toEqual([]);
  });
});
