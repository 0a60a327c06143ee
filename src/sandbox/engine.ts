/**
 * The sandbox engine: one per mock instance, generic over the registry. It reads the API's bundled
 * document and its declaration (./declaration.ts) and, for each request Prism judged valid, answers
 * from state instead of the spec's example:
 *
 * 1. the request's credential (the value of the bearer token or API key the operation's security
 *    scheme names) selects its bucket in the store (./store.ts);
 * 2. what is due to expire on that credential's clock expires (with its callbacks);
 * 3. an error status queued for the operation through the control API is answered instead;
 * 4. an operation the declaration covers creates, reads, lists, updates or deletes records, builds
 *    its answer from them (./template.ts), shapes it to the operation's response schema
 *    (./shape.ts); an unknown id gets the not-found answer the operation declares (404);
 * 5. any other operation keeps Prism's answer (the spec's example).
 *
 * Status changes (by an operation, by the control API, by expiry) set what the declaration says and
 * fire its callbacks through ./delivery.ts. Nothing here knows an API: it is all in the declaration.
 */
import {
  type Doc,
  findOperation,
  type Operation,
  operations,
  parsePointer,
  pickMediaContent,
  refPointer,
  requestContents,
  responseContents,
  responseKey,
  securitySchemes,
} from "../document/index.js";
import { admittedTypes, resolveSchema } from "../document/schema.js";
import { STATUS_CODES } from "node:http";
import type { ApiEntry } from "../registry.js";
import { WithheldBody } from "../mock/types.js";
import { type ContractValidator, type ContractViolation, createValidator, validatorForDocument } from "../validation/contract.js";
import { type SpecValidator, sharedSpecValidator } from "../validation/spec.js";
import { type Declaration, type ResourceDeclaration, declarationOf } from "./declaration.js";
import { Deliverer, type RetryPolicy } from "./delivery.js";
import { EventLog, findMove, MoveRefused, newEvent, type SandboxEvent } from "./lifecycle.js";
import { plain, shape } from "./shape.js";
import type { OperatorToken } from "./operator.js";
import { type SharedSandboxOptions, sharedSettings } from "./shared.js";
import { type CredentialState, type DeliveryEntry, type ErrorRule, LIMITS, LimitError, SandboxStore, type StoredRecord } from "./store.js";
import {
  assignMembers,
  copy,
  evaluate,
  fullContext,
  Instant,
  isPlainObject,
  type Json,
  merged,
  newId,
  type TemplateContext,
  toInstant,
} from "./template.js";

export interface SandboxOptions extends SharedSandboxOptions {
  /** Declaration to use instead of `sandbox.yaml` beside the API's root spec. */
  declarationPath?: string;
  /** Registry the API is looked up in when callbacks are sent (default: the package's own). */
  registry?: string;
  /** Callback delivery retries (bounded, see ./delivery.ts). */
  retry?: Partial<RetryPolicy>;
  /** fetch used to deliver callbacks (tests). */
  fetch?: typeof fetch;
}

/** What the mock's HTTP layer gives the engine for a request Prism judged valid. */
export interface SandboxRequest {
  operationId: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The 2xx status Prism chose. */
  status: number;
}

export interface SandboxAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** An sl-violations entry, as Prism writes them. */
export interface AnswerViolation {
  location: string[];
  severity: string;
  code: string | number | undefined;
  message: string;
}

