/** The sandbox's ids (src/sandbox/ids.ts): format, alphabet, and pooled randomness handed out once. */
import { describe, expect, it } from "vitest";
import { newId, pooledRandomBytes } from "../../../../src/sandbox/ids.js";

describe("newId", () => {
  it("is the prefix and 16 Crockford base32 characters (no I, L, O, U)", () => {
    for (let i = 0; i < 200; i++) expect(newId("dsb_")).toMatch(/^dsb_[0-9A-HJKMNP-TV-Z]{16}$/);
  });
  it("is 16 decimal digits with digits: true", () => {
    for (let i = 0; i < 200; i++) expect(newId("o-", true)).toMatch(/^o-\d{16}$/);
  });
  it("keeps any prefix as it is: printable ASCII, other characters, a long one, none; prefixes in turn never mix", () => {
    const long = "p".repeat(60);
    for (let i = 0; i < 50; i++) {
      expect(newId("inv_")).toMatch(/^inv_[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(newId("ü-€_")).toMatch(/^ü-€_[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(newId(long)).toMatch(new RegExp(`^${long}[0-9A-HJKMNP-TV-Z]{16}$`));
      expect(newId("", true)).toMatch(/^\d{16}$/);
      expect(newId("a")).toMatch(/^a[0-9A-HJKMNP-TV-Z]{16}$/);
    }
  });
  it("never repeats over many pool refills (10,000 ids: 160,000 bytes, about 40 pools)", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i++) ids.add(newId());
    expect(ids.size).toBe(10_000);
  });
});

describe("pooledRandomBytes", () => {
  it("hands out consecutive slices that keep their bytes after the pool is refilled", () => {
    const first = pooledRandomBytes(16);
    const kept = Buffer.from(first).toString("hex");
    for (let i = 0; i < 600; i++) pooledRandomBytes(16); // several refills
    expect(Buffer.from(first).toString("hex")).toBe(kept);
    expect(first).toHaveLength(16);
  });
  it("refuses a count beyond the pool or not a whole number", () => {
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError);
    expect(() => pooledRandomBytes(-1)).toThrow(RangeError);
    expect(() => pooledRandomBytes(1.5)).toThrow(RangeError);
  });
});
