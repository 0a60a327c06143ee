/**
 * The hosted sandbox's health state (src/hosted/health.ts): starting, ready, draining, one way only;
 * 200 only when ready, 503 while starting or draining; each move told to its listeners.
 */
import { describe, expect, it } from "vitest";
import { Health } from "../../../../src/hosted/health.js";

describe("health", () => {
  it("starts as starting, answering 503", () => {
    expect(new Health().answer()).toEqual({ status: 503, body: { status: "starting" } });
  });

  it("answers 200 once ready, 503 again once draining", () => {
    const health = new Health();
    expect(health.ready()).toBe(true);
    expect(health.answer()).toEqual({ status: 200, body: { status: "ready" } });
    expect(health.drain()).toBe(true);
    expect(health.answer()).toEqual({ status: 503, body: { status: "draining" } });
  });

  it("moves one way: draining is the end, and a start that is stopped never becomes ready", () => {
    const health = new Health();
    expect(health.drain()).toBe(true);
    expect(health.ready()).toBe(false);
    expect(health.drain()).toBe(false);
    expect(health.state).toBe("draining");
    const ready = new Health();
    ready.ready();
    expect(ready.ready()).toBe(false);
  });

  it("tells each listener of each move, once, until it is removed", () => {
    const health = new Health();
    const seen: string[] = [];
    const remove = health.onChange((state) => seen.push(state));
    health.ready();
    health.ready();
    remove();
    health.drain();
    expect(seen).toEqual(["ready"]);
  });
});
