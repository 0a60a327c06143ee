/**
 * DeferredRequest: what openapi-fetch builds for each call instead of a Request, so that a call
 * builds one real Request at most (none when nothing but the global fetch needs it), and, for a
 * client with a fixed credential, its class that sets the credential header as each request is built.
 */

/**
 * What openapi-fetch builds for each call instead of a Request (its `Request` option): it keeps the
 * URL, method, headers and body as given, and builds the real Request (a body stream, an
 * AbortSignal) only when something asks for more, such as a middleware reading the body or an
 * injected fetch. Without it a call built two Requests (openapi-fetch's and fetch's own copy). It
 * passes `instanceof Request`, and every Request member not defined here comes from the real Request.
 */
export class DeferredRequest {
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
    // Redirects are the client's to follow (same origin only), never fetch's: see factory.ts's header.
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
export function deferredWith(header: string, value: string): typeof DeferredRequest {
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
