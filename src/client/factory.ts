/**
 * The shared runtime behind every generated `create<Service>Client`: it picks the base URL (given,
 * or built from the spec's server template for an environment), sets the credential header (a
 * fixed one as its requests are built, a function's by middleware) and records each response's
 * operation for `unwrap`/ApiError. The generated client.ts files only pass their data (servers,
 * auth) and their `paths` type to `createApiClient`.
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
 *
 * Its parts: types.ts (the types), options.ts (the options checked once), deferred-request.ts (the
 * request openapi-fetch builds), transport.ts (one attempt: redirects, the body bound), call.ts (a
 * call's attempts and the client's methods). This module puts them together.
 */
import createClient, { createQuerySerializer, type HeadersOptions } from "openapi-fetch";
import { type CallSettings, guardedClient } from "./call.js";
import { DeferredRequest, deferredWith } from "./deferred-request.js";
import { baseUrlOf, credentialOf, fail } from "./options.js";
import { DEFAULT_TIMEOUT_MS, retryPolicy, timeoutOption } from "./retry.js";
import type { ApiClient, ApiDefinition, CommonOptions, FetchFunction } from "./types.js";

export { baseUrlOf } from "./options.js";
export type {
  ApiClient,
  ApiDefinition,
  ApiResult,
  AuthDefinition,
  ClientOptions,
  ClientTarget,
  CommonOptions,
  Credential,
  CredentialOptions,
  FaultResult,
  ServerDefinition,
  ServerVariable,
  ServerVariables,
} from "./types.js";

/** Default of `maxResponseBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** What every call of the client shares, from its options: the fetch, the body bound, the retry policy, the time limit. */
function callSettings(definition: ApiDefinition, opts: Record<string, unknown>): CallSettings {
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof maxBytes !== "number" || !Number.isInteger(maxBytes) || maxBytes < 0) {
    fail(definition, `option "maxResponseBytes" must be a non-negative integer, got ${JSON.stringify(maxBytes)}`);
  }
  return {
    baseFetch: opts.fetch as FetchFunction | undefined,
    maxBytes,
    policy: retryPolicy(definition.name, opts.retry),
    deduplicated: new Set(definition.deduplicated ?? []),
    timeoutMs: timeoutOption(definition.name, opts.timeoutMs, DEFAULT_TIMEOUT_MS),
  };
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
  const settings = callSettings(definition, opts);
  // A fixed credential is set by the requests this client builds (see DeferredRequest), not by a middleware.
  const { fixed, middleware } = credentialOf(definition, opts);
  const client = createClient<Paths>({
    baseUrl,
    fetch: opts.fetch as CommonOptions["fetch"],
    headers: opts.headers as HeadersOptions | undefined,
    Request: (fixed ? deferredWith(fixed.header, fixed.value) : DeferredRequest) as unknown as typeof Request,
    // openapi-fetch's default serializer, made once instead of on every call (a call's own `querySerializer` still applies).
    querySerializer: createQuerySerializer(),
  });
  if (middleware) client.use(middleware);
  return guardedClient(client, settings);
}
