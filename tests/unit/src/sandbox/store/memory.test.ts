/** The memory store (src/sandbox/store/memory.ts): a state per credential, keyed by a hash of the credential, bounded; one memory budget. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CapacityError, LimitError, LIMITS, SandboxBudget } from "../../../../../src/sandbox/store/limits.js";
import { MemoryStore } from "../../../../../src/sandbox/store/memory.js";
import { sizeOf } from "../../../../../src/sandbox/store/size.js";

describe("MemoryStore", () => {
  it("keys a credential's state by the SHA-256 of its value, never the value", () => {
    const store = new MemoryStore();
    const state = store.forCredential("secret-token");
    expect(state.key).toBe(createHash("sha256").update("secret-token").digest("hex"));
    expect(state.label).toBe(state.key.slice(0, 12));
    expect(store.forCredential("secret-token")).toBe(state);
    expect(store.forCredential("other")).not.toBe(state);
    expect(JSON.stringify(store.all().map((s) => [s.key, s.label]))).not.toContain("secret-token");
  });

  it("drops the least recently used credential for a new one only when it has been idle", () => {
    let now = 1_000_000;
    const dropped: string[] = [];
    const store = new MemoryStore({ now: () => now, onDrop: (s) => dropped.push(s.key) });
    for (let i = 0; i < LIMITS.credentials; i++) store.forCredential(`c${i}`);
    now += LIMITS.evictIdleSeconds * 1000; // every credential is now idle for the whole window...
    store.forCredential("c0"); // ...but c0, used again: now the youngest
    store.forCredential("new");
    expect(store.all()).toHaveLength(LIMITS.credentials);
    expect(store.peek("c1")).toBeUndefined();
    expect(store.peek("c0")).toBeDefined();
    expect(store.peek("new")).toBeDefined();
    expect(dropped).toEqual([createHash("sha256").update("c1").digest("hex")]);
  });

  it("lists the credentials least recently used first, by their order of use even within one millisecond", () => {
    const store = new MemoryStore({ now: () => 5 });
    const [a, b, c] = ["a", "b", "c"].map((credential) => store.forCredential(credential));
    store.forCredential("a");
    store.forCredential("b");
    expect(store.all()).toEqual([c, a, b]);
    store.forCredential("c");
    expect(store.all()).toEqual([a, b, c]);
  });

  it("refuses a new credential rather than dropping one in recent use (a flood of made-up credentials)", () => {
    let now = 1_000_000;
    const store = new MemoryStore({ now: () => now });
    const partner = store.forCredential("partner");
    partner.add("invoice", "inv_1", { amount: 1 });
    for (let i = 1; i < LIMITS.credentials; i++) store.forCredential(`flood-${i}`);
    now += 1000;
    for (let i = 0; i < 50; i++) {
      expect(() => store.forCredential(`flood-more-${i}`)).toThrow(CapacityError);
    }
    expect(() => store.forCredential("one-more")).toThrow(
      /holds state for 1000 credentials, its limit, and every one was used in the last 600 seconds: a new credential is refused/,
    );
    expect(store.peek("partner")).toBe(partner);
    expect(store.forCredential("partner").get("invoice", "inv_1")?.data).toEqual({ amount: 1 });
    expect(store.size).toBe(LIMITS.credentials);
  });

  it("resets one credential or all", () => {
    const store = new MemoryStore();
    store.forCredential("a");
    store.forCredential("b");
    expect(store.reset("a")).toBe(1);
    expect(store.reset("a")).toBe(0);
    expect(store.reset()).toBe(1);
    expect(store.all()).toEqual([]);
  });
});

describe("one memory budget for every credential", () => {
  it("refuses a record that would take the sandbox past its budget, whichever credential holds the rest", () => {
    const budget = new SandboxBudget(10_000);
    const store = new MemoryStore({ budget });
    const big = { text: "x".repeat(3000) };
    for (const name of ["a", "b", "c"]) store.forCredential(name).add("r", "1", big);
    expect(budget.used).toBe(3 * sizeOf(big));
    expect(() => store.forCredential("d").add("r", "1", big)).toThrow(LimitError);
    expect(() => store.forCredential("d").add("r", "1", big)).toThrow(
      /the sandbox's memory budget \(10000 bytes for every credential together\) is used up; reset states you no longer need/,
    );
    const record = store.forCredential("a").get("r", "1")!;
    expect(() => store.forCredential("a").replace(record, { text: "x".repeat(4000) })).toThrow(LimitError);
    // Shrinking always fits; a reset gives its bytes back.
    store.forCredential("a").replace(record, { text: "x" });
    expect(budget.used).toBe(2 * sizeOf(big) + sizeOf({ text: "x" }));
    expect(store.reset("b")).toBe(1);
    expect(budget.used).toBe(sizeOf(big) + sizeOf({ text: "x" }));
    store.forCredential("d").add("r", "1", big);
    store.reset();
    expect(budget.used).toBe(0);
  });

  it("is shared by the stores given the same budget, and by default by every store of the process", () => {
    const budget = new SandboxBudget(1000);
    const one = new MemoryStore({ budget });
    const two = new MemoryStore({ budget });
    one.forCredential("a").add("r", "1", { text: "x".repeat(600) });
    expect(() => two.forCredential("a").add("r", "1", { text: "x".repeat(600) })).toThrow(LimitError);
    expect(new MemoryStore().budget).toBe(new MemoryStore().budget);
    expect(new MemoryStore().budget.limit).toBe(LIMITS.memoryBytes);
  });
});
