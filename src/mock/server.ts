/**
 * The mock's HTTP layer: a plain `node:http` server in front of Prism's engine (`createInstance`
 * from @stoplight/prism-http).
 *
 * The request handling is a port of @stoplight/prism-http-server 5.12 (`createServer`, which uses
 * micri): same input to Prism, same `sl-violations` header, same problem+json for routing and
 * preference errors, same 400 for unparseable JSON (the operation's own 400 where it declares one:
 * DEVIATIONS invalidJson). Prism judges every request: its security check
 * and request validation are validate.ts (Prism's own checks, compiled once per operation), its
 * mocker chooses every answer.
 *
 * A request goes through named stages, each a function of the server's context (context.ts) that a
 * test can run alone, as Fastify's request lifecycle names its hooks:
 * 1. receive (receive.ts): read the body within its bound; refuse an unreadable one (413, 400);
 * 2. intercept: the attached layer (the sandbox's control API, MockHooks) may answer it;
 * 3. route (route.ts): the request as Prism sees it, and its operation where the fast path decides;
 * 4. judge (judge.ts): decode the body (a large one in the worker) and find what Prism's checks
 *    find (validate.ts);
 * 5. answer (answer.ts): from the fast path, the sandbox's `answer` hook, or Prism's pipeline;
 * 6. write (write.ts): the headers in prism-http-server's order, `sl-violations`, the body.
 *
 * What differs from prism-http-server is where the time goes:
 * - the fast path (fast-path.ts): a request of a kind Prism has already answered (same operation,
 *   `Accept` and outcome of the validation) gets Prism's answer to that kind again, with its own
 *   findings; the first request of each kind, and any request that chooses its answer (`Prefer`),
 *   goes through Prism's pipeline;
 * - Prism's logger is a no-op object; faker, json-schema-faker, the forwarder's HTTP client and
 *   the converters of other spec formats load on first use (lazy-modules.ts); Prism's routing
 *   result is kept per method, path and server URL (route.ts);
 * - a request that the fast path does not take, whose method, URL, headers and body bytes equal an
 *   earlier one's, gets that earlier answer replayed (response-cache.ts).
 * Deliberate differences from stock Prism (DEVIATIONS in validate.ts): CORS without credentials,
 * `Allow` on 405, 406 for a malformed `Accept`, 413 sent before the connection closes (at once for
 * a declared length), JSON nesting bounded, `sl-violations` escaped where a header cannot carry a
 * character, findings capped, those of validate.ts (members a body's schema does not name reported as
 * warnings), unparseable JSON answered with the operation's declared 400, and a generated answer (`Prefer: dynamic=true`) that fails the
 * response's own schema replaced by the static answer (the example), where stock Prism sends it
 * with the violations. tests/e2e/fuzz/equivalence.test.ts checks every answer against the stock
 * Prism server's.
 */
import "./lazy-modules.js"; // first: before anything loads Prism
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createInstance, getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { answerRequest } from "./answer.js";
import type { Exchange, MockContext } from "./context.js";
import { createFastPath } from "./fast-path.js";
import { decodeHere, judgeLarge } from "./judge.js";
import { LARGE_BODY_BYTES } from "./limits.js";
import { type ConnectionGuards, guardConnections, guardedServerOptions } from "./listen.js";
import { mockConfig, silentLogger } from "./prism.js";
import { BodyError, readBody, refuseBody } from "./receive.js";
import { ResponseCache } from "./response-cache.js";
import { createRouter, fastRoute, requestElement } from "./route.js";
import type { Element, MockHooks, Operation, RawBody } from "./types.js";
import { components } from "./validate.js";
import { corsPairs, isPreflight, sendBodyError, writePreflight, writeProblem } from "./write.js";

export { MAX_LISTED_VIOLATIONS } from "./limits.js";
export { requestElement } from "./route.js";
export type { HookAnswer, JudgedRequest, MockHooks, Operation, Violation } from "./types.js";

