/**
 * The client runtime's types: what a generated client.ts passes to `createApiClient` (the API's
 * servers, its authentication, its deduplicated operations), the options partners give (a target,
 * a credential, the common options), and the typing of a client and of its calls' results (re-exported
 * by factory.ts and the package's main entry), plus the shapes the runtime's parts pass between
 * them. Imports nothing of the runtime but the types of errors.ts and retry.ts.
 */
import type {
  ClientOptions as FetchClientOptions,
  FetchResponse,
  HeadersOptions,
  MaybeOptionalInit,
  Middleware,
  ParseAs,
} from "openapi-fetch";
import type { ApiError } from "./errors.js";
import type { CallOptions, RetryOptions } from "./retry.js";

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

/** A fetch function as the client calls it: a Request and, maybe, fetch's options for it. */
export type FetchFunction = (input: Request, init?: RequestInit) => Promise<Response>;

/** What one openapi-fetch call (or a fault) gives, before the client types it. */
export type RawResult = { data?: unknown; error?: unknown; fault?: ApiError; response: Response };
