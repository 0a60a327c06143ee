/**
 * The last stage of a request's way through the mock (server.ts): write the answer as
 * prism-http-server (micri's `send`) writes it: the CORS headers, `sl-violations` with the
 * request's findings, then the answer's own headers, Content-Length and the body; a problem+json
 * answer for Prism's errors; micri's error body for a body that could not be read.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_LISTED_VIOLATIONS, MAX_SAFE_HEADER_LENGTH } from "./limits.js";
import { createUnprocessableEntityResponse, ProblemJsonError } from "./prism-parts.js";
import type { ResponseCache } from "./response-cache.js";
import type { Answer, Diagnostic, ProblemError, Violation } from "./types.js";

/** Response headers in order: name (its case kept) and value. */
export type Pairs = Array<[string, string | number]>;

/** Where an answer is kept for identical requests (the response cache and the request's key). */
export interface Keep {
  cache: ResponseCache;
  key: string;
}

/**
 * The CORS headers of every answer. Prism echoes the request's Origin with
 * `Access-Control-Allow-Credentials: true`, which lets any web page read answers made with the
 * visitor's credentials; the mock allows every origin (`*`) without credentials (DEVIATIONS cors).
 */
export function corsPairs(request: IncomingMessage): Pairs {
  const { headers } = request;
  return [
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Headers", headers["access-control-request-headers"] || "*"],
    ["Access-Control-Expose-Headers", (headers["access-control-expose-headers"] as string | undefined) || "*"],
  ];
}

/** The CORS headers of a request that asks for no particular ones. */
const DEFAULT_CORS: ReadonlyArray<string | number> = corsPairs({ headers: {} } as IncomingMessage).flat();

/** Whether a request asks for no particular CORS headers (its answer carries DEFAULT_CORS). */
const plainCors = (request: IncomingMessage) =>
  !request.headers["access-control-request-headers"] && !request.headers["access-control-expose-headers"];

/** The CORS headers of a request's answer as a flat list, a copy the caller may add to. */
const corsFlat = (request: IncomingMessage): Array<string | number> => (plainCors(request) ? [...DEFAULT_CORS] : corsPairs(request).flat());

/** A body's Content-Length: its bytes, or a string's UTF-8 bytes. */
const byteLength = (body: Buffer | string): number => (typeof body === "string" ? Buffer.byteLength(body) : body.length);

/** Sets a header as Node's setHeader does: a name already there (in any case) is replaced where it stands. */
export function setPair(pairs: Pairs, name: string, value: string | number): void {
  const lower = name.toLowerCase();
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i][0].toLowerCase() === lower) {
      pairs[i] = [name, value];
      return;
    }
  }
  pairs.push([name, value]);
}

const SEVERITY = ["Error", "Warning", "Information", "Hint"];

/** Prism's findings as violations of the request or the response (`prefix`). */
export function violationsOf(prefix: string, details: Diagnostic[]): Violation[] {
  return details.map((d) => ({ location: [prefix, ...(d.path ?? [])], severity: SEVERITY[d.severity], code: d.code, message: d.message }));
}

/** What a header value cannot carry (Node's rule: tab, visible ASCII, 0x80-0xFF); outside JSON's strings there is none of it. */
const NOT_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/g;
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * A violation as JSON a header can carry: a character Node refuses in a header (above U+00FF, or
 * DEL) written as its JSON escape `\uXXXX`, which reads back as the same string (DEVIATIONS
 * headerEscape: prism-http-server writes it as it is, and Node refuses the header).
 */
function headerJson(violation: Violation): string {
  const json = JSON.stringify(violation);
  NOT_IN_HEADER.lastIndex = 0;
  return NOT_IN_HEADER.test(json) ? json.replace(NOT_IN_HEADER, escapeChar) : json;
}

