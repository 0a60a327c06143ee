/**
 * The control API under `/_sandbox/` (described by ./openapi.yaml, served at
 * `GET /_sandbox/openapi.yaml`): the same for every API, on each sandbox mock's own port. It answers
 * before Prism sees the request (the mock's `intercept` hook). Request bodies are checked against
 * the control document (src/validation/contract.ts) before anything happens; every bad input gets a
 * 4xx problem+json whose `detail` says what is wrong and whose `field` names the member.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { type Doc, loadDocument, responseKey } from "../document/index.js";
import { packageRoot } from "../registry.js";
import { type ContractValidator, validatorForDocument } from "../validation/contract.js";
import { cite } from "../sources.js";
import { type ResourceDeclaration, KINDS } from "./declaration.js";
import { displayUrl, hasUserinfo } from "./delivery.js";
import { ControlError, type ForcedRule, MAX_LATENCY_MS, type SandboxEngine, type StatusMove } from "./engine.js";
import { MoveRefused, movesFrom, type SandboxEvent } from "./lifecycle.js";
import { OPERATOR_HEADER } from "./operator.js";
import { TargetRefused } from "./targets.js";
import { CapacityError, type CredentialState, type DeliveryEntry, LIMITS, LimitError, type StoredRecord } from "./store.js";
import { newId } from "./template.js";

/** The control API's OpenAPI document, shipped with the package. */
export const CONTROL_DOCUMENT = join(packageRoot, "src/sandbox/openapi.yaml");
export const CONTROL_PREFIX = "/_sandbox";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  507: "Insufficient Storage",
};

type Json = any;

interface Route {
  method: string;
  pattern: RegExp;
  operationId: string;
  /** Needs a credential (all but the two descriptive routes). */
  credential: boolean;
}

const ROUTES: Route[] = [
  ["GET", "/openapi.yaml", "getSandboxDocument", false],
  ["GET", "", "getSandbox", false],
  ["GET", "/state", "getState", true],
  ["DELETE", "/state", "resetState", true],
  ["GET", "/state/all", "listStates", true],
  ["DELETE", "/state/all", "resetAllStates", true],
  ["GET", "/resources/([^/]+)/([^/]+)", "getResource", true],
  ["POST", "/resources/([^/]+)/([^/]+)/status", "updateResourceStatus", true],
  ["POST", "/resources/([^/]+)/([^/]+)/actions/([^/]+)", "updateResourceWithAction", true],
  ["GET", "/events", "listEvents", true],
  ["POST", "/events/([^/]+)/resend", "sendEventAgain", true],
  ["GET", "/callbacks", "listCallbacks", true],
  ["PUT", "/callbacks/([^/]+)", "registerCallback", true],
  ["DELETE", "/callbacks/([^/]+)", "deleteCallback", true],
  ["GET", "/deliveries", "listDeliveries", true],
  ["GET", "/clock", "getClock", true],
  ["POST", "/clock/advance", "advanceClock", true],
  ["GET", "/errors", "listErrors", true],
  ["POST", "/errors", "createError", true],
  ["DELETE", "/errors", "deleteErrors", true],
].map(([method, path, operationId, credential]) => ({
  method: method as string,
  pattern: new RegExp(`^${CONTROL_PREFIX}${path}/?$`),
  operationId: operationId as string,
  credential: credential as boolean,
}));

function decode(segment: string, field: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ControlError(400, `the ${field} in the path is not valid percent-encoding`, field);
  }
}

const deliveryView = (entry: DeliveryEntry) => ({
  id: entry.id,
  webhook: entry.webhook,
  resource: entry.resource,
  resource_id: entry.resourceId,
  event: entry.event,
  ...(entry.url === undefined ? {} : { url: entry.url }),
  ...(entry.idempotencyKey === undefined ? {} : { idempotency_key: entry.idempotencyKey }),
  ...(entry.payload === undefined ? {} : { payload: entry.payload }),
  state: entry.state,
  times: entry.times,
  delivered_count: entry.deliveredCount,
  attempts: entry.attempts.map((a) => ({ at: a.at, status: a.status, ...(a.error ? { error: a.error } : {}), duration_ms: a.durationMs })),
  ...(entry.note === undefined ? {} : { note: entry.note }),
  created_at: entry.createdAt,
});

