/**
 * The shared runtime behind every generated `create<Service>Client`: it picks the base URL (given,
 * or built from the spec's server template for an environment), sets the credential header (a
 * fixed one as its requests are built, a function's by middleware) and records each response's operation for `unwrap`/ApiError. The generated client.ts
 * files only pass their data (servers, auth) and their `paths` type to `createApiClient`.
 *
 * Every call resolves, also when there is no usable HTTP answer: a connection that fails or is
 * reset, a timeout or abort through the call's `signal`, a 2xx body that is not valid JSON give
 * `{ fault: ApiError, response }` with `fault.kind` naming the fault (see errors.ts), never a
 * rejection; `data` and `error` are then undefined, and `unwrap` throws the fault. Every other
 * result is openapi-fetch's own (`error` the error body the server sent), with `fault` undefined,
 * except that a non-2xx answer without a body gets an ApiError (kind `http`) as `error`, so that
 * every non-2xx answer has a defined `error`.
 *
 * Retries and the deadline (retry.ts): a call is up to `retry.attempts` openapi-fetch calls (each
 * through the middleware), retried only when safe, all within `timeoutMs`; `retry` and `timeoutMs`
 * are client options and call options, taken out of the init before openapi-fetch sees it.
 * An error thrown before the request goes out (a credential function that throws or returns no
 * string) still rejects: it is the caller's to fix, not a fault of the server.
 *
 * Redirects: a redirect to another origin (scheme, host or port) is never followed, so neither the
 * credential nor any other header or body reaches that origin, and another host's answer never
 * comes back as `data`: the 3xx itself is the result (`error`, `response.status` 3xx, its
 * `Location` header readable), and `unwrap` throws it as an `http` ApiError. A redirect on the same
 * origin is followed as fetch follows it (at most 20; 303, and 301/302 after a POST, become a GET
 * without a body; 307/308 repeat the method and the body), with the credential. Requests go out with
 * `redirect: "manual"`; an injected `fetch` gets them that way too and should not follow redirects
 * itself.
 *
 * Response bodies are bounded: an answer declaring a Content-Length over `maxResponseBytes`
 * (default 32 MiB) is not read, and a body without a length is cut off when it exceeds it; either
 * is a `too-large` fault.
 */
import createClient, {
  createQuerySerializer,
  type ClientOptions as FetchClientOptions,
  type FetchResponse,
  type HeadersOptions,
  type MaybeOptionalInit,
  type Middleware,
  type ParseAs,
} from "openapi-fetch";
import { ApiError, recordOperation, ResponseTooLargeError } from "./errors.js";
import {
  type AttemptOutcome,
  type CallOptions,
  DEFAULT_TIMEOUT_MS,
  type RetryOptions,
  type RetryPolicy,
  retryPolicy,
  timeoutOption,
  withRetries,
} from "./retry.js";

export interface ServerVariable {
  readonly default: string;
  readonly enum?: readonly string[];
}

/** A server object of the spec; `environment` is its `x-environment`. */
export interface ServerDefinition {
  readonly environment?: string;
  readonly url: string;
  readonly variables: { readonly [name: string]: ServerVariable };
}

/** How the API authenticates, derived from its security scheme. */
export type AuthDefinition =
  | { readonly kind: "bearer"; readonly scheme: string; readonly header: "Authorization"; readonly option: "accessToken" }
  | { readonly kind: "apiKey"; readonly scheme: string; readonly header: string; readonly option: "apiKey" }
  | { readonly kind: "none" };

export interface ApiDefinition {
  /** The factory's name, used in error messages. */
  readonly name: string;
  readonly servers: readonly ServerDefinition[];
  readonly auth: AuthDefinition;
  /**
   * The operations (`METHOD /path/template`) whose contract declares an `Idempotency-Key` request
   * header: the provider deduplicates them, so a POST or PATCH of one that sends the key is retried
   * as an idempotent call is (retry.ts). Generated from the spec; none by default.
   */
  readonly deduplicated?: readonly string[];
}

/** A credential: the value itself, or a function returning it (called on every request, e.g. to refresh). */
export type Credential = string | (() => string | Promise<string>);

type EnvironmentOf<S extends readonly ServerDefinition[]> = NonNullable<S[number]["environment"]>;

