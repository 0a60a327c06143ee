/** A credential's state (src/sandbox/store/state.ts): its bounds, its records' sizes kept as they change, its indexes. */
import { describe, expect, it, vi } from "vitest";
import { LimitError, LIMITS } from "../../../../../src/sandbox/store/limits.js";
import { sizeOf } from "../../../../../src/sandbox/store/size.js";
import { CredentialState } from "../../../../../src/sandbox/store/state.js";

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
