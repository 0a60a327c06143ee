/**
 * The callback target policy's parts alone (src/sandbox/targets.ts), on hand-written tables: a host
 * as a URL gives it in one comparable form; what is a loopback binding and a never-reached address
 * (a name is neither); the allow-list's entries as docs/guides/shared-sandbox.md describes them
 * (host names of any number of labels, `*.domain`, IP addresses, CIDR networks of either family),
 * each refusal naming the entry and why; a single address allows that address only; URLs that are
 * not absolute or not http(s) refused; the connection's lookup answering in the form it was asked
 * (one address, or all) for a refusal and for a resolver's own error.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { describe, expect, it } from "vitest";
import {
  isLoopbackBinding,
  isNeverReached,
  normalHost,
  parseCallbackAllow,
  TargetPolicy,
  TargetRefused,
} from "../../../../src/sandbox/targets.js";

describe("a host in one form", () => {
  it.each([
    ["[::1]", "::1"],
    ["[FE80::1]", "fe80::1"],
    ["[abc", "[abc"],
    ["abc]", "abc]"],
    ["Example.COM.", "example.com"],
    ["example.com..", "example.com"],
    ["  Partner.Test  ", "partner.test"],
  ])("%j is %j", (given, expected) => expect(normalHost(given)).toBe(expected));
});

describe("bindings and addresses", () => {
  it("a loopback binding is 127.0.0.0/8, ::1 or localhost; nothing else, a name included", () => {
    for (const local of [undefined, "127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LOCALHOST."])
      expect(isLoopbackBinding(local), String(local)).toBe(true);
    for (const shared of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.10", "my-host", "localhost.example.test", "128.0.0.1"])
      expect(isLoopbackBinding(shared), shared).toBe(false);
  });

  it("a never-reached address is an IP address in the blocked networks; a name never is", () => {
    expect(isNeverReached("169.254.169.254")).toBe(true);
    expect(isNeverReached("[fe80::1]")).toBe(true);
    for (const other of ["metadata.google.internal", "example.test", "10.0.0.1", "::1"]) expect(isNeverReached(other), other).toBe(false);
  });
});

describe("the allow-list", () => {
  it("takes host names of any number of labels, *.domain, addresses and networks of both families", () => {
    const entries = [
      "a.b.test",
      "hooks.eu.partner.test",
      "x",
      "a_b.test",
      "*.partner.test",
      "10.1.2.3",
      "fd00::1",
      "10.0.0.0/8",
      "fd00::/64",
      "::/0",
      "0.0.0.0/0",
    ];
    expect(parseCallbackAllow(entries)).toEqual(entries);
  });

  it("drops empty entries and repeats, in the option's and the environment's separators", () => {
    expect(parseCallbackAllow("a.test,")).toEqual(["a.test"]);
    expect(parseCallbackAllow(", a.test ,,b.test\n\ta.test")).toEqual(["a.test", "b.test"]);
    expect(parseCallbackAllow(" ")).toEqual([]);
    expect(parseCallbackAllow([])).toEqual([]);
  });

  it.each([
    ["http://partner.test", "a host name, not a URL"],
    ["a.test/8/1", "more than one /"],
    ["partner.test/8", "a network must be an IP address followed by /prefix"],
    ["10.0.0.0/33", "the prefix must be 0-32"],
    ["10.0.0.0/x8", "the prefix must be 0-32"],
    ["10.0.0.0/8x", "the prefix must be 0-32"],
    ["10.0.0.0/", "the prefix must be 0-32"],
    ["10.0.0.0/0008", "the prefix must be 0-32"],
    ["fd00::/129", "the prefix must be 0-128"],
    ["-a.test", "not a host name"],
    ["a-.test", "not a host name"],
    ["a..test", "not a host name"],
    ["*.*.test", "not a host name"],
    ["partner.*", "not a host name"],
    ["a b", "not a host name"],
  ])("refuses %j: %s", (entry, why) => {
    expect(() => parseCallbackAllow([entry.replace(" ", "%20")])).toThrow(TypeError);
    expect(() => parseCallbackAllow([entry.replace(" ", "%20")])).toThrow(
      `callback target "${entry.replace(" ", "%20")}": ${why} (expected a host name, *.domain, an IP address or a CIDR network)`,
    );
  });
});

const resolveTo = (address: string, family: number) => async (): Promise<LookupAddress[]> => [{ address, family }];

describe("a shared policy", () => {
  it("a single address allows that address, not its network, in either family", () => {
    const policy = new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["2001:db8::1", "198.51.100.7"] });
    expect(policy.allowsAddress("2001:db8::1")).toBe(true);
    expect(policy.allowsAddress("2001:db8::2")).toBe(false);
    expect(policy.allowsAddress("198.51.100.7")).toBe(true);
    expect(policy.allowsAddress("198.51.100.8")).toBe(false);
    expect(policy.allowsAddress("not-an-address", "x.test")).toBe(false);
    expect(policy.describe()).toEqual({ mode: "shared", callback_allow: ["2001:db8::1", "198.51.100.7"] });
  });

  it("in either mode, what is not an IP address is never an address to connect to", () => {
    for (const binding of ["127.0.0.1", "0.0.0.0"]) {
      const policy = new TargetPolicy({ binding, callbackAllow: ["partner.test", "0.0.0.0/0"] });
      for (const text of ["partner.test", "not-an-address", ""])
        expect(policy.allowsAddress(text, "partner.test"), `${binding} ${text}`).toBe(false);
    }
  });

  it("an exact name is that name, never a name ending in it", () => {
    const policy = new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["partner.test"] });
    expect(() => policy.check("https://partner.test/hook")).not.toThrow();
    expect(() => policy.check("https://xpartner.test/hook")).toThrow(TargetRefused);
    expect(() => policy.check("https://artner.test/hook")).toThrow(TargetRefused);
  });

  it("refuses a URL that is not absolute, or not http(s), in any mode, before anything else", () => {
    for (const binding of ["127.0.0.1", "0.0.0.0"]) {
      const policy = new TargetPolicy({ binding, callbackAllow: ["partner.test"] });
      for (const [url, why] of [
        ["/hooks", "the callback URL is not an absolute URL"],
        ["partner.test/hooks", "the callback URL is not an absolute URL"],
        ["ftp://partner.test/hooks", "the callback URL is not an http(s) URL"],
        ["file:///etc/passwd", "the callback URL is not an http(s) URL"],
      ]) {
        let refused: unknown;
        try {
          policy.check(url);
        } catch (error) {
          refused = error;
        }
        expect(refused, url).toBeInstanceOf(TargetRefused);
        expect((refused as Error).message, url).toBe(why);
        expect((refused as Error).name).toBe("TargetRefused");
      }
    }
  });
});

/** What the policy's lookup calls back with. */
function lookup(policy: TargetPolicy, name: string, options: { all?: boolean } | number) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }>((resolve) =>
    policy.lookup(name, options, (error, address, family) => resolve({ error, address, family })),
  );
}

