/**
 * Stage 3, apply: what a declared operation does to the credential's records (the declaration's
 * `operations`): a create builds records from the request (one per item with `each`), applies the
 * effects on singletons and the operation's test values (the status a record is created in, its
 * move); a read or an action finds the record; a list filters, orders, advances and limits; an
 * update merges and may move the status; a delete removes; an answer keeps nothing. Refusals
 * (`refuse`, a `refuse` test value, `status.from`) are decided here before anything is stored; a
 * create with `each` leaves out the items a `reject` rule holds for, each with its error in
 * `$outcomes`. The result is the answer's body as the declaration builds it (not yet shaped,
 * ./answer.ts), NOT_FOUND, or a Refusal; a bound reached throws a LimitError.
 */
import type { Operation } from "../../document/index.js";
import type { OperationDeclaration, ResourceDeclaration } from "../declaration.js";
import { MAX_AHEAD_MS } from "../store/limits.js";
import type { CredentialState } from "../store/state.js";
import type { StoredRecord } from "../store/types.js";
import { evaluate, type TemplateContext } from "../template/index.js";
import { assignMembers, Instant, type Json, merged, toInstant } from "../values.js";
import { scheduleMove } from "./clock.js";
import type { EngineContext } from "./context.js";
import { MoveRefused } from "./lifecycle.js";
import { moveStatus } from "./move.js";
import { findRecord, freshId, singleton, templateContext } from "./records.js";

/** The answer of an operation whose record does not exist (its declared 404). */
export const NOT_FOUND = Symbol("not found");

/**
 * A request the service refuses: answered `status` with `detail`, nothing stored. `source` (a
 * `<file>:<line>` of the provider's documents) and `convention` (the sandbox's reason, where the rule
 * or its status is its own) say where the rule comes from (./answer.ts words them for the partner).
 */
export class Refusal {
  constructor(
    readonly status: number,
    readonly detail?: string,
    readonly source?: string,
    readonly convention?: string,
  ) {}
}

/** What applying an operation gives: the answer's body, NOT_FOUND, or a Refusal. */
export type Applied = Json | typeof NOT_FOUND | Refusal;

/** What one operation applies to: the engine, the state, the operation and its declaration, the request's context. */
interface Applying {
  engine: EngineContext;
  state: CredentialState;
  op: Operation;
  declared: OperationDeclaration;
  resource: ResourceDeclaration;
  base: TemplateContext;
}

const NO_RULES: never[] = [];

/** Applies the declared operation `op` to the credential's records (see the module header). */
export function apply(
  engine: EngineContext,
  state: CredentialState,
  op: Operation,
  declared: OperationDeclaration,
  request: Json,
  params: Record<string, unknown>,
): Applied {
  const resource = engine.resource(declared.resource);
  const base = templateContext(engine, state, request, params);
  for (const refusal of declared.refuse ?? NO_RULES) {
    if (evaluate(refusal.when, base))
      return new Refusal(refusal.status, refusal.detail, refusal.source ?? declared.source, refusal.convention);
  }
  for (const value of declared.testValues ?? NO_RULES) {
    if (value.refuse !== undefined && evaluate(value.when, base))
      return new Refusal(value.refuse, value.detail, value.source ?? declared.source, value.convention);
  }
  const applying: Applying = { engine, state, op, declared, resource, base };
  switch (declared.kind) {
    case "create":
      return create(applying);
    case "answer":
      return evaluate(declared.answer, base);
    case "read":
    case "action": {
      const record = findRecord(engine, state, resource, declared.id, base);
      if (!record) return NOT_FOUND;
      return evaluate(declared.answer ?? "$record", { ...base, id: record.id, record: record.data });
    }
    case "list":
      return list(applying);
    case "update":
      return update(applying);
    case "delete": {
      const record = findRecord(engine, state, resource, declared.id, base);
      if (!record) return NOT_FOUND;
      state.remove(record);
      applyEffects(engine, state, declared.effects, { ...base, id: record.id, record: record.data });
      return evaluate(declared.answer ?? {}, { ...base, id: record.id, record: record.data });
    }
  }
}

function create({ engine, state, declared, resource, base }: Applying): Json {
  const now = state.now();
  const shared: Record<string, Json> = {};
  if (declared.shared !== undefined) {
    const sharedCtx = { ...base, shared };
    for (const name of Object.keys(declared.shared)) shared[name] = evaluate(declared.shared[name], sharedCtx);
  }
  const listed: Json = declared.each === undefined ? [undefined] : (evaluate(declared.each, base) ?? []);
  const items: Json[] = Array.isArray(listed) ? listed : [];
  const created: StoredRecord[] = [];
  // With `each`: each item's outcome, its record or the rule it breaks (`reject`), in the request's order.
  const outcomes: Json[] | undefined = declared.each === undefined ? undefined : [];
  const rejects = declared.reject ?? NO_RULES;
  let expiry: Instant | undefined;
  const idField = resource.id.field;
  const initial = resource.status?.initial;
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const id = freshId(state, resource);
    const itemCtx: TemplateContext = { ...base, id, item, index, status: initial, shared };
    // The order's earlier items are stored already: a rule reading the records sees them.
    const broken = rejects.length === 0 ? undefined : rejects.find((rule) => evaluate(rule.when, itemCtx));
    if (broken) {
      outcomes!.push({ item, error: { code: broken.code, message: broken.detail } });
      continue;
    }
    const status = resource.status ? createdStatus(resource, declared, itemCtx) : undefined;
    itemCtx.status = status;
    const expiresAt = expiryOf(resource, itemCtx, now);
    expiry ??= expiresAt === undefined ? undefined : new Instant(expiresAt);
    itemCtx.expiry = expiresAt === undefined ? undefined : new Instant(expiresAt);
    // { [id]: id, [status]: status, ...record, [id]: id }: the same members in the same order, copied one by one.
    const data: Record<string, Json> = { [idField]: id };
    if (resource.status) data[resource.status.field] = status;
    assignMembers(data, evaluate(declared.record, itemCtx));
    data[idField] = id;
    const record = state.add(resource.name, id, data, expiresAt);
    if (expiresAt !== undefined) state.wakeBy(expiresAt);
    if (declared.effects?.length || declared.testValues?.length) {
      itemCtx.record = data;
      applyEffects(engine, state, declared.effects, itemCtx);
      applyTestValues(engine, state, declared, record, itemCtx);
    }
    created.push(record);
    outcomes?.push({ record: data });
  }
  const records: Json[] = new Array(created.length);
  for (let i = 0; i < created.length; i++) records[i] = created[i].data;
  return evaluate(declared.answer ?? "$record", {
    ...base,
    id: created[0]?.id,
    record: created[0]?.data,
    records,
    outcomes,
    expiry,
    shared,
  });
}

