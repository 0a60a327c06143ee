/**
 * Prism's validation proxy in front of a real server (a sandbox): every request is forwarded to
 * `upstream` as it is, and the request and the upstream's response are both validated against the
 * API's bundled spec. Nothing is blocked or rewritten: findings are added to the response in the
 * `sl-violations` header (as the mock does) and reported to `onExchange`, one call per request.
 *
 * Needs the optional peer dependencies @stoplight/prism-http and @stoplight/prism-http-server.
 */
import { existsSync } from "node:fs";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createServer } from "@stoplight/prism-http-server";
import { listenOrExplain } from "../mock/listen.js";
import { type ApiEntry, defaultPort, findApi } from "../registry.js";

/** One finding, as Prism reports it (and as the `sl-violations` header carries it). */
export interface ProxyViolation {
  /** Where, e.g. `["request", "body", "amount"]` or `["response", "body", "items", "0", "id"]`. */
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** What happened to one request that went through the proxy. */
export interface ProxyExchange {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  /** Status sent back to the client; undefined when Prism could not produce a response. */
  status?: number;
  /** Request findings first, then response findings. */
  violations: ProxyViolation[];
  /** Set when the exchange failed (upstream unreachable, ...): the message of Prism's error. */
  error?: string;
}

export interface ProxyOptions {
  /** Base URL of the real server; the request path is appended to it. */
  upstream: string | URL;
  /** Port to listen on; 0 picks a free one. Default: the API's default mock port. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Called once per request with its findings (also when there are none). */
  onExchange?: (exchange: ProxyExchange) => void;
}

export interface ProxyServer {
  alias: string;
  /** Base URL of the proxy; send requests here instead of to the upstream. */
  url: string;
  port: number;
  upstream: string;
  close(): Promise<void>;
}

/** Prism's logging, off (every method a no-op; `child()` is the logger itself). */
const noop = () => undefined;
const silentLogger: Record<string, unknown> = {
  level: "silent",
  ...Object.fromEntries(["trace", "debug", "info", "success", "warn", "error", "fatal"].map((level) => [level, noop])),
};
silentLogger.child = () => silentLogger;

interface Diagnostic {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
}
type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
type Outcome = Either<
  Error & { status?: number },
  { output: { statusCode: number }; validations: { input: Diagnostic[]; output: Diagnostic[] } }
>;
interface RequestInput {
  method: string;
  url: { path: string; query?: Record<string, string | string[]> };
}

const SEVERITIES = ["Error", "Warning", "Information", "Hint"];

/** As prism-http-server builds the sl-violations entries. */
const violation =
  (prefix: string) =>
  (d: Diagnostic): ProxyViolation => ({
    location: [prefix, ...(d.path ?? [])],
    severity: SEVERITIES[d.severity] ?? String(d.severity),
    code: d.code ?? "",
    message: d.message,
  });

function describeUrl(input: RequestInput): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.url.query ?? {})) {
    for (const v of [value].flat()) query.append(name, v);
  }
  const search = query.toString();
  return search ? `${input.url.path}?${search}` : input.url.path;
}

function parseUpstream(alias: string, upstream: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(upstream));
  } catch {
    throw new Error(`${alias}: upstream ${JSON.stringify(String(upstream))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${alias}: upstream must be an http or https URL, got ${url.href}`);
  return url;
}

/** Starts a validating proxy for one API (alias or registry entry) in front of `options.upstream`. */
export async function startProxy(api: string | ApiEntry, options: ProxyOptions): Promise<ProxyServer> {
  const entry = typeof api === "string" ? findApi(api) : api;
  const upstream = parseUpstream(entry.alias, options.upstream);
  const port = options.port ?? defaultPort(entry);
  const host = options.host ?? "127.0.0.1";
  if (!existsSync(entry.bundlePath)) throw new Error(`${entry.alias}: bundled spec ${entry.bundlePath} not found`);
  const operations = await getHttpOperationsFromSpec(entry.bundlePath);
  const server = createServer(operations, {
    components: { logger: silentLogger as never },
    config: {
      mock: { dynamic: false },
      checkSecurity: true,
      validateRequest: true,
      validateResponse: true,
      errors: false, // report, never block: the client gets the upstream's answer as it is
      upstreamProxy: undefined,
      isProxy: true,
      upstream,
    },
    cors: true,
  });

  // prism-http-server's handler calls `prism.request(...)` for each request and sets sl-violations
  // from its result; the same result, observed here, tells onExchange what happened to the request.
  const { onExchange } = options;
  if (onExchange) {
    const prism = server.prism as unknown as { request: (input: RequestInput, ...rest: unknown[]) => () => Promise<Outcome> };
    const request = prism.request.bind(prism);
    prism.request = (input, ...rest) => {
      const task = request(input, ...rest);
      return async () => {
        const outcome = await task();
        const exchange: ProxyExchange = { method: input.method.toUpperCase(), url: describeUrl(input), violations: [] };
        if (outcome._tag === "Right") {
          exchange.status = outcome.right.output.statusCode;
          exchange.violations = [
            ...outcome.right.validations.input.map(violation("request")),
            ...outcome.right.validations.output.map(violation("response")),
          ];
        } else {
          exchange.status = outcome.left.status;
          exchange.error = outcome.left.message;
        }
        try {
          onExchange(exchange);
        } catch {
          // a failing reporter must not break the exchange
        }
        return outcome;
      };
    };
  }

  const address = await listenOrExplain(server, entry.alias, port, host);
  return {
    alias: entry.alias,
    url: address,
    port: Number(new URL(address).port),
    upstream: upstream.href,
    close: () => server.close(),
  };
}