/**
 * prism-http-server's sl-violations value (the JSON array, cut at MAX_SAFE_HEADER_LENGTH characters
 * and prefixed "Too many violations! "), built only as far as the cut: the same value for any
 * number of violations.
 */
export function violationsHeader(violations: Violation[]): string {
  let value = "[";
  for (let i = 0; i < violations.length; i++) {
    value += (i > 0 ? "," : "") + headerJson(violations[i]);
    if (value.length > MAX_SAFE_HEADER_LENGTH) return `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}`;
  }
  value += "]";
  return value.length > MAX_SAFE_HEADER_LENGTH ? `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}` : value;
}

/** Renderings of a finding in `sl-violations` (by prefix) and in a problem body's list, kept per finding object. */
const rendered = { request: new WeakMap<Diagnostic, string>(), response: new WeakMap<Diagnostic, string>() };
const listed = new WeakMap<Diagnostic, string>();

function renderedAs(prefix: "request" | "response", finding: Diagnostic): string {
  let text = rendered[prefix].get(finding);
  if (text === undefined) {
    text = headerJson(violationsOf(prefix, [finding])[0]);
    rendered[prefix].set(finding, text);
  }
  return text;
}

/**
 * The sl-violations value of a request's findings and of its answer's (`violationsHeader` of their
 * violations, the same value), each finding rendered once for as long as it lives: validate.ts
 * keeps the findings of an operation, so a request that is wrong as an earlier one was is rendered
 * from what was prepared then. Undefined when there are none.
 */
export function findingsHeader(request: Diagnostic[], response: Diagnostic[]): string | undefined {
  if (request.length + response.length === 0) return undefined;
  let value = "[";
  for (const [prefix, findings] of [
    ["request", request],
    ["response", response],
  ] as const) {
    for (const finding of findings) {
      value += (value.length > 1 ? "," : "") + renderedAs(prefix, finding);
      if (value.length > MAX_SAFE_HEADER_LENGTH) return `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}`;
    }
  }
  value += "]";
  return value.length > MAX_SAFE_HEADER_LENGTH ? `Too many violations! ${value.substring(0, MAX_SAFE_HEADER_LENGTH)}` : value;
}

/** Prism's 422 problem body around its list of violations (`createUnprocessableEntityResponse`), made once. */
let unprocessable: { head: string; tail: string } | undefined;

/**
 * The body of Prism's 422 problem listing `findings` (`problemBody` of `createUnprocessableEntityResponse`,
 * the same bytes), from the problem's text made once and each finding's entry rendered once.
 */
export function listedProblemBody(findings: Diagnostic[]): string {
  if (!unprocessable) {
    const empty = problemBody(withoutStack(() => createUnprocessableEntityResponse([])));
    const at = empty.lastIndexOf('"validation":[]');
    unprocessable = { head: empty.slice(0, at + '"validation":['.length), tail: empty.slice(at + '"validation":['.length) };
  }
  const count = Math.min(findings.length, MAX_LISTED_VIOLATIONS);
  let list = "";
  for (let i = 0; i < count; i++) {
    const finding = findings[i];
    let text = listed.get(finding);
    if (text === undefined) {
      text = JSON.stringify({ location: finding.path, severity: SEVERITY[finding.severity], code: finding.code, message: finding.message });
      listed.set(finding, text);
    }
    list += (i > 0 ? "," : "") + text;
  }
  if (findings.length > MAX_LISTED_VIOLATIONS) {
    const more = findings.length - MAX_LISTED_VIOLATIONS;
    list += `,${JSON.stringify({ location: [], severity: "Information", code: "violations-capped", message: `${more} more violations not listed` })}`;
  }
  return unprocessable.head + list + unprocessable.tail;
}

