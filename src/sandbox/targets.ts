/**
 * Where the sandbox may send callbacks (the policy is documented in docs/guides/hosting.md).
 *
 * - **Local** (the mock bound to a loopback interface, the default): the sandbox serves one
 *   developer, whose receiver on localhost is the main use; any http(s) target is reached.
 * - **Shared** (hosted mode, `shared: true`, whatever the interface; or bound to any other
 *   interface): callbacks reach only what the operator allows
 *   (`callbackAllow`: host names, IP addresses and CIDR networks; the `--callback-allow` option or
 *   the BANK_API_CONTRACTS_CALLBACK_ALLOW environment variable), and a failed attempt is reported
 *   without its error or duration (see ./delivery/deliverer.ts), so the log cannot tell an open port from a
 *   closed one.
 * - **Never**, in either mode: link-local addresses (169.254.0.0/16, fe80::/10) and the cloud
 *   metadata services (169.254.169.254, fd00:ec2::254, 100.100.100.200, metadata.google.internal
 *   ...), however the address is spelt: the WHATWG URL parser already turns decimal, octal and hex
 *   IPv4 forms into dotted quads; IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 forms carry the
 *   blocked IPv4 networks too; a trailing dot is dropped from names. A name is checked again on the
 *   address it resolves to, at connect time (the `lookup` of the request), so a DNS answer that
 *   changes between a check and the connection (DNS rebinding) reaches nothing it should not.
 *
 * `fetch` here is the sandbox's sender: node:http(s) with that lookup, no connection reuse, and no
 * redirect followed (node:http never follows one).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP } from "node:net";
import { Readable } from "node:stream";

/** The environment variable that lists the allowed callback targets (comma or space separated). */
export const CALLBACK_ALLOW_ENV = "BANK_API_CONTRACTS_CALLBACK_ALLOW";

/** Metadata services' host names (a trailing dot and case do not matter). */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
]);

/** IPv4 networks never reached: link-local (with AWS, GCP, Azure, OCI metadata), Alibaba's and Oracle Classic's metadata. */
const NEVER_V4: Array<[string, number]> = [
  ["169.254.0.0", 16],
  ["100.100.100.200", 32],
  ["192.0.0.192", 32],
];

/** The never-reached list, in every IPv6 form that carries an IPv4 address (the mapped form `::ffff:` BlockList handles itself). */
function neverList(): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of NEVER_V4) {
    list.addSubnet(address, prefix, "ipv4");
    const [a, b, c, d] = address.split(".").map(Number);
    const high = ((a << 8) | b).toString(16);
    const low = ((c << 8) | d).toString(16);
    list.addSubnet(`64:ff9b::${high}:${low}`, 96 + prefix, "ipv6"); // NAT64 (RFC 6052)
    list.addSubnet(`::${high}:${low}`, 96 + prefix, "ipv6"); // IPv4-compatible (deprecated, still parsed)
    list.addSubnet(`2002:${high}:${low}::`, 16 + prefix, "ipv6"); // 6to4
  }
  list.addSubnet("fe80::", 10, "ipv6"); // link-local
  list.addAddress("fd00:ec2::254", "ipv6"); // AWS instance metadata over IPv6
  return list;
}

const NEVER = neverList();
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** A host as a URL gives it (`[::1]`, `Example.COM.`) in one comparable form (`::1`, `example.com`). */
export function normalHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith("[") && name.endsWith("]")) name = name.slice(1, -1);
  while (name.endsWith(".")) name = name.slice(0, -1);
  return name;
}

const family = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/** True for an address (IPv4 or IPv6, any form) the sandbox never reaches. */
export function isNeverReached(address: string): boolean {
  const ip = normalHost(address);
  return isIP(ip) !== 0 && NEVER.check(ip, family(ip));
}

