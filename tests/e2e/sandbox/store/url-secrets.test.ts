/**
 * The secrets of a store's address (src/sandbox/store/url.ts `urlSecrets`) when the address is not a
 * URL at all: the command line and the Postgres store ask before they know it parses, so it gives
 * none and does not throw (the refusal of such an address is the address parser's, ./open.ts).
 */
import { describe, expect, it } from "vitest";
import { urlSecrets } from "../../../../src/sandbox/store/url.js";

describe("urlSecrets", () => {
  it("finds no secret in an address that is not a URL, and does not throw", () => {
    for (const address of ["", "not a url", "memory", "/srv/sandbox"]) {
      expect(URL.canParse(address)).toBe(false);
      expect(urlSecrets(address)).toEqual([]);
    }
    // A URL with no password has none either.
    expect(urlSecrets("postgres://u@h/d?sslmode=require")).toEqual([]);
  });
});
