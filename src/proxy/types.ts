/**
 * The proxy's types: what partners see (the options, the server, each exchange and its findings,
 * re-exported by index.ts), what passes between its stages (the upstream's answer, Prism's input and
 * outcome), and ProxyFailure, the one error the proxy answers itself (413, 502, 504). Imports
 * nothing of the proxy: every stage can import it.
 */

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

/** No answer to pass back: the proxy answers itself with `status` and `{ error: message }`. */
export class ProxyFailure extends Error {
  constructor(
    readonly status: 502 | 504 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** The upstream's answer, read whole. */
export interface UpstreamAnswer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

/** A finding as Prism's validators give it. */
export interface Diagnostic {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
}
export type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
/** What Prism's `request` gives: its failure, or the answer with the request's and the response's findings. */
export type Outcome = Either<Error, { output: unknown; validations: { input: Diagnostic[]; output: Diagnostic[] } }>;

/** The request as Prism sees it: a parsed copy of what was received. */
export interface PrismInput {
  method: string;
  url: { path: string; baseUrl?: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body: unknown;
}

/** The upstream's answer as Prism validates it. */
export interface PrismOutput {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}
