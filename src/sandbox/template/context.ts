/**
 * What a template reads: its context (`$id`, `$record`, `$request`, ...), and the compiled form of a
 * template, a function of it (./compile.ts).
 */
import type { IndexKey, RecordIndex } from "../store/records.js";
import type { Instant, Json } from "../values.js";

/** The values a template can reference. */
export interface TemplateContext {
  id?: string;
  record?: Json;
  records?: Json[];
  /**
   * create with `each` and `reject`: the request's items in order, each `{ record }` (the record made
   * from it) or `{ item, error: { code, message } }` (the item, not created, and the rule it breaks).
   */
  outcomes?: Json[];
  /** The record rendered by the resource's schema (for callback payloads). */
  view?: Json;
  request?: Json;
  params?: Record<string, unknown>;
  item?: Json;
  index?: number;
  now?: Instant;
  expiry?: Instant;
  status?: string;
  event?: Record<string, unknown>;
  shared?: Record<string, unknown>;
  callbackUrl?: string;
  /** list: the id of the first record a `limit` left out. */
  next?: string;
  /** A singleton resource's record, by resource name. */
  resource?: (name: string) => Json;
  /** Every record of a resource, by resource name. */
  all?: (name: string) => Json[] | undefined;
  /** An index of every record of a resource (../store/state.ts CredentialState.index); undefined: none kept. */
  recordIndex?: (resource: string, name: string, keyOf: IndexKey) => RecordIndex | undefined;
}

/** A template compiled: a function of the context. */
export type Compiled = (ctx: TemplateContext) => Json;

/**
 * A context with every member of TemplateContext, in one order (those not given undefined).
 * Contexts are derived by spreading (`{ ...ctx, item, index }`): Node 20's V8 copies an object
 * spread with members it does not already have on a slow path; a context
 * that has them all is copied on the fast path.
 */
export function fullContext(values: TemplateContext): TemplateContext {
  return {
    id: values.id,
    record: values.record,
    records: values.records,
    outcomes: values.outcomes,
    view: values.view,
    request: values.request,
    params: values.params,
    item: values.item,
    index: values.index,
    now: values.now,
    expiry: values.expiry,
    status: values.status,
    event: values.event,
    shared: values.shared,
    callbackUrl: values.callbackUrl,
    next: values.next,
    resource: values.resource,
    all: values.all,
    recordIndex: values.recordIndex,
  };
}
