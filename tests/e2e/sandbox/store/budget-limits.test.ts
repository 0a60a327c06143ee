/**
 * The memory budget and the errors of the sandbox's bounds (src/sandbox/store/limits.ts), on what the
 * quick tier leaves out: a budget is a positive whole number of bytes, refused otherwise naming the
 * value; what fills it exactly still fits, one byte more does not; each bound of checkRoom holds what
 * reaches it exactly and refuses one more (one record: 256 KiB, docs/guides/performance.md's table;
 * a credential's records and bytes: its bounds); a LimitError is named by its class in a log line,
 * and a CapacityError is one.
 */
import { describe, expect, it } from "vitest";
import { CapacityError, checkRoom, type CredentialBounds, LimitError, SandboxBudget } from "../../../../src/sandbox/store/limits.js";

describe("SandboxBudget", () => {
  it("is a positive whole number of bytes, refused otherwise naming the value", () => {
    for (const [limit, shown] of [
      [0, "0"],
      [-1, "-1"],
      [1.5, "1.5"],
      [Number.NaN, "NaN"],
      [Number.POSITIVE_INFINITY, "Infinity"],
    ] as const) {
      expect(() => new SandboxBudget(limit)).toThrow(
        new RangeError(`the sandbox's memory budget must be a positive integer, got ${shown}`),
      );
    }
    expect(new SandboxBudget(1).limit).toBe(1);
  });

  it("fits what fills it exactly, and not one byte more", () => {
    const budget = new SandboxBudget(100);
    expect([budget.fits(100), budget.fits(101)]).toEqual([true, false]);
    budget.add(60);
    expect([budget.fits(40), budget.fits(41)]).toEqual([true, false]);
    budget.add(40);
    expect([budget.used, budget.fits(0), budget.fits(1)]).toEqual([100, true, false]);
  });
});

describe("LimitError", () => {
  it("is named LimitError in its text; a CapacityError is a LimitError", () => {
    const error = new LimitError("this credential holds 1000 records, the sandbox's limit");
    expect(error.name).toBe("LimitError");
    expect(String(error)).toBe("LimitError: this credential holds 1000 records, the sandbox's limit");
    expect(new CapacityError("no room")).toBeInstanceOf(LimitError);
  });
});

describe("checkRoom", () => {
  const QUOTA: CredentialBounds = { records: 3, bytes: 1000, events: 10, named: "this partner's quota" };
  const budget = new SandboxBudget(10_000).withBounds(() => QUOTA);
  const empty = { key: "k", count: 0, bytes: 0, eventBytes: 0 };
  const room = (held: typeof empty, added: { addedBytes: number; addedRecords: number; recordBytes: number }, on = budget) => {
    try {
      checkRoom(held, on, added);
      return "fits";
    } catch (error) {
      expect(error).toBeInstanceOf(LimitError);
      return (error as Error).message;
    }
  };

  it("takes one record of 256 KiB, and refuses one byte more", () => {
    const sandbox = new SandboxBudget();
    expect(room(empty, { addedBytes: 256 * 1024, addedRecords: 1, recordBytes: 256 * 1024 }, sandbox)).toBe("fits");
    expect(room(empty, { addedBytes: 256 * 1024 + 1, addedRecords: 1, recordBytes: 256 * 1024 + 1 }, sandbox)).toBe(
      "a record of 262145 bytes exceeds the sandbox's limit of 262144 bytes per record",
    );
  });

  it("takes a credential up to its records and its bytes (records and events together), and refuses one more", () => {
    const added = { addedBytes: 10, addedRecords: 1, recordBytes: 10 };
    expect(room({ ...empty, count: 2 }, added)).toBe("fits");
    expect(room({ ...empty, count: 3 }, added)).toBe(
      "this credential holds 3 records, this partner's quota; reset its state (DELETE /_sandbox/state) to make room",
    );
    expect(room({ ...empty, bytes: 600, eventBytes: 390 }, added)).toBe("fits");
    expect(room({ ...empty, bytes: 600, eventBytes: 391 }, added)).toBe(
      "this credential's records and events would take more than 1000 bytes, this partner's quota; reset its state (DELETE /_sandbox/state)",
    );
  });

  it("takes what fills the memory budget exactly, and refuses one byte more", () => {
    const small = new SandboxBudget(100).withBounds(() => QUOTA);
    small.add(90);
    expect(room(empty, { addedBytes: 10, addedRecords: 1, recordBytes: 10 }, small)).toBe("fits");
    expect(room(empty, { addedBytes: 11, addedRecords: 1, recordBytes: 11 }, small)).toBe(
      "the sandbox's memory budget (100 bytes for every credential together) is used up; reset states you no longer need (DELETE /_sandbox/state) or ask its operator for a larger budget",
    );
    // Shrinking a record, or changing it at the same size, always fits: even when the budget is
    // already past its limit (states a durable store brought into memory are not refused).
    small.add(30);
    expect(small.used).toBe(120);
    expect(room(empty, { addedBytes: -5, addedRecords: 0, recordBytes: 5 }, small)).toBe("fits");
    expect(room(empty, { addedBytes: 0, addedRecords: 0, recordBytes: 5 }, small)).toBe("fits");
  });
});