const eventView = (event: SandboxEvent) => ({
  id: event.id,
  type: event.type,
  resource: event.resource,
  resource_id: event.resourceId,
  ...(event.from === undefined ? {} : { from: event.from }),
  to: event.to,
  ...(event.action === undefined ? {} : { action: event.action }),
  cause: event.cause,
  created_at: event.createdAt,
  idempotency_key: event.idempotencyKey,
  webhooks: event.callbacks.map((c) => c.webhook),
  deliveries: event.deliveries,
});

/** One validator of the control document for every sandbox of the process (its schemas compiled once). */
let sharedValidator: { doc: Doc; validator: ContractValidator } | undefined;
function controlValidator(): ContractValidator {
  const doc = loadDocument(CONTROL_DOCUMENT);
  if (sharedValidator?.doc !== doc) sharedValidator = { doc, validator: validatorForDocument("sandbox control API", doc) };
  return sharedValidator.validator;
}

/** LIMITS members that are the operator's settings (options of the sandbox): shown in GET /_sandbox's `settings`, to the operator. */
const OPERATOR_SETTINGS = new Set(["evictIdleSeconds", "memoryBytes", "deliveryQueue", "deliveryQueueTotal"]);
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export class ControlApi {
  private documentText?: string;

  constructor(private readonly engine: SandboxEngine) {}

  /** The control document's validator, made on the first body to check (the document read, its schemas compiled). */
  private get validator(): ContractValidator {
    return controlValidator();
  }

  /** Answers a request under /_sandbox/ and returns true; false for any other request. */
  async handle(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<boolean> {
    const url = new URL(request.url ?? "/", "http://sandbox.invalid");
    if (url.pathname !== CONTROL_PREFIX && !url.pathname.startsWith(`${CONTROL_PREFIX}/`)) return this.transport(request, url);
    try {
      const result = await this.route(request, url, body);
      if (typeof result === "string") {
        response.writeHead(200, { "Content-Type": "application/yaml; charset=utf-8", "Content-Length": Buffer.byteLength(result) });
        response.end(result);
      } else {
        const text = JSON.stringify(result.body);
        response.writeHead(result.status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
        response.end(text);
      }
    } catch (error) {
      const failure =
        error instanceof ControlError
          ? error
          : error instanceof CapacityError
            ? new ControlError(507, error.message)
            : error instanceof LimitError
              ? new ControlError(409, error.message)
              : error instanceof MoveRefused
                ? new ControlError(409, error.message, "status", { allowed: error.allowed, final: error.final })
                : new ControlError(500, `the sandbox failed: ${(error as Error).message}`);
      const problem = {
        type: "about:blank",
        title: REASONS[failure.status] ?? "Internal Server Error",
        status: failure.status,
        detail: failure.message,
        ...(failure.field ? { field: failure.field } : {}),
        ...failure.extra,
      };
      const text = JSON.stringify(problem);
      const headers: Record<string, string | number> = {
        "Content-Type": "application/problem+json",
        "Content-Length": Buffer.byteLength(text),
      };
      if (failure.status === 405) headers.Allow = this.allowed(url.pathname).join(", ");
      response.writeHead(failure.status, headers);
      response.end(text);
    }
    return true;
  }

  private allowed(pathname: string): string[] {
    return ROUTES.filter((r) => r.pattern.test(pathname)).map((r) => r.method);
  }

  private credential(request: IncomingMessage): string {
    // Only the Bearer scheme carries a credential, as on the APIs' own operations (Basic ... is no credential).
    const authorization = request.headers.authorization;
    const headers =
      authorization === undefined || /^bearer\s/i.test(authorization) ? request.headers : { ...request.headers, authorization: undefined };
    const value = this.engine.controlCredential(headers);
    if (!value) {
      throw new ControlError(
        401,
        "the control API acts on one credential's state: send the credential your API requests carry, as Authorization: Bearer <value> or x-api-key: <value>",
      );
    }
    return value;
  }

  private parseBody(request: IncomingMessage, raw: Buffer, operationId: string): Json {
    if (raw.length > LIMITS.controlBodyBytes) throw new ControlError(413, `the body exceeds ${LIMITS.controlBodyBytes} bytes`);
    const type = request.headers["content-type"];
    const essence = type?.split(";")[0].trim().toLowerCase();
    if (raw.length > 0 && essence !== undefined && essence !== "application/json" && !/^application\/[\w.+-]+\+json$/.test(essence)) {
      throw new ControlError(415, `the control API takes application/json bodies, got ${essence}`);
    }
    let body: Json;
    if (raw.length === 0) body = undefined;
    else {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch (error) {
        throw new ControlError(400, `the body is not valid JSON: ${(error as Error).message}`);
      }
    }
    const { violations } = this.validator.validateRequest({ operationId, body, contentType: "application/json" });
    if (violations.length > 0) {
      const first = violations[0];
      const field = first.path.startsWith("$.") ? first.path.slice(2) : undefined;
      const detail = violations.map((v) => (v.path === "$" ? `the body ${v.message}` : `${v.path.slice(2)}: ${v.message}`)).join("; ");
      throw new ControlError(400, detail, field);
    }
    return body;
  }

  private async route(request: IncomingMessage, url: URL, raw: Buffer): Promise<string | { status: number; body: Json }> {
    const method = (request.method ?? "GET").toUpperCase();
    const candidates = ROUTES.filter((r) => r.pattern.test(url.pathname));
    if (candidates.length === 0) {
      throw new ControlError(
        404,
        `no control operation at ${url.pathname}; the control API is described at ${CONTROL_PREFIX}/openapi.yaml`,
      );
    }
    const route = candidates.find((r) => r.method === method || (method === "HEAD" && r.method === "GET"));
    if (!route)
      throw new ControlError(405, `${method} is not allowed on ${url.pathname}; allowed: ${candidates.map((r) => r.method).join(", ")}`);
    const match = route.pattern.exec(url.pathname)!;
    const engine = this.engine;
    if (route.operationId === "getSandboxDocument") {
      this.documentText ??= readFileSync(CONTROL_DOCUMENT, "utf8");
      return this.documentText;
    }
    if (route.operationId === "getSandbox") return { status: 200, body: this.describe(this.asOperator(request)) };
    this.checkQuery(route.operationId, url);
    if (route.operationId === "listStates" || route.operationId === "resetAllStates") return this.overAll(request, url, route.operationId);
    const credential = this.credential(request);
    const body = ["POST", "PUT"].includes(route.method) ? this.parseBody(request, raw, route.operationId) : undefined;
    const state = engine.store.forCredential(credential);
    engine.tick(state, "expiry");
    switch (route.operationId) {
      case "getState":
        return { status: 200, body: this.stateView(state) };
      case "resetState":
        engine.store.reset(credential);
        return { status: 200, body: { reset: 1 } };
      case "getResource": {
        const record = this.record(state, decode(match[1], "resource"), decode(match[2], "id"));
        return { status: 200, body: this.recordView(record) };
      }
      case "updateResourceStatus": {
        const record = this.record(state, decode(match[1], "resource"), decode(match[2], "id"));
        const resource = engine.declaration!.resources[record.resource];
        if (!resource.status) throw new ControlError(400, `${resource.name} has no status to move`, "resource");
        const status: string = body.status;
        if (!engine.allowsStatus(resource, status)) {
          const values = engine.statusValues(resource);
          throw new ControlError(
            400,
            `"${status}" is not a status of ${resource.name}${values ? `; allowed: ${values.join(", ")}` : ` (${resource.schema} does not allow it)`}`,
            "status",
          );
        }
        const move = engine.moveStatus(state, record, status, { cause: "control", deliverTwice: body.deliver_twice === true });
        return { status: 200, body: this.moveView(move) };
      }
      case "updateResourceWithAction": {
        const record = this.record(state, decode(match[1], "resource"), decode(match[2], "id"));
        const resource = engine.declaration!.resources[record.resource];
        const action = decode(match[3], "action");
        const moves = resource.status?.moves ?? {};
        if (!Object.hasOwn(moves, action)) {
          const names = Object.keys(moves);
          throw new ControlError(
            404,
            `${resource.name} has no action "${action}"${names.length > 0 ? `; actions: ${names.join(", ")}` : " (it declares no lifecycle)"}`,
            "action",
          );
        }
        const move = engine.moveStatus(state, record, { action }, { cause: "control", deliverTwice: body?.deliver_twice === true });
        return { status: 200, body: this.moveView(move) };
      }
      case "listEvents": {
        const resourceName = url.searchParams.get("resource");
        const resourceId = url.searchParams.get("resource_id");
        const events = engine.events
          .list(state)
          .filter((e) => (resourceName === null || e.resource === resourceName) && (resourceId === null || e.resourceId === resourceId));
        return { status: 200, body: { events: events.map(eventView) } };
      }
      case "sendEventAgain": {
        const id = decode(match[1], "id");
        const event = engine.events.get(state, id);
        if (!event) throw new ControlError(404, `this credential has no event "${id}"`, "id");
        if (event.callbacks.length === 0) throw new ControlError(409, `event ${id} raised no callback: there is nothing to resend`, "id");
        const busy = state.deliveries.some((d) => event.deliveries.includes(d.id) && d.state === "pending");
        if (busy) throw new ControlError(409, `a delivery of event ${id} is still pending; resend it once it is delivered or failed`, "id");
        const deliveries = event.callbacks.map((callback) => engine.send(state, event, callback));
        return { status: 200, body: { event: eventView(event), deliveries: deliveries.map(deliveryView) } };
      }
      case "listCallbacks":
        return { status: 200, body: { callbacks: this.callbacksView(state) } };
      case "registerCallback": {
        const webhook = this.webhook(decode(match[1], "webhook"));
        const url: string = body.url;
        if (url.length > LIMITS.urlLength) throw new ControlError(400, `url is longer than ${LIMITS.urlLength} characters`, "url");
        const shown = displayUrl(url);
        if (!shown) {
          const redacted = url.slice(0, 100).replace(/\/\/[^/@]*@/, "//");
          throw new ControlError(400, `url must be an absolute http(s) URL, got ${JSON.stringify(redacted)}`, "url");
        }
        if (hasUserinfo(url))
          throw new ControlError(400, "url must not carry a user name or password (the sandbox does not send them)", "url");
        try {
          engine.deliverer.targets.check(url);
        } catch (error) {
          if (error instanceof TargetRefused) throw new ControlError(400, error.message, "url");
          throw error;
        }
        state.callbackUrls.set(webhook, url);
        return { status: 200, body: { webhook, url: shown } };
      }
      case "deleteCallback": {
        const webhook = this.webhook(decode(match[1], "webhook"));
        return { status: 200, body: { reset: state.callbackUrls.delete(webhook) ? 1 : 0 } };
      }
      case "listDeliveries": {
        const webhook = url.searchParams.get("webhook");
        const entries = state.deliveries.filter((d) => webhook === null || d.webhook === webhook);
        return { status: 200, body: { deliveries: entries.map(deliveryView) } };
      }
      case "getClock":
        return { status: 200, body: this.clockView(state) };
      case "advanceClock": {
        const seconds: number = body.seconds;
        if (state.clockOffsetMs / 1000 + seconds > LIMITS.clockOffsetSeconds) {
          throw new ControlError(
            400,
            `the clock would be more than ${LIMITS.clockOffsetSeconds} seconds ahead of the real time, the sandbox's limit; reset the state to start over`,
            "seconds",
          );
        }
        state.clockOffsetMs += seconds * 1000;
        const moves = engine.tick(state, "clock", body.deliver_twice === true);
        return {
          status: 200,
          body: {
            clock: this.clockView(state),
            expired: moves.map((m) => ({
              resource: m.record.resource,
              id: m.record.id,
              ...(m.from === undefined ? {} : { from: m.from }),
              to: m.to,
              deliveries: m.deliveries.map((d) => d.id),
            })),
          },
        };
      }
      case "listErrors":
        return { status: 200, body: { errors: state.errors.map(this.errorView) } };
      case "createError": {
        const operationId: string = body.operation_id;
        const op = engine.operation(operationId);
        if (!op) {
          throw new ControlError(
            400,
            `"${operationId}" is not an operation of ${engine.entry.alias}; operations: ${engine.operations.map((o) => o.operationId).join(", ")}`,
            "operation_id",
          );
        }
        if (body.status === undefined && body.latency_ms === undefined && body.drop !== true) {
          throw new ControlError(400, "say what to force: a status, latency_ms, or drop: true", "status");
        }
        if (body.drop === true && body.status !== undefined)
          throw new ControlError(400, "a dropped connection answers no status: give drop or status, not both", "drop");
        if (state.errors.length >= LIMITS.errorRules) {
          throw new ControlError(
            409,
            `${LIMITS.errorRules} error rules are queued for this credential, the limit; clear them with DELETE /_sandbox/errors`,
          );
        }
        const rule: ForcedRule = {
          id: newId("err_"),
          operationId,
          status: (body.status as number | undefined) ?? 0,
          remaining: (body.count as number | undefined) ?? 1,
          ...(body.retry_after === undefined ? {} : { retryAfter: body.retry_after as number }),
          ...(body.latency_ms === undefined ? {} : { latencyMs: Math.min(MAX_LATENCY_MS, body.latency_ms as number) }),
          ...(body.drop === true ? { drop: true } : {}),
        };
        state.errors.push(rule);
        if (rule.latencyMs || rule.drop) engine.transportArmed = true;
        return { status: 201, body: this.errorView(rule) };
      }
      case "deleteErrors": {
        const n = state.errors.length;
        state.errors = [];
        return { status: 200, body: { reset: n } };
      }
    }
    throw new ControlError(404, `no control operation ${route.operationId}`);
  }

  /** The query parameters against the control document (their schemas' limits): 400 naming the parameter. */
  private checkQuery(operationId: string, url: URL): void {
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name] ??= value;
    const { violations } = this.validator.validateRequest({ operationId, params: { query }, body: undefined });
    const wrong = violations.filter((v) => v.in === "query");
    if (wrong.length > 0) {
      throw new ControlError(400, wrong.map((v) => `${v.path.slice("query.".length)}: ${v.message}`).join("; "), wrong[0].path.slice(6));
    }
  }

  /**
   * Whether a call carries the operator's token (GET /_sandbox then shows the operator's settings);
   * a token that does not match answers 401, as the operations over every credential do.
   */
  private asOperator(request: IncomingMessage): boolean {
    const given = request.headers[OPERATOR_HEADER];
    const operator = this.engine.operator;
    if (given === undefined || !operator) return false;
    if (!operator.matches(given)) throw new ControlError(401, `the token in ${OPERATOR_HEADER} is not the sandbox operator's`);
    return true;
  }

  /**
   * The operations over every credential: absent (404) unless the sandbox has an operator token,
   * then only for a call that carries it (401 otherwise, the same answer for a wrong or missing one).
   */
  private overAll(request: IncomingMessage, url: URL, operationId: string): { status: number; body: Json } {
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
    const store = this.engine.store;
    if (operationId === "resetAllStates") return { status: 200, body: { reset: store.reset() } };
    return {
      status: 200,
      body: {
        credentials: store.all().map((s) => ({
          credential: s.label,
          records: s.count,
          clock_offset_seconds: Math.round(s.clockOffsetMs / 1000),
          errors: s.errors.length,
          deliveries: s.deliveries.length,
        })),
      },
    };
  }

  /** The error statuses (400-599) an operation declares; a range (`4XX`) or `default` stands for each status it covers. */
  errorStatuses(operationId: string): number[] {
    const op = this.engine.operation(operationId);
    if (!op) return [];
    const out: number[] = [];
    for (let status = 400; status <= 599; status++) {
      const key = responseKey(op, status);
      if (key === undefined) continue;
      if (key === String(status) || /^[45]XX$/i.test(key) || key === "default") {
        // Name the codes a partner can expect: exact ones, and for a range or default only the common ones.
        if (key === String(status) || [400, 401, 403, 404, 409, 422, 429, 500, 502, 503].includes(status)) out.push(status);
      }
    }
    return out;
  }

  private webhook(name: string): string {
    const engine = this.engine;
    const names = Object.keys(engine.doc.webhooks ?? {});
    if (!names.includes(name)) {
      throw new ControlError(
        404,
        `${engine.entry.alias} has no webhook "${name}"${names.length > 0 ? `; webhooks: ${names.join(", ")}` : " (it declares none)"}`,
        "webhook",
      );
    }
    for (const resource of Object.values(engine.declaration?.resources ?? {})) {
      const rule = resource.callbacks.find((c) => c.webhook === name);
      if (rule && !JSON.stringify(rule.url).includes("$callbackUrl")) {
        throw new ControlError(
          400,
          `the URL of ${name} is not registered in a dashboard: the sources say it comes from ${JSON.stringify(rule.url)} (${cite(rule.source)}); set it through the API`,
          "webhook",
        );
      }
    }
    return name;
  }

  private record(state: CredentialState, resourceName: string, id: string): StoredRecord {
    const resources = this.engine.declaration?.resources ?? {};
    const resource: ResourceDeclaration | undefined = resources[resourceName];
    if (!resource) {
      const known = Object.keys(resources);
      throw new ControlError(
        404,
        `${this.engine.entry.alias} has no sandbox resource "${resourceName}"${known.length > 0 ? `; resources: ${known.join(", ")}` : " (it has no sandbox declaration)"}`,
        "resource",
      );
    }
    const record = resource.singleton ? this.engine.singleton(state, resource.name) : state.get(resource.name, id);
    if (!record || record.id !== id) throw new ControlError(404, `this credential has no ${resource.name} "${id}"`, "id");
    return record;
  }

  private recordView(record: StoredRecord) {
    const resource = this.engine.declaration!.resources[record.resource];
    const status = resource.status ? record.data[resource.status.field] : undefined;
    const expires =
      record.expiresAt !== undefined && resource.expiry?.from.includes(status) ? new Date(record.expiresAt).toISOString() : undefined;
    return {
      resource: record.resource,
      id: record.id,
      ...(typeof status === "string" ? { status } : {}),
      ...(expires ? { expires_at: expires } : {}),
      data: this.engine.view(record),
    };
  }

  private moveView(move: StatusMove) {
    const resource = this.engine.declaration!.resources[move.record.resource];
    return {
      record: this.recordView(move.record),
      ...(move.from === undefined ? {} : { from: move.from }),
      to: move.to,
      changed: move.changed,
      ...(move.event ? { event: eventView(move.event) } : {}),
      deliveries: move.deliveries.map(deliveryView),
      ...(resource.status?.moves ? { next_actions: movesFrom(resource, move.to).map((m) => ({ action: m.name, to: m.to })) } : {}),
    };
  }

  private clockView(state: CredentialState) {
    return { now: new Date(state.now()).toISOString(), offset_seconds: Math.round(state.clockOffsetMs / 1000) };
  }

  private callbacksView(state: CredentialState) {
    return [...state.callbackUrls].map(([webhook, url]) => ({ webhook, url: displayUrl(url) ?? "" }));
  }

  private errorView = (rule: ForcedRule) => ({
    id: rule.id,
    operation_id: rule.operationId,
    ...(rule.status > 0 ? { status: rule.status } : {}),
    remaining: rule.remaining,
    ...(rule.retryAfter === undefined ? {} : { retry_after: rule.retryAfter }),
    ...(rule.latencyMs === undefined ? {} : { latency_ms: rule.latencyMs }),
    ...(rule.drop ? { drop: true } : {}),
  });

  /**
   * A request of the API itself: a queued latency is waited (then the request goes on) and a queued
   * drop closes the connection without an answer. Costs nothing while no such rule is queued.
   */
  private async transport(request: IncomingMessage, url: URL): Promise<boolean> {
    const engine = this.engine;
    const rule = engine.transportRule(request.method ?? "GET", url.pathname, request.headers, Object.fromEntries(url.searchParams));
    if (!rule) return false;
    if (rule.latencyMs) await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
    if (rule.drop) {
      request.socket.destroy();
      return true;
    }
    return false;
  }

  private stateView(state: CredentialState) {
    const resources: Record<string, unknown[]> = {};
    for (const name of Object.keys(this.engine.declaration?.resources ?? {})) {
      const records = state.list(name);
      if (records.length > 0) resources[name] = records.map((r) => this.recordView(r));
    }
    return {
      credential: state.label,
      clock: this.clockView(state),
      resources,
      callbacks: this.callbacksView(state),
      errors: state.errors.map(this.errorView),
      deliveries: state.deliveries.length,
    };
  }

  /**
   * GET /_sandbox: the declaration and the API's operations, as the control document's
   * SandboxDescription; the operator's settings (`settings`: the callback allow-list, the eviction
   * window, the queue bounds, the memory budget) only for a call with the operator's token.
   */
  describe(operator = false) {
    const engine = this.engine;
    const declaration = engine.declaration;
    const resources = Object.values(declaration?.resources ?? {}).map((r) => ({
      name: r.name,
      source: cite(r.source),
      ...(r.convention ? { convention: r.convention } : {}),
      singleton: r.singleton,
      id_field: r.id.field,
      ...(r.status ? { status_field: r.status.field, initial_status: r.status.initial } : {}),
      ...(r.status && engine.statusValues(r) ? { statuses: engine.statusValues(r) } : {}),
      ...(r.expiry ? { expiry: { to: r.expiry.to, from: r.expiry.from, source: cite(r.expiry.source) } } : {}),
      ...(r.status?.moves
        ? {
            lifecycle: {
              final: r.status.final ?? [],
              actions: Object.values(r.status.moves).map((m) => ({
                action: m.name,
                from: m.from === "*" ? "*" : m.from,
                to: m.to,
                ...(m.source ? { source: cite(m.source) } : {}),
                ...(m.convention ? { convention: m.convention } : {}),
              })),
            },
          }
        : {}),
      ...(r.testValues.length > 0
        ? {
            test_values: r.testValues.map((v) => ({
              name: v.name,
              action: v.move,
              ...(v.after ? { after_seconds: v.after } : {}),
              description: v.description,
            })),
          }
        : {}),
      callbacks: r.callbacks.map((c) => ({
        webhook: c.webhook,
        when: c.when,
        url: c.url,
        registrable: JSON.stringify(c.url).includes("$callbackUrl"),
        source: cite(c.source),
      })),
    }));
    const operations = engine.operations.map((op) => {
      const declared = declaration?.operations[op.operationId];
      return {
        operation_id: op.operationId,
        method: op.method.toUpperCase(),
        path: op.path,
        sandbox: declared && (KINDS as readonly string[]).includes(declared.kind) ? declared.kind : "static",
        ...(declared ? { resource: declared.resource, source: cite(declared.source) } : {}),
        error_statuses: this.errorStatuses(op.operationId),
      };
    });
    const limits = Object.fromEntries(
      Object.entries(LIMITS)
        .filter(([k]) => !OPERATOR_SETTINGS.has(k))
        .map(([k, v]) => [snake(k), v]),
    );
    const policy = engine.deliverer.policy;
    return {
      alias: engine.entry.alias,
      ...(declaration ? { declaration: relative(packageRoot, declaration.path) } : {}),
      resources,
      operations,
      webhooks: Object.keys(engine.doc.webhooks ?? {}),
      limits,
      memory: {
        budget_bytes: engine.store.budget.limit,
        used_bytes: engine.store.budget.used,
        credentials: engine.store.size,
        queued_callbacks: engine.deliverer.queued(),
      },
      sharing: {
        mode: engine.deliverer.targets.describe().mode,
        operator_token: engine.operator !== undefined,
      },
      ...(operator
        ? {
            settings: {
              callback_allow: engine.deliverer.targets.describe().callback_allow,
              memory_budget_bytes: engine.store.budget.limit,
              evict_idle_seconds: engine.store.evictIdleSeconds,
              delivery_queue: engine.deliverer.queue.perCredential,
              delivery_queue_total: engine.deliverer.queue.total,
            },
          }
        : {}),
      retry: {
        attempts: policy.attempts,
        base_delay_ms: policy.baseDelayMs,
        max_delay_ms: policy.maxDelayMs,
        timeout_ms: policy.timeoutMs,
      },
    };
  }
}
