/**
 * Typed error surfacing for the generated clients: `unwrap(result)` returns the success data of an
 * openapi-fetch result or throws an `ApiError` carrying the status, the operation (method and spec
 * path) and the parsed body. Request headers, and so credentials, are never part of an ApiError.
 * A non-2xx answer without a body already has its ApiError as the result's `error`; `unwrap` throws
 * that one.
 *
 * Faults, where there is no usable HTTP answer (the connection failed or was reset, the request
 * timed out or was aborted, a 2xx body is not the JSON it says it is), do not reject the client
 * call: it resolves to `{ fault: ApiError, response }` with `fault.kind` naming the fault and
 * `response` the answer received, or `Response.error()` (status 0) when there was none.
 */

/** A response body over the client's `maxResponseBytes`: the fault `too-large`. */
export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
  constructor(readonly limit: number) {
    super(`the response body exceeds ${limit} bytes (maxResponseBytes)`);
  }
}

/**
 * The call's `timeoutMs` passed: the reason its signal aborts with, and so the `cause` of the fault
 * `timeout`. Its `name` is `TimeoutError`, as for `AbortSignal.timeout()`.
 */
export class CallTimeoutError extends Error {
  override readonly name = "TimeoutError";
  constructor(
    readonly operation: Operation,
    readonly timeoutMs: number,
  ) {
    super(`no complete answer within the call's limit of ${timeoutMs} ms (timeoutMs)`);
  }
}

/** One validation finding, as Prism reports it in the `sl-violations` header or a problem body. */
export interface Violation {
  /** Where the finding is, e.g. `["request", "body", "amount"]`. */
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** The operation a response answered: the HTTP method and the path template from the spec. */
export interface Operation {
  method: string;
  path: string;
}

/** Filled by the client's response middleware, so that `unwrap` can name the operation. */
const operations = new WeakMap<Response, Operation>();

export function recordOperation(response: Response, operation: Operation): void {
  operations.set(response, operation);
}

function isViolation(value: unknown): value is Violation {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.location) && v.location.every((part) => typeof part === "string") && typeof v.message === "string";
}

function violationList(value: unknown): Violation[] {
  return Array.isArray(value) ? value.filter(isViolation) : [];
}

/** What Prism puts before a `sl-violations` value it cut at 8 kB (the rest is not valid JSON). */
const TRUNCATED = "Too many violations! ";

/**
 * Parses Prism's `sl-violations` header (a JSON array). A value Prism cut short ("Too many
 * violations! ...") gives one finding with code `truncated` carrying the text, so that a long list
 * is never read as none; anything else unparseable gives `[]`.
 */
export function parseViolations(header: string | null | undefined): Violation[] {
  if (!header) return [];
  try {
    return violationList(JSON.parse(header));
  } catch {
    if (!header.startsWith(TRUNCATED)) return [];
    return [{ location: ["request"], severity: "Error", code: "truncated", message: header }];
  }
}

/**
 * Prism's findings on an exchange: the `sl-violations` header, else, when Prism answered with its
 * own problem document, that body's `validation` list (its locations prefixed with `request`, as
 * the header writes them). `body` is the parsed body, or its text.
 */
export function responseViolations(headers: Headers, body: unknown): Violation[] {
  const fromHeader = parseViolations(headers.get("sl-violations"));
  if (fromHeader.length > 0) return fromHeader;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      return [];
    }
  }
  return violationList((body as { validation?: unknown } | null | undefined)?.validation).map((v) =>
    v.location[0] === "request" ? v : { ...v, location: ["request", ...v.location] },
  );
}

/**
 * What went wrong: `http`, a non-2xx answer; `network`, no answer or a broken one (connection
 * refused, reset, closed mid-body); `timeout`, an `AbortSignal.timeout()` fired; `aborted`, the
 * caller's signal aborted the request; `invalid-body`, a 2xx answer whose body could not be parsed
 * as the JSON it was declared to be; `too-large`, an answer whose body exceeds the client's
 * `maxResponseBytes` (it is not read further).
 */
export type FaultKind = "http" | "network" | "timeout" | "aborted" | "invalid-body" | "too-large";

const FAULT_TEXT: Record<Exclude<FaultKind, "http">, string> = {
  network: "failed: no usable answer",
  timeout: "timed out",
  aborted: "was aborted",
  "invalid-body": "answered a body that is not valid JSON",
  "too-large": "answered a body that is too large",
};

/** Names the fault of an error thrown while fetching or reading a response. */
export function faultKind(error: unknown): Exclude<FaultKind, "http"> {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError") return "timeout";
  if (name === "AbortError") {
    // An AbortSignal.timeout() reason is a TimeoutError, also when fetch reports the abort itself.
    const reason = (error as { cause?: { name?: unknown } }).cause;
    return reason?.name === "TimeoutError" ? "timeout" : "aborted";
  }
  if (error instanceof SyntaxError) return "invalid-body";
  for (let e = error as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof ResponseTooLargeError) return "too-large";
  }
  return "network";
}

