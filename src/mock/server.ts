/**
 * The mock's HTTP layer: a plain `node:http` server in front of Prism's engine (`createInstance`
 * from @stoplight/prism-http).
 *
 * The request handling is a port of @stoplight/prism-http-server 5.12 (`createServer`, which uses
 * micri): same input to Prism, same `sl-violations` header, same problem+json for routing and
 * preference errors, same 400 for unparseable JSON. Prism judges every request: its security check
 * and request validation are validate.ts (Prism's own checks, compiled once per operation), its
 * mocker chooses every answer. What differs is where the time goes:
 * - the fast path (fast-path.ts): a request of a kind Prism has already answered (same operation,
 *   `Accept` and outcome of the validation) gets Prism's answer to that kind again, with its own
 *   findings; the first request of each kind, and any request that chooses its answer (`Prefer`),
 *   goes through Prism's pipeline;
 * - Prism's logger is a no-op object; faker, json-schema-faker, the forwarder's HTTP client and
 *   the converters of other spec formats load on first use (lazy-modules.ts); Prism's routing
 *   result is kept per method, path and server URL (ROUTES);
 * - a request that the fast path does not take, whose method, URL, headers and body bytes equal an
 *   earlier one's, gets that earlier answer replayed (dynamic answers and 5xx never; at most
 *   CACHE_ENTRIES answers and CACHE_BYTES bytes, least recently used out first).
 * Deliberate differences from stock Prism (DEVIATIONS in validate.ts): CORS without credentials,
 * `Allow` on 405, 406 for a malformed `Accept`, 413 sent before the connection closes, findings
 * capped, those of validate.ts, and a generated answer (`Prefer: dynamic=true`) that fails the
 * response's own schema replaced by the static answer (the example), where stock Prism sends it
 * with the violations. tests/e2e/fuzz/equivalence.test.ts checks every answer against the stock
 * Prism server's.
 */
import "./lazy-modules.js"; // first: before anything loads Prism
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createInstance, getHttpOperationsFromSpec, type IHttpRequest } from "@stoplight/prism-http";
import { type Answer, createFastPath } from "./fast-path.js";
import { decodeBody, Judge } from "./judge.js";
import {
  createUnprocessableEntityResponse,
  type Diagnostic,
  type Either,
  getHttpConfigFromRequest,
  MATCH_NONE,
  matchPath,
  NOT_ACCEPTABLE,
  type ProblemError,
  ProblemJsonError,
  prismRoute,
  serialize,
  UNPROCESSABLE_ENTITY_NAME,
} from "./prism-parts.js";
import { mockConfig, silentLogger } from "./prism.js";
import { BODY_BYTES, components, type Element, inputFindings, JUDGED, LARGE_BODY_BYTES, securityFindings } from "./validate.js";

export type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/** The operations of a spec file (paths x methods), as Prism reads them. */
export function loadOperations(specPath: string): Promise<Operation[]> {
  return getHttpOperationsFromSpec(specPath);
}

/** As prism-http-server: larger request bodies get 413. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** After a 413, at most this many more bytes of the request are read (and dropped) before the connection is closed. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** ... or for at most this long. */
const MAX_DRAIN_MS = 5000;
/** As prism-http-server: a longer sl-violations value is cut and prefixed "Too many violations! ". */
const MAX_SAFE_HEADER_LENGTH = 8 * 1024 - 100;
/** A problem+json body lists at most this many violations, then a count of the others (DEVIATIONS violationCap). */
export const MAX_LISTED_VIOLATIONS = 100;

const ROUTES = 1000;
const CACHE_ENTRIES = 1000;
const CACHE_BYTES = 16 * 1024 * 1024;
/** Requests with a larger body are answered by Prism every time (and not kept). */
const CACHE_MAX_REQUEST_BYTES = 64 * 1024;
/** Request headers that say nothing Prism reads; left out of the cache key. */
const NOT_IN_KEY = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"]);
/** Query parameters by which a request chooses its answer or server (prism-http-server). */
const CHOOSING = ["__code", "__dynamic", "__seed", "__example", "__server"];

