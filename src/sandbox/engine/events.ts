/**
 * Stage 5, events: every status change raises one event (`SandboxEvent`): an id, its type
 * (`<resource>.<move>`), the change, and one Idempotency-Key that every delivery of its callbacks
 * carries, first deliveries, retries and resends alike. The event's callbacks (the declaration's
 * `callbacks` whose `when` the new status meets) are built here, their payloads shaped to the
 * webhook's schema; the event is kept in the credential's state (the newest LIMITS.deliveryLog,
 * counted in its bytes and the memory budget: ../store/state.ts `keepEvent`) and each callback
 * queued for delivery (../delivery/deliverer.ts). An API request keeps and sends the events it
 * raised only once it succeeded (./run.ts).
 */
import { randomUUID } from "node:crypto";
import { locate, operations, requestContents } from "../../document/index.js";
import type { MoveDeclaration, ResourceDeclaration } from "../declaration.js";
import { newId } from "../ids.js";
import { plain, shape } from "../shape.js";
import type { CredentialState } from "../store/state.js";
import type { DeliveryEntry, EventCallback, SandboxEvent, StoredRecord } from "../store/types.js";
import { evaluate, type TemplateContext } from "../template/index.js";
import type { Json } from "../values.js";
import type { EngineContext } from "./context.js";
import { templateContext, view } from "./records.js";

export function newEvent(fields: Omit<SandboxEvent, "id" | "idempotencyKey" | "callbacks" | "deliveries">): SandboxEvent {
  return { id: newId("evt_"), idempotencyKey: randomUUID(), callbacks: [], deliveries: [], ...fields };
}

/** The JSON bytes an event takes, counted in its credential's bound and the memory budget. */
export const eventBytes = (event: SandboxEvent): number => Buffer.byteLength(JSON.stringify(event));

/** A status change as the event sees it. */
export interface Change {
  resource: ResourceDeclaration;
  record: StoredRecord;
  /** The record's data after the change. */
  data: Json;
  from: string | undefined;
  to: string;
  move: MoveDeclaration | undefined;
  cause: string;
  /** The template context of the change ($record, $status, $event). */
  ctx: TemplateContext;
}

/** The event of a status change, with its callbacks built (nothing kept or sent yet: see `keep`). */
export function eventOf(engine: EngineContext, state: CredentialState, change: Change): SandboxEvent {
  const { resource, record, from, to, move, cause } = change;
  const event = newEvent({
    type: `${resource.name}.${move?.name ?? "status"}`,
    resource: resource.name,
    resourceId: record.id,
    ...(from === undefined ? {} : { from }),
    to,
    ...(move ? { action: move.name } : {}),
    cause,
    createdAt: new Date(state.now()).toISOString(),
  });
  for (const callback of resource.callbacks) {
    if (callback.when !== "*" && !callback.when.includes(to)) continue;
    const code = callback.codes?.[to];
    if (callback.codes && code === undefined) continue;
    event.callbacks.push(buildCallback(engine, state, change, callback.webhook, code, callback.url, callback.payload));
  }
  return event;
}

/** Keeps an event in the credential's state and queues its callbacks (each delivered twice with `deliverTwice`); the deliveries' log entries. */
export function keep(engine: EngineContext, state: CredentialState, event: SandboxEvent, deliverTwice = false): DeliveryEntry[] {
  state.keepEvent(event, eventBytes(event));
  const deliveries: DeliveryEntry[] = [];
  for (const callback of event.callbacks) deliveries.push(send(engine, state, event, callback, deliverTwice ? 2 : 1));
  return deliveries;
}

/** One callback of a change: its URL and its payload (shaped to the webhook's request schema), built by the declaration's templates. */
function buildCallback(
  engine: EngineContext,
  state: CredentialState,
  change: Change,
  webhook: string,
  code: number | string | undefined,
  url: Json,
  payload: Json,
): EventCallback {
  const doc = engine.doc;
  const declaredCodes: Array<{ code: unknown; status: string }> = locate(doc, "webhooks", webhook).value?.post?.["x-status-codes"] ?? [];
  const event = {
    from: change.from,
    to: change.to,
    cause: change.cause,
    ...(code === undefined ? {} : { code, codeStatus: declaredCodes.find((d) => String(d.code) === String(code))?.status }),
  };
  const eventCtx: TemplateContext = {
    ...change.ctx,
    record: change.data,
    view: view(engine, change.record),
    event,
    callbackUrl: state.callbackUrls.get(webhook),
  };
  const target = evaluate(url, eventCtx);
  const operation = operations(doc, { webhooks: true }).find((op) => op.section === "webhooks" && op.path === webhook);
  const media = operation ? requestContents(doc, operation)[0] : undefined;
  const built = evaluate(payload, eventCtx);
  const shaped = media?.schema ? shape(doc, built, media.schema.value, media.schema.at) : plain(built);
  return { webhook, url: typeof target === "string" ? target : undefined, payload: shaped };
}

/**
 * The URL an event's callback goes to now: its rule's `url` evaluated on the state as it is (the
 * record now, or none if deleted; the merchant's current `webhook_url`; the URL registered now), with
 * the event's change; the URL the event was raised with when the rule is gone.
 */
export function callbackUrlNow(
  engine: EngineContext,
  state: CredentialState,
  event: SandboxEvent,
  callback: EventCallback,
): string | undefined {
  const rule = engine.declaration?.resources[event.resource]?.callbacks.find((c) => c.webhook === callback.webhook);
  if (!rule) return callback.url;
  const record = state.get(event.resource, event.resourceId);
  const ctx: TemplateContext = {
    ...templateContext(engine, state, undefined, {}),
    id: event.resourceId,
    record: record?.data,
    view: record ? view(engine, record) : undefined,
    status: event.to,
    event: { from: event.from, to: event.to, cause: event.cause },
    callbackUrl: state.callbackUrls.get(callback.webhook),
  };
  const url = evaluate(rule.url, ctx);
  return typeof url === "string" ? url : undefined;
}

/** Queues one delivery of an event's callback, with the event's Idempotency-Key (a first delivery or a resend). */
export function send(
  engine: EngineContext,
  state: CredentialState,
  event: SandboxEvent,
  callback: EventCallback,
  times = 1,
): DeliveryEntry {
  const entry = engine.deliverer.enqueue(state, {
    webhook: callback.webhook,
    resource: event.resource,
    resourceId: event.resourceId,
    event: { ...(event.from === undefined ? {} : { from: event.from }), to: event.to, cause: event.cause },
    url: callback.url ?? state.callbackUrls.get(callback.webhook),
    payload: callback.payload,
    times,
    idempotencyKey: event.idempotencyKey,
  });
  state.addEventDelivery(event, entry.id);
  return entry;
}
