/**
 * A validating proxy in front of a real server (a sandbox): every request is forwarded to
 * `upstream`, and the request and the upstream's answer are both validated by Prism against the
 * API's bundled spec. Nothing is blocked or rewritten: findings are added to the answer in the
 * `sl-violations` header (as the mock does) and reported to `onExchange`, one call per request.
 *
 * What goes through, exactly:
 * - The request's bytes go upstream as they were received (no re-serialisation: big integers and
 *   duplicate JSON keys stay intact); Prism validates a parsed copy. A chunked request is sent with
 *   one Content-Length (never with Transfer-Encoding as well). Hop-by-hop headers (Connection,
 *   Keep-Alive, Proxy-Authorization, Proxy-Authenticate, TE, Trailer, Transfer-Encoding, Upgrade
 *   and those the Connection header names) are dropped in both directions; Host names the upstream.
 * - The upstream's answer comes back as it was sent: its status (a 3xx is passed back, never
 *   followed, so no credential reaches the redirect's target; a 501 is a 501, never replaced by an
 *   example), its end-to-end headers and its body bytes. An answer that breaks the contract (a
 *   200 that is not the JSON the spec declares, say) is passed through with its violations.
 * - Only when there is no answer to pass back does the proxy answer itself, with a JSON
 *   `{ error }`: 504 when the upstream sent nothing complete within `timeoutMs` (default 30 s for
 *   the whole exchange), 502 when the connection failed or broke or the answer's body exceeds
 *   `maxBodyBytes` (default 10 MiB), 413 when the request's body exceeds it (not forwarded). Each
 *   is reported to `onExchange` with `error` set, or written to standard error when there is no
 *   `onExchange`.
 * - The upstream URL's userinfo (`https://user:password@host`) is never shown: not in `upstream`,
 *   an error, a report or an answer. It is sent upstream as Basic credentials when the request has
 *   no Authorization header of its own (as Node's http client does with a URL's userinfo).
 * - CORS is the upstream's: preflights are forwarded like any request, and no CORS header is added.
 *
 * Needs the optional peer dependency @stoplight/prism-http.
 */
