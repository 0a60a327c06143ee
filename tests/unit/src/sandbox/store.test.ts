/** The sandbox's state store (src/sandbox/store.ts): keyed by a hash of the credential, bounded. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CredentialState, LimitError, LIMITS, SandboxStore } from "../../../../src/sandbox/store.js";

describe("SandboxStore", () => {
  it("keys a credential's state by the SHA-256 of its value, never the value", () => {
    const store = new SandboxStore();
    const state = store.forCredential("secret-token");
    expect(state.key).toBe(createHash("sha256").update("secret-token").digest("hex"));
    expect(state.label).toBe(state.key.slice(0, 12));
    expect(store.forCredential("secret-token")).toBe(state);
    expect(store.forCredential("other")).not.toBe(state);
    expect(JSON.stringify(store.all().map((s) => [s.key, s.label]))).not.toContain("secret-token");
  });

  it("drops the least recently used credential beyond the limit", () => {
    const store = new SandboxStore();
    for (let i = 0; i < LIMITS.credentials; i++) store.forCredential(`c${i}`);
    store.forCredential("c0"); // used again: now the youngest
    store.forCredential("new");
    expect(store.all()).toHaveLength(LIMITS.credentials);
    expect(store.peek("c1")).toBeUndefined();
    expect(store.peek("c0")).toBeDefined();
    expect(store.peek("new")).toBeDefined();
  });

  it("resets one credential or all", () => {
    const store = new SandboxStore();
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