type VariableNames<S extends readonly ServerDefinition[]> = S[number] extends infer T
  ? T extends ServerDefinition
    ? keyof T["variables"] & string
    : never
  : never;

type VariableValue<S extends readonly ServerDefinition[], K extends string> = S[number] extends infer T
  ? T extends { variables: { [P in K]: infer V } }
    ? V extends { enum: readonly (infer E)[] }
      ? E
      : string
    : never
  : never;

/** Values for the server template's variables; each omitted one takes its default from the spec. */
export type ServerVariables<S extends readonly ServerDefinition[]> = { [K in VariableNames<S>]?: VariableValue<S, K> };

/** Where the client sends requests: a base URL, or an environment of the spec's servers. */
export type ClientTarget<S extends readonly ServerDefinition[]> =
  | { baseUrl: string; environment?: never; variables?: never }
  | { environment: EnvironmentOf<S>; variables?: ServerVariables<S>; baseUrl?: never };

export type CredentialOptions<A extends AuthDefinition> = A extends { kind: "bearer" }
  ? { /** Bearer token, sent as `Authorization: Bearer <token>`. */ accessToken: Credential }
  : A extends { kind: "apiKey" }
    ? { /** API key, sent in the header the spec names. */ apiKey: Credential }
    : {};

export interface CommonOptions {
  /** Replaces globalThis.fetch (tests inject one; no global patching needed). It gets requests with `redirect: "manual"`. */
  fetch?: FetchClientOptions["fetch"];
  /** Headers sent with every request. */
  headers?: HeadersOptions;
  /** Largest response body read, bytes; a larger one is a `too-large` fault. Default 32 MiB. */
  maxResponseBytes?: number;
  /** Retries (see retry.ts): default 3 attempts, of calls that may be repeated only; `false` turns them off. A call's `retry` is merged over it. */
  retry?: RetryOptions | false;
  /** Limit of each call, every attempt and wait included, milliseconds; then the fault `timeout`. Default 60 000. A call's `timeoutMs` replaces it. */
  timeoutMs?: number;
}

/** Default of `maxResponseBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export type ClientOptions<S extends readonly ServerDefinition[], A extends AuthDefinition> = ClientTarget<S> &
  CredentialOptions<A> &
  CommonOptions;

type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
type MediaType = `${string}/${string}`;
type PathsWithMethod<Paths extends {}, Method extends HttpMethod> = {
  [Path in keyof Paths]: Paths[Path] extends { [M in Method]: any } ? Path : never;
}[keyof Paths];
/**
 * The init of a call: openapi-fetch's (params, body, fetch options), its `parseAs` the type
 * parameter `As` (so the answer's type follows it), and the CallOptions. Unlike openapi-fetch's own
 * signature, the init is not a type parameter and has no `[key: string]: unknown` part: an object
 * literal passed to a call is checked against the operation's declared params and body, so a
 * misspelt field (of the body, of a nested object, of the path or query parameters, or of the init
 * itself) is a compile error (openapi-fetch issues 1769 and 2329).
 */
type CallInit<Operations, Method extends keyof Operations, As extends ParseAs> = FetchInit<Operations, Method> & {
  parseAs?: As;
  /** fetch's `duplex` ("half"), needed with a ReadableStream body. */
  duplex?: "half";
} & CallOptions;
type FetchInit<Operations, Method extends keyof Operations> = Exclude<MaybeOptionalInit<Operations, Method>, undefined>;
// As openapi-fetch: the init argument is optional exactly when nothing in it is required (MaybeOptionalInit then admits undefined).
type InitParam<Operations, Method extends keyof Operations, As extends ParseAs> =
  undefined extends MaybeOptionalInit<Operations, Method> ? [CallInit<Operations, Method, As>?] : [CallInit<Operations, Method, As>];

/** The result of a call when there was no usable HTTP answer (see FaultKind). */
export interface FaultResult {
  data?: never;
  error?: never;
  /** What went wrong; `fault.kind` names it. */
  fault: ApiError;
  /** The answer, if one arrived (a 2xx whose body is not JSON); else `Response.error()` (status 0, `ok` false). */
  response: Response;
}