interface CachedResponse {
  status: number;
  /** Header names as set (their case kept) and values. */
  headers: Array<[string, string | number]>;
  body: Buffer | undefined;
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
    const bytes = key.length + (response.body?.length ?? 0) + 256;
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

/**
 * Reads the body. Over MAX_BODY_BYTES it fails with 413 and keeps reading (dropping the bytes, at
 * most MAX_DRAIN_BYTES more) so that the client, which is still sending, reads the 413 before the
 * connection closes (DEVIATIONS bodyLimit: Prism's server reset the connection).
 */
function readBody(request: IncomingMessage, done: (error: BodyError | undefined, raw?: RawBody) => void): void {
  const { headers } = request;
  if (headers["content-length"] === "0" || (headers["transfer-encoding"] === undefined && headers["content-length"] === undefined)) {
    request.resume();
    done(undefined, { present: false, bytes: Buffer.alloc(0) });
    return;
  }
  let chunks: Buffer[] = [];
  let length = 0;
  let over = false;
  let settled = false;
  const settle = (error: BodyError | undefined, raw?: RawBody) => {
    if (settled) return;
    settled = true;
    done(error, raw);
  };
  request.on("data", (chunk: Buffer) => {
    length += chunk.length;
    if (over) {
      if (length > MAX_BODY_BYTES + MAX_DRAIN_BYTES) request.destroy();
      return;
    }
    if (length > MAX_BODY_BYTES) {
      over = true;
      chunks = [];
      settle(new BodyError(413, "request_entity_too_large", "Body exceeded 10mb limit"));
      return;
    }
    chunks.push(chunk);
  });
  request.once("end", () => settle(undefined, { present: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length) }));
  request.once("error", () => settle(new BodyError(400, "invalid_body", "Invalid body")));
}

function parseBody(request: IncomingMessage, raw: RawBody): unknown {
  if (!raw.present) return null;
  const decoded = decodeBody(raw.bytes, request.headers["content-type"]);
  if (decoded === "invalid") throw new BodyError(400, "invalid_json", "Invalid JSON");
  return decoded.value;
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

const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(^|\/)(\.|%2e)(\.|%2e)?(\/|$)/i;

/**
 * The path and query of a request target, as `new URL(target, "http://example.com")` gives them
 * (prism-http-server's reading); a plain path (no dot segment, no character URL would encode) is
 * taken as it is, anything else goes through URL.
 */
function parseTarget(target: string): { pathname: string; searchParams: URLSearchParams } {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path) || target.includes("#")) return new URL(target, "http://example.com");
  return { pathname: path, searchParams: new URLSearchParams(q < 0 ? "" : target.slice(q + 1)) };
}

function queryOf(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (searchParams.size === 0) return query;
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

/**
 * A request as Prism's components see it, without its body: the method, the path and query of its
 * target (read as prism-http-server reads them), its headers (names in lower case, as Node gives
 * them) and its body's size.
 */
export function requestElement(
  method: string | undefined,
  target: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  bodyBytes: number,
): Omit<Element, "body"> {
  const { searchParams, pathname } = parseTarget(target ?? "/");
  return {
    method: method ? method.toLowerCase() : "get",
    url: { path: pathname, baseUrl: searchParams.get("__server") || undefined, query: queryOf(searchParams) },
    headers,
    [BODY_BYTES]: bodyBytes,
  };
}

/** Whether Prism runs callbacks for the operation (its pipeline then answers, with the body). */
const hasCallbacks = (operation: Operation | undefined) =>
  ((operation as { callbacks?: unknown[] } | undefined)?.callbacks?.length ?? 0) > 0;

/** Response headers in order: name (its case kept) and value. */
type Pairs = Array<[string, string | number]>;

/**
 * The CORS headers of every answer. Prism echoes the request's Origin with
 * `Access-Control-Allow-Credentials: true`, which lets any web page read answers made with the
 * visitor's credentials; the mock allows every origin (`*`) without credentials (DEVIATIONS cors).
 */
function corsPairs(request: IncomingMessage): Pairs {
  const { headers } = request;
  return [
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Headers", headers["access-control-request-headers"] || "*"],
    ["Access-Control-Expose-Headers", (headers["access-control-expose-headers"] as string | undefined) || "*"],
  ];
}

/** The CORS headers of a request that asks for no particular ones. */
const DEFAULT_CORS: ReadonlyArray<string | number> = corsPairs({ headers: {} } as IncomingMessage).flat();

/** Sets a header as Node's setHeader does: a name already there (in any case) is replaced where it stands. */
function setPair(pairs: Pairs, name: string, value: string | number): void {
  const lower = name.toLowerCase();
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i][0].toLowerCase() === lower) {
      pairs[i] = [name, value];
      return;
    }
  }
  pairs.push([name, value]);
}

