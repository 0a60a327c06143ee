/**
 * The mock's HTTP layer: a plain `node:http` server in front of Prism's engine (`createInstance`
 * from @stoplight/prism-http), with a bounded cache of whole responses for identical requests.
 *
 * The request handling is a port of @stoplight/prism-http-server 5.12 (`createServer`, which uses
 * micri): same input to Prism, same `sl-violations` header, same CORS headers and preflight, same
 * problem+json for routing and preference errors, same 400 for unparseable JSON. What differs is
 * only where the time goes:
 * - Prism's logger is a no-op object (its pino logger created a child logger on every request);
 * - faker and the Postman converter, which Prism loads at start-up but rarely needs, load on first use
 *   (lazy-modules.ts);
 * - Prism's routing (which scores every operation of the spec against the path) runs once per
 *   method, path and server URL: its result is kept, at most ROUTES of them;
 * - a request whose method, URL, headers and body bytes equal an earlier one's gets that earlier
 *   answer replayed: Prism's answer in static-example mode is a pure function of the request, so
 *   routing, validation, negotiation and serialisation run once per distinct request. Dynamic
 *   answers (`Prefer: dynamic=true`) and 5xx are never cached; the cache holds at most
 *   CACHE_ENTRIES answers and CACHE_BYTES bytes, least recently used out first.
 * tests/fuzz/ checks that every answer equals the stock Prism server's.
 */
import "./lazy-modules.js"; // first: before anything loads Prism
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { createInstance, getHttpOperationsFromSpec, type IHttpRequest, ProblemJsonError } from "@stoplight/prism-http";
import { mockConfig, silentLogger } from "./prism.js";

export type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/** The operations of a spec file (paths x methods), as Prism reads them. */
export function loadOperations(specPath: string): Promise<Operation[]> {
  return getHttpOperationsFromSpec(specPath);
}
type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };

// Prism's router and two helpers of the pinned prism-http-server that the packages do not re-export.
const require = createRequire(import.meta.url);
const { default: prismRoute } = require("@stoplight/prism-http/dist/router/index.js") as {
  default: (options: { resources: Operation[]; input: IHttpRequest }) => Either<Error, Operation>;
};
const { getHttpConfigFromRequest } = require("@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js") as {
  getHttpConfigFromRequest: (input: Pick<IHttpRequest, "headers" | "url">) => Either<Error, Record<string, unknown>>;
};
const { serialize } = require("@stoplight/prism-http-server/dist/serialize.js") as {
  serialize: (payload: unknown, contentType?: string) => string | undefined;
};

/** As prism-http-server: larger request bodies get 413. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** As prism-http-server: a longer sl-violations value is cut and prefixed "Too many violations! ". */
const MAX_SAFE_HEADER_LENGTH = 8 * 1024 - 100;

const ROUTES = 1000;
const CACHE_ENTRIES = 1000;
const CACHE_BYTES = 16 * 1024 * 1024;
/** Requests with a larger body are answered by Prism every time (and not kept). */
const CACHE_MAX_REQUEST_BYTES = 64 * 1024;
/** Request headers that say nothing Prism reads; left out of the cache key. */
const NOT_IN_KEY = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"]);

interface CachedResponse {
  status: number;
  /** Header names as set (their case kept) and values. */
  headers: Array<[string, string | number | string[]]>;
  body: Buffer;
  bytes: number;
}

class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;

  get(key: string): CachedResponse | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: move the hit to the young end.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, response: Omit<CachedResponse, "bytes">): void {
    const bytes = key.length + response.body.length + 256;
    if (bytes > CACHE_BYTES / 4) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.bytes;
    }
    this.entries.set(key, { ...response, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= CACHE_ENTRIES && this.bytes <= CACHE_BYTES) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

/** micri's error body (prism-http-server answers unreadable bodies through micri). */
class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface RawBody {
  /** False when the request has no body framing at all (Prism then sees `body: null`). */
  present: boolean;
  bytes: Buffer;
}

function readBody(request: IncomingMessage): Promise<RawBody> {
  const { headers } = request;
  if (headers["content-length"] === "0" || (headers["transfer-encoding"] === undefined && headers["content-length"] === undefined)) {
    request.resume();
    return Promise.resolve({ present: false, bytes: Buffer.alloc(0) });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    request.on("data", (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_BODY_BYTES) {
        reject(new BodyError(413, "request_entity_too_large", "Body exceeded 10mb limit"));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.once("end", () => resolve({ present: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length) }));
    request.once("error", () => reject(new BodyError(400, "invalid_body", "Invalid body")));
  });
}

/** `application/json` and `application/*+json`, as type-is decides for prism-http-server. */
function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(";", 1)[0].trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

function parseBody(request: IncomingMessage, raw: RawBody): unknown {
  if (!raw.present) return null;
  const text = raw.bytes.toString("utf8");
  if (!isJsonContentType(request.headers["content-type"])) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError(400, "invalid_json", "Invalid JSON");
  }
}

