/**
 * What the control API shows of a credential's state, in the control document's schemas: a record
 * (its status, its expiry while its status can expire, its data rendered by its schema), a status
 * move, an event, a delivery, the clock, the callback URLs (without userinfo), a queued error rule,
 * the whole state.
 */
import type { EngineContext } from "../engine/context.js";
import { movesFrom } from "../engine/lifecycle.js";
import type { StatusMove } from "../engine/move.js";
import { view } from "../engine/records.js";
import { displayUrl } from "../delivery/policy.js";
import type { CredentialState } from "../store/state.js";
import type { DeliveryEntry, ErrorRule, SandboxEvent, StoredRecord } from "../store/types.js";

export const deliveryView = (entry: DeliveryEntry) => ({
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

export const eventView = (event: SandboxEvent) => ({
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

export function recordView(engine: EngineContext, record: StoredRecord) {
  const resource = engine.declaration!.resources[record.resource];
  const status = resource.status ? record.data[resource.status.field] : undefined;
  const expires =
    record.expiresAt !== undefined && resource.expiry?.from.includes(status) ? new Date(record.expiresAt).toISOString() : undefined;
  return {
    resource: record.resource,
    id: record.id,
    ...(typeof status === "string" ? { status } : {}),
    ...(expires ? { expires_at: expires } : {}),
    data: view(engine, record),
  };
}

export function moveView(engine: EngineContext, move: StatusMove) {
  const resource = engine.declaration!.resources[move.record.resource];
  return {
    record: recordView(engine, move.record),
    ...(move.from === undefined ? {} : { from: move.from }),
    to: move.to,
    changed: move.changed,
    ...(move.event ? { event: eventView(move.event) } : {}),
    deliveries: move.deliveries.map(deliveryView),
    ...(resource.status?.moves ? { next_actions: movesFrom(resource, move.to).map((m) => ({ action: m.name, to: m.to })) } : {}),
  };
}

export const clockView = (state: CredentialState) => ({
  now: new Date(state.now()).toISOString(),
  offset_seconds: Math.round(state.clockOffsetMs / 1000),
});

export const callbacksView = (state: CredentialState) =>
  [...state.callbackUrls].map(([webhook, url]) => ({ webhook, url: displayUrl(url) ?? "" }));

export const errorView = (rule: ErrorRule) => ({
  id: rule.id,
  operation_id: rule.operationId,
  ...(rule.status > 0 ? { status: rule.status } : {}),
  remaining: rule.remaining,
  ...(rule.retryAfter === undefined ? {} : { retry_after: rule.retryAfter }),
  ...(rule.latencyMs === undefined ? {} : { latency_ms: rule.latencyMs }),
  ...(rule.drop ? { drop: rule.drop === "after" ? "after" : "before" } : {}),
});

export function stateView(engine: EngineContext, state: CredentialState) {
  const resources: Record<string, unknown[]> = {};
  for (const name of Object.keys(engine.declaration?.resources ?? {})) {
    const records = state.list(name);
    if (records.length > 0) resources[name] = records.map((r) => recordView(engine, r));
  }
  return {
    credential: state.label,
    clock: clockView(state),
    resources,
    callbacks: callbacksView(state),
    errors: state.errors.map(errorView),
    deliveries: state.deliveries.length,
  };
}
