/** The sandbox's state store (src/sandbox/store.ts): keyed by a hash of the credential, bounded. */
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { CapacityError, LimitError, LIMITS, SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { MemoryStore } from "../../../../src/sandbox/store/memory.js";
import { sizeOf } from "../../../../src/sandbox/store/size.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

describe("SandboxStore", () => {
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

describe("CredentialState bounds", () => {
  it("refuses a record beyond the record count", () => {
    const state = new CredentialState("k");
    for (let i = 0; i < LIMITS.records; i++) state.add("r", `id${i}`, { i });
    expect(() => state.add("r", "one-more", {})).toThrow(LimitError);
    expect(() => state.add("r", "one-more", {})).toThrow(/holds 1000 records, the sandbox's limit; reset its state/);
    state.remove(state.get("r", "id0")!);
    expect(state.add("r", "one-more", {}).id).toBe("one-more");
  });

  it("refuses a record larger than the per-record bound, on create and on update", () => {
    const state = new CredentialState("k");
    expect(() => state.add("r", "big", { x: "x".repeat(LIMITS.recordBytes) })).toThrow(
      /exceeds the sandbox's limit of 262144 bytes per record/,
    );
    const record = state.add("r", "small", { x: 1 });
    expect(() => state.replace(record, { x: "x".repeat(LIMITS.recordBytes) })).toThrow(LimitError);
    expect(record.data).toEqual({ x: 1 });
  });

  it("keeps a byte count that follows adds, updates and removals", () => {
    const state = new CredentialState("k");
    const record = state.add("r", "a", { x: 1 });
    const before = state.bytes;
    state.replace(record, { x: 12345 });
    expect(state.bytes).toBe(before + 4);
    state.remove(record);
    expect(state.bytes).toBe(0);
    expect(state.count).toBe(0);
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

describe("record sizes kept as records change", () => {
  const records: unknown[] = [
    { a: 1 },
    {},
    { a: "é€😀", b: [1, { c: null }], d: { e: true }, skipped: undefined },
    { when: new Date(0), n: -1.5e300, s: '"quoted"\n' },
  ];
  it("counts the bytes of the JSON form, on add and on every update", () => {
    const state = new CredentialState("k");
    const record = state.add("r", "1", records[0]);
    expect(record.bytes).toBe(sizeOf(records[0]));
    let previous = record.data;
    for (const next of [...records.slice(1), records[0]]) {
      state.replace(record, { ...(next as object) });
      expect(record.bytes, JSON.stringify(next)).toBe(sizeOf(next));
      expect(state.bytes).toBe(sizeOf(next));
      previous = next;
    }
    expect(previous).toBe(records[0]);
  });

  it("measures only the members an update changed", () => {
    const state = new CredentialState("k");
    const large = { text: "x".repeat(100_000) };
    const record = state.add("r", "1", { status: "CREATED", large });
    const spy = vi.spyOn(JSON, "stringify");
    try {
      state.replace(record, { ...record.data, status: "PAID" });
      const measured = spy.mock.calls.map(([value]) => value);
      expect(measured).not.toContain(large);
      expect(measured).not.toContainEqual(expect.objectContaining({ large }));
    } finally {
      spy.mockRestore();
    }
    expect(record.bytes).toBe(sizeOf({ status: "PAID", large }));
  });
});

describe("indexes of a resource's records", () => {
  const byReference = (data: { reference?: unknown }) => (typeof data?.reference === "string" ? data.reference : undefined);
  it("counts the records by key from the records there, then as records are added, replaced, removed and put back", () => {
    const state = new CredentialState("k");
    const one = state.add("r", "1", { reference: "a" });
    state.add("r", "2", { reference: "a" });
    state.add("other", "3", { reference: "z" });
    const index = state.index("r", "reference", byReference);
    expect([...index]).toEqual([["a", 2]]);
    state.add("r", "4", { reference: "b" });
    state.add("r", "5", { nothing: true }); // no key: not counted
    expect(Object.fromEntries(index)).toEqual({ a: 2, b: 1 });
    state.replace(one, { reference: "c" });
    expect(Object.fromEntries(index)).toEqual({ a: 1, b: 1, c: 1 });
    // A request's changes undone: the index follows them back.
    state.journal = [];
    const added = state.add("r", "6", { reference: "d" });
    state.remove(state.get("r", "2")!);
    state.replace(added, { reference: "e" });
    expect(Object.fromEntries(index)).toEqual({ b: 1, c: 1, e: 1 });
    const undo = state.journal;
    state.journal = undefined;
    for (const step of undo.reverse()) step();
    expect(Object.fromEntries(index)).toEqual({ a: 1, b: 1, c: 1 });
    expect(state.index("r", "reference", byReference)).toBe(index);
    state.release();
    expect(state.index("r", "reference", byReference).size).toBe(0);
  });
});