export interface Violation {
  location: string[];
  severity: string;
  code: string | number | undefined;
  message: string;
}

const SEVERITY = ["Error", "Warning", "Information", "Hint"];

function violationsOf(prefix: string, details: Diagnostic[]): Violation[] {
  return details.map((d) => ({ location: [prefix, ...(d.path ?? [])], severity: SEVERITY[d.severity], code: d.code, message: d.message }));
}

/**
 * prism-http-server's sl-violations value (the JSON array, cut at MAX_SAFE_HEADER_LENGTH characters
 * and prefixed "Too many violations! "), built only as far as the cut: the same value for any
 * number of violations.
 */
function violationsHeader(violations: Violation[]): string {
  let value = "[";
  for (let i = 0; i < violations.length; i++) {
    value += (i > 0 ? "," : "") + JSON.stringify(violations[i]);
    if (value.length > MAX_SAFE_HEADER_LENGTH) return `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}`;
  }
  value += "]";
  return value.length > MAX_SAFE_HEADER_LENGTH ? `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}` : value;
}

/** A problem+json body; a list of violations is cut to MAX_LISTED_VIOLATIONS and a count (DEVIATIONS violationCap). */
function problemBody(error: ProblemError): string {
  const listed = error.additional?.validation;
  if (Array.isArray(listed) && listed.length > MAX_LISTED_VIOLATIONS) {
    const more = listed.length - MAX_LISTED_VIOLATIONS;
    const capped = Object.assign(Object.create(Object.getPrototypeOf(error)), error, {
      additional: {
        ...error.additional,
        validation: [
          ...listed.slice(0, MAX_LISTED_VIOLATIONS),
          { location: [], severity: "Information", code: "violations-capped", message: `${more} more violations not listed` },
        ],
      },
    });
    return JSON.stringify(ProblemJsonError.toProblemJson(capped));
  }
  return JSON.stringify(ProblemJsonError.toProblemJson(error));
}

/**
 * Runs `make` with no stack trace captured: Prism builds a problem body as an Error (its
 * ProblemJsonError), whose stack, never sent, cost more than the rest of the answer.
 */
function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The error prism-http's negotiation throws (content-type's parse) for a malformed Accept it could not match. */
function isMalformedAcceptError(error: unknown): boolean {
  return error instanceof TypeError && error.message === "invalid media type";
}

export interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
  /**
   * How the requests so far were answered: `fast` from a kept answer, `prism` by Prism's pipeline,
   * `cache` replayed; `judged`: how many of them had a large body judged by the worker (judge.ts).
   */
  stats(): { fast: number; prism: number; cache: number; judged: number };
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
 * The fast path calls the hooks as Prism's pipeline does.
 */
export interface MockHooks {
  intercept?(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<boolean> | boolean;
  answer?(request: JudgedRequest): Promise<HookAnswer | undefined> | HookAnswer | undefined;
  validateAnswer?(operation: Operation, answer: HookAnswer): Violation[];
}

type PrismResult = Either<
  ProblemError,
  {
    output: { statusCode: number; headers?: Record<string, string>; body?: unknown };
    validations: { input: Diagnostic[]; output: Diagnostic[] };
  }
>;

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
  const prism = createInstance(mockConfig as never, {
    logger: silentLogger as never,
    route: route as never,
    validateInput: components.validateInput as never,
    validateSecurity: components.validateSecurity as never,
  });
  const responses = cache && !hooks.answer ? new ResponseCache() : undefined;
  const fast = createFastPath(operations, route as never);
  const counts = { fast: 0, prism: 0, cache: 0 };
  /** Judges large bodies off this thread; started on the first one. */
  let judge: Judge | undefined;
  const tails = new WeakMap<Answer, { own: Array<string | number>; whole: Array<string | number> } | null>();

