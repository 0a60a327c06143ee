/**
 * The memory budget and the errors of the sandbox's bounds (src/sandbox/store/limits.ts), on what the
 * quick tier leaves out: a budget is a positive whole number of bytes, refused otherwise naming the
 * value; what fills it exactly still fits, one byte more does not; a LimitError is named by its class
 * in a log line, and a CapacityError is one.
 */
import { describe, expect, it } from "vitest";
import { CapacityError, LimitError, SandboxBudget } from "../../../../src/sandbox/store/limits.js";

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