/** openapi-fetch's error branch, its `error` also an ApiError: what a non-2xx answer without a body gives. */
type WithEmptyError<R> = R extends { error: infer E; response: Response } ? { data?: never; error: E | ApiError; response: Response } : R;

/**
 * openapi-fetch's result of a call (with `fault` undefined), or a fault. A non-2xx answer always
 * has a defined `error`: the body the server sent (typed as the spec declares it), or, when the
 * answer has no body, an ApiError (`kind` "http", `status`, `method`, `path`, `body` undefined).
 */
export type ApiResult<Operation extends Record<string | number, any>, Init, Media extends MediaType = MediaType> =
  | (WithEmptyError<FetchResponse<Operation, Init, Media>> & { fault?: undefined })
  | FaultResult;

type ApiMethod<Paths extends Record<string, Record<HttpMethod, {}>>, Method extends HttpMethod, Media extends MediaType> = <
  Path extends PathsWithMethod<Paths, Method>,
  As extends ParseAs = "json",
>(
  url: Path,
  ...init: InitParam<Paths[Path], Method, As>
) => Promise<ApiResult<Paths[Path][Method], { parseAs: As }, Media>>;

type ApiRequestMethod<Paths extends Record<string, Record<HttpMethod, {}>>, Media extends MediaType> = <
  Method extends HttpMethod,
  Path extends PathsWithMethod<Paths, Method>,
  As extends ParseAs = "json",
>(
  method: Method,
  url: Path,
  ...init: InitParam<Paths[Path], Method, As>
) => Promise<ApiResult<Paths[Path][Method], { parseAs: As }, Media>>;

/** openapi-fetch's client (same methods, same typing), its calls typed to resolve to a fault result too. */
export interface ApiClient<Paths extends {}, Media extends MediaType = MediaType> {
  request: ApiRequestMethod<Paths, Media>;
  /** Call a GET endpoint */
  GET: ApiMethod<Paths, "get", Media>;
  /** Call a PUT endpoint */
  PUT: ApiMethod<Paths, "put", Media>;
  /** Call a POST endpoint */
  POST: ApiMethod<Paths, "post", Media>;
  /** Call a DELETE endpoint */
  DELETE: ApiMethod<Paths, "delete", Media>;
  /** Call an OPTIONS endpoint */
  OPTIONS: ApiMethod<Paths, "options", Media>;
  /** Call a HEAD endpoint */
  HEAD: ApiMethod<Paths, "head", Media>;
  /** Call a PATCH endpoint */
  PATCH: ApiMethod<Paths, "patch", Media>;
  /** Call a TRACE endpoint */
  TRACE: ApiMethod<Paths, "trace", Media>;
  /** Register middleware */
  use(...middleware: Middleware[]): void;
  /** Unregister middleware */
  eject(...middleware: Middleware[]): void;
}

function fail(definition: ApiDefinition, message: string): never {
  throw new TypeError(`${definition.name}: ${message}`);
}

/** Header values must be visible ASCII/Latin-1 without CR/LF/NUL; checked here so that fetch's own error, which quotes the value, never sees a bad credential. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

function checkCredential(definition: ApiDefinition, option: string, value: unknown, from: "is" | "returned"): string {
  if (typeof value !== "string" || value.trim() === "") {
    fail(
      definition,
      `option "${option}" ${from} ${typeof value === "string" ? "an empty string" : `a ${typeof value}`}; expected a non-empty string`,
    );
  }
  if (!HEADER_VALUE.test(value)) fail(definition, `option "${option}" ${from} a value that is not a valid HTTP header value`);
  return value;
}

/**
 * The base URL of a client (see baseUrlFrom), refused when it carries a user name or password
 * (`https://user:pass@host`): fetch refuses such a URL on every call, quoting it, and the client's
 * credential goes in its own option. The message never quotes the URL.
 */
export function baseUrlOf(definition: ApiDefinition, options: Record<string, unknown>): string {
  const url = baseUrlFrom(definition, options);
  if (URL.canParse(url)) {
    const { username, password } = new URL(url);
    if (username !== "" || password !== "") {
      fail(
        definition,
        `the base URL must not carry a user name or password ("user:password@"); pass the credential in its own option, never in the URL`,
      );
    }
  }
  return url;
}