function cacheKey(request: IncomingMessage, raw: RawBody): string | undefined {
  if (raw.bytes.length > CACHE_MAX_REQUEST_BYTES) return undefined;
  let key = `${request.method} ${request.url}`;
  const headers = request.rawHeaders;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i].toLowerCase();
    if (!NOT_IN_KEY.has(name)) key += `\n${name}: ${headers[i + 1]}`;
  }
  // latin1 maps each byte to one character: exact and cheap.
  return `${key}\n${raw.present ? "body" : "no body"}\n${raw.bytes.toString("latin1")}`;
}

function queryOf(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

function setCorsHeaders(request: IncomingMessage, response: ServerResponse): void {
  const { headers } = request;
  response.setHeader("Access-Control-Allow-Origin", headers.origin || "*");
  response.setHeader("Access-Control-Allow-Headers", headers["access-control-request-headers"] || "*");
  response.setHeader("Access-Control-Allow-Credentials", "true");
  response.setHeader("Access-Control-Expose-Headers", (headers["access-control-expose-headers"] as string | undefined) || "*");
}

export interface Violation {
  location: string[];
  severity: string;
  code: string | number | undefined;
  message: string;
}

const SEVERITY = ["Error", "Warning", "Information", "Hint"];

function violationsOf(
  prefix: string,
  details: Array<{ path?: string[]; severity: number; code?: string | number; message: string }>,
): Violation[] {
  return details.map((d) => ({ location: [prefix, ...(d.path ?? [])], severity: SEVERITY[d.severity], code: d.code, message: d.message }));
}

export interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

/** A request Prism judged valid and answered with a success status: what an `answer` hook sees. */
export interface JudgedRequest {
  /** The operation Prism routed the request to. */
  operation: Operation;
  method: string;
  /** The request path, e.g. `/v1/transactions/tx_1` (the operation's template is `operation.path`). */
  path: string;
  query: Record<string, string | string[]>;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body (JSON), the text for other media types, null when there is none. */
  body: unknown;
  /** Prism's answer: the status and the body it chose (the spec's example). */
  status: number;
  example: unknown;
}

/** What an `answer` hook returns instead of Prism's answer; undefined keeps Prism's. */
export interface HookAnswer {
  status: number;
  /** Extra headers (Content-Type defaults to application/json when there is a body). */
  headers?: Record<string, string>;
  /** Serialised as JSON; undefined for no body. */
  body?: unknown;
}

/**
 * Where another layer (the stateful sandbox) plugs into the mock; both hooks are optional:
 * - `intercept` sees every request first (with its raw body) and answers the ones it owns (the
 *   sandbox's control API under `/_sandbox/`), returning true; Prism never sees those;
 * - `answer` runs after Prism judged a request valid and chose a 2xx answer, and may replace that
 *   answer (status, headers, body). Prism's judgement of the request (401, 404, 405, 415, 422 with
 *   its violations...) is never replaced. `validateAnswer` checks the replacement against the
 *   operation's response schema; its findings go to `sl-violations` as Prism reports its own.
 * With an `answer` hook the response cache is off: answers depend on state, not only on the request.
 */
export interface MockHooks {
  intercept?(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<boolean> | boolean;
  answer?(request: JudgedRequest): Promise<HookAnswer | undefined> | HookAnswer | undefined;
  validateAnswer?(operation: Operation, answer: HookAnswer): Violation[];
}

/** A server answering with Prism for the given operations; `cache: false` turns the response cache off. */
export function createPrismServer(
  operations: Operation[],
  { cache = true, hooks = {} }: { cache?: boolean; hooks?: MockHooks } = {},
): PrismServer {
  // The route depends on the method, the path and the server URL only (the operations are fixed).
  const routes = new Map<string, Either<Error, Operation>>();
  const route = ({ resources, input }: { resources: Operation[]; input: IHttpRequest }) => {
    const key = `${input.method} ${input.url.baseUrl ?? ""} ${input.url.path}`;
    let found = routes.get(key);
    if (!found) {
      found = prismRoute({ resources, input });
      if (routes.size >= ROUTES) routes.clear();
      routes.set(key, found);
    }
    return found;
  };
  const prism = createInstance(mockConfig as never, { logger: silentLogger as never, route: route as never });
  const responses = cache && !hooks.answer ? new ResponseCache() : undefined;

  /** Sends and, when `key` is given, keeps the answer for identical requests. */
  function send(response: ServerResponse, status: number, body: string | undefined, key: string | undefined): void {
    const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
    response.setHeader("Content-Length", bytes.length);
    response.statusCode = status;
    if (key !== undefined && responses && status < 500) {
      const names = response.getHeaderNames();
      // Node has getRawHeaderNames() since 15.13; @types/node 20 does not declare it.
      const raw = (response as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
      responses.set(key, { status, body: bytes, headers: names.map((name, i) => [raw[i] ?? name, response.getHeader(name)!]) });
    }
    response.end(bytes);
  }

  function sendProblem(
    response: ServerResponse,
    error: Error & { status?: number; additional?: { headers?: Record<string, string> } },
    key: string | undefined,
  ): void {
    if (response.writableEnded) return;
    response.setHeader("content-type", "application/problem+json");
    for (const [name, value] of Object.entries(error.additional?.headers ?? {})) response.setHeader(name, value);
    send(response, error.status || 500, JSON.stringify(ProblemJsonError.toProblemJson(error)), key);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { headers } = request;
    if (request.method === "OPTIONS" && headers.origin && headers["access-control-request-method"]) {
      request.resume();
      setCorsHeaders(request, response);
      response.setHeader(
        "Access-Control-Allow-Methods",
        headers["access-control-request-method"] || "GET,DELETE,HEAD,PATCH,POST,PUT,OPTIONS",
      );
      response.setHeader("Vary", "origin");
      response.setHeader("Content-Length", "0");
      response.statusCode = 204;
      response.end();
      return;
    }

    let raw: RawBody;
    try {
      raw = await readBody(request);
    } catch (error) {
      const { status, code, message } = error as BodyError;
      setCorsHeaders(request, response);
      response.setHeader("Content-Type", "application/json; charset=utf-8");
      send(response, status, JSON.stringify({ error: { code, message } }), undefined);
      return;
    }

    if (hooks.intercept && (await hooks.intercept(request, response, raw.bytes))) return;

    let key = responses ? cacheKey(request, raw) : undefined;
    const hit = key === undefined ? undefined : responses!.get(key);
    if (hit) {
      response.writeHead(hit.status, hit.headers.flat() as never);
      response.end(hit.body);
      return;
    }

    setCorsHeaders(request, response);
    let body: unknown;
    try {
      body = parseBody(request, raw);
    } catch (error) {
      const { status, code, message } = error as BodyError;
      response.setHeader("Content-Type", "application/json; charset=utf-8");
      send(response, status, JSON.stringify({ error: { code, message } }), key);
      return;
    }

    const { searchParams, pathname } = new URL(request.url ?? "/", "http://example.com");
    const input = {
      method: (request.method ? request.method.toLowerCase() : "get") as IHttpRequest["method"],
      url: { path: pathname, baseUrl: searchParams.get("__server") || undefined, query: queryOf(searchParams) },
      headers: headers as Record<string, string>,
      body,
    };

    const preferences = getHttpConfigFromRequest(input);
    if (preferences._tag === "Left") return sendProblem(response, preferences.left, key);
    const mock: Record<string, unknown> = { ...mockConfig.mock };
    for (const [name, value] of Object.entries(preferences.right)) if (value !== undefined) mock[name] = value;
    if (mock.dynamic) key = undefined; // generated data differs from call to call

    const result = (await prism.request(input, operations, { ...mockConfig, mock } as never)()) as Either<
      Error,
      { output: { statusCode: number; headers?: Record<string, string>; body?: unknown }; validations: { input: never[]; output: never[] } }
    >;
    if (result._tag === "Left") return sendProblem(response, result.left, key);
    let answerViolations: Violation[] = [];

    let { output, validations } = result.right;
    if (hooks.answer && output.statusCode >= 200 && output.statusCode < 300) {
      const routed = route({ resources: operations, input: input as IHttpRequest });
      if (routed._tag === "Right") {
        const operation = routed.right;
        const replaced = await hooks.answer({
          operation,
          method: input.method,
          path: pathname,
          query: input.url.query,
          headers,
          body,
          status: output.statusCode,
          example: output.body,
        });
        if (replaced) {
          const replacedHeaders: Record<string, string> = {
            ...(replaced.body === undefined ? {} : { "Content-Type": "application/json" }),
            ...replaced.headers,
          };
          output = { statusCode: replaced.status, headers: replacedHeaders, body: replaced.body };
          const findings = hooks.validateAnswer?.(operation, replaced) ?? [];
          validations = { input: validations.input, output: [] };
          answerViolations = findings;
        }
      }
    }
    const violations = [
      ...violationsOf("request", validations.input),
      ...violationsOf("response", validations.output),
      ...answerViolations,
    ];
    if (violations.length > 0) {
      let value = JSON.stringify(violations);
      if (value.length > MAX_SAFE_HEADER_LENGTH) value = `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}`;
      response.setHeader("sl-violations", value);
    }
    try {
      for (const [name, value] of Object.entries(output.headers ?? {})) response.setHeader(name, value);
      send(response, output.statusCode, serialize(output.body, response.getHeader("content-type") as string | undefined), key);
    } catch (error) {
      sendProblem(response, error as Error, undefined);
    }
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: Error) => {
      if (!response.headersSent) sendProblem(response, error, undefined);
      else response.destroy(error);
    });
  });

  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address();
          resolve(typeof address === "object" && address ? `http://${address.address}:${address.port}` : String(address));
        });
      }),
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
