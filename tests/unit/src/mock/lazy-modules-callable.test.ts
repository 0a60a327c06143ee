/**
 * src/mock/lazy-modules.ts's `callable`, from a module loaded anew (tests/helpers/fresh-module.ts: the
 * stand-in makers are made as it loads, in this test): the stand-in of a module whose exports are a
 * function loads nothing until it is called, then asks its loader (defer's loads the real module once)
 * for the real function on each call and answers what it answers, given the same arguments.
 */
import { describe, expect, it } from "vitest";
import type { Exports } from "../../../../src/mock/lazy-modules.js";
import { freshModule } from "../../../helpers/fresh-module.js";

describe("callable, from a module loaded anew", () => {
  it("the stand-in asks its loader only when called, and answers what the real function answers", async () => {
    const fresh = await freshModule<typeof import("../../../../src/mock/lazy-modules.js")>("src/mock/lazy-modules.ts");
    let loads = 0;
    const real = (a: number, b: number) => a + b;
    const standIn = fresh.callable(() => {
      loads++;
      return real as unknown as Exports;
    }) as unknown as typeof real;
    expect(standIn).toBeTypeOf("function");
    expect(loads).toBe(0);
    expect(standIn(2, 3)).toBe(5);
    expect(standIn(4, 5)).toBe(9);
    expect(loads).toBe(2);
  });
});
