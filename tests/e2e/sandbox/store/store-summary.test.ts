/**
 * What src/sandbox/store/store.ts gives every store: a state's line in the operator's listing
 * (`summaryOf`: the credential's label, never its key, its records, clock offset, queued error rules
 * and delivery log entries), and `StoreUnavailable`, named by its class in a log line.
 */
import { describe, expect, it } from "vitest";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { StoreUnavailable, summaryOf } from "../../../../src/sandbox/store/store.js";
import type { DeliveryEntry } from "../../../../src/sandbox/store/types.js";

const KEY = "0123456789abcdef".repeat(4);

describe("summaryOf", () => {
  it("sums up a state: its label (the key's first 12 hex digits), records, clock offset, error rules and logged deliveries", () => {
    const state = new CredentialState(KEY);
    expect(summaryOf(state)).toStrictEqual({ label: "0123456789ab", records: 0, clockOffsetMs: 0, errors: 0, deliveries: 0 });
    state.add("order", "o-1", { order_id: "o-1" });
    state.add("order", "o-2", { order_id: "o-2" });
    state.add("merchant", "m-1", { merchant_id: "m-1" });
    state.advanceClock(90_000);
    state.addErrorRule({ id: "err_1", operationId: "createOrder", status: 503, remaining: 2 });
    state.logDelivery({ id: "dlv_1", state: "skipped", attempts: [] } as unknown as DeliveryEntry);
    state.logDelivery({ id: "dlv_2", state: "skipped", attempts: [] } as unknown as DeliveryEntry);
    const summary = summaryOf(state);
    expect(summary).toStrictEqual({ label: "0123456789ab", records: 3, clockOffsetMs: 90_000, errors: 1, deliveries: 2 });
    expect(JSON.stringify(summary)).not.toContain(KEY);
  });
});

describe("StoreUnavailable", () => {
  it("is named StoreUnavailable in its text and its stack", () => {
    const error = new StoreUnavailable("file store /srv/x: the disk is full");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("StoreUnavailable");
    expect(String(error)).toBe("StoreUnavailable: file store /srv/x: the disk is full");
    expect(error.stack?.split("\n")[0]).toBe("StoreUnavailable: file store /srv/x: the disk is full");
  });
});
