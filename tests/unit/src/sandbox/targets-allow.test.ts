/**
 * The operator's allow-list of a shared sandbox (src/sandbox/targets.ts) matched name by name: an
 * entry `*.partner.test` is every name under partner.test (docs/guides/shared-sandbox.md, "every
 * name under"), never the apex itself, a name that merely ends in the same letters
 * (`evilpartner.test`), nor a name of another domain that starts with it (`partner.test.evil.com`);
 * an exact entry is that name only. Each name is judged both before sending (`check`) and at
 * connect time, on the name a resolver answered for (`allowsAddress`, `lookup`). The names are a
 * hand-written table.
 */
import type { LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import { TargetPolicy, TargetRefused } from "../../../../src/sandbox/targets.js";

/** Every name resolves to one harmless address outside any allowed network: only the name can allow it. */
const resolve = async (): Promise<LookupAddress[]> => [{ address: "203.0.113.7", family: 4 }];
const shared = (allow: string[]) => new TargetPolicy({ binding: "0.0.0.0", callbackAllow: allow, resolve });

/** What the connection's lookup answers for a name: the addresses kept, or the refusal's code. */
function lookup(policy: TargetPolicy, name: string): Promise<string> {
  return new Promise((done) =>
    policy.lookup(name, { all: true }, (error, addresses) =>
      done(error ? `refused ${error.code}` : (addresses as LookupAddress[]).map((a) => a.address).join(",")),
    ),
  );
}

const WILDCARD: Array<[string, boolean]> = [
  ["a.partner.test", true],
  ["hooks.eu.partner.test", true],
  ["A.Partner.Test.", true],
  ["partner.test", false], // the apex is not under itself
  ["evilpartner.test", false], // ends with the same letters, not under it
  ["a-partner.test", false],
  ["partner.test.evil.com", false], // starts with it, another domain
  ["a.partner.test.evil.com", false],
  ["partner.testing", false],
  ["a.partner.tes", false],
  ["other.test", false],
];

// Each policy is made inside its test, so that a mutation tester sees which tests reach its constructor.
describe("a wildcard entry *.partner.test", () => {
  for (const [name, allowed] of WILDCARD) {
    it(`${allowed ? "allows" : "refuses"} ${name}, before sending and at connect time`, async () => {
      const policy = shared(["*.partner.test"]);
      const url = `https://${name}/hooks`;
      if (allowed) expect(policy.check(url).href).toBe(`https://${name.toLowerCase()}/hooks`);
      else expect(() => policy.check(url)).toThrow(TargetRefused);
      expect(policy.allowsAddress("203.0.113.7", name.toLowerCase().replace(/\.$/, ""))).toBe(allowed);
      expect(await lookup(policy, name)).toBe(allowed ? "203.0.113.7" : "refused ENOTALLOWED");
    });
  }
});

describe("an exact entry hooks.partner.test", () => {
  for (const [name, allowed] of [
    ["hooks.partner.test", true],
    ["HOOKS.partner.test.", true],
    ["a.hooks.partner.test", false],
    ["xhooks.partner.test", false],
    ["partner.test", false],
    ["hooks.partner.test.evil.com", false],
  ] as Array<[string, boolean]>) {
    it(`${allowed ? "allows" : "refuses"} ${name}`, async () => {
      const policy = shared(["hooks.partner.test"]);
      if (allowed) expect(() => policy.check(`http://${name}/`)).not.toThrow();
      else expect(() => policy.check(`http://${name}/`)).toThrow(/only to the targets its operator allows: hooks\.partner\.test$/);
      expect(await lookup(policy, name)).toBe(allowed ? "203.0.113.7" : "refused ENOTALLOWED");
    });
  }
});

describe("names and networks together", () => {
  it("a name outside the names passes the first check only to be judged on its address when connecting", async () => {
    const policy = shared(["*.partner.test", "198.51.100.0/24"]);
    // Any name may resolve into the allowed network, so check() lets it on; the lookup decides.
    expect(() => policy.check("https://evilpartner.test/")).not.toThrow();
    expect(await lookup(policy, "evilpartner.test")).toBe("refused ENOTALLOWED");
    expect(policy.allowsAddress("198.51.100.9", "evilpartner.test")).toBe(true);
    expect(policy.allowsAddress("198.51.101.9", "evilpartner.test")).toBe(false);
    expect(policy.allowsAddress("203.0.113.7", "a.partner.test")).toBe(true);
  });

  it("a lookup that is not asked for every address answers the first allowed one with its family", async () => {
    const policy = new TargetPolicy({
      binding: "0.0.0.0",
      callbackAllow: ["*.partner.test", "2001:db8::/32"],
      resolve: async () => [
        { address: "169.254.169.254", family: 4 },
        { address: "2001:db8::5", family: 6 },
      ],
    });
    const answer = await new Promise<unknown[]>((done) => policy.lookup("x.other.test", {}, (...args) => done(args)));
    expect(answer).toEqual([null, "2001:db8::5", 6]);
    const byFamilyNumber = await new Promise<unknown[]>((done) => policy.lookup("x.other.test", 0, (...args) => done(args)));
    expect(byFamilyNumber).toEqual([null, "2001:db8::5", 6]);
  });
});
