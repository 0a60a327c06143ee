/**
 * The control API under `/_sandbox/` (described by ../openapi.yaml, served at
 * `GET /_sandbox/openapi.yaml`): the same for every API, on each sandbox mock's own port. It answers
 * before Prism sees the request (the mock's `intercept` hook). A call goes through the same steps as
 * every other: routed by the control document's operations (./router.ts), its access checked (the
 * operator's token, or the credential whose state it acts on), its query and body checked against
 * the document (./document.ts) before anything happens, then its operation's handler
 * (./operations/), which reaches the state through the store's one path (./handler.ts `onState`).
 * Every refusal is a problem+json answer (./errors.ts, ../problem.ts) whose `detail` says what is
 * wrong and whose `field` names the member.
 *
 * A request of the API itself is the control API's only for a latency or a drop queued for it
 * (POST /_sandbox/errors): a latency is waited (then the request goes on); a drop "before" closes the
 * connection without an answer before the request is processed, a drop "after" lets it be processed
 * (Prism's judgement, the engine's change) and closes the connection in place of writing its answer.
 *
 * In hosted mode (../hosting.ts) every request of the API passes the credential gate first
 * (./gate.ts); a control call that acts on a credential's state needs an issued credential within
 * its partner's rate (401 and 429 otherwise), and the partners' and the metrics' routes exist there
 * only, for the operator's token (404 naming hosted mode elsewhere).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { violationsHeader } from "../../mock/write.js";
import type { EngineContext } from "../engine/context.js";
import { queuedTransport } from "../engine/forced.js";
import { controlCredential } from "../engine/resolve.js";
import type { HostedSandbox } from "../hosting.js";
import { OPERATOR_HEADER } from "../operator.js";
import { PROBLEM_TYPE, type SandboxAnswer } from "../problem.js";
import { credentialKey } from "../store/state.js";
import { StoreUnavailable } from "../store/store.js";
import { CONTROL_PREFIX, checkQuery, controlDocument, parseBody } from "./document.js";
import { ControlError, problemOf } from "./errors.js";
import { gate, UNREADABLE } from "./gate.js";
import { type ControlCall, type ControlHandler, type ControlResult, paramReader } from "./handler.js";
import { HANDLERS } from "./operations/index.js";
import { allowedAt, type ControlRoute, controlRoutes, routeOf } from "./router.js";

export { CONTROL_DOCUMENT, CONTROL_PREFIX } from "./document.js";

const BY_OPERATION = new Map(HANDLERS.map((handler) => [handler.operationId, handler]));

/** The methods whose control calls carry a body. */
const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

export class ControlApi {
  private routes?: ControlRoute[];
  /** Hosted mode: the headers of each request the gate admitted (only such a request is answered from state). */
  readonly admitted = new WeakSet<object>();

  constructor(
    private readonly engine: EngineContext,
    private readonly hosted?: HostedSandbox,
  ) {}

  /** The routes of the control document, made on the first control call. */
  private controlRoutes(): ControlRoute[] {
    return (this.routes ??= controlRoutes(controlDocument()));
  }

