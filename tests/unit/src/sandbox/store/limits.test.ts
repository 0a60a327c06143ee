/**
 * The bounds of a credential (src/sandbox/store/limits.ts): LIMITS' by default; a budget made
 * `withBounds` (hosted mode: each partner's quotas) hands each key its own, counting in the same
 * memory as the budget it was made from; and the state keeps them (records, bytes, events), naming
 * the bound it reached.
 */
import { describe, expect, it } from "vitest";
import { type CredentialBounds, DEFAULT_BOUNDS, LIMITS, LimitError, SandboxBudget } from "../../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../../src/sandbox/store/state.js";
import type { SandboxEvent } from "../../../../../src/sandbox/store/types.js";

const QUOTA: CredentialBounds = { records: 2, bytes: 200, events: 3, queuedCallbacks: 5, named: "this partner's quota" };

describe("a credential's bounds", () => {
  it("are LIMITS' by default, for every key", () => {
    expect(DEFAULT_BOUNDS).toEqual({ records: 1000, bytes: 16 * 1024 * 1024, events: 200, named: "the sandbox's limit" });
    expect(DEFAULT_BOUNDS).toMatchObject({ records: LIMITS.records, bytes: LIMITS.bytes, events: LIMITS.deliveryLog });
    expect(new SandboxBudget().boundsOf("any-key")).toBe(DEFAULT_BOUNDS);
  });

  it("come from the lookup of a budget made withBounds, LIMITS' for a key it does not know", () => {
    const budget = new SandboxBudget(10_000);
    const view = budget.withBounds((key) => (key === "partner" ? QUOTA : undefined));
    expect(view.boundsOf("partner")).toBe(QUOTA);
    expect(view.boundsOf("stranger")).toBe(DEFAULT_BOUNDS);
    expect(budget.boundsOf("partner")).toBe(DEFAULT_BOUNDS);
  });

  it("leave the memory counted once: a view and its budget are the same memory", () => {
    const budget = new SandboxBudget(1000);
    const view = budget.withBounds(() => QUOTA);
    view.add(600);
    expect([budget.used, view.used, view.limit]).toEqual([600, 600, 1000]);
    expect(budget.fits(500)).toBe(false);
    budget.add(-100);
    expect(view.used).toBe(500);
    expect(view).toBeInstanceOf(SandboxBudget);
  });
});

describe("a state under a partner's quotas", () => {
  const state = () =>
    new CredentialState(
      "partner",
      new SandboxBudget(1_000_000).withBounds(() => QUOTA),
    );

  it("holds at most its records, then names its quota", () => {
    const s = state();
    s.add("order", "o-1", { n: 1 });
    s.add("order", "o-2", { n: 2 });
    expect(() => s.add("order", "o-3", { n: 3 })).toThrow(
      new LimitError("this credential holds 2 records, this partner's quota; reset its state (DELETE /_sandbox/state) to make room"),
    );
    expect(s.count).toBe(2);
  });

  it("holds at most its bytes, records and events together", () => {
    const s = state();
    expect(() => s.add("order", "o-1", { text: "x".repeat(300) })).toThrow(
      "this credential's records and events would take more than 200 bytes, this partner's quota",
    );
    expect(s.eventFits(150)).toBe(true);
    expect(s.eventFits(250)).toBe(false);
  });

  it("keeps at most its events, the oldest giving way", () => {
    const s = state();
    const event = (id: string) => ({ id, deliveries: [] }) as unknown as SandboxEvent;
    for (const id of ["e1", "e2", "e3", "e4", "e5"]) expect(s.keepEvent(event(id), 10)).toBe(true);
    expect(s.events.map((k) => k.event.id)).toEqual(["e3", "e4", "e5"]);
  });

  it("of another credential, on the same budget, keeps LIMITS'", () => {
    const budget = new SandboxBudget(1_000_000).withBounds((key) => (key === "partner" ? QUOTA : undefined));
    const other = new CredentialState("someone-else", budget);
    for (let i = 0; i < 3; i++) other.add("order", `o-${i}`, { n: i });
    expect(other.count).toBe(3);
  });
});
