/**
 * Stage 2 on the clock: each credential has its own clock (its offset is data in its state), and
 * what falls due on it moves: a record whose expiry has passed expires (while its status is one the
 * expiry rule names), and a move a test value scheduled `after` some seconds is made. `tick` does it
 * before every request to the state and when the clock is advanced; a scheduled move also happens on
 * its own in real time (with its callbacks): the engine's scheduler (../scheduler.ts) wakes the
 * credential then (`wake`). When anything next falls due is the state's `wake` (sandbox clock), so
 * a tick with nothing due costs one comparison.
 */
import type { CredentialState } from "../store/state.js";
import type { StoredRecord } from "../store/types.js";
import type { EngineContext } from "./context.js";
import { MoveRefused } from "./lifecycle.js";
import { moveStatus, type StatusMove } from "./move.js";

/** How long after its time a scheduled move's wake fires (the move is then surely due on the credential's clock). */
const WAKE_SLACK_MS = 10;

/** Makes what is due on the credential's clock: scheduled moves, then expiries; returns the moves made. */
export function tick(engine: EngineContext, state: CredentialState, cause: string, deliverTwice = false): StatusMove[] {
  if (!engine.declaration) return [];
  const now = state.now();
  const next = state.wake;
  if (next === undefined || next > now) return [];
  const moves: StatusMove[] = [];
  let upcoming = Number.POSITIVE_INFINITY;
  const attempt = (record: StoredRecord, target: string | { action: string }, why: string) => {
    try {
      moves.push(moveStatus(engine, state, record, target, { cause: why, deliverTwice }));
    } catch (error) {
      if (!(error instanceof MoveRefused)) throw error; // the record moved on since: nothing to do
    }
  };
  const due = state.takeDueMoves(now);
  for (const s of state.scheduled) upcoming = Math.min(upcoming, s.at);
  for (const s of due) {
    const record = state.get(s.resource, s.id);
    if (record?.seq === s.seq) attempt(record, { action: s.action }, s.cause);
  }
  for (const resource of Object.values(engine.declaration.resources)) {
    if (!resource.expiry || !resource.status) continue;
    for (const record of state.list(resource.name)) {
      if (record.expiresAt === undefined || !resource.expiry.from.includes(record.data[resource.status.field])) continue;
      if (record.expiresAt <= now) attempt(record, resource.expiry.to, cause);
      else upcoming = Math.min(upcoming, record.expiresAt);
    }
  }
  state.setWake(upcoming === Number.POSITIVE_INFINITY ? undefined : upcoming);
  return moves;
}

/** Schedules a move of `record` by `action` `seconds` from now on the credential's clock (a test value's `after`). */
export function scheduleMove(
  engine: EngineContext,
  state: CredentialState,
  record: StoredRecord,
  action: string,
  seconds: number,
  cause: string,
): void {
  const at = state.now() + seconds * 1000;
  state.scheduleMove({ resource: record.resource, id: record.id, seq: record.seq, action, at, cause });
  state.wakeBy(at);
  armWake(engine, state);
}

/** Sets the engine's scheduler to the credential's next scheduled move in real time. */
export function armWake(engine: EngineContext, state: CredentialState): void {
  let at = Number.POSITIVE_INFINITY;
  for (const s of state.scheduled) at = Math.min(at, s.at);
  engine.wakes.at(state.key, at === Number.POSITIVE_INFINITY ? undefined : at - state.clockOffsetMs + WAKE_SLACK_MS);
}

/** The scheduler's call for a credential whose scheduled move is due: a tick through the store's one path. */
export function wake(engine: EngineContext, key: string): void {
  const work = (state: CredentialState) => {
    tick(engine, state, "clock");
    armWake(engine, state);
  };
  const ran = engine.store.runExisting(key, work);
  if (ran instanceof Promise) ran.catch(() => engine.wakes.at(key, Date.now() + 1000));
}
