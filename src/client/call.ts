/**
 * A client's calls: each one its attempts (retry.ts) within its deadline, each attempt one
 * openapi-fetch call through the transport (transport.ts), what fetch or the body parser throws
 * turned into a fault result; and the client's methods (GET ... TRACE, `request`) that run them.
 */
import type { Client } from "openapi-fetch";
import { ApiError, recordOperation } from "./errors.js";
import { type AttemptOutcome, type RetryPolicy, retryPolicy, timeoutOption, withRetries } from "./retry.js";
import { bounded, followSameOrigin, REDIRECTS, sendOnce, sentBody } from "./transport.js";
import type { ApiClient, FetchFunction, RawResult } from "./types.js";

/** What every call of a client shares. */
export interface CallSettings {
  baseFetch: FetchFunction | undefined;
  maxBytes: number;
  policy: RetryPolicy;
  /** The operations whose contract declares an Idempotency-Key header (ApiDefinition.deduplicated). */
  deduplicated: ReadonlySet<string>;
  timeoutMs: number;
}

/**
 * Runs a call: its attempts (retry.ts) within its deadline, each attempt one openapi-fetch call.
 * The call's own options (`retry`, `timeoutMs`) are taken out of the init openapi-fetch gets; the
 * call's signal is the deadline combined with the caller's `signal`.
 */
function guard(
  method: string,
  path: string,
  init: Record<string, unknown> | undefined,
  settings: CallSettings,
  call: (path: string, init: Record<string, unknown>) => Promise<RawResult>,
): Promise<RawResult> {
  try {
    return withRetries<RawResult>(new ClientCall(method, path, init, settings, call));
  } catch (error) {
    // A bad `retry` or `timeoutMs` option rejects the call, as it always has (never a synchronous throw).
    return Promise.reject(error);
  }
}

function faultResult(operation: { method: string; path: string }, error: unknown, answer?: Response): RawResult {
  const fault = ApiError.fault(operation, error, answer);
  if (answer) recordOperation(answer, operation);
  return { data: undefined, error: undefined, fault, response: fault.response };
}

/**
 * One call of a client: what withRetries needs (its options and, as methods, `attempt` and `fault`),
 * and the state of the attempt in progress. One object per call, its methods on the prototype, so
 * that a call allocates no closures of its own.
 */
class ClientCall {
  readonly operation: { method: string; path: string };
  readonly policy: RetryPolicy;
  readonly deduplicated: boolean;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly body: unknown;
  readonly #rest: Record<string, unknown>;
  readonly #custom: FetchFunction | undefined;
  readonly #maxBytes: number;
  readonly #call: (path: string, init: Record<string, unknown>) => Promise<RawResult>;
  /**
   * The fetch openapi-fetch gets for each attempt: the call's own (its `fetch` option, else the
   * client's, else the global one, looked up now), following same-origin redirects only, bounding the
   * body, and noting the request as sent and whether any answer came back.
   */
  readonly #tracked: FetchFunction;
  /** The attempt in progress: its request as sent, the answer, the number of answers (redirects too). */
  #request: Request | undefined;
  #answer: Response | undefined;
  answers = 0;

  constructor(
    method: string,
    path: string,
    init: Record<string, unknown> | undefined,
    settings: CallSettings,
    call: (path: string, init: Record<string, unknown>) => Promise<RawResult>,
  ) {
    // The call's own options taken out; an init without them is used as it is (attempt() copies it, never changes it).
    let rest: Record<string, unknown> = init ?? {};
    let retry: unknown;
    let timeoutMs: unknown;
    if (typeof rest !== "object" || "retry" in rest || "timeoutMs" in rest) ({ retry, timeoutMs, ...rest } = rest);
    this.operation = { method, path };
    this.policy = retry === undefined ? settings.policy : retryPolicy(`${method} ${path}`, retry, settings.policy);
    this.deduplicated = settings.deduplicated.size > 0 && settings.deduplicated.has(`${method} ${path}`);
    this.timeoutMs = timeoutMs === undefined ? settings.timeoutMs : timeoutOption(`${method} ${path}`, timeoutMs, settings.timeoutMs);
    this.signal = rest.signal as AbortSignal | undefined;
    this.body = rest.body;
    this.#rest = rest;
    this.#custom = (rest.fetch as FetchFunction | undefined) ?? settings.baseFetch;
    this.#maxBytes = settings.maxBytes;
    this.#call = call;
    this.#tracked = this.#send.bind(this);
  }

  fault(error: unknown): RawResult {
    return faultResult(this.operation, error);
  }

  async #send(input: Request, ext?: RequestInit): Promise<Response> {
    this.#request = input;
    // What a 307/308 would send again, taken now (sending consumes it); a DeferredRequest's is its own string.
    const body = sentBody(input);
    let answer = await sendOnce(input, ext, this.#custom);
    this.#answer = answer;
    this.answers++;
    if (REDIRECTS.has(answer.status)) this.#answer = answer = await followSameOrigin(input, ext, this.#custom, this, answer, body);
    this.#answer = answer = bounded(answer, this.#maxBytes);
    return answer;
  }

  /**
   * Runs one openapi-fetch call, turning what fetch or the body parser throws into a fault result.
   * A non-2xx answer without a body gets an ApiError as `error`.
   */
  async attempt(signal: AbortSignal, body: unknown): Promise<AttemptOutcome<RawResult>> {
    const { operation } = this;
    this.#request = undefined;
    this.#answer = undefined;
    this.answers = 0;
    const init: Record<string, unknown> = { ...this.#rest, signal, fetch: this.#tracked };
    if (body !== undefined) init.body = body;
    try {
      const result = await this.#call(operation.path, init);
      const request = this.#request;
      // The response the caller gets, for `unwrap` to name the operation (a middleware would cost every call an await).
      recordOperation(result.response, operation);
      // No error body (openapi-fetch gives undefined, or "" when the length was not announced): an ApiError instead.
      if (!result.response.ok && (result.error === undefined || result.error === "")) {
        return {
          result: { error: new ApiError(result.response, undefined, operation), response: result.response },
          request,
          answered: true,
        };
      }
      return { result, request, answered: true };
    } catch (error) {
      const request = this.#request;
      if (!request) throw error;
      return { result: faultResult(operation, error, this.#answer), request, answered: this.answers > 0 };
    }
  }
}

/** The client partners get: openapi-fetch's `use` and `eject`, and each method (and `request`) running its calls as ClientCalls. */
export function guardedClient<Paths extends {}>(client: Client<Paths>, settings: CallSettings): ApiClient<Paths> {
  const methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;
  const raw = client as unknown as Record<string, (path: string, init?: Record<string, unknown>) => Promise<RawResult>>;
  const guarded: Record<string, unknown> = { use: client.use.bind(client), eject: client.eject.bind(client) };
  for (const method of methods)
    guarded[method] = (path: string, init?: Record<string, unknown>) => guard(method, path, init, settings, raw[method]);
  guarded.request = (method: string, path: string, init?: Record<string, unknown>) =>
    guard(
      String(method).toUpperCase(),
      path,
      init,
      settings,
      (p, i) => client.request(method as never, p as never, i as never) as Promise<RawResult>,
    );
  return guarded as unknown as ApiClient<Paths>;
}