  /**
   * Ends the response as prism-http-server (micri's `send`) does: a body gets Content-Length, and a
   * text Content-Type when it has none; no body, no Content-Length (Node adds `0` where a body is
   * allowed). When `key` is given, the answer is kept for identical requests.
   */
  function emit(response: ServerResponse, status: number, pairs: Pairs, body: Buffer | undefined, key: string | undefined): void {
    if (body !== undefined) {
      if (!pairs.some(([name]) => name.toLowerCase() === "content-type")) pairs.push(["Content-Type", "text/plain; charset=utf-8"]);
      setPair(pairs, "Content-Length", body.length);
    }
    if (key !== undefined && responses && status < 500) responses.set(key, { status, headers: pairs, body });
    if (body === undefined) {
      for (const [name, value] of pairs) response.setHeader(name, value);
      response.statusCode = status;
      response.end();
      return;
    }
    const flat: Array<string | number> = [];
    for (const [name, value] of pairs) flat.push(name, value);
    response.writeHead(status, flat as string[]);
    response.end(body);
  }

  /** DEVIATIONS allow: the methods of the operations whose path fits, for a 405. */
  function allowed(path: string): string {
    const methods = new Set<string>();
    for (const op of operations) {
      const match = matchPath(path, op.path);
      if (match._tag === "Right" && match.right !== MATCH_NONE) methods.add(op.method.toUpperCase());
    }
    return [...methods].join(", ");
  }

  /** A problem+json answer, after `pairs` (the CORS headers, and whatever was set before the failure). */
  function sendProblem(
    request: IncomingMessage,
    response: ServerResponse,
    error: ProblemError,
    key: string | undefined,
    path?: string,
    pairs: Pairs = corsPairs(request),
  ): void {
    if (response.writableEnded) return;
    setPair(pairs, "content-type", "application/problem+json");
    for (const [name, value] of Object.entries(error.additional?.headers ?? {})) setPair(pairs, name, value);
    if (error.status === 405 && path !== undefined) setPair(pairs, "Allow", allowed(path));
    emit(response, error.status || 500, pairs, Buffer.from(problemBody(error)), key);
  }

  /** Prism's answer to a request as an Answer (undefined when it is a 5xx: those are never kept). */
  function answerOf(result: PrismResult): Answer | undefined {
    if (result._tag === "Left") {
      const error = result.left;
      const status = error.status || 500;
      if (status >= 500) return undefined;
      const listsFindings = error.name === UNPROCESSABLE_ENTITY_NAME && Array.isArray(error.additional?.validation);
      return {
        status,
        headers: [["content-type", "application/problem+json"], ...Object.entries(error.additional?.headers ?? {})],
        body: listsFindings ? undefined : Buffer.from(problemBody(error)),
        problem: true,
        listsFindings,
        outputFindings: [],
        example: undefined,
      };
    }
    const { output, validations } = result.right;
    const headers = Object.entries(output.headers ?? {});
    let contentType: string | undefined;
    for (const [name, value] of headers) if (name.toLowerCase() === "content-type") contentType = value;
    const body = serialize(output.body, contentType);
    return {
      status: output.statusCode,
      headers,
      body: body === undefined ? undefined : Buffer.from(body),
      problem: false,
      listsFindings: false,
      outputFindings: validations.output,
      example: output.body,
    };
  }

  /**
   * Sends `answer` (Prism's, or kept from an earlier request of the same kind) to a request of
   * `operation` with its findings; the `answer` hook may replace a 2xx.
   */
  function sendAnswer(
    request: IncomingMessage,
    response: ServerResponse,
    answer: Answer,
    findings: Diagnostic[],
    context: { operation: Operation; input: Element; pathname: string },
    key: string | undefined,
  ): Promise<void> | undefined {
    if (answer.problem) {
      const pairs = corsPairs(request);
      for (const [name, value] of answer.headers) setPair(pairs, name, value);
      const body = answer.listsFindings
        ? Buffer.from(problemBody(withoutStack(() => createUnprocessableEntityResponse(findings))))
        : answer.body;
      emit(response, answer.status, pairs, body, key);
      return;
    }
    if (hooks.answer && answer.status >= 200 && answer.status < 300) return sendHooked(request, response, answer, findings, context, key);
    const violations =
      findings.length + answer.outputFindings.length > 0
        ? [...violationsOf("request", findings), ...violationsOf("response", answer.outputFindings)]
        : undefined;
    const tail = key === undefined ? tailOf(answer) : undefined;
    if (!tail) {
      write(request, response, answer.status, violations, answer.headers, answer.body, key);
      return;
    }
    // The answer's headers were put in order once (tailOf): only the CORS values and sl-violations are the request's.
    const plainCors = !request.headers["access-control-request-headers"] && !request.headers["access-control-expose-headers"];
    let flat: Array<string | number>;
    if (plainCors && !violations) flat = tail.whole;
    else {
      flat = plainCors ? [...DEFAULT_CORS] : corsPairs(request).flat();
      if (violations) flat.push("sl-violations", violationsHeader(violations));
      for (const item of tail.own) flat.push(item);
    }
    response.writeHead(answer.status, flat as string[]);
    response.end(answer.body);
  }