describe("the connection's lookup", () => {
  it("answers a refusal in the form asked: an empty list for all, an empty address otherwise", async () => {
    const policy = new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["a.test"], resolve: resolveTo("203.0.113.1", 4) });
    const all = await lookup(policy, "other.test", { all: true });
    expect(all.error?.code).toBe("ENOTALLOWED");
    expect(all.error).toBeInstanceOf(TargetRefused);
    expect(all.address).toEqual([]);
    const one = await lookup(policy, "other.test", {});
    expect([one.error?.code, one.address, one.family]).toEqual(["ENOTALLOWED", "", 0]);
  });

  it("passes a resolver's own error on, in the form asked", async () => {
    const failure = Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.test"), { code: "ENOTFOUND" });
    const policy = new TargetPolicy({
      binding: "0.0.0.0",
      callbackAllow: ["nowhere.test"],
      resolve: async () => {
        throw failure;
      },
    });
    const all = await lookup(policy, "nowhere.test", { all: true });
    expect(all.error).toBe(failure);
    expect(all.address).toEqual([]);
    const one = await lookup(policy, "nowhere.test", 0);
    expect([one.error, one.address, one.family]).toEqual([failure, "", 0]);
  });

  it("fails, in the form asked, when the resolver answers no list of addresses: the connection is not left waiting", async () => {
    const policy = new TargetPolicy({ resolve: async () => "127.0.0.1" as unknown as LookupAddress[] });
    const all = await lookup(policy, "localhost", { all: true });
    expect(all.error).toBeInstanceOf(TypeError);
    expect(all.address).toEqual([]);
    const one = await lookup(policy, "localhost", 0);
    expect(one.error).toBeInstanceOf(TypeError);
    expect([one.address, one.family]).toEqual(["", 0]);
  });

  it("by default asks the system's resolver, keeping the order it answers in (the process's, as Node's own connections)", async () => {
    const policy = new TargetPolicy();
    const system = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup("localhost", { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
    );
    const answer = await lookup(policy, "localhost", { all: true });
    expect(answer.error).toBeNull();
    expect(answer.address).toEqual(system);
  });
});