/** True when the mock's interface is a loopback one (127.0.0.0/8, ::1, localhost): the sandbox is local. */
export function isLoopbackBinding(host: string | undefined): boolean {
  const name = normalHost(host ?? "127.0.0.1");
  if (name === "localhost") return true;
  return isIP(name) !== 0 && LOOPBACK.check(name, family(name));
}

/** Why an allow-list entry is not usable; undefined when it is. */
function badEntry(entry: string): string | undefined {
  if (entry.includes("://")) return "a host name, not a URL";
  const [address, prefix, ...rest] = entry.split("/");
  if (rest.length > 0) return "more than one /";
  if (prefix !== undefined) {
    const version = isIP(address);
    if (version === 0) return "a network must be an IP address followed by /prefix";
    const max = version === 4 ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return `the prefix must be 0-${max}`;
    return undefined;
  }
  if (isIP(address) !== 0) return undefined;
  if (!/^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(address)) return "not a host name";
  return undefined;
}

/** Parses the allow-list as the option and the environment variable give it: entries separated by commas or spaces. */
export function parseCallbackAllow(value: string | readonly string[] | undefined): string[] {
  const parts = (typeof value === "string" ? [value] : (value ?? [])).flatMap((v) => v.split(/[\s,]+/));
  const entries = parts.map(normalHost).filter((p) => p !== "");
  for (const entry of entries) {
    const problem = badEntry(entry);
    if (problem)
      throw new TypeError(`callback target "${entry}": ${problem} (expected a host name, *.domain, an IP address or a CIDR network)`);
  }
  return [...new Set(entries)];
}

export interface TargetPolicyOptions {
  /** The interface the mock listens on. Default 127.0.0.1 (local). */
  binding?: string;
  /** True: the shared policy whatever the binding (hosted mode, which serves partners behind a proxy on loopback too). */
  shared?: boolean;
  /** Shared mode: the host names (`*.domain` for its subdomains), IP addresses and CIDR networks callbacks may reach. */
  callbackAllow?: readonly string[];
  /** Resolves a host name (default: the system's resolver, `dns.lookup`). For tests. */
  resolve?: (host: string) => Promise<LookupAddress[]>;
}

/** A refusal: the URL is not sent to. `reason` is safe to show to the caller who registered the URL. */
export class TargetRefused extends Error {
  override readonly name = "TargetRefused";
}

