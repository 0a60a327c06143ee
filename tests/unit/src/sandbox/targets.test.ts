/**
 * The callback target policy (src/sandbox/targets.ts): link-local and metadata addresses never
 * reached in any mode however spelt; local mode (loopback binding) reaches localhost; shared mode
 * only what the operator allows; names checked again on the address they resolve to, when the
 * connection is made (a resolver that changes its answer, as DNS rebinding does, is injected).
 * The expectations are a hand-written table of spellings, not the code's own list.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isLoopbackBinding, isNeverReached, parseCallbackAllow, TargetPolicy, TargetRefused } from "../../../../src/sandbox/targets.js";

/** 169.254.169.254 (the metadata address of AWS, GCP, Azure, OCI) and its neighbours, as an attacker spells them. */
const METADATA_SPELLINGS = [
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/", // decimal
  "http://0xa9fea9fe/", // hex
  "http://0xA9.0xFE.0xA9.0xFE/", // hex octets
  "http://0251.0376.0251.0376/", // octal
  "http://169.254.43518/", // two-part
  "http://169.254.169.254./", // trailing dot
  "http://[::ffff:169.254.169.254]/", // IPv4-mapped IPv6
  "http://[::ffff:a9fe:a9fe]/",
  "http://[0:0:0:0:0:ffff:a9fe:a9fe]:80/",
  "http://[64:ff9b::169.254.169.254]/", // NAT64
  "http://[::169.254.169.254]/", // IPv4-compatible
  "http://[2002:a9fe:a9fe::1]/", // 6to4
  "http://[fd00:ec2::254]/", // AWS IMDS over IPv6
  "http://[fd00:ec2:0:0:0:0:0:254]/",
  "http://[fe80::1]:8080/", // IPv6 link-local
  "http://[FE80::a:b]/",
  "http://169.254.1.1:3000/hook", // IPv4 link-local
  "https://169.254.169.254/",
  "http://100.100.100.200/latest/meta-data/", // Alibaba Cloud
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://METADATA.GOOGLE.INTERNAL./",
  "http://metadata/",
  "http://metadata.goog/",
  "http://instance-data/latest/",
];

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function receiver() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(204).end();
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { port: (server.address() as AddressInfo).port, seen };
}

const post = (policy: TargetPolicy, url: string) =>
  policy.fetch(url, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });

describe("link-local and cloud metadata addresses", () => {
  for (const mode of ["local", "shared"] as const) {
    const policy = new TargetPolicy({
      binding: mode === "local" ? "127.0.0.1" : "0.0.0.0",
      callbackAllow: ["0.0.0.0/0", "::/0", "metadata"],
    });
    it(`are refused in ${mode} mode however spelt (${METADATA_SPELLINGS.length} spellings), even when the operator allows everything`, async () => {
      expect(policy.mode).toBe(mode);
      for (const url of METADATA_SPELLINGS) {
        expect(() => policy.check(url), url).toThrow(TargetRefused);
        expect(() => policy.check(url), url).toThrow(/link-local or cloud metadata/);
        const failure = await post(policy, url).catch((error: Error) => error);
        expect(failure, url).toBeInstanceOf(TypeError);
        expect((failure as TypeError).cause, url).toBeInstanceOf(TargetRefused);
      }
    });
  }

  it("are refused when a name resolves to one, at connect time (DNS rebinding: the first answer was harmless)", async () => {
    const target = await receiver();
    const answers = [
      [{ address: "127.0.0.1", family: 4 }],
      [{ address: "169.254.169.254", family: 4 }],
      [{ address: "::ffff:169.254.169.254", family: 6 }],
      [{ address: "fe80::1", family: 6 }],
    ];
    let calls = 0;
    const policy = new TargetPolicy({ resolve: async () => answers[Math.min(calls++, answers.length - 1)] });
    const url = `http://rebind.test:${target.port}/hook`;
    expect(() => policy.check(url)).not.toThrow(); // a name passes the first check...
    expect((await post(policy, url)).status).toBe(204); // ...and reaches the harmless address
    for (let i = 1; i < answers.length; i++) {
      const failure = await post(policy, url).catch((error: Error) => error);
      expect(String((failure as { cause?: unknown }).cause)).toMatch(/resolves to no address the sandbox may reach/);
    }
    expect(calls).toBe(answers.length); // resolved at every connection, not once
    expect(target.seen).toEqual(["POST /hook"]);
  });

  it("classifies addresses of every form", () => {
    for (const address of [
      "169.254.169.254",
      "::ffff:169.254.169.254",
      "64:ff9b::a9fe:a9fe",
      "fe80::1",
      "[fd00:ec2::254]",
      "100.100.100.200",
    ])
      expect(isNeverReached(address), address).toBe(true);
    for (const address of ["127.0.0.1", "::1", "10.0.0.1", "169.255.0.1", "fd00:ec2::253", "8.8.8.8", "localhost"])
      expect(isNeverReached(address), address).toBe(false);
  });
});

