/**
 * The scheduler's due times (src/sandbox/scheduler.ts) beyond the order they are given in: the
 * earliest of several wins whatever the order, `null` takes a credential's time away as `undefined`
 * does, and a closed scheduler takes no time again, whatever it is. On vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Scheduler } from "../../../../src/sandbox/scheduler.js";

const NOW = 1_000_000;
beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Scheduler's due times", () => {
  it("waits for the earliest time, given first or last", () => {
    for (const order of [
      ["a", "b", "c"],
      ["c", "b", "a"],
      ["b", "a", "c"],
    ]) {
      const due: string[] = [];
      const scheduler = new Scheduler((key) => due.push(key));
      const now = Date.now();
      const times: Record<string, number> = { a: now + 100, b: now + 200, c: now + 300 };
      for (const key of order) scheduler.at(key, times[key]);
      vi.advanceTimersByTime(100);
      expect(due, order.join()).toEqual(["a"]);
      vi.advanceTimersByTime(200);
      expect(due, order.join()).toEqual(["a", "b", "c"]);
    }
  });

  it("takes a credential's time away on null, as on undefined", () => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    scheduler.at("a", NOW + 10);
    scheduler.at("a", null);
    expect(scheduler.when("a")).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(due).toEqual([]);
  });

  it("takes no time once closed: no timer, nothing handed over, whenever it is due", () => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    scheduler.at("a", NOW + 10);
    scheduler.close();
    expect(scheduler.when("a")).toBeUndefined();
    for (const [key, when] of [
      ["b", NOW + 10],
      ["c", NOW + 20],
      ["d", NOW - 5],
    ] as const) {
      scheduler.at(key, when);
      expect(scheduler.when(key), key).toBeUndefined();
    }
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(due).toEqual([]);
  });
});