import { existsSync } from "node:fs";
import { Agent, createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { createInstance, getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { readBounded } from "../body.js";
import { listenOrExplain } from "../mock/listen.js";
import { proxyConfig, silentLogger } from "../mock/prism.js";
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
  /** Status sent back to the client: the upstream's, or the proxy's own 502/504/413. */
  status?: number;
  /** Request findings first, then response findings. */
  violations: ProxyViolation[];
  /** Set when there was no upstream answer to pass back (timeout, connection failure, a body too large). */
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
  /** Time for the whole upstream exchange (connect, answer, body), ms; then 504. Default 30000. */
  timeoutMs?: number;
  /** Largest request or upstream response body, bytes; over it 413 / 502. Default 10 MiB. */
  maxBodyBytes?: number;
}

export interface ProxyServer {
  alias: string;
  /** Base URL of the proxy; send requests here instead of to the upstream. */
  url: string;
  port: number;
  /** The upstream's URL, without its userinfo. */
  upstream: string;
  close(): Promise<void>;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Hop-by-hop headers (RFC 9110 7.6.1, plus the legacy Keep-Alive, Proxy-* and Upgrade): never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
/** Headers the proxy sets itself from what it really sends. */
const FRAMING = new Set(["host", "content-length"]);
const JSON_MEDIA = /^application\/(?:[\w.!#$&^-]+\+)?json$/i;
/** As prism-http-server: a longer sl-violations header is cut (here: whole violations dropped, and counted). */
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;

interface Diagnostic {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
}
type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
type Outcome = Either<Error, { output: unknown; validations: { input: Diagnostic[]; output: Diagnostic[] } }>;
interface PrismInput {
  method: string;
  url: { path: string; baseUrl?: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body: unknown;
}
interface PrismOutput {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
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

/** A URL as it may be shown: without userinfo. */
function withoutUserinfo(url: URL): URL {
  const shown = new URL(url.href);
  shown.username = "";
  shown.password = "";
  return shown;
}

/** `user:password@` cut out of text that failed to parse as a URL, so that an error can quote the rest. */
const redactText = (text: string) => text.replace(/\/\/[^/@\s]*@/g, "//");

function parseUpstream(alias: string, upstream: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(upstream));
  } catch {
    throw new Error(`${alias}: upstream ${JSON.stringify(redactText(String(upstream)))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${alias}: upstream must be an http or https URL, got ${withoutUserinfo(url).href}`);
  return url;
}

function positiveInteger(alias: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${alias}: ${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

/** The raw header list without hop-by-hop headers (and those the Connection header names) nor `skip`. */
function endToEnd(rawHeaders: string[], skip: ReadonlySet<string> = new Set()): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === "connection") {
      for (const token of rawHeaders[i + 1].split(",")) named.add(token.trim().toLowerCase());
    }
  }
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || skip.has(name)) continue;
    kept.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  return kept;
}

/** Header names in lower case, repeated values joined (for Prism's validation copy). */
function headerObject(rawHeaders: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    out[name] = name in out ? `${out[name]}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  return out;
}

/** The parsed copy Prism validates: JSON when the media type says so and it parses, else the text; null when empty. */
function parsedCopy(body: Buffer, contentType: string | undefined): { value: unknown; notJson?: string } {
  if (body.length === 0) return { value: null };
  const text = body.toString("utf8");
  if (!JSON_MEDIA.test((contentType ?? "").split(";")[0].trim())) return { value: text };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { value: text, notJson: (error as Error).message };
  }
}

class ProxyFailure extends Error {
  constructor(
    readonly status: 502 | 504 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** A body read within `limit` (src/body.ts): over it, `over()` (a 413 or 502); broken off, a 502. */
const readBody = (stream: IncomingMessage, what: string, limit: number, over: () => ProxyFailure) =>
  readBounded(stream, limit, over, () => new ProxyFailure(502, `${what} broke off before its body was complete`));

interface UpstreamAnswer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

/** Starts a validating proxy for one API (alias or registry entry) in front of `options.upstream`. */
export async function startProxy(api: string | ApiEntry, options: ProxyOptions): Promise<ProxyServer> {
  const entry = typeof api === "string" ? findApi(api) : api;
  const upstream = parseUpstream(entry.alias, options.upstream);
  const shown = withoutUserinfo(upstream);
  const timeoutMs = positiveInteger(entry.alias, "timeoutMs", options.timeoutMs, DEFAULT_UPSTREAM_TIMEOUT_MS);
  const maxBody = positiveInteger(entry.alias, "maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
  const port = options.port ?? defaultPort(entry);
  const host = options.host ?? "127.0.0.1";
  if (!existsSync(entry.bundlePath)) throw new Error(`${entry.alias}: bundled spec ${entry.bundlePath} not found`);
  const operations = await getHttpOperationsFromSpec(entry.bundlePath);
  const secure = upstream.protocol === "https:";
  const agent: Agent = secure ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  const basic =
    upstream.username || upstream.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`).toString("base64")}`
      : undefined;
  const report =
    options.onExchange ??
    ((exchange: ProxyExchange) => {
      if (exchange.error)
        process.stderr.write(`${entry.alias} proxy: ${exchange.method} ${exchange.url} -> ${exchange.status}: ${exchange.error}\n`);
    });

  /** One upstream exchange: the request as received (bytes and end-to-end headers), the answer read whole (bounded) within the time limit. */
  function callUpstream(input: IncomingMessage, body: Buffer, hasBody: boolean, aborted: AbortSignal): Promise<UpstreamAnswer> {
    const target = new URL(upstream.href);
    const [path, query = ""] = (input.url ?? "/").split(/\?(.*)/s, 2);
    target.pathname = `${target.pathname.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
    target.search = query ? `?${query}` : "";
    const headers = endToEnd(input.rawHeaders, FRAMING);
    headers.push("Host", upstream.host);
    if (hasBody) headers.push("Content-Length", String(body.length));
    if (basic && !headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === "authorization")) headers.push("Authorization", basic);
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: UpstreamAnswer | ProxyFailure) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        aborted.removeEventListener("abort", onAbort);
        if (outcome instanceof ProxyFailure) {
          request.destroy();
          reject(outcome);
        } else resolve(outcome);
      };
      const onAbort = () => settle(new ProxyFailure(502, "the client went away"));
      const timer = setTimeout(
        () => settle(new ProxyFailure(504, `the upstream did not answer within ${timeoutMs} ms (timeoutMs)`)),
        timeoutMs,
      );
      const request = (secure ? httpsRequest : httpRequest)(
        {
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[|\]$/g, ""),
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: input.method,
          headers,
          setHost: false,
          agent,
        },
        (response) => {
          const declared = Number(response.headers["content-length"]);
          const tooLarge = () => new ProxyFailure(502, `the upstream's answer exceeds ${maxBody} bytes (maxBodyBytes)`);
          if (Number.isFinite(declared) && declared > maxBody) {
            settle(tooLarge());
            return;
          }
          readBody(response, "the upstream's answer", maxBody, tooLarge).then(
            (bytes) =>
              settle({
                status: response.statusCode ?? 502,
                statusMessage: response.statusMessage ?? "",
                rawHeaders: response.rawHeaders,
                body: bytes,
              }),
            (error: unknown) =>
              settle(
                error instanceof ProxyFailure
                  ? error
                  : new ProxyFailure(502, `the upstream's answer broke off: ${(error as Error).message}`),
              ),
          );
        },
      );
      if (aborted.aborted) onAbort();
      else aborted.addEventListener("abort", onAbort, { once: true });
      request.on("error", (error: NodeJS.ErrnoException) =>
        settle(new ProxyFailure(502, `the upstream ${shown.origin} could not be reached or broke off: ${error.code ?? error.message}`)),
      );
      request.end(hasBody ? body : undefined);
    });
  }

  /** Per exchange: what forward needs (the request as received) and what it got (the upstream's answer). */
  interface Exchange {
    incoming: IncomingMessage;
    body: Buffer;
    hasBody: boolean;
    aborted: AbortSignal;
    answer?: UpstreamAnswer;
    notJson?: string;
  }
  const exchanges = new WeakMap<object, Exchange>();

  // Prism's own engine with its routing and validation, and a forwarder that sends the bytes as
  // received, never follows a redirect and never replaces an answer.
  const prism = createInstance(
    proxyConfig(upstream) as never,
    {
      logger: silentLogger as never,
      forward:
        ({ data }: { data: PrismInput }) =>
        () =>
        async (): Promise<Either<Error, PrismOutput>> => {
          const exchange = exchanges.get(data)!;
          try {
            const answer = await callUpstream(exchange.incoming, exchange.body, exchange.hasBody, exchange.aborted);
            exchange.answer = answer;
            const headers = headerObject(endToEnd(answer.rawHeaders));
            const { value, notJson } = parsedCopy(answer.body, headers["content-type"]);
            exchange.notJson = notJson;
            return { _tag: "Right", right: { statusCode: answer.status, headers, body: value } };
          } catch (error) {
            return { _tag: "Left", left: error as Error };
          }
        },
    } as never,
  ) as unknown as { request(input: PrismInput, resources: unknown, config?: unknown): () => Promise<Outcome> };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = req.url ?? "/";
    const done = new AbortController();
    res.once("close", () => done.abort());
    const finish = (exchange: ProxyExchange) => {
      try {
        report(exchange);
      } catch (error) {
        // A failing reporter breaks no exchange (the answer is sent already); it is named once per call.
        process.stderr.write(`${entry.alias} proxy: onExchange threw on ${method} ${url}: ${(error as Error)?.message ?? String(error)}\n`);
      }
    };
    const answerItself = (failure: ProxyFailure, violations: ProxyViolation[]) => {
      if (!res.headersSent && !res.destroyed) {
        const text = JSON.stringify({ error: `${entry.alias} proxy: ${failure.message}` });
        res.writeHead(failure.status, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          ...(failure.status === 413 ? { connection: "close" } : {}),
        });
        res.end(text);
      }
      finish({ method, url, status: failure.status, violations, error: failure.message });
    };

    let body: Buffer;
    try {
      body = await readBody(
        req,
        "the request",
        maxBody,
        () => new ProxyFailure(413, `the request body exceeds ${maxBody} bytes (maxBodyBytes)`),
      );
    } catch (error) {
      answerItself(error instanceof ProxyFailure ? error : new ProxyFailure(502, (error as Error).message), []);
      req.resume();
      return;
    }
    const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    const { searchParams, pathname } = new URL(url.startsWith("/") ? `http://proxy${url}` : url);
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(searchParams.keys())) {
      const values = searchParams.getAll(key);
      query[key] = values.length === 1 ? values[0] : values;
    }
    // The copy Prism validates: headers as one object, the body parsed, its length as received.
    const headers = headerObject(endToEnd(req.rawHeaders, new Set(["content-length"])));
    if (hasBody) headers["content-length"] = String(body.length);
    const input: PrismInput = {
      method: method.toLowerCase(),
      url: { path: pathname, query },
      headers,
      body: parsedCopy(body, headers["content-type"]).value,
    };
    const exchange: Exchange = { incoming: req, body, hasBody, aborted: done.signal };
    exchanges.set(input, exchange);

    let violations: ProxyViolation[] = [];
    let failure: ProxyFailure | undefined;
    try {
      const outcome = await prism.request(input, operations)();
      if (outcome._tag === "Right") {
        violations = [
          ...outcome.right.validations.input.map(violation("request")),
          ...outcome.right.validations.output.map(violation("response")),
        ];
      } else if (outcome.left instanceof ProxyFailure) {
        failure = outcome.left;
      } else {
        // Prism could not route or validate; the upstream's answer, if any, still goes back as it is.
        violations = [{ location: ["request"], severity: "Error", code: "prism", message: outcome.left.message }];
      }
    } catch (error) {
      violations = [
        { location: ["response"], severity: "Error", code: "prism", message: `could not be validated: ${(error as Error).message}` },
      ];
    }
    if (!exchange.answer && !failure) {
      // Prism failed before forwarding (a header it cannot parse, say): the request still goes upstream.
      try {
        exchange.answer = await callUpstream(req, body, hasBody, done.signal);
        exchange.notJson = parsedCopy(exchange.answer.body, headerObject(endToEnd(exchange.answer.rawHeaders))["content-type"]).notJson;
      } catch (error) {
        failure = error instanceof ProxyFailure ? error : new ProxyFailure(502, (error as Error).message);
      }
    }
    const { answer } = exchange;
    if (!answer) {
      answerItself(failure ?? new ProxyFailure(502, violations[0]?.message ?? "no answer from the upstream"), violations);
      return;
    }
    if (exchange.notJson !== undefined) {
      violations.push({
        location: ["response", "body"],
        severity: "Error",
        code: "invalid-json",
        message: `is not valid JSON: ${exchange.notJson}`,
      });
    }
    if (!res.destroyed) {
      const out = endToEnd(answer.rawHeaders, new Set(["content-length", "sl-violations"]));
      const bodyless = method === "HEAD" || answer.status === 204 || answer.status === 304 || answer.status < 200;
      if (!bodyless) out.push("Content-Length", String(answer.body.length));
      else if (method === "HEAD") {
        const declared = answer.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === "content-length");
        if (declared >= 0) out.push("Content-Length", answer.rawHeaders[declared + 1]);
      }
      const header = violationsHeader(violations);
      if (header) out.push("sl-violations", header);
      res.writeHead(answer.status, answer.statusMessage, out);
      res.end(bodyless ? undefined : answer.body);
    }
    finish({ method, url, status: answer.status, violations });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Unexpected: answer 502 without details (they could name the upstream).
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: `${entry.alias} proxy: the exchange failed` }));
      }
      process.stderr.write(`${entry.alias} proxy: ${req.method} ${req.url}: ${(error as Error).message}\n`);
    });
  });
  const address = await listenOrExplain(
    {
      listen: (p, h) =>
        new Promise<string>((resolve, reject) => {
          server.once("error", reject);
          server.listen(p, h, () => {
            server.off("error", reject);
            const { port: bound } = server.address() as AddressInfo;
            resolve(`http://${h.includes(":") ? `[${h}]` : h}:${bound}`);
          });
        }),
    },
    entry.alias,
    port,
    host,
  );
  return {
    alias: entry.alias,
    url: address,
    port: Number(new URL(address).port),
    upstream: shown.href,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/** The sl-violations header: the JSON list, whole violations dropped from the end (and counted) when it would be too long. */
function violationsHeader(violations: ProxyViolation[]): string | undefined {
  if (violations.length === 0) return undefined;
  let kept = violations.length;
  for (;;) {
    const list: unknown[] = violations.slice(0, kept);
    if (kept < violations.length) {
      list.push({ location: [], severity: "Information", code: "truncated", message: `${violations.length - kept} more violation(s)` });
    }
    const text = JSON.stringify(list);
    if (text.length <= MAX_VIOLATIONS_HEADER || kept === 0) return text;
    kept = Math.max(0, Math.min(kept - 1, Math.floor((kept * MAX_VIOLATIONS_HEADER) / text.length)));
  }
}