function list({ engine, state, op, declared, resource, base }: Applying): Applied {
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
        moveStatus(engine, state, record, { action }, { cause: op.operationId });
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

function update({ engine, state, op, declared, resource, base }: Applying): Applied {
  const record = findRecord(engine, state, resource, declared.id, base);
  if (!record) return NOT_FOUND;
  const ctx: TemplateContext = { ...base, id: record.id, record: record.data };
  let target: string | undefined;
  if (declared.status && resource.status) {
    const value = evaluate(declared.status.value, ctx);
    if (value !== undefined && value !== null) {
      const current = record.data[resource.status.field];
      if (declared.status.from && !declared.status.from.includes(current))
        return statusRefusal(declared, `${movesOnlyFrom(declared, declared.status.from)}; this one is ${current}`);
      target = String(value);
    }
  }
  const patch = declared.record === undefined ? {} : (evaluate(declared.record, ctx) ?? {});
  state.replace(record, merged(record.data, patch, { [resource.id.field]: record.id }));
  applyEffects(engine, state, declared.effects, { ...ctx, record: record.data });
  if (target !== undefined) {
    try {
      moveStatus(engine, state, record, target, { cause: op.operationId });
    } catch (error) {
      if (!(error instanceof MoveRefused)) throw error;
      return statusRefusal(declared, error.message);
    }
  }
  return evaluate(declared.answer ?? "$record", { ...ctx, record: record.data });
}

/** The refusal of an update's status move (`status.from`, or a move the lifecycle does not allow): `status.refuse`, else 409. */
const statusRefusal = (declared: OperationDeclaration, detail: string): Refusal =>
  new Refusal(declared.status?.refuse ?? 409, detail, declared.status?.source ?? declared.source, declared.status?.convention);

/** The rule of an update's `status.from`, as its refusal states it. */
export const movesOnlyFrom = (declared: OperationDeclaration, from: string[]): string =>
  `${declared.operationId} moves ${/^[aeiou]/i.test(declared.resource) ? "an" : "a"} ${declared.resource} only from ${from.join(", ")}`;

/** The operation's effects on singletons whose `when` holds: members set and unset. */
function applyEffects(engine: EngineContext, state: CredentialState, effects: OperationDeclaration["effects"], ctx: TemplateContext) {
  for (const effect of effects ?? []) {
    if (effect.when !== undefined && !evaluate(effect.when, ctx)) continue;
    const target = singleton(engine, state, effect.resource);
    const data = merged(target.data, effect.set === undefined ? {} : evaluate(effect.set, ctx));
    for (const member of effect.unset ?? []) delete data[member];
    state.replace(target, data);
  }
}

/** The status a new record is created in: the first `status` test value of the operation that holds, else the resource's initial. */
function createdStatus(resource: ResourceDeclaration, declared: OperationDeclaration, ctx: TemplateContext): string {
  for (const value of declared.testValues ?? NO_RULES) if (value.status !== undefined && evaluate(value.when, ctx)) return value.status;
  return resource.status!.initial;
}

/**
 * The first `move` test value of the operation that holds for a new record: its move, at once or
 * `after` seconds later on the sandbox clock (./clock.ts).
 */
function applyTestValues(
  engine: EngineContext,
  state: CredentialState,
  declared: OperationDeclaration,
  record: StoredRecord,
  ctx: TemplateContext,
): void {
  const value = declared.testValues?.find((v) => v.move !== undefined && evaluate(v.when, ctx));
  if (!value) return;
  const cause = `test value ${value.name}`;
  if (value.after) scheduleMove(engine, state, record, value.move!, value.after, cause);
  else moveStatus(engine, state, record, { action: value.move! }, { cause });
}

/**
 * When a new record expires (sandbox clock, ms). Convention: never more than MAX_AHEAD_MS (10
 * years, as far as the sandbox clock goes) ahead, so that every expiry renders as a valid time.
 */
function expiryOf(resource: ResourceDeclaration, ctx: TemplateContext, now: number): number | undefined {
  if (!resource.expiry) return undefined;
  const at = resource.expiry.at === undefined ? undefined : toInstant(evaluate(resource.expiry.at, ctx));
  if (at && Number.isFinite(at.ms)) return Math.max(0, Math.min(at.ms, now + MAX_AHEAD_MS));
  const hours = Number(resource.expiry.hours === undefined ? undefined : evaluate(resource.expiry.hours, ctx));
  return Number.isFinite(hours) && hours > 0 ? now + Math.min(hours * 3_600_000, MAX_AHEAD_MS) : undefined;
}

export const isRefusal = (value: Applied): value is Refusal => value instanceof Refusal;