/** A control-API input problem: answered 4xx with the message and the member it concerns. */
export class ControlError extends Error {
  override readonly name = "ControlError";
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** More members of the problem body (e.g. `allowed`: the moves allowed from here). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface StatusMove {
  record: StoredRecord;
  from?: string;
  to: string;
  changed: boolean;
  deliveries: DeliveryEntry[];
  /** The event the change raised (none when nothing changed). */
  event?: SandboxEvent;
}

/**
 * A forced answer queued through the control API (POST /_sandbox/errors): a status (any 400-599,
 * declared by the operation or not), an optional Retry-After, a delay before answering, or a
 * dropped connection.
 */
export type ForcedRule = ErrorRule & { retryAfter?: number; latencyMs?: number; drop?: boolean };

/** The longest latency a forced rule may add to an answer. */
export const MAX_LATENCY_MS = 30_000;

/** Expiry and scheduled moves are never further than the sandbox clock can reach (10 years). */
export const MAX_AHEAD_MS = LIMITS.clockOffsetSeconds * 1000;

interface ScheduledMove {
  record: StoredRecord;
  action: string;
  at: number;
  cause: string;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `$.a.b[0]["c d"]` -> `["a", "b", "0", "c d"]`. */
export function jsonPathTokens(path: string): string[] {
  const tokens: string[] = [];
  const pattern = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.slice(1).matchAll(pattern)) tokens.push(match[1] ?? match[2] ?? JSON.parse(match[3]));
  return tokens;
}

/** Contract violations of an answer in the sl-violations form Prism uses. */
export function toSlViolations(violations: ContractViolation[]): AnswerViolation[] {
  return violations.map((v) => ({
    location: v.in === "body" ? ["response", "body", ...jsonPathTokens(v.path)] : ["response", v.in],
    severity: "Error",
    code: v.keyword ?? (v.in === "status" ? "status" : undefined),
    message: v.message,
  }));
}

function pathMatcher(template: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name) {
        names.push(name);
        return "([^/]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  // A path without parameters matches itself alone: no regular expression, no match to read.
  if (names.length === 0) return (path) => (path === template ? {} : undefined);
  const regex = new RegExp(`^${source}$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1]);
      } catch {
        params[name] = match[i + 1];
      }
    });
    return params;
  };
}

export class SandboxEngine {
  readonly store: SandboxStore;
  /** The operator's token; without one, the operations over every credential do not exist. */
  readonly operator: OperatorToken | undefined;
  readonly declaration: Declaration | undefined;
  readonly deliverer: Deliverer;
  readonly operations: Operation[];
  private readonly validator: ContractValidator;
  private readonly statusChecks: SpecValidator;
  private readonly matchers = new Map<string, (path: string) => Record<string, string> | undefined>();
  private readonly nextExpiry = new WeakMap<CredentialState, number>();
  private readonly answerChecks = new Map<string, ((body: unknown) => boolean) | null>();
  private readonly readers = new WeakMap<CredentialState, Required<Pick<TemplateContext, "resource" | "all" | "recordIndex">>>();
  private readonly scheduled = new WeakMap<CredentialState, ScheduledMove[]>();
  readonly events = new EventLog();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Set once a latency or drop rule has been queued: until then requests are not matched for one. */
  transportArmed = false;
  /** While a request runs: what is sent and logged only if it succeeds (deliveries, events). */
  private deferred?: Array<() => void>;

  constructor(
    readonly entry: ApiEntry,
    readonly doc: Doc,
    options: SandboxOptions = {},
    specPath = entry.bundlePath,
  ) {
    this.statusChecks = sharedSpecValidator(doc); // the contract validator's too: the document is added to Ajv once
    this.declaration = declarationOf(entry, doc, options.declarationPath, this.statusChecks);
    this.operations = operations(doc);
    this.validator = specPath === entry.bundlePath ? createValidator(entry) : validatorForDocument(entry.alias, doc);
    const shared = sharedSettings(options);
    this.operator = shared.operator;
    this.deliverer = new Deliverer({
      alias: entry.alias,
      registry: options.registry,
      retry: options.retry,
      fetch: options.fetch,
      targets: shared.targets,
      queue: shared.queue,
    });
    this.store = new SandboxStore({
      budget: shared.budget,
      evictIdleSeconds: shared.evictIdleSeconds,
      onDrop: (state) => this.deliverer.cancel(state),
    });
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.deliverer.close();
    this.store.reset(); // gives the memory budget back
  }

  operation(operationId: string): Operation | undefined {
    const op = findOperation(this.doc, operationId);
    return op?.section === "paths" ? op : undefined;
  }

  // ---------------------------------------------------------------- credentials

  /** The credential value a request carries for `op` (any scheme the operation accepts); "" when it has none. */
  credentialOf(op: Operation | undefined, headers: SandboxRequest["headers"], query: SandboxRequest["query"] = {}): string {
    const schemes = op ? securitySchemes(this.doc, op) : [];
    for (const scheme of schemes) {
      if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect") {
        const value = first(headers.authorization);
        const space = value?.indexOf(" ") ?? -1;
        if (value && space > 0 && value.slice(space + 1).trim()) return value.slice(space + 1).trim();
      } else if (scheme.type === "apiKey" && scheme.parameter) {
        const value =
          scheme.in === "header"
            ? first(headers[scheme.parameter.toLowerCase()])
            : scheme.in === "query"
              ? first(query[scheme.parameter])
              : undefined;
        if (value) return value;
      }
    }
    return "";
  }

  /** The header names a credential may arrive in on the control API: Authorization and every apiKey header of the API. */
  controlCredential(headers: SandboxRequest["headers"]): string | undefined {
    const authorization = first(headers.authorization);
    const space = authorization?.indexOf(" ") ?? -1;
    if (authorization && space > 0 && authorization.slice(space + 1).trim()) return authorization.slice(space + 1).trim();
    const names = new Set(["x-api-key"]);
    for (const op of this.operations)
      for (const scheme of securitySchemes(this.doc, op))
        if (scheme.type === "apiKey" && scheme.in === "header" && scheme.parameter) names.add(scheme.parameter.toLowerCase());
    for (const name of names) {
      const value = first(headers[name]);
      if (value) return value;
    }
    return undefined;
  }

  // ---------------------------------------------------------------- answers

  /** The answer to a request Prism judged valid, from state; undefined keeps Prism's answer. */
  answer(request: SandboxRequest): SandboxAnswer | undefined {
    const op = this.operation(request.operationId);
    if (!op) return undefined;
    let state: CredentialState;
    try {
      state = this.store.forCredential(this.credentialOf(op, request.headers, request.query));
    } catch (error) {
      if (!(error instanceof LimitError)) throw error;
      return limitAnswer(error);
    }
    this.tick(state, "expiry");
    const forced =
      state.errors.length === 0
        ? undefined
        : (state.errors as ForcedRule[]).find((rule) => rule.operationId === op.operationId && rule.status > 0);
    if (forced) {
      forced.remaining -= 1;
      if (forced.remaining <= 0) state.errors = state.errors.filter((rule) => rule !== forced);
      const answer = this.declaredAnswer(op, forced.status, `forced by the sandbox's control API (error rule ${forced.id})`);
      if (forced.retryAfter !== undefined) answer.headers = { ...answer.headers, "Retry-After": String(forced.retryAfter) };
      return answer;
    }
    const declared = this.declaration?.operations[op.operationId];
    if (!declared) return undefined;
    if (request.body instanceof WithheldBody) {
      return limitAnswer(
        new LimitError(
          `a request body of ${request.body.bytes} bytes exceeds the sandbox's limit of ${LIMITS.recordBytes} bytes per record: it is not kept`,
        ),
      );
    }
    const params: Record<string, unknown> = nestDotted(merged(request.query, this.matcher(op.path)(request.path)));
    try {
      return this.transaction(state, () => {
        const body = this.run(state, op, request.body, params);
        if (body === NOT_FOUND) throw new Rollback(this.declaredAnswer(op, 404));
        if (isRefusal(body)) throw new Rollback(this.refusalAnswer(op, body.status, body.detail));
        return { status: request.status, body: this.shapeAnswer(op, request.status, body) };
      });
    } catch (error) {
      if (error instanceof Rollback) return error.answer;
      if (!(error instanceof LimitError)) throw error;
      return limitAnswer(error);
    }
  }