/** Every address of `host`, in the order the process's DNS settings give (`--dns-result-order`), as Node's own connections use. */
const systemResolve = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class TargetPolicy {
  /** "local" on a loopback binding, "shared" otherwise or when asked (`shared: true`). */
  readonly mode: "local" | "shared";
  /** Why the policy is shared, as a refusal says it. */
  private readonly sharedBecause: string;
  readonly allow: readonly string[];
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly networks = new BlockList();
  private readonly hasNetworks: boolean;
  private readonly resolve: (host: string) => Promise<LookupAddress[]>;

  constructor(options: TargetPolicyOptions = {}) {
    this.mode = options.shared !== true && isLoopbackBinding(options.binding) ? "local" : "shared";
    this.sharedBecause = options.shared === true ? "a hosted sandbox" : "bound to a non-loopback interface";
    this.allow = parseCallbackAllow(options.callbackAllow);
    this.resolve = options.resolve ?? systemResolve;
    let networks = 0;
    for (const entry of this.allow) {
      const [address, prefix] = entry.split("/");
      if (isIP(address) !== 0) {
        const kind = family(address);
        this.networks.addSubnet(address, prefix === undefined ? (kind === "ipv4" ? 32 : 128) : Number(prefix), kind);
        networks++;
      } else if (address.startsWith("*.")) this.suffixes.push(address.slice(1));
      else this.names.add(address);
    }
    this.hasNetworks = networks > 0;
  }

  /** True in shared mode: failures are reported without their details. */
  get opaque(): boolean {
    return this.mode === "shared";
  }

  private allowedName(name: string): boolean {
    return this.names.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix));
  }

  /** Whether a resolved (or literal) address may be connected to, for a URL whose host is `name`. */
  allowsAddress(address: string, name?: string): boolean {
    const ip = normalHost(address);
    if (isIP(ip) === 0 || NEVER.check(ip, family(ip))) return false;
    if (this.mode === "local") return true;
    if (name !== undefined && this.allowedName(name)) return true;
    return this.hasNetworks && this.networks.check(ip, family(ip));
  }

  /**
   * Checks a URL before anything is sent (its scheme, a literal address, a metadata name, and in
   * shared mode the allow-list); throws TargetRefused. Names are checked again when they resolve.
   */
  check(url: string | URL): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new TargetRefused("the callback URL is not an absolute URL");
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new TargetRefused("the callback URL is not an http(s) URL");
    const host = normalHost(parsed.hostname);
    if (isIP(host) !== 0 ? NEVER.check(host, family(host)) : METADATA_NAMES.has(host))
      throw new TargetRefused("the callback URL's host is a link-local or cloud metadata address, which the sandbox never reaches");
    if (this.mode === "shared") {
      const allowed = isIP(host) !== 0 ? this.allowsAddress(host) : this.allowedName(host) || this.hasNetworks;
      if (!allowed) throw new TargetRefused(this.notAllowed());
    }
    return parsed;
  }

  private notAllowed(): string {
    return this.allow.length === 0
      ? `this sandbox is shared (${this.sharedBecause}) and its operator allows no callback targets (--callback-allow): nothing is sent`
      : `this sandbox is shared and sends callbacks only to the targets its operator allows: ${this.allow.join(", ")}`;
  }

  /** The `lookup` of the connection: resolves a name and keeps only the addresses the policy allows. */
  readonly lookup = (hostname: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    const name = normalHost(hostname);
    const all = typeof options === "object" && options.all === true;
    // A resolver's answer that is no list of addresses fails the lookup, as the resolver failing does.
    this.resolve(name)
      .then((addresses) => addresses.filter((a) => this.allowsAddress(a.address, name)))
      .then(
        (allowed) => {
          if (allowed.length === 0) {
            const error: NodeJS.ErrnoException = new TargetRefused(
              "the callback host resolves to no address the sandbox may reach (link-local, cloud metadata, or not allowed)",
            );
            error.code = "ENOTALLOWED";
            callback(error, all ? [] : "", 0);
            return;
          }
          if (all) callback(null, allowed);
          else callback(null, allowed[0].address, allowed[0].family);
        },
        (error: NodeJS.ErrnoException) => callback(error, all ? [] : "", 0),
      );
  };

  /**
   * A fetch for callbacks: checks the URL (check()), connects through the policy's lookup (a literal
   * address is not looked up, check() has judged it), follows no redirect and keeps no connection.
   */
  readonly fetch = ((input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    let url: URL;
    try {
      url = this.check(input instanceof Request ? input.url : String(input));
    } catch (error) {
      return Promise.reject(new TypeError("fetch failed", { cause: error }));
    }
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const request = send(
        url,
        { method: init.method ?? "GET", headers, lookup: this.lookup as never, agent: false, signal: init.signal ?? undefined },
        (answer: IncomingMessage) => {
          const status = answer.statusCode ?? 0;
          const empty = status === 204 || status === 205 || status === 304 || (init.method ?? "GET").toUpperCase() === "HEAD";
          if (empty) answer.resume();
          try {
            resolve(new Response(empty ? null : (Readable.toWeb(answer) as ReadableStream), { status }));
          } catch (error) {
            answer.destroy();
            reject(new TypeError("fetch failed", { cause: error }));
          }
        },
      );
      request.on("error", (error) => reject(new TypeError("fetch failed", { cause: error })));
      request.end(body);
    });
  }) as typeof fetch;

  /** What GET /_sandbox shows of the policy. */
  describe() {
    return { mode: this.mode, callback_allow: [...this.allow] };
  }
}
