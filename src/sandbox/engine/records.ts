/**
 * The records of a credential as the stages read them: a singleton's record (made from its `initial`
 * template on first use), a record by the id a template gives, a fresh id, a record rendered by its
 * resource's schema, and the template context of a request (what `$resource.<name>`, `$all.<name>`
 * and the record indexes read of the state).
 */
import { parsePointer, refPointer } from "../../document/index.js";
import type { ResourceDeclaration } from "../declaration.js";
import { newId } from "../ids.js";
import { shape } from "../shape.js";
import type { CredentialState } from "../store/state.js";
import type { StoredRecord } from "../store/types.js";
import { evaluate, fullContext, type TemplateContext } from "../template/index.js";
import { Instant, type Json } from "../values.js";
import type { EngineContext } from "./context.js";

/** A singleton's record, created from its `initial` template on first use. */
export function singleton(engine: EngineContext, state: CredentialState, name: string): StoredRecord {
  const resource = engine.resource(name);
  const existing: StoredRecord | undefined = state.records.get(name)?.values().next().value;
  if (existing) return existing;
  const id = freshId(state, resource);
  const data = { ...(evaluate(resource.initial ?? {}, { id, now: new Instant(state.now()) }) ?? {}), [resource.id.field]: id };
  return state.add(name, id, data);
}

/** A new id for a record of `resource`, none of the credential's records has. */
export function freshId(state: CredentialState, resource: ResourceDeclaration): string {
  for (;;) {
    const id = newId(resource.id.prefix, resource.id.digits);
    if (!state.get(resource.name, id)) return id;
  }
}

/** The record a template's id names (a singleton's whatever the id, when it names none or its own). */
export function findRecord(
  engine: EngineContext,
  state: CredentialState,
  resource: ResourceDeclaration,
  idRef: string | undefined,
  ctx: TemplateContext,
): StoredRecord | undefined {
  const id = idRef === undefined ? undefined : evaluate(idRef, ctx);
  if (resource.singleton) {
    const record = singleton(engine, state, resource.name);
    return id === undefined || id === null || id === "" || String(id) === record.id ? record : undefined;
  }
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  return state.get(resource.name, String(id));
}

/** The record rendered by its resource's schema. */
export function view(engine: EngineContext, record: StoredRecord): Json {
  const resource = engine.resource(record.resource);
  const pointer = refPointer(resource.schema)!;
  let node: Json = engine.doc;
  for (const token of parsePointer(pointer)) node = node?.[token];
  return shape(engine.doc, record.data, node, pointer);
}

/**
 * What the templates read of the credential's state, made once per engine: the state read is the
 * one of the request being run (the work on a state runs synchronously, one request at a time). A
 * singleton's data is kept until the records change (a template may read it several times).
 */
class StateReaders {
  state: CredentialState | undefined;
  private readState: CredentialState | undefined;
  private readName: string | undefined;
  private readAt = -1;
  private read: Json;

  constructor(private readonly engine: EngineContext) {}

  readonly resource = (name: string): Json => {
    const state = this.state!;
    if (name === this.readName && state === this.readState && state.changes === this.readAt) return this.read;
    this.read = this.engine.declaration?.resources[name]?.singleton ? singleton(this.engine, state, name).data : undefined;
    this.readName = name;
    this.readState = state;
    this.readAt = state.changes;
    return this.read;
  };

  readonly all = (name: string): Json[] | undefined => (this.engine.declaration?.resources[name] ? this.state!.dataOf(name) : undefined);

  readonly recordIndex: NonNullable<TemplateContext["recordIndex"]> = (name, index, keyOf) =>
    this.engine.declaration?.resources[name] ? this.state!.index(name, index, keyOf) : undefined;
}

const readers = new WeakMap<EngineContext, StateReaders>();
const NO_VALUES: TemplateContext = Object.freeze({});

/** The template context of a request on `state`: its body, its parameters, the credential's clock, and what the templates read of the state. */
export function templateContext(
  engine: EngineContext,
  state: CredentialState,
  request: Json,
  params: Record<string, unknown>,
): TemplateContext {
  let reading = readers.get(engine);
  if (!reading) readers.set(engine, (reading = new StateReaders(engine)));
  reading.state = state;
  // Every member of TemplateContext (fullContext) made once, the request's set in place (no copy).
  const ctx = fullContext(NO_VALUES);
  ctx.request = request;
  ctx.params = params;
  ctx.now = new Instant(state.now());
  ctx.resource = reading.resource;
  ctx.all = reading.all;
  ctx.recordIndex = reading.recordIndex;
  return ctx;
}