/** A problem+json body; a list of violations is cut to MAX_LISTED_VIOLATIONS and a count (DEVIATIONS violationCap). */
export function problemBody(error: ProblemError): string {
  const json = ProblemJsonError.toProblemJson(error);
  const listed = error.additional?.validation;
  if (Array.isArray(listed) && listed.length > MAX_LISTED_VIOLATIONS && Array.isArray(json.validation)) {
    const more = listed.length - MAX_LISTED_VIOLATIONS;
    json.validation = [
      ...json.validation.slice(0, MAX_LISTED_VIOLATIONS),
      { location: [], severity: "Information", code: "violations-capped", message: `${more} more violations not listed` },
    ];
  }
  return JSON.stringify(json);
}

/**
 * Runs `make` with no stack trace captured: Prism builds a problem body as an Error (its
 * ProblemJsonError), whose stack, never sent, cost more than the rest of the answer.
 */
export function withoutStack<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Ends the response as prism-http-server (micri's `send`) does: a body gets Content-Length, and a
 * text Content-Type when it has none; no body, no Content-Length (Node adds `0` where a body is
 * allowed). With `keep`, the answer is kept for identical requests (never a 5xx). A body made for
 * this answer alone may be a string (its UTF-8 bytes are sent): Node writes it with the head in one
 * write, without a Buffer made for it first.
 */
export function emit(response: ServerResponse, status: number, pairs: Pairs, body: Buffer | string | undefined, keep?: Keep): void {
  if (body !== undefined) {
    if (!pairs.some(([name]) => name.toLowerCase() === "content-type")) pairs.push(["Content-Type", "text/plain; charset=utf-8"]);
    setPair(pairs, "Content-Length", byteLength(body));
  }
  if (keep && status < 500) keep.cache.set(keep.key, { status, headers: pairs, body: typeof body === "string" ? Buffer.from(body) : body });
  const flat: Array<string | number> = [];
  for (const [name, value] of pairs) flat.push(name, value);
  if (body === undefined) {
    endWithoutBody(response, status, flat);
    return;
  }
  response.writeHead(status, flat as string[]);
  response.end(body);
}

/** What Node's `end()` sets before it writes the head of an answer it ends without a body (node:_http_outgoing). */
interface Outgoing {
  _contentLength?: number | null;
}

/**
 * Ends an answer without a body, with the bytes that setting each header and calling `end()` writes
 * (Node adds `Content-Length: 0` after its own Date and connection headers where the status and
 * method allow a body), through `writeHead` with the headers in one array: setting them one by one
 * (`setHeader`, each name and value checked, kept in a map, then written) costs more than the rest
 * of such an answer, and most 4xx of these specs have no body. tests/unit/src/mock/write.test.ts
 * compares the bytes of both ways. Where Node does not have that member (another version), headers
 * are set one by one, as before.
 */
export function endWithoutBody(response: ServerResponse, status: number, flat: Array<string | number>): void {
  const outgoing = response as unknown as Outgoing;
  if (outgoing._contentLength === null && !response.headersSent && response.getHeaderNames().length === 0) {
    // As end() does before it writes the head (its `_implicitHeader()` is `writeHead(statusCode)`).
    outgoing._contentLength = 0;
    response.writeHead(status, flat as string[]);
    response.end();
    return;
  }
  for (let i = 0; i < flat.length; i += 2) response.setHeader(flat[i] as string, flat[i + 1]);
  response.statusCode = status;
  response.end();
}

/** An answer with its headers in prism-http-server's order: CORS, `sl-violations`, the answer's own. */
export function write(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  violations: Violation[] | undefined,
  headers: Array<[string, string]>,
  body: Buffer | string | undefined,
  keep?: Keep,
): void {
  const pairs = corsPairs(request);
  if (violations && violations.length > 0) pairs.push(["sl-violations", violationsHeader(violations)]);
  for (const [name, value] of headers) setPair(pairs, name, value);
  emit(response, status, pairs, body, keep);
}

/**
 * `write` of a JSON answer built for this request (the `answer` hook's, with no headers of its own):
 * the CORS headers, `sl-violations`, Content-Type application/json and Content-Length when there is
 * a body; the same bytes, without the header pairs `write` makes and searches.
 */
export function writeJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  violations: Violation[] | undefined,
  text: string | undefined,
): void {
  const flat = corsFlat(request);
  if (violations && violations.length > 0) flat.push("sl-violations", violationsHeader(violations));
  if (text === undefined) {
    endWithoutBody(response, status, flat);
    return;
  }
  flat.push("Content-Type", "application/json", "Content-Length", Buffer.byteLength(text));
  response.writeHead(status, flat as string[]);
  response.end(text);
}

