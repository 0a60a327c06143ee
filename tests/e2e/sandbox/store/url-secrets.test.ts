/**
 * The secrets of a store's address (src/sandbox/store/url.ts) where the address is not a valid URL:
 * `urlSecrets` finds none and does not throw (the command line and the Postgres store ask before they
 * know it parses; refusing it is the address parser's, ./open.ts); `redactUrl`, which cannot parse
 * it, still replaces the value of every query parameter whose name holds "password" (those `pg`
 * reads: `password`, `sslpassword`), wherever it stands in the query, as it does for a valid URL.
 */
import { describe, expect, it } from "vitest";
import { redactUrl, urlSecrets } from "../../../../src/sandbox/store/url.js";

describe("urlSecrets", () => {
  it("finds no secret in an address that is not a URL, and does not throw", () => {
    for (const address of ["", "not a url", "memory", "/srv/sandbox"]) {
      expect(URL.canParse(address)).toBe(false);
      expect(urlSecrets(address)).toEqual([]);
    }
    // A URL without a password, or with empty password parameters, has none either.
    expect(urlSecrets("postgres://u@h/d?sslmode=require")).toEqual([]);
    expect(urlSecrets("postgres://u:@h/d?password=&sslpassword=")).toEqual([]);
  });
});

describe("redactUrl of an address that is not a valid URL", () => {
  // The same query after a host that parses and after one that does not (a port beyond 65535).
  const queries: Array<[string, string]> = [
    ["?password=s3cr3t", "?password=***"],
    ["?sslmode=require&password=s3cr3t", "?sslmode=require&password=***"],
    ["?sslpassword=k3y&sslmode=require", "?sslpassword=***&sslmode=require"],
    ["?sslmode=require&sslpassword=k3y&password=s3cr3t", "?sslmode=require&sslpassword=***&password=***"],
    ["?Password_File=x&user=u", "?Password_File=***&user=u"],
    ["?db_password2=x", "?db_password2=***"],
  ];

  it("replaces every password parameter's value, as it does in a valid URL", () => {
    for (const [query, redacted] of queries) {
      expect(URL.canParse(`postgres://u@h:99999/d${query}`)).toBe(false);
      expect(redactUrl(`postgres://u@h:99999/d${query}`)).toBe(`postgres://u@h:99999/d${redacted}`);
      expect(redactUrl(`postgres://u@h:5432/d${query}`)).toBe(`postgres://u@h:5432/d${redacted}`);
    }
  });
});
