/**
 * The in-process scheduler of work due without a request (src/sandbox/scheduler.ts): one due time
 * per credential, one timer for the earliest, each credential handed over once its time comes. On
 * vitest's fake clock: no waiting in real time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Scheduler } from "../../../../src/sandbox/scheduler.js";

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Scheduler", () => {
  it("hands over each credential once its time comes, earliest first, with one timer", () => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    scheduler.at("b", 1_000_200);
    scheduler.at("a", 1_000_100);
    scheduler.at("c", 1_000_100);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(99);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(due).toEqual(["a", "c"]);
    expect(scheduler.when("a")).toBeUndefined();
    expect(scheduler.when("b")).toBe(1_000_200);
    vi.advanceTimersByTime(100);
    expect(due).toEqual(["a", "c", "b"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("takes a later or an earlier time, or none, for a credential", () => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    scheduler.at("a", 1_000_500);
    scheduler.at("a", 1_000_050);
    scheduler.at("b", 1_000_060);
    scheduler.at("b", undefined);
    vi.advanceTimersByTime(50);
    expect(due).toEqual(["a"]);
    vi.advanceTimersByTime(1000);
    expect(due).toEqual(["a"]);
  });

  it("hands over at once what is due already, and a credential given a time again from its own turn", () => {
    const due: string[] = [];
    const scheduler: Scheduler = new Scheduler((key) => {
      due.push(key);
      if (due.length === 1) scheduler.at(key, Date.now() + 10);
    });
    scheduler.at("a", 0);
    vi.advanceTimersByTime(0);
    expect(due).toEqual(["a"]);
    vi.advanceTimersByTime(10);
    expect(due).toEqual(["a", "a"]);
  });

  it("waits for a time beyond a timer's range in steps", () => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    const later = 1_000_000 + 2 ** 31 + 5_000;
    scheduler.at("a", later);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(later - Date.now());
    expect(due).toEqual(["a"]);
  });

  it("stops on close: no timer left, nothing handed over", () => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    scheduler.at("a", 1_000_010);
    scheduler.close();
    expect(vi.getTimerCount()).toBe(0);
    scheduler.at("b", 1_000_010);
    vi.advanceTimersByTime(100);
    expect(due).toEqual([]);
  });
});