  /**
   * The latency or drop queued (POST /_sandbox/errors) for the operation a request goes to, used
   * up by this request when it forces no status (a status is used up by `answer`). Undefined at
   * once while no credential has such a rule.
   */
  transportRule(method: string, path: string, headers: SandboxRequest["headers"], query: SandboxRequest["query"]): ForcedRule | undefined {
    if (!this.transportArmed) return undefined;
    const op = this.operations.find((o) => o.method.toUpperCase() === method.toUpperCase() && this.matcher(o.path)(path));
    if (!op) return undefined;
    const state = this.store.peek(this.credentialOf(op, headers, query));
    const rule = (state?.errors as ForcedRule[] | undefined)?.find((r) => r.operationId === op.operationId && (r.latencyMs || r.drop));
    if (!state || !rule) return undefined;
    if (rule.status === 0) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) state.errors = state.errors.filter((r) => r !== rule);
    }
    return rule;
  }

  private matcher(template: string): (path: string) => Record<string, string> | undefined {
    let matcher = this.matchers.get(template);
    if (!matcher) {
      matcher = pathMatcher(template);
      this.matchers.set(template, matcher);
    }
    return matcher;
  }

  /** The findings of the contract validator on an answer, as sl-violations. */
  validateAnswer(operationId: string, answer: SandboxAnswer): AnswerViolation[] {
    if (answer.status === 507) {
      // The sandbox's own limit answer: a deviation from the contract when the operation does not declare 507.
      const op = this.operation(operationId);
      if (op && responseKey(op, 507) !== undefined) return [];
      return [
        {
          location: ["response", "status"],
          severity: "Error",
          code: "sandbox-limit",
          message: `507 is the sandbox's own answer when one of its bounds is reached (not a status ${operationId} declares): ${String((answer.body as { detail?: unknown })?.detail ?? "")}`,
        },
      ];
    }
    // The common case, a body the schema accepts, by the operation's check alone; anything else
    // (a finding, no schema, no body) by the contract validator, which words the findings.
    if (this.answerCheck(operationId, answer.status)?.(answer.body)) return NO_VIOLATIONS;
    const { violations } = this.validator.validateResponse({ operationId, status: answer.status, body: answer.body });
    return toSlViolations(violations);
  }

  /**
   * Whether a body is one the operation declares for `status` (its JSON schema's check, the
   * contract validator's own), made per operation and status on first use; null where the
   * operation declares no schema for it.
   */
  private answerCheck(operationId: string, status: number): ((body: unknown) => boolean) | null {
    const key = `${status} ${operationId}`;
    let check = this.answerChecks.get(key);
    if (check === undefined) {
      check = null;
      const op = this.operation(operationId);
      const declared = op && Number.isInteger(status) && status >= 100 && status <= 599 ? responseKey(op, status) : undefined;
      const contents = op && declared ? responseContents(this.doc, op.responses[declared]) : [];
      const at = contents.length > 0 ? pickMediaContent(contents, undefined)?.schema?.at : undefined;
      if (at !== undefined) check = (body) => body !== undefined && body !== null && body !== "" && this.statusChecks.test(at, body);
      if (this.answerChecks.size < MAX_ANSWER_CHECKS) this.answerChecks.set(key, check);
    }
    return check;
  }

  /**
   * An answer with `status` as the operation declares it: its first example, else no body. A status
   * the operation does not declare gets a problem+json body with `detail` when one is given (the
   * sl-violations header names the status as undeclared).
   */
  declaredAnswer(op: Operation, status: number, detail?: string): SandboxAnswer {
    const key = responseKey(op, status);
    if (!key) return detail === undefined ? { status } : problemAnswer(status, detail);
    const contents = responseContents(this.doc, op.responses[key]);
    const media = contents.find((c) => c.examples.length > 0);
    if (!media) return { status };
    return { status, headers: { "Content-Type": media.mediaType }, body: media.examples[0].value };
  }

  /**
   * A refusal's answer (`refuse`, `status.refuse`): on a status the operation declares, a body
   * shaped by its schema (the example's members, if any) with the reason in the member the schema
   * has for one (REASON_MEMBERS); where it has none, or declares no body (a body would break the
   * contract), as declaredAnswer: the example, or no body. An undeclared status: a problem+json body.
   */
  private refusalAnswer(op: Operation, status: number, detail?: string): SandboxAnswer {
    const key = responseKey(op, status);
    if (!key || detail === undefined) return this.declaredAnswer(op, status, detail);
    const media = responseContents(this.doc, op.responses[key]).find((c) => /json/i.test(c.mediaType) && c.schema);
    if (media?.schema) {
      const { schema, at } = resolveSchema(this.doc, media.schema.value, media.schema.at);
      const member = REASON_MEMBERS.find((name) => {
        const declared = isPlainObject(schema?.properties) ? schema.properties[name] : undefined;
        return declared !== undefined && admittedTypes(this.doc, declared, `${at}/properties/${name}`)?.has("string") === true;
      });
      if (member) {
        const example = media.examples[0]?.value;
        const body = { ...(isPlainObject(example) ? example : {}), [member]: detail };
        return { status, headers: { "Content-Type": media.mediaType }, body: shape(this.doc, body, media.schema.value, media.schema.at) };
      }
    }
    return this.declaredAnswer(op, status, detail);
  }

  private shapeAnswer(op: Operation, status: number, body: Json): Json {
    const key = responseKey(op, status);
    const contents = key ? responseContents(this.doc, op.responses[key]) : [];
    const media = contents.find((c) => /json/i.test(c.mediaType)) ?? contents[0];
    if (!media) return undefined;
    return media.schema ? shape(this.doc, body, media.schema.value, media.schema.at) : plain(body);
  }

  // ---------------------------------------------------------------- operations

  private resource(name: string): ResourceDeclaration {
    const resource = this.declaration?.resources[name];
    if (!resource) throw new Error(`${this.entry.alias}: no resource "${name}" in the sandbox declaration`);
    return resource;
  }

  /** A singleton's record, created from its `initial` template on first use. */
  singleton(state: CredentialState, name: string): StoredRecord {
    const resource = this.resource(name);
    const existing: StoredRecord | undefined = state.records.get(name)?.values().next().value;
    if (existing) return existing;
    const id = this.freshId(state, resource);
    const data = { ...(evaluate(resource.initial ?? {}, { id, now: new Instant(state.now()) }) ?? {}), [resource.id.field]: id };
    return state.add(name, id, data);
  }

  private freshId(state: CredentialState, resource: ResourceDeclaration): string {
    for (;;) {
      const id = newId(resource.id.prefix, resource.id.digits);
      if (!state.get(resource.name, id)) return id;
    }
  }

  private context(state: CredentialState, request: Json, params: Record<string, unknown>): TemplateContext {
    let readers = this.readers.get(state);
    if (!readers) {
      // What the templates read of a credential's state: made once per credential, not per request.
      // A singleton's data is kept until the records change (a template may read it several times).
      let readName: string | undefined;
      let readAt = -1;
      let read: Json;
      readers = {
        resource: (name) => {
          if (name === readName && state.changes === readAt) return read;
          read = this.declaration?.resources[name]?.singleton ? this.singleton(state, name).data : undefined;
          readName = name;
          readAt = state.changes;
          return read;
        },
        all: (name) => (this.declaration?.resources[name] ? state.dataOf(name) : undefined),
        recordIndex: (name, index, keyOf) => (this.declaration?.resources[name] ? state.index(name, index, keyOf) : undefined),
      };
      this.readers.set(state, readers);
    }
    // Every member of TemplateContext (fullContext) made once, the request's set in place (no copy).
    const ctx = fullContext(NO_VALUES);
    ctx.request = request;
    ctx.params = params;
    ctx.now = new Instant(state.now());
    ctx.resource = readers.resource;
    ctx.all = readers.all;
    ctx.recordIndex = readers.recordIndex;
    return ctx;
  }

  private find(state: CredentialState, resource: ResourceDeclaration, idRef: string | undefined, ctx: TemplateContext) {
    const id = idRef === undefined ? undefined : evaluate(idRef, ctx);
    if (resource.singleton) {
      const record = this.singleton(state, resource.name);
      return id === undefined || id === null || id === "" || String(id) === record.id ? record : undefined;
    }
    if (typeof id !== "string" && typeof id !== "number") return undefined;
    return state.get(resource.name, String(id));
  }

  /**
   * When a new record expires (sandbox clock, ms). Convention: never more than MAX_AHEAD_MS (10
   * years, as far as the sandbox clock goes) ahead, so that every expiry renders as a valid time.
   */
  private expiryOf(resource: ResourceDeclaration, ctx: TemplateContext, now: number): number | undefined {
    if (!resource.expiry) return undefined;
    const at = resource.expiry.at === undefined ? undefined : toInstant(evaluate(resource.expiry.at, ctx));
    if (at && Number.isFinite(at.ms)) return Math.max(0, Math.min(at.ms, now + MAX_AHEAD_MS));
    const hours = Number(resource.expiry.hours === undefined ? undefined : evaluate(resource.expiry.hours, ctx));
    return Number.isFinite(hours) && hours > 0 ? now + Math.min(hours * 3_600_000, MAX_AHEAD_MS) : undefined;
  }

  /**
   * Runs `body` so that a request that fails stores nothing: records added, replaced or removed are
   * put back when it throws, and deliveries and events it raised are dropped (they are sent and
   * logged only when it returns).
   */
  private transaction<T>(state: CredentialState, body: () => T): T {
    const undo: Array<() => void> = [];
    const deferred: Array<() => void> = [];
    state.journal = undo;
    const outer = this.deferred;
    const scheduled = this.scheduled.get(state)?.slice();
    this.deferred = deferred;
    try {
      const result = body();
      this.deferred = outer;
      for (const effect of deferred) effect();
      return result;
    } catch (error) {
      this.deferred = outer;
      state.journal = undefined; // putting back is not itself put back
      for (const step of undo.reverse()) step();
      if (scheduled) this.scheduled.set(state, scheduled);
      else this.scheduled.delete(state);
      throw error;
    } finally {
      state.journal = undefined;
    }
  }

  private applyEffects(
    state: CredentialState,
    effects: Array<{ when?: Json; resource: string; set?: Json; unset?: string[] }> | undefined,
    ctx: TemplateContext,
  ) {
    for (const effect of effects ?? []) {
      if (effect.when !== undefined && !evaluate(effect.when, ctx)) continue;
      const target = this.singleton(state, effect.resource);
      const data = merged(target.data, effect.set === undefined ? {} : evaluate(effect.set, ctx));
      for (const member of effect.unset ?? []) delete data[member];
      state.replace(target, data);
    }
  }

  private run(state: CredentialState, op: Operation, request: Json, params: Record<string, unknown>): Json {
    const declared = this.declaration!.operations[op.operationId];
    const resource = this.resource(declared.resource);
    const base = this.context(state, request, params);
    const now = state.now();
    for (const refusal of declared.refuse ?? NO_RULES) {
      if (evaluate(refusal.when, base)) return { [REFUSAL]: true, status: refusal.status, detail: refusal.detail };
    }
    switch (declared.kind) {
      case "create": {
        const shared: Record<string, Json> = {};
        if (declared.shared !== undefined) {
          const sharedCtx = { ...base, shared };
          for (const name of Object.keys(declared.shared)) shared[name] = evaluate(declared.shared[name], sharedCtx);
        }
        const listed: Json = declared.each === undefined ? [undefined] : (evaluate(declared.each, base) ?? []);
        const items: Json[] = Array.isArray(listed) ? listed : [];
        const created: StoredRecord[] = [];
        let expiry: Instant | undefined;
        const idField = resource.id.field;
        const status = resource.status?.initial;
        for (let index = 0; index < items.length; index++) {
          const id = this.freshId(state, resource);
          const itemCtx: TemplateContext = { ...base, id, item: items[index], index, status, shared };
          const expiresAt = this.expiryOf(resource, itemCtx, now);
          expiry ??= expiresAt === undefined ? undefined : new Instant(expiresAt);
          itemCtx.expiry = expiresAt === undefined ? undefined : new Instant(expiresAt);
          // { [id]: id, [status]: status, ...record, [id]: id }: the same members in the same order, copied one by one.
          const data: Record<string, Json> = { [idField]: id };
          if (resource.status) data[resource.status.field] = status;
          assignMembers(data, evaluate(declared.record, itemCtx));
          data[idField] = id;
          const record = state.add(resource.name, id, data, expiresAt);
          if (expiresAt !== undefined) this.wake(state, expiresAt);
          if (declared.effects?.length || resource.testValues.length) {
            itemCtx.record = data;
            this.applyEffects(state, declared.effects, itemCtx);
            this.applyTestValues(state, resource, record, itemCtx);
          }
          created.push(record);
        }
        const records: Json[] = new Array(created.length);
        for (let i = 0; i < created.length; i++) records[i] = created[i].data;
        return evaluate(declared.answer ?? "$record", {
          ...base,
          id: created[0]?.id,
          record: created[0]?.data,
          records,
          expiry,
          shared,
        });
      }
      case "answer":
        return evaluate(declared.answer, base);
      case "read":
      case "action": {
        const record = this.find(state, resource, declared.id, base);
        if (!record) return NOT_FOUND;
        return evaluate(declared.answer ?? "$record", { ...base, id: record.id, record: record.data });
      }
      case "list": {
        let records = state.list(resource.name);
        if ((declared.order ?? "oldest") === "newest") records.reverse();
        for (const filter of declared.filter ?? []) {
          if (filter.value !== undefined) {
            const value = evaluate(filter.value, base);
            if (value === undefined || value === null || value === "") continue;
            const wanted = (Array.isArray(value) ? value : [value]).map(String);
            records = records.filter((r) => wanted.includes(String(r.data?.[filter.field])));
            if (filter.notFound && records.length === 0) return NOT_FOUND;
          } else {
            const from = filter.from === undefined ? undefined : toInstant(evaluate(filter.from, base));
            const to = filter.to === undefined ? undefined : toInstant(evaluate(filter.to, base));
            records = records.filter((r) => {
              const at = toInstant(r.data?.[filter.field]);
              return at !== undefined && (from === undefined || at.ms >= from.ms) && (to === undefined || at.ms <= to.ms);
            });
          }
        }
        if (declared.advance !== undefined)
          for (const record of records) {
            const action = evaluate(declared.advance, { ...base, item: record.data });
            if (typeof action !== "string") continue;
            try {
              this.moveStatus(state, record, { action }, { cause: op.operationId });
            } catch (error) {
              if (!(error instanceof MoveRefused)) throw error; // not from this status: it stays
            }
          }
        const limit = declared.limit === undefined ? Number.NaN : Number(evaluate(declared.limit, base));
        let next: string | undefined;
        if (Number.isInteger(limit) && limit > 0 && records.length > limit) {
          next = records[limit].id;
          records = records.slice(0, limit);
        }
        return evaluate(declared.answer ?? "$records", { ...base, records: records.map((r) => r.data), next });
      }
      case "update": {
        const record = this.find(state, resource, declared.id, base);
        if (!record) return NOT_FOUND;
        const ctx: TemplateContext = { ...base, id: record.id, record: record.data };
        let target: string | undefined;
        if (declared.status && resource.status) {
          const value = evaluate(declared.status.value, ctx);
          if (value !== undefined && value !== null) {
            const current = record.data[resource.status.field];
            if (declared.status.from && !declared.status.from.includes(current))
              return {
                [REFUSAL]: true,
                status: declared.status.refuse ?? 409,
                detail: `${op.operationId} moves a ${resource.name} only from ${declared.status.from.join(", ")}; this one is ${current}`,
              };
            target = String(value);
          }
        }
        const patch = declared.record === undefined ? {} : (evaluate(declared.record, ctx) ?? {});
        state.replace(record, merged(record.data, patch, { [resource.id.field]: record.id }));
        this.applyEffects(state, declared.effects, { ...ctx, record: record.data });
        if (target !== undefined) {
          try {
            this.moveStatus(state, record, target, { cause: op.operationId });
          } catch (error) {
            if (!(error instanceof MoveRefused)) throw error;
            return { [REFUSAL]: true, status: declared.status?.refuse ?? 409, detail: error.message };
          }
        }
        return evaluate(declared.answer ?? "$record", { ...ctx, record: record.data });
      }
      case "delete": {
        const record = this.find(state, resource, declared.id, base);
        if (!record) return NOT_FOUND;
        state.remove(record);
        this.applyEffects(state, declared.effects, { ...base, id: record.id, record: record.data });
        return evaluate(declared.answer ?? {}, { ...base, id: record.id, record: record.data });
      }
    }
  }

  // ---------------------------------------------------------------- statuses, expiry, callbacks

  /** Whether `status` is one `resource` may take (its declared values, else its schema). */
  allowsStatus(resource: ResourceDeclaration, status: string): boolean {
    if (!resource.status) return false;
    if (resource.status.values) return resource.status.values.includes(status);
    return this.statusChecks.test(`${refPointer(resource.schema)}/properties/${resource.status.field}`, status);
  }

  /** The statuses a resource names: its declared values, else its schema's enum (undefined: any string the schema allows). */
  statusValues(resource: ResourceDeclaration): string[] | undefined {
    if (!resource.status) return undefined;
    if (resource.status.values) return resource.status.values;
    const pointer = refPointer(resource.schema)!;
    let node: Json = this.doc;
    for (const token of [...parsePointer(pointer), "properties", resource.status.field]) node = node?.[token];
    const collect = (schema: Json, depth = 0): string[] | undefined => {
      if (!isPlainObject(schema) || depth > 8) return undefined;
      if (typeof schema.$ref === "string") {
        let target: Json = this.doc;
        for (const token of parsePointer(refPointer(schema.$ref) ?? "")) target = target?.[token];
        return collect(target, depth + 1);
      }
      if (Array.isArray(schema.enum)) return schema.enum.map(String);
      if (schema.const !== undefined) return [String(schema.const)];
      for (const key of ["anyOf", "oneOf"]) {
        if (!Array.isArray(schema[key])) continue;
        const parts = schema[key].map((s: Json) => collect(s, depth + 1));
        const found = parts.filter(Boolean).flat() as string[];
        return found.length > 0 ? [...new Set(found)] : undefined;
      }
      return undefined;
    };
    return collect(node);
  }

  /** The record rendered by its resource's schema. */
  view(record: StoredRecord): Json {
    const resource = this.resource(record.resource);
    const pointer = refPointer(resource.schema)!;
    let node: Json = this.doc;
    for (const token of parsePointer(pointer)) node = node?.[token];
    return shape(this.doc, record.data, node, pointer);
  }

  /**
   * Moves a record to `to`: sets the members the declaration names for that status, then fires the
   * callbacks whose `when` includes it (`deliverTwice`: each is delivered twice, same key).
   * A move to the status it already has changes nothing and fires nothing.
   */
  moveStatus(
    state: CredentialState,
    record: StoredRecord,
    target: string | { action: string },
    options: { cause: string; deliverTwice?: boolean },
  ): StatusMove {
    const resource = this.resource(record.resource);
    const field = resource.status!.field;
    const from = record.data[field] as string | undefined;
    if (typeof target === "string" && from === target) return { record, from, to: target, changed: false, deliveries: [] };
    const move = findMove(resource, from, typeof target === "string" ? { to: target } : target);
    const to = move?.to ?? (target as string);
    if (from === to) return { record, from, to, changed: false, deliveries: [] };
    const data = copy(record.data);
    data[field] = to;
    const ctx: TemplateContext = {
      ...this.context(state, undefined, {}),
      id: record.id,
      record: data,
      status: to,
      event: { from, to, cause: options.cause },
    };
    for (const key of [to, "*"]) {
      const rule = resource.on?.[key];
      if (rule) Object.assign(data, evaluate(rule.set, ctx));
    }
    if (move?.set) Object.assign(data, evaluate(move.set, ctx));
    state.replace(record, data);
    if (record.expiresAt !== undefined && resource.expiry?.from.includes(to)) this.wake(state, record.expiresAt);
    const raised = newEvent({
      type: `${resource.name}.${move?.name ?? "status"}`,
      resource: resource.name,
      resourceId: record.id,
      ...(from === undefined ? {} : { from }),
      to,
      ...(move ? { action: move.name } : {}),
      cause: options.cause,
      createdAt: new Date(state.now()).toISOString(),
    });
    const deliveries: DeliveryEntry[] = [];
    for (const callback of resource.callbacks) {
      if (callback.when !== "*" && !callback.when.includes(to)) continue;
      const code = callback.codes?.[to];
      if (callback.codes && code === undefined) continue;
      const declaredCodes = (this.doc.webhooks?.[callback.webhook]?.post?.["x-status-codes"] ?? []) as Array<{
        code: unknown;
        status: string;
      }>;
      const event = {
        from,
        to,
        cause: options.cause,
        ...(code === undefined ? {} : { code, codeStatus: declaredCodes.find((d) => String(d.code) === String(code))?.status }),
      };
      const eventCtx: TemplateContext = {
        ...ctx,
        record: data,
        view: this.view(record),
        event,
        callbackUrl: state.callbackUrls.get(callback.webhook),
      };
      const url = evaluate(callback.url, eventCtx);
      const webhook = this.webhookOperation(callback.webhook);
      const media = webhook ? requestContents(this.doc, webhook)[0] : undefined;
      const built = evaluate(callback.payload, eventCtx);
      const payload = media?.schema ? shape(this.doc, built, media.schema.value, media.schema.at) : plain(built);
      raised.callbacks.push({ webhook: callback.webhook, url: typeof url === "string" ? url : undefined, payload });
    }
    const send = () => {
      this.events.add(state, raised);
      for (const callback of raised.callbacks) deliveries.push(this.send(state, raised, callback, options.deliverTwice ? 2 : 1));
    };
    if (this.deferred) this.deferred.push(send);
    else send();
    return { record, from, to, changed: true, deliveries, event: raised };
  }

  /** Queues one delivery of an event's callback, with the event's Idempotency-Key. */
  send(state: CredentialState, event: SandboxEvent, callback: SandboxEvent["callbacks"][number], times = 1): DeliveryEntry {
    const entry = this.deliverer.enqueue(state, {
      webhook: callback.webhook,
      resource: event.resource,
      resourceId: event.resourceId,
      event: { ...(event.from === undefined ? {} : { from: event.from }), to: event.to, cause: event.cause },
      url: callback.url ?? state.callbackUrls.get(callback.webhook),
      payload: callback.payload,
      times,
      idempotencyKey: event.idempotencyKey,
    });
    event.deliveries.push(entry.id);
    this.events.grow(state, event, Buffer.byteLength(JSON.stringify(entry.id)) + 1);
    return entry;
  }

  /** Makes the next tick look at `at` (an expiry or a scheduled move). */
  private wake(state: CredentialState, at: number): void {
    this.nextExpiry.set(state, Math.min(this.nextExpiry.get(state) ?? Infinity, at));
  }

  /**
   * The first test value of the resource whose `when` holds for a new record: its move, at once or
   * `after` seconds later on the sandbox clock.
   */
  private applyTestValues(state: CredentialState, resource: ResourceDeclaration, record: StoredRecord, ctx: TemplateContext): void {
    const value = resource.testValues.find((v) => evaluate(v.when, ctx));
    if (!value) return;
    const cause = `test value ${value.name}`;
    if (!value.after) {
      this.moveStatus(state, record, { action: value.move }, { cause });
      return;
    }
    const at = state.now() + value.after * 1000;
    let list = this.scheduled.get(state);
    if (!list) this.scheduled.set(state, (list = []));
    if (list.length >= LIMITS.records) list.shift();
    list.push({ record, action: value.move, at, cause });
    this.wake(state, at);
    // The move happens on its own in real time too (its callbacks with it), not only on the next call.
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.tick(state, "clock");
      },
      value.after * 1000 + 10,
    );
    timer.unref();
    this.timers.add(timer);
  }

  private webhookOperation(name: string): Operation | undefined {
    return operations(this.doc, { webhooks: true }).find((op) => op.section === "webhooks" && op.path === name);
  }

  /** Expires what is due on the credential's clock; returns the moves made. */
  tick(state: CredentialState, cause: string, deliverTwice = false): StatusMove[] {
    if (!this.declaration) return [];
    const now = state.now();
    const next = this.nextExpiry.get(state);
    if (next === undefined || next > now) return [];
    const moves: StatusMove[] = [];
    let upcoming = Infinity;
    const attempt = (record: StoredRecord, target: string | { action: string }, why: string) => {
      try {
        moves.push(this.moveStatus(state, record, target, { cause: why, deliverTwice }));
      } catch (error) {
        if (!(error instanceof MoveRefused)) throw error; // the record moved on since: nothing to do
      }
    };
    const due = (this.scheduled.get(state) ?? []).filter((s) => s.at <= now).sort((a, b) => a.at - b.at);
    const later = (this.scheduled.get(state) ?? []).filter((s) => s.at > now);
    this.scheduled.set(state, later);
    for (const s of later) upcoming = Math.min(upcoming, s.at);
    for (const s of due) if (state.get(s.record.resource, s.record.id) === s.record) attempt(s.record, { action: s.action }, s.cause);
    for (const resource of Object.values(this.declaration.resources)) {
      if (!resource.expiry || !resource.status) continue;
      for (const record of state.list(resource.name)) {
        if (record.expiresAt === undefined || !resource.expiry.from.includes(record.data[resource.status.field])) continue;
        if (record.expiresAt <= now) attempt(record, resource.expiry.to, cause);
        else upcoming = Math.min(upcoming, record.expiresAt);
      }
    }
    if (upcoming === Infinity) this.nextExpiry.delete(state);
    else this.nextExpiry.set(state, upcoming);
    return moves;
  }
}