function baseUrlFrom(definition: ApiDefinition, options: Record<string, unknown>): string {
  const { baseUrl, environment, variables } = options;
  if (baseUrl !== undefined && environment !== undefined) fail(definition, `pass either "baseUrl" or "environment", not both`);
  if (typeof baseUrl === "string" && baseUrl !== "") return baseUrl;
  if (baseUrl !== undefined) fail(definition, `option "baseUrl" must be a non-empty string`);
  const environments = definition.servers.flatMap((s) => (s.environment ? [s.environment] : []));
  if (environment === undefined) {
    fail(
      definition,
      `missing option "baseUrl" or "environment" (${environments.map((e) => `"${e}"`).join(" or ") || "the spec names no environments"})`,
    );
  }
  const server = definition.servers.find((s) => s.environment === environment);
  if (!server) fail(definition, `unknown environment ${JSON.stringify(environment)}; known: ${environments.join(", ")}`);
  const given = (variables ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(name in server.variables))
      fail(
        definition,
        `unknown server variable "${name}" for environment "${server.environment}"; known: ${Object.keys(server.variables).join(", ")}`,
      );
  }
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = server.variables[name];
    if (!variable) fail(definition, `server URL ${server.url} uses undeclared variable "${name}"`);
    const value = given[name] ?? variable.default;
    if (typeof value !== "string" || value === "") fail(definition, `server variable "${name}" must be a non-empty string`);
    if (variable.enum && !variable.enum.includes(value)) {
      fail(definition, `server variable "${name}" must be one of ${variable.enum.join(", ")}; got ${JSON.stringify(value)}`);
    }
    return value;
  });
}

/**
 * Creates an openapi-fetch client for one API. The credential stays in this closure (a fixed one in
 * the class its requests are built with, a function in its middleware): it is not given to
 * openapi-fetch as a header, not stored on the client, and not put into any message.
 */
export function createApiClient<Paths extends {}>(definition: ApiDefinition, options: object): ApiClient<Paths> {
  if (typeof options !== "object" || options === null) fail(definition, "expected an options object");
  const opts = options as Record<string, unknown>;
  const baseUrl = baseUrlOf(definition, opts);
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof maxBytes !== "number" || !Number.isInteger(maxBytes) || maxBytes < 0) {
    fail(definition, `option "maxResponseBytes" must be a non-negative integer, got ${JSON.stringify(maxBytes)}`);
  }
  const settings: CallSettings = {
    baseFetch: opts.fetch as FetchFunction | undefined,
    maxBytes,
    policy: retryPolicy(definition.name, opts.retry),
    deduplicated: new Set(definition.deduplicated ?? []),
    timeoutMs: timeoutOption(definition.name, opts.timeoutMs, DEFAULT_TIMEOUT_MS),
  };
  const { auth } = definition;
  // A fixed credential is set by the requests this client builds (see DeferredRequest), not by a middleware.
  let fixed: { header: string; value: string } | undefined;
  let credentialFunction: (() => unknown) | undefined;
  if (auth.kind !== "none") {
    const { option, header } = auth;
    const credential = opts[option];
    if (credential === undefined || credential === null) {
      fail(
        definition,
        `missing option "${option}" (${auth.kind === "bearer" ? "the bearer access token" : `the API key, sent as ${header}`}, or a function returning it)`,
      );
    }
    const prefix = auth.kind === "bearer" ? "Bearer " : "";
    if (typeof credential === "function") credentialFunction = credential as () => unknown;
    // A fixed credential is checked once, here; setting it needs no await, and so no middleware.
    else fixed = { header, value: prefix + checkCredential(definition, option, credential, "is") };
  }
  const client = createClient<Paths>({
    baseUrl,
    fetch: opts.fetch as CommonOptions["fetch"],
    headers: opts.headers as HeadersOptions | undefined,
    Request: (fixed ? deferredWith(fixed.header, fixed.value) : DeferredRequest) as unknown as typeof Request,
    // openapi-fetch's default serializer, made once instead of on every call (a call's own `querySerializer` still applies).
    querySerializer: createQuerySerializer(),
  });
  if (credentialFunction && auth.kind !== "none") {
    const { option, header } = auth;
    const prefix = auth.kind === "bearer" ? "Bearer " : "";
    const get = credentialFunction;
    // A credential function is called (and awaited) for every request, before the caller's own middleware.
    client.use({
      async onRequest({ request }) {
        const checked = checkCredential(definition, option, await get(), "returned");
        request.headers.set(header, prefix + checked);
        return request;
      },
    });
  }

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

