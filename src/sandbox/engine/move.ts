/**
 * A record's status change (stages 2 to 5 for one record): the lifecycle's move found
 * (./lifecycle.ts), the members the declaration sets for the new status and the move applied to the
 * record in the store, the clock told of an expiry the new status keeps, and the change's event
 * raised (./events.ts). Operations, expiry, test values, the clock and the control API all move a
 * record through `moveStatus`.
 */
import type { CredentialState } from "../store/state.js";
import type { DeliveryEntry, SandboxEvent, StoredRecord } from "../store/types.js";
import { evaluate, type TemplateContext } from "../template/index.js";
import { copy } from "../values.js";
import type { EngineContext } from "./context.js";
import { eventOf, keep } from "./events.js";
import { findMove } from "./lifecycle.js";
import { templateContext } from "./records.js";

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
 * Moves a record to `target` (a status, or a named move): sets the members the declaration names
 * for that status, then raises its event, whose callbacks go to the targets of `when`
 * (`deliverTwice`: each is delivered twice, same key). A move to the status it already has changes
 * nothing and raises nothing; a move the lifecycle does not allow throws a MoveRefused.
 */
export function moveStatus(
  engine: EngineContext,
  state: CredentialState,
  record: StoredRecord,
  target: string | { action: string },
  options: { cause: string; deliverTwice?: boolean },
): StatusMove {
  const resource = engine.resource(record.resource);
  const field = resource.status!.field;
  const from = record.data[field] as string | undefined;
  if (typeof target === "string" && from === target) return { record, from, to: target, changed: false, deliveries: [] };
  const move = findMove(resource, from, typeof target === "string" ? { to: target } : target);
  const to = move?.to ?? (target as string);
  if (from === to) return { record, from, to, changed: false, deliveries: [] };
  const data = copy(record.data);
  data[field] = to;
  const ctx: TemplateContext = {
    ...templateContext(engine, state, undefined, {}),
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
  if (record.expiresAt !== undefined && resource.expiry?.from.includes(to)) state.wakeBy(record.expiresAt);
  const event = eventOf(engine, state, { resource, record, data, from, to, move, cause: options.cause, ctx });
  const deliveries: DeliveryEntry[] = [];
  const kept = () => {
    deliveries.push(...keep(engine, state, event, options.deliverTwice));
  };
  if (engine.deferred) engine.deferred.push(kept);
  else kept();
  return { record, from, to, changed: true, deliveries, event };
}