/** The answer when a sandbox bound is reached (its own status, reported as a deviation by validateAnswer). */
const limitAnswer = (error: LimitError): SandboxAnswer => ({
  status: 507,
  headers: { "Content-Type": "application/problem+json" },
  body: { type: "about:blank", title: "Sandbox limit reached", status: 507, detail: error.message },
});

/** A problem+json answer (RFC 9457) with `detail`. */
const problemAnswer = (status: number, detail: string): SandboxAnswer => ({
  status,
  headers: { "Content-Type": "application/problem+json" },
  body: { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail },
});
const NOT_FOUND = Symbol("not found");
const NO_RULES: never[] = [];
const NO_VALUES: TemplateContext = Object.freeze({});
/** What validateAnswer finds in an answer that keeps the contract. */
const NO_VIOLATIONS: AnswerViolation[] = Object.freeze([]) as unknown as AnswerViolation[];
/** Operation and status pairs whose answer check is kept (statuses are three digits: a guard against odd callers). */
const MAX_ANSWER_CHECKS = 10_000;
/** The members of an error schema that carry a refusal's reason, in order of preference. */
const REASON_MEMBERS = ["detail", "message", "error_message", "reason", "description", "error", "title"];

/**
 * Query parameters named with dots (`start_date.year`) are also readable as members
 * (`$params.start_date.year`): each is kept under its own name and nested under its first part.
 */
function nestDotted(params: Record<string, unknown>): Record<string, unknown> {
  for (const name of Object.keys(params)) {
    const dot = name.indexOf(".");
    if (dot <= 0) continue;
    const value = params[name];
    const [head, ...rest] = name.split(".");
    let node = (params[head] ??= {}) as Record<string, unknown>;
    if (!isPlainObject(node)) continue;
    for (const part of rest.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[rest.at(-1)!] = value;
  }
  return params;
}

/** Thrown inside a transaction to answer without keeping what the request changed. */
class Rollback extends Error {
  constructor(readonly answer: SandboxAnswer) {
    super("rolled back");
  }
}
const REFUSAL = Symbol("refused");
const isRefusal = (value: Json): value is { status: number; detail?: string } =>
  isPlainObject(value) && (value as Record<symbol, unknown>)[REFUSAL] === true;