/** The code of the underlying system error (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET, ...), if any. */
export function causeCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === "string") return e.code;
  }
  return undefined;
}

/** The userinfo (`user:password@`) of every URL in a text. */
const USERINFO = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/?#@]*@/gi;

/** `text` with the userinfo of every URL in it removed: `https://user:pass@host/x` gives `https://host/x`. */
export function withoutUserinfo(text: string): string {
  return text.replace(USERINFO, "$1");
}

/**
 * `cause` as it may be kept on an ApiError: itself, or, when its message, stack or a cause of its
 * chain quotes a URL's userinfo (fetch quotes the URL it refuses), a copy without it (same name and
 * code), so that no message, stack or cause of a fault carries a password written in a URL.
 */
function withoutUserinfoIn(cause: unknown, depth = 0): unknown {
  if (!(cause instanceof Error) || depth > 4) return cause;
  const inner = withoutUserinfoIn(cause.cause, depth + 1);
  const message = withoutUserinfo(cause.message);
  const stack = cause.stack === undefined ? undefined : withoutUserinfo(cause.stack);
  if (message === cause.message && stack === cause.stack && inner === cause.cause) return cause;
  const copy = new Error(message, inner === undefined ? undefined : { cause: inner });
  copy.name = cause.name;
  copy.stack = stack;
  const code = (cause as { code?: unknown }).code;
  if (code !== undefined) Object.assign(copy, { code });
  return copy;
}

/** What a fault ApiError is built from (see ApiError.fault). */
interface Fault {
  kind: Exclude<FaultKind, "http">;
  cause: unknown;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** `http` for a non-2xx answer, else the fault (see FaultKind). */
  readonly kind: FaultKind;
  /** HTTP status of the response (0 when there was none). */
  readonly status: number;
  /** HTTP method of the request, e.g. `POST`. */
  readonly method: string;
  /** Path template from the spec, e.g. `/v1/invoice/{invoice_id}`. */
  readonly path: string;
  /** The parsed response body (JSON when the server sent JSON, otherwise text; undefined when empty or for a fault). */
  readonly body: unknown;
  /** Findings from `sl-violations`, else from a problem body's `validation` array (both Prism). */
  readonly violations: Violation[];
  /** The answer; for a fault without one, `Response.error()` (status 0). */
  readonly response: Response;

  constructor(response: Response, body: unknown, operation: Operation = recalledOperation(response), fault?: Fault) {
    const violations = responseViolations(response.headers, body);
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    const findings = violations.map((v) => `${v.location.join(".")}: ${v.message}`).join("; ");
    super(
      fault
        ? `${operation.method} ${operation.path} ${FAULT_TEXT[fault.kind]}${response.status ? ` (status ${status})` : ""}: ${describe(fault.cause)}`
        : `${operation.method} ${operation.path} responded ${status}${findings ? ` (${findings})` : ""}`,
      fault ? { cause: fault.cause } : undefined,
    );
    this.kind = fault?.kind ?? "http";
    this.status = response.status;
    this.method = operation.method;
    this.path = operation.path;
    this.body = body;
    this.violations = violations;
    this.response = response;
  }

  /**
   * An ApiError for a fault: `cause` is what fetch or the body parser threw (kept as `cause`; its
   * message is quoted, and neither carries request headers nor a URL's userinfo); `response` the
   * answer, if one arrived.
   */
  static fault(operation: Operation, cause: unknown, response: Response = Response.error()): ApiError {
    const kept = withoutUserinfoIn(cause);
    return new ApiError(response, undefined, operation, { kind: faultKind(kept), cause: kept });
  }
}

function describe(cause: unknown): string {
  const code = causeCode(cause);
  const message = cause instanceof Error ? cause.message : String(cause);
  const inner = cause instanceof Error && cause.cause instanceof Error && cause.cause.message !== message ? `: ${cause.cause.message}` : "";
  return withoutUserinfo(`${message}${inner}${code ? ` (${code})` : ""}`);
}

function recalledOperation(response: Response): Operation {
  return operations.get(response) ?? { method: "?", path: response.url ? new URL(response.url).pathname : "?" };
}

/**
 * What `unwrap` accepts: the result of any openapi-fetch or generated-client call. Each optional
 * member also takes `undefined`, so that a result whose `fault` is declared `fault?: undefined`
 * (every answered call) fits it under `exactOptionalPropertyTypes` too.
 */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  /** Set by the generated clients when there was no usable answer. */
  fault?: ApiError | undefined;
  response: Response;
}

/** The success data type of an openapi-fetch result. */
export type DataOf<R extends FetchResult> = Exclude<R["data"], undefined>;

/**
 * Returns the data of a successful response, or throws an ApiError for a non-2xx one or a fault.
 * `const merchant = unwrap(await client.GET("/v1/merchant"));`
 */
export function unwrap<R extends FetchResult>(result: R): DataOf<R> {
  if (result.fault) throw result.fault;
  if (result.error instanceof ApiError) throw result.error;
  if (!result.response.ok) throw new ApiError(result.response, result.error);
  return result.data as DataOf<R>;
}
