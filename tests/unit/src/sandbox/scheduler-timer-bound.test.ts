/**
 * A due time beyond setTimeout's range (src/sandbox/scheduler.ts): Node's setTimeout takes at most
 * 2^31 - 1 ms (about 24.8 days) and runs a longer delay after 1 ms instead (Node's timers documentation),
 * so the scheduler waits for a farther time in steps of exactly that bound, never in steps of 1 ms.
 * On vitest's fake clock, which applies the same rule.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Scheduler } from "../../../../src/sandbox/scheduler.js";

const START = 1_000_000;
/** setTimeout's largest delay, ms (Node's timers documentation). */
const LONGEST = 2_147_483_647;

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a due time beyond setTimeout's range", () => {
  it.each([LONGEST + 1, LONGEST + 2, LONGEST + 5_000])("%i ms ahead: the first timer fires after the longest delay", (ahead) => {
    const due: string[] = [];
    const scheduler = new Scheduler((key) => due.push(key));
    scheduler.at("a", START + ahead);
    vi.advanceTimersToNextTimer();
    expect(Date.now()).toBe(START + LONGEST);
    expect(due).toEqual([]);
    vi.advanceTimersToNextTimer();
    expect(Date.now()).toBe(START + ahead);
    expect(due).toEqual(["a"]);
    scheduler.close();
  });
});