  /** Answers a request under /_sandbox/ and returns true; for any other request, applies a queued latency or drop. */
  async handle(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<boolean> {
    const url = new URL(request.url ?? "/", "http://sandbox.invalid");
    if (url.pathname !== CONTROL_PREFIX && !url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      if (this.hosted) {
        const decided = await gate(this.engine, this.hosted, request, url);
        if (!decided.pass) {
          const { answer, violations } = decided;
          const extra = violations.length > 0 ? { "sl-violations": violationsHeader(violations) } : undefined;
          writeAnswer(response, answer, extra);
          return true;
        }
        if (decided.admitted) this.admitted.add(request.headers);
      }
      return this.transport(request, response, url);
    }
    try {
      const result = await this.call(request, url, body);
      if ("text" in result) write(response, result.status, result.contentType, result.text);
      else write(response, result.status, "application/json", JSON.stringify(result.body));
    } catch (error) {
      const hosted = this.hosted;
      const problem = problemOf(error, hosted && ((cause) => hosted.failed(this.engine.entry.alias, cause)));
      const allow = problem.status === 405 ? { Allow: allowedAt(this.controlRoutes(), url.pathname).join(", ") } : undefined;
      writeAnswer(response, problem, allow);
    }
    return true;
  }

  /** A control call: routed, its access and input checked, then its handler. */
  private async call(request: IncomingMessage, url: URL, raw: Buffer): Promise<ControlResult> {
    const method = (request.method ?? "GET").toUpperCase();
    const { route, segments } = routeOf(this.controlRoutes(), method, url.pathname, `${CONTROL_PREFIX}/openapi.yaml`);
    const handler: ControlHandler | undefined = BY_OPERATION.get(route.operationId);
    if (!handler) throw new ControlError(404, `no control operation ${route.operationId}`);
    const call: ControlCall = {
      engine: this.engine,
      hosted: this.hosted,
      request,
      url,
      body: undefined,
      key: "",
      param: paramReader(segments),
    };
    if (handler.access === "public") return handler.handle(call);
    checkQuery(route.operationId, url);
    if (handler.access === "hosted" && !this.hosted) {
      throw new ControlError(
        404,
        `no control operation at ${url.pathname}: it exists only in hosted mode (mock --sandbox --hosted), for the sandbox's operator`,
      );
    }
    if (handler.access === "operator" || handler.access === "hosted") {
      this.operatorOnly(request, url);
      if (WITH_BODY.has(route.method)) call.body = parseBody(request.headers["content-type"], raw, route.operationId);
      return handler.handle(call);
    }
    const credential = this.credential(request);
    if (this.hosted) await this.admit(this.hosted, request, credential);
    if (WITH_BODY.has(route.method)) call.body = parseBody(request.headers["content-type"], raw, route.operationId);
    call.key = credentialKey(credential);
    return handler.handle(call);
  }

  /** The credential of a call (its state is the one the call acts on); 401 without one. */
  private credential(request: IncomingMessage): string {
    // Only the Bearer scheme carries a credential, as on the APIs' own operations (Basic ... is no credential).
    const authorization = request.headers.authorization;
    const headers =
      authorization === undefined || /^bearer\s/i.test(authorization) ? request.headers : { ...request.headers, authorization: undefined };
    const value = controlCredential(this.engine, headers);
    if (!value) {
      throw new ControlError(
        401,
        "the control API acts on one credential's state: send the credential your API requests carry, as Authorization: Bearer <value> or x-api-key: <value>",
      );
    }
    return value;
  }

  /**
   * Hosted mode: a call on a credential's state needs an issued credential (401 otherwise, and
   * nothing is made for it), within its partner's rate (429 with Retry-After otherwise).
   */
  private async admit(hosted: HostedSandbox, request: IncomingMessage, credential: string): Promise<void> {
    const admission = await hosted.admit(request, credentialKey(credential)).catch(() => {
      throw new StoreUnavailable(UNREADABLE);
    });
    if (admission.outcome === "unissued")
      throw new ControlError(
        401,
        "this credential was not issued by the sandbox's operator, or was revoked: a hosted sandbox serves only the credentials its operator issues (POST /_sandbox/partners)",
      );
    if (admission.outcome === "limited")
      throw new ControlError(429, admission.detail, undefined, undefined, "Sandbox rate limit reached", {
        "Retry-After": String(admission.retryAfterSeconds),
      });
  }

  /**
   * The operations over every credential: absent (404) unless the sandbox has an operator token,
   * then only for a call that carries it (401 otherwise, the same answer for a wrong or missing one).
   */
  private operatorOnly(request: IncomingMessage, url: URL): void {
    const operator = this.engine.operator;
    if (!operator) {
      throw new ControlError(
        404,
        `no control operation at ${url.pathname}: the operations over every credential exist only when the sandbox's operator sets a token (see ${CONTROL_PREFIX}/openapi.yaml)`,
      );
    }
    if (!operator.matches(request.headers[OPERATOR_HEADER])) {
      throw new ControlError(
        401,
        `this operation acts on every credential's state: it needs the sandbox operator's token in ${OPERATOR_HEADER}`,
      );
    }
  }

  /**
   * A request of the API itself: a queued latency is waited (then the request goes on); a queued
   * drop "before" closes the connection at once, a drop "after" once the request is processed,
   * without its answer. Costs nothing while no such rule is queued.
   */
  private async transport(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
    const queued = queuedTransport(
      this.engine,
      request.method ?? "GET",
      url.pathname,
      request.headers,
      Object.fromEntries(url.searchParams),
    );
    const rule = queued instanceof Promise ? await queued : queued;
    if (!rule) return false;
    if (rule.latencyMs) await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
    if (rule.drop === "after") {
      withholdAnswer(request, response);
      return false;
    }
    if (rule.drop) {
      request.socket.destroy();
      return true;
    }
    return false;
  }
}

/**
 * The request goes on (Prism judges it, the engine answers it from state, storing what it creates,
 * synchronously or once a durable store wrote it) and the mock writes its answer through `response`:
 * writing it closes the connection instead, so that nothing of the answer reaches the client.
 */
function withholdAnswer(request: IncomingMessage, response: ServerResponse): void {
  const close = () => {
    request.socket.destroy();
    return response;
  };
  response.write = (() => close() && false) as ServerResponse["write"];
  response.end = close as ServerResponse["end"];
}

/** Writes an answer whole, with its length. */
function write(response: ServerResponse, status: number, contentType: string, text: string, extra?: Record<string, string>): void {
  response.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(text), ...extra });
  response.end(text);
}

/** Writes a problem answer of the sandbox (its headers, its JSON body), with `extra` headers. */
function writeAnswer(response: ServerResponse, answer: SandboxAnswer, extra?: Record<string, string>): void {
  const { "Content-Type": contentType = PROBLEM_TYPE, ...headers } = answer.headers ?? {};
  write(response, answer.status, contentType, JSON.stringify(answer.body), { ...headers, ...extra });
}