/** The operations of a spec file (paths x methods), as Prism reads them. */
export function loadOperations(specPath: string): Promise<Operation[]> {
  return getHttpOperationsFromSpec(specPath);
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

/** The context the stages of one server share; `cache: false` turns the response cache off. */
export function createContext(
  operations: Operation[],
  { cache = true, hooks = {} }: { cache?: boolean; hooks?: MockHooks } = {},
): MockContext {
  const router = createRouter(operations);
  const prism = createInstance(mockConfig as never, {
    logger: silentLogger as never,
    route: router.prism as never,
    validateInput: components.validateInput as never,
    validateSecurity: components.validateSecurity as never,
  });
  return {
    operations,
    hooks,
    router,
    prism,
    fast: createFastPath(operations, router.prism),
    responses: cache && !hooks.answer ? new ResponseCache() : undefined,
    counts: { fast: 0, prism: 0, cache: 0 },
    judge: undefined,
  };
}

/**
 * A request's way through the mock: a CORS preflight is answered at once; any other request is
 * received, then handed to the stages that follow (`afterReceive`). Answers synchronously on the
 * fast path, through a promise where a hook, the worker or Prism is waited for.
 */
export function handle(context: MockContext, request: IncomingMessage, response: ServerResponse): void {
  if (isPreflight(request)) {
    writePreflight(request, response);
    return;
  }
  readBody(request, (error, raw) => {
    if (error) {
      refuseBody(request, response, error);
      return;
    }
    const exchange: Exchange = { request, response, raw: raw! };
    try {
      afterReceive(context, exchange)?.catch((failure: Error) => failed(exchange, failure));
    } catch (failure) {
      failed(exchange, failure as Error);
    }
  });
}

/** Stages 2 to 6 for a received request: intercept, route, judge, answer (and write). */
export function afterReceive(context: MockContext, exchange: Exchange): Promise<void> | undefined {
  const { intercept, mayIntercept } = context.hooks;
  if (intercept && (mayIntercept?.(exchange.request) ?? true)) {
    return (async () => {
      // What the hook answers (the control API) carries the CORS headers every other answer has, so a
      // page (the docs' request console) can read it; a request the hook passes gets them later.
      const cors = corsPairs(exchange.request);
      for (const [name, value] of cors) exchange.response.setHeader(name, value);
      if (await intercept(exchange.request, exchange.response, exchange.raw.bytes)) return;
      for (const [name] of cors) exchange.response.removeHeader(name);
      await routeJudgeAnswer(context, exchange);
    })();
  }
  return routeJudgeAnswer(context, exchange);
}

/** Stages 3 to 6: route, judge, answer; synchronous where no stage waits. */
function routeJudgeAnswer(context: MockContext, exchange: Exchange): Promise<void> | undefined {
  const { request, raw } = exchange;
  const element = requestElement(request.method, request.url, request.headers, raw.bytes.length);
  const operation = fastRoute(context.fast, element);
  if (raw.bytes.length > LARGE_BODY_BYTES) {
    return judgeLarge(context, exchange, element, operation).then((input) => judgedAnswer(context, exchange, input, operation));
  }
  return judgedAnswer(context, exchange, decodeHere(exchange, element, context, operation), operation);
}

/** Stages 5 and 6 for a decoded request, or the 400 of a body that is not JSON. */
function judgedAnswer(
  context: MockContext,
  exchange: Exchange,
  input: Element | BodyError,
  operation: Operation | undefined,
): Promise<void> | undefined {
  if (input instanceof BodyError) {
    sendBodyError(exchange.request, exchange.response, input);
    return;
  }
  return answerRequest(context, exchange, input, operation);
}

/** A stage failed: a 500 problem if nothing was sent yet, else the connection is ended. */
function failed({ request, response }: Exchange, error: Error): void {
  if (!response.headersSent) writeProblem(request, response, error);
  else response.destroy(error);
}

/** One request once its answer ended (sent whole, or the client gone): what a hosted sandbox logs and counts. */
export interface ObservedRequest {
  request: IncomingMessage;
  status: number;
  /** From the request's arrival to the end of its answer. */
  seconds: number;
  /** The operation Prism routes the request to; undefined where none (404, 405, the control API). */
  operationId: string | undefined;
  /** True when the connection closed before the answer was sent whole. */
  aborted: boolean;
}

export interface PrismServerOptions {
  /** `false` turns the response cache off. */
  cache?: boolean;
  hooks?: MockHooks;
  /** Caps and timeouts of the connections (hosted mode); Node's defaults without. */
  guards?: ConnectionGuards;
  /** Called once per request when its answer ends (hosted mode's log and metrics); nothing is measured without. */
  observe?(done: ObservedRequest): void;
}

/** The operation a request goes to, as Prism's router (its results kept) finds it, for an observer. */
function operationOf(context: MockContext, request: IncomingMessage): string | undefined {
  try {
    const iid = context.router.operation(requestElement(request.method, request.url, request.headers, 0))?.iid; // Prism's operationId
    return iid === undefined ? undefined : String(iid);
  } catch {
    return undefined;
  }
}

/** The request listener: `handle`, with the observer told of each request's end when there is one. */
function listener(context: MockContext, observe: PrismServerOptions["observe"]) {
  if (!observe) return (request: IncomingMessage, response: ServerResponse) => handle(context, request, response);
  return (request: IncomingMessage, response: ServerResponse) => {
    const start = process.hrtime.bigint();
    response.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const aborted = !response.writableFinished;
      observe({ request, status: response.statusCode, seconds, operationId: operationOf(context, request), aborted });
    });
    handle(context, request, response);
  };
}

/** A server answering with Prism for the given operations; `cache: false` turns the response cache off. */
export function createPrismServer(operations: Operation[], options: PrismServerOptions = {}): PrismServer {
  const context = createContext(operations, options);
  const server: Server = createServer(guardedServerOptions(options.guards), listener(context, options.observe));
  if (options.guards) guardConnections(server, options.guards);
  return {
    listen: async (port, host) => {
      // Rejected by an error before "listening", whose listener it then removes.
      await once(server.listen(port, host), "listening");
      const address = server.address();
      return typeof address === "object" && address ? `http://${address.address}:${address.port}` : String(address);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }).finally(() => context.judge?.close()),
    stats: () => ({ ...context.counts, judged: context.judge?.count ?? 0 }),
  };
}

export type { RawBody };
