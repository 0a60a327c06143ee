/**
 * Lifecycles and events of the sandbox. A resource's lifecycle is its declaration's `status.moves`
 * (./declaration.ts): named moves (`pay`, `fail`, `expire`, `cancel`...) from some statuses to one
 * status, and `status.final`, the statuses no move leaves. Operations, expiry, test values, the
 * clock and the control API all move a record through `findMove`: a move the lifecycle does not
 * allow is refused with a MoveRefused naming the moves allowed from the record's status (the
 * control API answers it 409 problem+json). A resource without `moves` moves freely.
 *
 * Every status change raises one event (`SandboxEvent`): an id, its type (`<resource>.<move>`),
 * the change, and one Idempotency-Key that every delivery of its callbacks carries, first
 * deliveries, retries and resends alike. Events are kept per credential (the newest
 * `LIMITS.deliveryLog`) and listed and resent through the control API.
 */
import { randomUUID } from "node:crypto";
import type { MoveDeclaration, ResourceDeclaration } from "./declaration.js";
import { type CredentialState, LIMITS } from "./store.js";
import { newId } from "./template.js";

/** A move the lifecycle does not allow; `allowed` are the moves from the record's status. */
export class MoveRefused extends Error {
  override readonly name = "MoveRefused";
  constructor(
    readonly resource: string,
    readonly from: string | undefined,
    readonly wanted: string,
    readonly allowed: Array<{ action: string; to: string }>,
    readonly final: boolean,
  ) {
    const moves = allowed.map((m) => `${m.action} (to ${m.to})`).join(", ");
    super(
      `${resource} cannot go from ${from ?? "(no status)"} ${wanted}: ${
        final
          ? `${from} is final, no move leaves it`
          : allowed.length > 0
            ? `the moves allowed from ${from} are ${moves}`
            : `no move leaves ${from}`
      }`,
    );
  }
}

/** True when `status` is final for the resource. */
export const isFinal = (resource: ResourceDeclaration, status: string | undefined): boolean =>
  status !== undefined && (resource.status?.final ?? []).includes(status);

const leaves = (resource: ResourceDeclaration, move: MoveDeclaration, from: string | undefined): boolean =>
  from !== undefined && (move.from === "*" ? !isFinal(resource, from) : move.from.includes(from));

/** The moves allowed from `from` (none from a final status). */
export function movesFrom(resource: ResourceDeclaration, from: string | undefined): MoveDeclaration[] {
  return Object.values(resource.status?.moves ?? {}).filter((move) => leaves(resource, move, from));
}

/**
 * The move that takes a record of `resource` from `from` by `action`, or to `to`: the declared
 * move, `undefined` when the resource declares no lifecycle (any move goes), or a MoveRefused.
 */
export function findMove(
  resource: ResourceDeclaration,
  from: string | undefined,
  wanted: { action: string } | { to: string },
): MoveDeclaration | undefined {
  const moves = resource.status?.moves;
  if (!moves) {
    if ("action" in wanted) throw new MoveRefused(resource.name, from, `by ${wanted.action}`, [], false);
    return undefined;
  }
  const allowed = movesFrom(resource, from);
  const move = "action" in wanted ? allowed.find((m) => m.name === wanted.action) : allowed.find((m) => m.to === wanted.to);
  if (move) return move;
  throw new MoveRefused(
    resource.name,
    from,
    "action" in wanted ? `by ${wanted.action}` : `to ${wanted.to}`,
    allowed.map((m) => ({ action: m.name, to: m.to })),
    isFinal(resource, from),
  );
}

/** One callback of an event: where it goes and what it carries (kept to resend it). */
export interface EventCallback {
  webhook: string;
  url?: string;
  payload: unknown;
}

/** One status change. */
export interface SandboxEvent {
  id: string;
  /** `<resource>.<move>` (`<resource>.status` where the resource declares no lifecycle). */
  type: string;
  resource: string;
  resourceId: string;
  from?: string;
  to: string;
  action?: string;
  cause: string;
  /** On the credential's sandbox clock. */
  createdAt: string;
  /** Carried by every delivery of this event's callbacks. */
  idempotencyKey: string;
  callbacks: EventCallback[];
  /** Delivery log entries (GET /_sandbox/deliveries), first deliveries and resends. */
  deliveries: string[];
}

export function newEvent(fields: Omit<SandboxEvent, "id" | "idempotencyKey" | "callbacks" | "deliveries">): SandboxEvent {
  return { id: newId("evt_"), idempotencyKey: randomUUID(), callbacks: [], deliveries: [], ...fields };
}

/** The events of each credential, the newest `LIMITS.deliveryLog` kept. */
export class EventLog {
  private readonly byState = new WeakMap<CredentialState, SandboxEvent[]>();

  add(state: CredentialState, event: SandboxEvent): void {
    let events = this.byState.get(state);
    if (!events) this.byState.set(state, (events = []));
    events.push(event);
    if (events.length > LIMITS.deliveryLog) events.splice(0, events.length - LIMITS.deliveryLog);
  }

  list(state: CredentialState): SandboxEvent[] {
    return this.byState.get(state) ?? [];
  }

  get(state: CredentialState, id: string): SandboxEvent | undefined {
    return this.list(state).find((e) => e.id === id);
  }
}