describe("local mode (loopback binding)", () => {
  it("is the mode of loopback interfaces only", () => {
    for (const host of [undefined, "127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST."])
      expect(isLoopbackBinding(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "my-host.internal"]) expect(isLoopbackBinding(host), host).toBe(false);
  });

  it("reaches a receiver on localhost by name or address, and follows no redirect", async () => {
    const target = await receiver();
    const policy = new TargetPolicy();
    expect(policy.mode).toBe("local");
    expect((await post(policy, `http://127.0.0.1:${target.port}/a`)).status).toBe(204);
    expect((await post(policy, `http://localhost:${target.port}/b`)).status).toBe(204);
    expect(target.seen).toEqual(["POST /a", "POST /b"]);

    const redirecting = createServer((_req, res) => res.writeHead(307, { location: "http://169.254.169.254/" }).end());
    servers.push(redirecting);
    redirecting.listen(0, "127.0.0.1");
    await once(redirecting, "listening");
    const answer = await post(policy, `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`);
    expect(answer.status).toBe(307);
  });
});

describe("shared mode (another interface)", () => {
  it("reaches nothing when the operator allows nothing, and says so", async () => {
    const target = await receiver();
    const policy = new TargetPolicy({ binding: "0.0.0.0" });
    expect(policy.opaque).toBe(true);
    for (const url of [
      `http://127.0.0.1:${target.port}/`,
      `http://localhost:${target.port}/`,
      "http://10.0.0.5/",
      "https://partner.test/",
    ]) {
      expect(() => policy.check(url), url).toThrow(/shared .* allows no callback targets \(--callback-allow\)/);
      await expect(post(policy, url)).rejects.toThrow(TypeError);
    }
    expect(target.seen).toEqual([]);
  });

  it("is hosted mode's whatever the binding (shared: true), loopback included, and says why", async () => {
    const target = await receiver();
    for (const binding of ["127.0.0.1", "::1", "localhost", "0.0.0.0"]) {
      const policy = new TargetPolicy({ binding, shared: true });
      expect([binding, policy.mode, policy.opaque]).toEqual([binding, "shared", true]);
      expect(() => policy.check(`http://127.0.0.1:${target.port}/`)).toThrow(
        new TargetRefused(
          "this sandbox is shared (a hosted sandbox) and its operator allows no callback targets (--callback-allow): nothing is sent",
        ),
      );
    }
    expect(() => new TargetPolicy({ binding: "10.0.0.1" }).check("https://partner.test/")).toThrow(
      "this sandbox is shared (bound to a non-loopback interface) and its operator allows no callback targets",
    );
    const allowed = new TargetPolicy({ binding: "127.0.0.1", shared: true, callbackAllow: ["127.0.0.1"] });
    expect((await post(allowed, `http://127.0.0.1:${target.port}/`)).status).toBe(204);
    expect(target.seen).toHaveLength(1);
  });

  it("reaches the hosts and networks the operator allows, and only those", async () => {
    const target = await receiver();
    const resolve = async (host: string) => {
      const table: Record<string, string> = {
        "partner.test": "127.0.0.1",
        "api.partner.test": "127.0.0.1",
        "other.test": "127.0.0.1",
        "inside.test": "10.1.2.3",
      };
      if (!table[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return [{ address: table[host], family: 4 }];
    };
    const byName = new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["partner.test", "*.partner.test"], resolve });
    expect((await post(byName, `http://partner.test:${target.port}/1`)).status).toBe(204);
    expect((await post(byName, `http://API.Partner.Test.:${target.port}/2`)).status).toBe(204);
    expect(() => byName.check(`http://other.test:${target.port}/`)).toThrow(
      /only to the targets its operator allows: partner.test, \*.partner.test/,
    );
    expect(() => byName.check(`http://127.0.0.1:${target.port}/`)).toThrow(TargetRefused);

    // A network: an address literal in it passes; a name passes only if it resolves into it, when connecting.
    const byNetwork = new TargetPolicy({ binding: "192.168.1.10", callbackAllow: ["10.0.0.0/8"], resolve });
    expect(() => byNetwork.check("http://10.9.9.9/")).not.toThrow();
    expect(() => byNetwork.check(`http://127.0.0.1:${target.port}/`)).toThrow(TargetRefused);
    const failure = await post(byNetwork, `http://other.test:${target.port}/3`).catch((error: Error) => error);
    expect(String((failure as { cause?: unknown }).cause)).toMatch(/resolves to no address the sandbox may reach/);
    expect(target.seen).toEqual(["POST /1", "POST /2"]);
  });

  it("parses the allow-list as the option and the environment give it, refusing what is not a host or network", () => {
    expect(parseCallbackAllow("partner.test, 10.0.0.0/8  fd00::/8,Partner.Test.")).toEqual(["partner.test", "10.0.0.0/8", "fd00::/8"]);
    expect(parseCallbackAllow(["a.test", "b.test,c.test"])).toEqual(["a.test", "b.test", "c.test"]);
    expect(parseCallbackAllow(undefined)).toEqual([]);
    for (const bad of ["10.0.0.0/33", "partner.test/8", "http://partner.test", "a..b", "fd00::/129"])
      expect(() => parseCallbackAllow(bad), bad).toThrow(
        /callback target .*expected a host name, \*\.domain, an IP address or a CIDR network/,
      );
  });
});
