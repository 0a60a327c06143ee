/**
 * A queued error rule as the control API shows it (src/sandbox/control/views.ts `errorView`), in the
 * control document's ErrorRule schema (src/sandbox/openapi.yaml): its status, absent for a latency or
 * a drop alone (kept as status 0); its Retry-After and latency when it has them; a drop as `before`
 * or `after`, the earlier form `true` shown as `before`.
 */
import { describe, expect, it } from "vitest";
import { errorView } from "../../../../src/sandbox/control/views.js";

describe("an error rule's view", () => {
  it("shows the status it answers, with its Retry-After", () => {
    expect(errorView({ id: "err_1", operationId: "createOrder", status: 503, remaining: 2, retryAfter: 7 })).toEqual({
      id: "err_1",
      operation_id: "createOrder",
      status: 503,
      remaining: 2,
      retry_after: 7,
    });
  });

  it("of a latency or a drop alone shows no status", () => {
    expect(errorView({ id: "err_2", operationId: "createOrder", status: 0, remaining: 1, latencyMs: 250 })).toEqual({
      id: "err_2",
      operation_id: "createOrder",
      remaining: 1,
      latency_ms: 250,
    });
    expect(errorView({ id: "err_3", operationId: "createOrder", status: 0, remaining: 1, drop: "after" })).toEqual({
      id: "err_3",
      operation_id: "createOrder",
      remaining: 1,
      drop: "after",
    });
    expect(errorView({ id: "err_4", operationId: "createOrder", status: 0, remaining: 1, drop: true }).drop).toBe("before");
  });
});