/** An answer's own headers as `write` orders them (Content-Type default, Content-Length), kept per answer. */
type Tail = { own: Array<string | number>; whole: Array<string | number> } | null;
const tails = new WeakMap<Answer, Tail>();

/** null when the answer's headers would interleave with the CORS or sl-violations headers. */
function tailOf(answer: Answer): Tail {
  let tail = tails.get(answer);
  if (tail === undefined) {
    const reserved = new Set([...DEFAULT_CORS.filter((_, i) => i % 2 === 0).map((name) => String(name).toLowerCase()), "sl-violations"]);
    if (answer.headers.some(([name]) => reserved.has(name.toLowerCase()))) tail = null;
    else {
      const pairs: Pairs = [];
      for (const [name, value] of answer.headers) setPair(pairs, name, value);
      // As emit: a body gets a Content-Type (a default one) and its Content-Length; no body, neither.
      if (answer.body !== undefined) {
        if (!pairs.some(([name]) => name.toLowerCase() === "content-type")) pairs.push(["Content-Type", "text/plain; charset=utf-8"]);
        setPair(pairs, "Content-Length", answer.body.length);
      }
      const own = pairs.flat();
      tail = { own, whole: [...DEFAULT_CORS, ...own] };
    }
    tails.set(answer, tail);
  }
  return tail;
}

/**
 * A kept answer (not a problem) with the request's findings and the answer's own: the same bytes
 * `write` sends, with the answer's own headers put in order once per answer; only the CORS values
 * and `sl-violations` are the request's. With `keep`, as `write` does (the cache keeps the pairs).
 */
export function writeAnswer(request: IncomingMessage, response: ServerResponse, answer: Answer, findings: Diagnostic[], keep?: Keep): void {
  const violations = findingsHeader(findings, answer.outputFindings);
  const tail = keep === undefined ? tailOf(answer) : undefined;
  if (!tail) {
    const pairs = corsPairs(request);
    if (violations) pairs.push(["sl-violations", violations]);
    for (const [name, value] of answer.headers) setPair(pairs, name, value);
    emit(response, answer.status, pairs, answer.body, keep);
    return;
  }
  let flat: Array<string | number>;
  if (!violations && plainCors(request)) flat = tail.whole;
  else {
    flat = corsFlat(request);
    if (violations) flat.push("sl-violations", violations);
    for (const item of tail.own) flat.push(item);
  }
  if (answer.body === undefined) {
    endWithoutBody(response, answer.status, flat);
    return;
  }
  response.writeHead(answer.status, flat as string[]);
  response.end(answer.body);
}

/** The bodies of Prism's 422 problem listing one finding, kept per finding (validate.ts keeps an operation's findings). */
const listedOne = new WeakMap<Diagnostic, Buffer>();

/**
 * listedProblemBody's bytes: for a single finding, made once for as long as the finding lives; for
 * several, the text itself (sent once: see emit).
 */
export function listedProblemBytes(findings: Diagnostic[]): Buffer | string {
  if (findings.length !== 1) return listedProblemBody(findings);
  const [finding] = findings;
  let bytes = listedOne.get(finding);
  if (bytes === undefined) {
    bytes = Buffer.from(listedProblemBody(findings));
    listedOne.set(finding, bytes);
  }
  return bytes;
}