  /**
   * An answer's own headers as `write` orders them (Content-Type default, Content-Length), kept per
   * answer; null when they would interleave with the CORS or sl-violations headers or there is no body.
   */
  function tailOf(answer: Answer): { own: Array<string | number>; whole: Array<string | number> } | null {
    let tail = tails.get(answer);
    if (tail === undefined) {
      const reserved = new Set([...DEFAULT_CORS.filter((_, i) => i % 2 === 0).map((name) => String(name).toLowerCase()), "sl-violations"]);
      if (answer.body === undefined || answer.headers.some(([name]) => reserved.has(name.toLowerCase()))) tail = null;
      else {
        const pairs: Pairs = [];
        for (const [name, value] of answer.headers) setPair(pairs, name, value);
        if (!pairs.some(([name]) => name.toLowerCase() === "content-type")) pairs.push(["Content-Type", "text/plain; charset=utf-8"]);
        setPair(pairs, "Content-Length", answer.body.length);
        const own = pairs.flat();
        tail = { own, whole: [...DEFAULT_CORS, ...own] };
      }
      tails.set(answer, tail);
    }
    return tail;
  }

  /** sendAnswer with the `answer` hook asked first. */
  async function sendHooked(
    request: IncomingMessage,
    response: ServerResponse,
    answer: Answer,
    findings: Diagnostic[],
    context: { operation: Operation; input: Element; pathname: string },
    key: string | undefined,
  ): Promise<void> {
    const { operation, input, pathname } = context;
    const replaced = await hooks.answer!({
      operation,
      method: input.method,
      path: pathname,
      query: input.url.query ?? {},
      headers: request.headers,
      body: input.body,
      status: answer.status,
      example: answer.example,
    });
    if (!replaced) {
      const violations = [...violationsOf("request", findings), ...violationsOf("response", answer.outputFindings)];
      return write(request, response, answer.status, violations, answer.headers, answer.body, key);
    }
    const headers = Object.entries({
      ...(replaced.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...replaced.headers,
    });
    let contentType: string | undefined;
    for (const [name, value] of headers) if (name.toLowerCase() === "content-type") contentType = value;
    const text = serialize(replaced.body, contentType);
    const violations = [...violationsOf("request", findings), ...(hooks.validateAnswer?.(operation, replaced) ?? [])];
    write(request, response, replaced.status, violations, headers, text === undefined ? undefined : Buffer.from(text), key);
  }

  /** An answer with its headers in prism-http-server's order: CORS, `sl-violations`, the answer's own. */
  function write(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    violations: Violation[] | undefined,
    headers: Array<[string, string]>,
    body: Buffer | undefined,
    key: string | undefined,
  ): void {
    const pairs = corsPairs(request);
    if (violations && violations.length > 0) pairs.push(["sl-violations", violationsHeader(violations)]);
    for (const [name, value] of headers) setPair(pairs, name, value);
    emit(response, status, pairs, body, key);
  }

  /** A body that could not be read (413, 400): micri's error answer. */
  function sendBodyError(request: IncomingMessage, response: ServerResponse, error: BodyError): void {
    const pairs = corsPairs(request);
    pairs.push(["Content-Type", "application/json; charset=utf-8"]);
    if (error.status === 413) pairs.push(["Connection", "close"]);
    emit(response, error.status, pairs, Buffer.from(JSON.stringify({ error: { code: error.code, message: error.message } })), undefined);
  }

  /** Answers a request: synchronously on the fast path, through a promise where a hook or Prism is waited for. */
  function handle(request: IncomingMessage, response: ServerResponse): void {
    const { headers } = request;
    if (request.method === "OPTIONS" && headers.origin && headers["access-control-request-method"]) {
      request.resume();
      const pairs = corsPairs(request);
      pairs.push(["Access-Control-Allow-Methods", headers["access-control-request-method"] || "GET,DELETE,HEAD,PATCH,POST,PUT,OPTIONS"]);
      pairs.push(["Content-Length", "0"]);
      emit(response, 204, pairs, undefined, undefined);
      return;
    }
    readBody(request, (error, raw) => {
      if (error) {
        if (error.status !== 413 || request.complete) return sendBodyError(request, response, error);
        // DEVIATIONS bodyLimit: answer once the client has sent its body (or after MAX_DRAIN_MS), then close.
        let sent = false;
        const answer = () => {
          if (sent) return;
          sent = true;
          sendBodyError(request, response, error);
        };
        request.once("end", answer);
        setTimeout(answer, MAX_DRAIN_MS).unref();
        return;
      }
      try {
        const pending = hooks.intercept ? intercepted(request, response, raw!) : received(request, response, raw!);
        pending?.catch((failure: Error) => failed(request, response, failure));
      } catch (failure) {
        failed(request, response, failure as Error);
      }
    });
  }

  function failed(request: IncomingMessage, response: ServerResponse, error: Error): void {
    if (!response.headersSent) sendProblem(request, response, error, undefined);
    else response.destroy(error);
  }

  async function intercepted(request: IncomingMessage, response: ServerResponse, raw: RawBody): Promise<void> {
    // What a hook answers (the control API) carries the same CORS headers as every other answer, so a
    // page (the docs' request console) can read it; a hook that passes leaves them to the answer made later.
    const cors = corsPairs(request);
    for (const [name, value] of cors) response.setHeader(name, value);
    if (await hooks.intercept!(request, response, raw.bytes)) return;
    for (const [name] of cors) response.removeHeader(name);
    await received(request, response, raw);
  }

  const elementOf = (request: IncomingMessage, raw: RawBody) =>
    requestElement(request.method, request.url, request.headers, raw.bytes.length);

  /** Whether a request chooses its answer (`Prefer`, `__code`...): Prism's pipeline then answers it. */
  function choosing(request: IncomingMessage, input: Omit<Element, "body">): boolean {
    const query = input.url.query!;
    return request.headers.prefer !== undefined || CHOOSING.some((name) => query[name] !== undefined);
  }

  /** A request with its body read: a large body is judged by the worker, any other here. */
  function received(request: IncomingMessage, response: ServerResponse, raw: RawBody): Promise<void> | undefined {
    if (raw.bytes.length > LARGE_BODY_BYTES) return receivedLarge(request, response, raw);
    let body: unknown;
    try {
      body = parseBody(request, raw);
    } catch (error) {
      sendBodyError(request, response, error as BodyError);
      return;
    }
    return answerInput(request, response, raw, { ...elementOf(request, raw), body });
  }

  /**
   * A body over LARGE_BODY_BYTES: the worker decodes it and finds its violations against the
   * operation Prism routes the request to (judge.ts); then it is answered as any other, with those findings.
   */
  async function receivedLarge(request: IncomingMessage, response: ServerResponse, raw: RawBody): Promise<void> {
    const element = elementOf(request, raw);
    const operation =
      (choosing(request, element) ? undefined : fast.route(element.method, element.url.path)) ?? routedOperation(element as Element);
    const wantBody = hooks.answer !== undefined || hasCallbacks(operation);
    judge ??= new Judge();
    const judgement = await judge.judge(operation, element, raw.bytes, wantBody);
    if (judgement.invalidJson) return sendBodyError(request, response, new BodyError(400, "invalid_json", "Invalid JSON"));
    // The body itself stays in the worker unless the answer needs it; the findings stand for it.
    const input: Element = { ...element, body: judgement.body, [JUDGED]: { operation, findings: judgement.findings } };
    return answerInput(request, response, raw, input);
  }

  /** The fast path if it has Prism's answer to this kind of request, else Prism. */
  function answerInput(request: IncomingMessage, response: ServerResponse, raw: RawBody, input: Element): Promise<void> | undefined {
    const { headers } = request;
    const pathname = input.url.path;
    // The fast path: the operation, the findings, and Prism's answer to this kind of request if it has given one.
    const operation = choosing(request, input) ? undefined : fast.route(input.method, pathname);
    if (!operation || hasCallbacks(operation)) return viaPrism(request, response, raw, input);
    const security = securityFindings(operation, input);
    const invalid = inputFindings(operation, input);
    const findings = security && invalid ? [...security, ...invalid] : (security ?? invalid ?? []);
    const kind = fast.kind(typeof headers.accept === "string" ? headers.accept : "", findings);
    const kept = fast.answer(operation, kind);
    if (!kept) return viaPrism(request, response, raw, input, { operation, kind, findings });
    counts.fast++;
    return sendAnswer(request, response, kept, findings, { operation, input, pathname }, undefined);
  }

  /** Prism's whole pipeline; with `known` (a request the fast path classified), its answer is kept for the kind. */
  async function viaPrism(
    request: IncomingMessage,
    response: ServerResponse,
    raw: RawBody,
    input: Element,
    known?: { operation: Operation; kind: string; findings: Diagnostic[] },
  ): Promise<void> {
    const pathname = input.url.path;
    let key = responses && !known ? cacheKey(request, raw) : undefined;
    const hit = key === undefined ? undefined : responses!.get(key);
    if (hit) {
      counts.cache++;
      emit(response, hit.status, [...hit.headers], hit.body, undefined);
      return;
    }
    counts.prism++;

    const preferences = getHttpConfigFromRequest(input as IHttpRequest);
    if (preferences._tag === "Left") return sendProblem(request, response, preferences.left as ProblemError, key, pathname);
    const mock: Record<string, unknown> = { ...mockConfig.mock };
    for (const [name, value] of Object.entries(preferences.right)) if (value !== undefined) mock[name] = value;
    if (mock.dynamic) key = undefined; // generated data differs from call to call

    let result = await ask(request, input, mock);
    // DEVIATIONS dynamicFallback: a generated answer that breaks its own schema (json-schema-faker
    // ignores `propertyNames`, and a `pattern` beside a `format`) is not served: the static answer
    // (the example) is, instead. Severity 0 is Prism's DiagnosticSeverity.Error.
    if (mock.dynamic && result._tag === "Right" && result.right.validations.output.some((v) => v.severity === 0)) {
      result = await ask(request, input, { ...mock, dynamic: false });
    }
    if (result._tag === "Left") {
      const answer = answerOf(result);
      if (answer && known) fast.keep(known.operation, known.kind, answer);
      return sendProblem(request, response, result.left, key, pathname);
    }
    let answer: Answer;
    try {
      answer = answerOf(result)!;
    } catch (error) {
      // As prism-http-server: a body its Content-Type cannot carry is a 500, sent with the headers set so far.
      const { output, validations } = result.right;
      const pairs = corsPairs(request);
      const violations = [...violationsOf("request", validations.input), ...violationsOf("response", validations.output)];
      if (violations.length > 0) pairs.push(["sl-violations", violationsHeader(violations)]);
      for (const [name, value] of Object.entries(output.headers ?? {})) setPair(pairs, name, value);
      return sendProblem(request, response, error as ProblemError, undefined, pathname, pairs);
    }
    if (known) fast.keep(known.operation, known.kind, answer);
    const routed = known?.operation ?? routedOperation(input);
    await sendAnswer(request, response, answer, result.right.validations.input, { operation: routed!, input, pathname }, key);
  }

  /** Prism's answer to `input` with the given mock settings. */
  async function ask(request: IncomingMessage, input: Element, mock: Record<string, unknown>): Promise<PrismResult> {
    try {
      return (await prism.request(input as IHttpRequest, operations, { ...mockConfig, mock } as never)()) as PrismResult;
    } catch (error) {
      // DEVIATIONS malformedAccept: Prism fails on an Accept entry that is not a media type when no declared
      // one was acceptable; that is its 406, as for any Accept that matches nothing.
      const { accept } = request.headers;
      if (!isMalformedAcceptError(error) || !accept) throw error;
      return {
        _tag: "Left",
        left: ProblemJsonError.fromTemplate(NOT_ACCEPTABLE, `Unable to find content for ${String(accept).split(",")}`),
      };
    }
  }

  function routedOperation(input: Element): Operation | undefined {
    const routed = route({ resources: operations, input: input as IHttpRequest });
    return routed._tag === "Right" ? routed.right : undefined;
  }

  const server: Server = createServer(handle);

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
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }).finally(() => judge?.close()),
    stats: () => ({ ...counts, judged: judge?.count ?? 0 }),
  };
}