type FetchFunction = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * What openapi-fetch builds for each call instead of a Request (its `Request` option): it keeps the
 * URL, method, headers and body as given, and builds the real Request (a body stream, an
 * AbortSignal) only when something asks for more, such as a middleware reading the body or an
 * injected fetch. Without it a call built two Requests (openapi-fetch's and fetch's own copy), a
 * large share of a call's time against a fast server (docs/adr/0006-client-deadline-and-fetch.md).
 * It passes `instanceof Request`, and
 * every Request member not defined here comes from the real Request.
 */
class DeferredRequest {
  readonly url: string;
  readonly method: string;
  readonly #headers: Headers;
  readonly #init: RequestInit;
  #real: Request | undefined;

  constructor(url: string, init: RequestInit = {}) {
    this.url = url;
    this.method = (init.method ?? "GET").toUpperCase();
    // openapi-fetch builds a new Headers for every call: it is used as it is, not copied.
    this.#headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    // Redirects are the client's to follow (same origin only), never fetch's: see the module header.
    this.#init = { ...init, redirect: "manual" };
  }

  /** openapi-fetch checks what a middleware returns with `instanceof` its Request class: any Request passes. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request;
  }

  static is(value: unknown): value is DeferredRequest {
    return typeof value === "object" && value !== null && #init in value;
  }

  /** The headers to send (the real Request's once it is built). */
  get headers(): Headers {
    return this.#real?.headers ?? this.#headers;
  }

  /** The real Request's signal (fetch's own AbortSignal, following the call's deadline), so that whoever reads it gets an AbortSignal. */
  get signal(): AbortSignal {
    return this.materialize().signal;
  }

  /** The real Request, built once, from the current URL, method, headers and the body given. */
  materialize(): Request {
    this.#real ??= new Request(this.url, { ...this.#init, method: this.method, headers: this.#headers });
    return this.#real;
  }

  /** The signal given, if any (reading `signal` would build the real Request). */
  get initSignal(): AbortSignal | undefined {
    return this.#init.signal ?? undefined;
  }

  /** The body as given (a string for JSON), to send again after a 307/308; undefined when there is none. */
  get bodyInit(): BodyInit | null | undefined {
    return this.#real ? undefined : this.#init.body;
  }

