/**
 * The random pool behind the sandbox's ids (src/sandbox/ids.ts `pooledRandomBytes`): any count from
 * 0 to the pool's 4096 bytes, each call exactly the count asked for and bytes no other call got,
 * across refills and interleaved with `newId`. Pure functions: milliseconds.
 */
import { describe, expect, it } from "vitest";
import { newId, pooledRandomBytes } from "../../../../src/sandbox/ids.js";

describe("pooledRandomBytes", () => {
  it("takes any count from 0 to 4096, and names the bounds when refused", () => {
    expect(pooledRandomBytes(0)).toHaveLength(0);
    expect(pooledRandomBytes(4096)).toHaveLength(4096);
    expect(() => pooledRandomBytes(4097)).toThrow("count must be 0-4096, got 4097");
    expect(() => pooledRandomBytes(-1)).toThrow("count must be 0-4096, got -1");
  });

  it("gives exactly the count asked for, bytes no other call got, across refills and ids", () => {
    const sizes = [16, 1, 4095, 32, 7, 4096, 16, 100, 3000, 16];
    const lengths: number[] = [];
    const starts = new Set<string>();
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const size of sizes) {
        const bytes = pooledRandomBytes(size);
        lengths.push(bytes.length);
        // The first 16 bytes of a slice: CSPRNG output repeats by chance with a negligible probability.
        if (size >= 16) starts.add(Buffer.from(bytes.subarray(0, 16)).toString("hex"));
        ids.push(newId());
      }
    }
    expect(lengths).toEqual([...sizes, ...sizes, ...sizes]);
    expect(starts.size).toBe(3 * 8);
    expect(new Set(ids).size).toBe(30);
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    // Base32 by default, not digits: 30 ids of 16 characters are all digits with a probability of (10/32)^480.
    expect(ids.some((id) => /[A-Z]/.test(id))).toBe(true);
  });
});
