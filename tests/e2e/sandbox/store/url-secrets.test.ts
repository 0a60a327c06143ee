/**
 * The secrets of a store's address (src/sandbox/store/url.ts) where the address is not a valid URL:
 * `urlSecrets` does not throw (the command line and the Postgres store ask before they know it
 * parses; refusing it is the address parser's, ./open.ts) and finds what `redactUrl` replaces: the
 * userinfo after the user's ":" up to the last "@", and the value of every query parameter whose
 * name holds "password" (those `pg` reads: `password`, `sslpassword`), wherever it stands in the
 * query, as it does for a valid URL; in a text with neither, it finds none.
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

describe("urlSecrets of an address that is not a valid URL", () => {
  it("finds what redactUrl replaces in it, as written and decoded", () => {
    const cases: Array<[string, string[]]> = [
      ["postgres://u:s3cr%2Ft@h:99999/d", ["s3cr%2Ft", "s3cr/t"]],
      ["postgres://u:p@ss@h:99999/d?sslmode=require", ["p@ss"]],
      ["postgres://u@h:99999/d?sslmode=require&password=x%20y&sslpassword=k3y", ["x%20y", "x y", "k3y"]],
      ["postgres://u:%E0%A4@h:99999/d", ["%E0%A4"]],
    ];
    for (const [address, secrets] of cases) {
      expect(URL.canParse(address)).toBe(false);
      expect(urlSecrets(address)).toEqual(secrets);
      const redacted = redactUrl(address);
      for (const secret of secrets) expect(redacted).not.toContain(secret);
    }
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