  /** Sends through the global fetch: from the real Request if one was built, else from what was given. */
  send(ext?: RequestInit): Promise<Response> {
    if (this.#real) return globalThis.fetch(this.#real, { ...ext, redirect: "manual" });
    if (ext) return globalThis.fetch(this.url, { ...this.#init, ...ext, redirect: "manual", method: this.method, headers: this.#headers });
    // The init already says `redirect: "manual"`.
    return globalThis.fetch(this.url, { ...this.#init, method: this.method, headers: this.#headers });
  }
}
Object.setPrototypeOf(DeferredRequest.prototype, Request.prototype);

/**
 * The DeferredRequest class of a client with a fixed credential: every request it builds carries the
 * credential header, set over whatever headers the call gave, as a credential middleware would set it
 * before the caller's own middleware; a call pays no middleware for it (openapi-fetch's middleware
 * loop, an id and an await per call).
 */
function deferredWith(header: string, value: string): typeof DeferredRequest {
  return class extends DeferredRequest {
    constructor(url: string, init: RequestInit = {}) {
      super(url, init);
      this.headers.set(header, value);
    }
  };
}
for (const key of Object.getOwnPropertyNames(Request.prototype)) {
  if (key === "constructor" || Object.hasOwn(DeferredRequest.prototype, key) || ["url", "method", "headers"].includes(key)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, key)!;
  Object.defineProperty(
    DeferredRequest.prototype,
    key,
    typeof descriptor.value === "function"
      ? {
          configurable: true,
          writable: true,
          value(this: DeferredRequest, ...args: unknown[]) {
            return (this.materialize() as any)[key](...args);
          },
        }
      : {
          configurable: true,
          get(this: DeferredRequest) {
            return (this.materialize() as any)[key];
          },
        },
  );
}
type RawResult = { data?: unknown; error?: unknown; fault?: ApiError; response: Response };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** As fetch: at most 20 redirects are followed. */
const MAX_REDIRECTS = 20;
/** Headers describing a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/** Sends one request, never following a redirect: the global fetch takes a DeferredRequest's URL and init as they are; an injected fetch gets a real Request. */
function sendOnce(input: Request, ext: RequestInit | undefined, custom: FetchFunction | undefined): Promise<Response> {
  if (!custom && DeferredRequest.is(input)) return input.send(ext);
  const manual: RequestInit = { ...ext, redirect: "manual" };
  return (custom ?? globalThis.fetch)(DeferredRequest.is(input) ? input.materialize() : input, manual);
}

/** A body that may have to go again after a 307/308, taken before the request is sent: the DeferredRequest's own (a string for JSON), else a copy of the stream. */
interface SentBody {
  deferredBody: BodyInit | null | undefined;
  spare: Request | undefined;
}

const NO_BODY: SentBody = { deferredBody: undefined, spare: undefined };

function sentBody(input: Request): SentBody {
  if (DeferredRequest.is(input)) {
    const given = input.bodyInit;
    return given == null ? NO_BODY : { deferredBody: given, spare: undefined };
  }
  return input.body ? { deferredBody: undefined, spare: input.clone() } : NO_BODY;
}

/**
 * Follows the redirects of `response` (the answer to `input`) that stay on its origin, as fetch
 * would (method rewriting, the body again for 307/308); a redirect to another origin is returned as
 * the answer, unfollowed. Called only when the first answer is a redirect.
 */
async function followSameOrigin(
  input: Request,
  ext: RequestInit | undefined,
  custom: FetchFunction | undefined,
  progress: { answers: number },
  first: Response,
  { deferredBody, spare }: SentBody,
): Promise<Response> {
  const deferred = DeferredRequest.is(input) ? input : undefined;
  const hasBody = deferredBody != null || spare !== undefined;
  let replay: BodyInit | null | undefined = deferredBody instanceof ReadableStream ? undefined : deferredBody;
  const signal = ext?.signal ?? (deferred ? deferred.initSignal : input.signal);
  let current = input;
  let response = first;
  for (let hop = 0; hop < MAX_REDIRECTS && REDIRECTS.has(response.status); hop++) {
    const location = response.headers.get("location");
    if (location === null) break;
    let target: URL;
    try {
      target = new URL(location, current.url);
    } catch {
      break;
    }
    if (target.origin !== new URL(current.url).origin) break; // never followed: the 3xx is the answer
    if (target.username !== "" || target.password !== "") break; // fetch refuses such a URL, quoting it: the 3xx is the answer
    const toGet =
      (response.status === 303 && current.method !== "GET" && current.method !== "HEAD") ||
      ((response.status === 301 || response.status === 302) && current.method === "POST");
    const headers = new Headers(current.headers);
    let body: BodyInit | null = null;
    if (toGet) {
      for (const name of BODY_HEADERS) headers.delete(name);
    } else if (hasBody && current.method !== "GET" && current.method !== "HEAD") {
      if (replay == null && !spare) break; // a stream body cannot be sent again: the 307/308 is the answer
      replay ??= await spare!.arrayBuffer();
      body = replay;
    }
    await response.body?.cancel().catch(() => undefined);
    current = new Request(target, { method: toGet ? "GET" : current.method, headers, body, signal, redirect: "manual" });
    response = await sendOnce(current, ext, custom);
    progress.answers++;
  }
  return response;
}

/**
 * The answer with its body bounded: a declared Content-Length over `limit` throws at once (the body
 * is not read); a body without one is cut off with a ResponseTooLargeError once it exceeds `limit`.
 * An answer with a declared length within the limit is returned as it is (fetch enforces the length).
 */
function bounded(response: Response, limit: number): Response {
  if (!response.body) return response;
  const declared = response.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    if (Number(declared) <= limit) return response;
    response.body.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(limit);
  }
  let size = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new ResponseTooLargeError(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  const wrapped = new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(wrapped, "url", { value: response.url });
  return wrapped;
}

/** What every call of a client shares. */
interface CallSettings {
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