/** The default CORS headers and a problem answer's own (Content-Type default, no Content-Length), kept per answer; null where `emit` would interleave them. */
const problemHeads = new WeakMap<Answer, ReadonlyArray<string | number> | null>();

function problemHead(answer: Answer): ReadonlyArray<string | number> | null {
  let head = problemHeads.get(answer);
  if (head === undefined) {
    const reserved = new Set([...DEFAULT_CORS.filter((_, i) => i % 2 === 0).map((name) => String(name).toLowerCase()), "content-length"]);
    if (answer.headers.some(([name]) => reserved.has(name.toLowerCase()))) head = null;
    else {
      const pairs: Pairs = [];
      for (const [name, value] of answer.headers) setPair(pairs, name, value);
      if (!pairs.some(([name]) => name.toLowerCase() === "content-type")) pairs.push(["Content-Type", "text/plain; charset=utf-8"]);
      head = [...DEFAULT_CORS, ...pairs.flat()];
    }
    problemHeads.set(answer, head);
  }
  return head;
}

/**
 * A kept problem answer (Prism's 4xx problem+json) to a request with `findings`: the same bytes as
 * `emit` of the CORS headers, the answer's headers and its body (the findings listed where Prism's
 * problem lists them), with the headers put in order once per answer and a one-finding list
 * rendered once per finding.
 */
export function writeProblemAnswer(request: IncomingMessage, response: ServerResponse, answer: Answer, findings: Diagnostic[]): void {
  const body = answer.listsFindings ? listedProblemBytes(findings) : answer.body;
  const head = body !== undefined && plainCors(request) ? problemHead(answer) : null;
  if (!head) {
    const pairs = corsPairs(request);
    for (const [name, value] of answer.headers) setPair(pairs, name, value);
    emit(response, answer.status, pairs, body);
    return;
  }
  const flat = head.slice();
  flat.push("Content-Length", byteLength(body!));
  response.writeHead(answer.status, flat as string[]);
  response.end(body);
}

/** A problem+json answer, after `pairs` (the CORS headers, and whatever was set before the failure); `allow` for a 405. */
export function writeProblem(
  request: IncomingMessage,
  response: ServerResponse,
  error: ProblemError,
  { keep, allow, pairs = corsPairs(request) }: { keep?: Keep; allow?: () => string; pairs?: Pairs } = {},
): void {
  if (response.writableEnded) return;
  setPair(pairs, "content-type", "application/problem+json");
  for (const [name, value] of Object.entries(error.additional?.headers ?? {})) setPair(pairs, name, value);
  if (error.status === 405 && allow) setPair(pairs, "Allow", allow());
  emit(response, error.status || 500, pairs, problemBody(error), keep);
}

/** A body that could not be read (413, 400): micri's error answer. */
export function sendBodyError(
  request: IncomingMessage,
  response: ServerResponse,
  error: { status: number; code: string; message: string },
): void {
  const pairs = corsPairs(request);
  pairs.push(["Content-Type", "application/json; charset=utf-8"]);
  if (error.status === 413) pairs.push(["Connection", "close"]);
  emit(response, error.status, pairs, JSON.stringify({ error: { code: error.code, message: error.message } }));
}

/** Whether a request is a CORS preflight (answered 204 before its body is read). */
export function isPreflight(request: IncomingMessage): boolean {
  const { headers } = request;
  return request.method === "OPTIONS" && Boolean(headers.origin) && Boolean(headers["access-control-request-method"]);
}

/** The answer to a CORS preflight: 204 allowing the method asked for. */
export function writePreflight(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  const pairs = corsPairs(request);
  pairs.push([
    "Access-Control-Allow-Methods",
    request.headers["access-control-request-method"] || "GET,DELETE,HEAD,PATCH,POST,PUT,OPTIONS",
  ]);
  pairs.push(["Content-Length", "0"]);
  emit(response, 204, pairs, undefined);
}
