/**
 * The types the mock's stages share (receive, route, judge, answer, write: see server.ts), and the
 * one interface another layer attaches through (MockHooks, implemented by the sandbox). This module
 * imports nothing from the mock, so that every other module of src/mock can import it without a
 * circle.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { getHttpOperationsFromSpec, IHttpRequest } from "@stoplight/prism-http";

/** An operation (path x method) as Prism reads it from a spec. */
export type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

export type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };

/** Prism's router, its `route` component: the operation a request goes to, by score. */
export type RouteFunction = (options: { resources: Operation[]; input: IHttpRequest }) => Either<Error, Operation>;

/** A finding as Prism's validators report it (IPrismDiagnostic); severity 0 Error, 1 Warning, 2 Information, 3 Hint. */
export interface Diagnostic {
  path?: string[];
  code?: string | number;
  message: string;
  severity: number;
  tags?: string[];
}

/** Prism's ProblemJsonError: a problem+json answer as an Error. */
export interface ProblemError extends Error {
  status?: number;
  detail?: string;
  additional?: { headers?: Record<string, string>; validation?: unknown[] };
}

/** A request's body as received. */
export interface RawBody {
  /** False when the request has no body framing at all (Prism then sees `body: null`). */
  present: boolean;
  bytes: Buffer;
}

/** What the server adds to Prism's request object: the body's size in bytes. */
export const BODY_BYTES = Symbol("bodyBytes");

/**
 * What the server adds for a large body judged by its worker (judge.ts): the operation it was
 * judged against and the findings; the body itself may have stayed in the worker.
 */
export const JUDGED = Symbol("judged");

/** The request as Prism's components see it (IHttpRequest), with the body's size. */
export interface Element {
  method: string;
  url: { path: string; baseUrl?: string; query?: Record<string, string | string[]> };
  /** Node's request headers: names in lower case. */
  headers?: Record<string, string | string[] | undefined>;
  body?: unknown;
  [BODY_BYTES]?: number;
  [JUDGED]?: { operation: Operation | undefined; findings: Diagnostic[] | undefined };
}

/** An answer of Prism's, as the mock sends it and the fast path keeps it per kind of request. */
export interface Answer {
  status: number;
  /** Headers in the order Prism's answer sets them. */
  headers: Array<[string, string]>;
  /** The body bytes; undefined when they are rebuilt per request (`listsFindings`). */
  body: Buffer | undefined;
  /** A problem+json answer (no `sl-violations` header). */
  problem: boolean;
  /** Prism's 422 problem whose body lists the request's findings. */
  listsFindings: boolean;
  /** Prism's findings on its own answer (the example against the response schema), prefixed "response". */
  outputFindings: Diagnostic[];
  /** The body Prism chose (the example), for an `answer` hook. */
  example: unknown;
}

/** What Prism's pipeline (`prism.request`) gives for a request. */
export type PrismResult = Either<
  ProblemError,
  {
    output: { statusCode: number; headers?: Record<string, string>; body?: unknown };
    validations: { input: Diagnostic[]; output: Diagnostic[] };
  }
>;

/** One entry of the `sl-violations` header and of a problem body's `validation` list. */
export interface Violation {
  location: string[];
  severity: string;
  code: string | number | undefined;
  message: string;
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
 * The one interface through which another layer (the stateful sandbox, src/sandbox/index.ts)
 * attaches to the mock; every member is optional:
 * - `intercept` sees every request first (with its raw body) and answers the ones it owns (the
 *   sandbox's control API under `/_sandbox/`), returning true; Prism never sees those;
 * - `answer` runs after Prism judged a request valid and chose a 2xx answer, and may replace that
 *   answer (status, headers, body). Prism's judgement of the request (401, 404, 405, 415, 422 with
 *   its violations...) is never replaced. `validateAnswer` checks the replacement against the
 *   operation's response schema; its findings go to `sl-violations` as Prism reports its own.
 * With an `answer` hook the response cache is off: answers depend on state, not only on the request.
 * The fast path calls the hooks as Prism's pipeline does.
 * - `maxBodyBytes`: the largest body (its JSON size) `answer` is handed. A valid body judged by the
 *   worker (over LARGE_BODY_BYTES, judge.ts) that is larger stays in the worker and `answer` gets a
 *   WithheldBody in its place (the sandbox refuses to keep it): the answering thread never takes in
 *   more than this (default: any body).
 */
export interface MockHooks {
  intercept?(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<boolean> | boolean;
  /** Whether `intercept` may answer this request (a cheap test of its target); false: it is not asked. Default: true. */
  mayIntercept?(request: IncomingMessage): boolean;
  answer?(request: JudgedRequest): Promise<HookAnswer | undefined> | HookAnswer | undefined;
  validateAnswer?(operation: Operation, answer: HookAnswer): Violation[];
  maxBodyBytes?: number;
}

/** In place of a valid body over MockHooks.maxBodyBytes: its JSON size, the body itself left in the worker. */
export class WithheldBody {
  constructor(readonly bytes: number) {}
}
