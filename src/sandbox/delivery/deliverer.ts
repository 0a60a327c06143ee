/**
 * Callback delivery for the sandbox, through the package's sender (src/callbacks/send.ts
 * `sendCallback`, which checks the payload against the webhook's schema): one event is one
 * `Idempotency-Key`, delivered until the receiver answers 2xx, at most `attempts` times with an
 * exponential backoff between attempts (./policy.ts), each attempt with a timeout. Asked to deliver
 * an event twice, the sandbox sends it once more, with the same key, after the first success.
 * Redirects are not followed (a 3xx is a failed attempt).
 *
 * Each delivery is data in its credential's state (../store/types.ts): its log entry (every attempt
 * recorded, shown by the control API) and, while pending, its place in the credential's queue with
 * the attempts made, when its next step is due and a lease while an attempt is in flight. The
 * Deliverer is the in-process scheduler that acts on what is due (../scheduler.ts, one unref'd
 * timer); it changes a state only through `run` (the store's one path). Deliveries of one
 * credential go one after the other, in the order they happened.
 *
 * Nothing is sent to a URL with userinfo or to a reserved example domain (the specs' examples use
 * them), nor to a target the callback policy (../targets.ts) refuses: such an event is logged as
 * failed with the reason. On a shared sandbox (the policy's `opaque`), a failed attempt is logged
 * without its error or duration, and the next step waits as if it had run its whole timeout, so
 * the log cannot tell an open port from a closed or filtered one.
 *
 * The queue is bounded (`queue`, the sandbox's options; by default LIMITS.deliveryQueue events per
 * credential and LIMITS.deliveryQueueTotal per mock): an event beyond is logged as failed and not
 * sent; a hosted sandbox's partner has its own quota of waiting callbacks instead of the
 * per-credential bound (the budget's `boundsOf`, ../store/limits.ts). Resetting or dropping a
 * credential's state (`cancel`) cancels what was queued for it, the attempt in flight included.
 *
 * An attempt in flight holds its delivery by a lease in the data (until its timeout and
 * LEASE_GRACE_MS after): a durable store's other instances leave it alone until then. A lease that
 * is no attempt of this process's is one whose maker stopped (killed mid-delivery): on a store of
 * one process (`leases: "own"`) at once, on a shared one (`"shared"`) once it ends, the attempt is
 * logged without an outcome and made again, with the event's same Idempotency-Key. Stopping
 * (`close`) fails what waits in memory; with a durable store (`close({ keep: true })`) what waits
 * stays queued, in the store, for the next start.
 *
 * How each delivery ended (delivered, failed, skipped, or refused by the callback policy) is told to
 * `onOutcome` when one is set (a hosted sandbox's metrics).
 */
import { randomUUID } from "node:crypto";
import { sendCallback } from "../../callbacks/send.js";
import { Scheduler } from "../scheduler.js";
import { LIMITS } from "../store/limits.js";
import type { CredentialState } from "../store/state.js";
import type { DeliveryEntry, PendingDelivery } from "../store/types.js";
import { TargetPolicy, TargetRefused } from "../targets.js";
import { backoff, boundedRetry, displayUrl, hasUserinfo, isExampleHost, type RetryPolicy } from "./policy.js";

/**
 * How long past its timeout an attempt in flight holds its delivery (its lease): its outcome is
 * recorded within it (one transaction); another instance may make the attempt again after that.
 */
export const LEASE_GRACE_MS = 2000;

const STOPPED = "the sandbox stopped before the delivery succeeded";
const CANCELLED = "the credential's state was reset or dropped before the delivery succeeded";
const ABANDONED = "no outcome: the sandbox process making this attempt stopped during it; it is made again";

/** How a delivery ended, as a hosted sandbox's metrics count it. */
export type DeliveryOutcome = "delivered" | "failed" | "skipped" | "refused";

export interface QueueBounds {
  perCredential: number;
  total: number;
}

/** Runs `work` on the current state of `state`'s credential, through its store's one path. */
export type StateRunner = <T>(state: CredentialState, work: (current: CredentialState) => T) => T | undefined | Promise<T | undefined>;

export interface DelivererOptions {
  alias: string;
  /** Registry the alias is looked up in (default: the package's own). */
  registry?: string;
  retry?: Partial<RetryPolicy>;
  /** Where callbacks may go (default: a local policy: anything but link-local and metadata addresses). */
  targets?: TargetPolicy;
  /** fetch used to deliver (tests); default: the policy's, which checks each resolved address. */
  fetch?: typeof fetch;
  /** Events waiting per credential and per mock (default: LIMITS.deliveryQueue, LIMITS.deliveryQueueTotal). */
  queue?: QueueBounds;
  /** The one path to a credential's state (the sandbox's store); default: the state itself. */
  run?: StateRunner;
  /**
   * Who else may hold a delivery's lease: `own` (default; memory, `file:`), no one but this process,
   * so a lease that is no attempt of this process's is stale at once; `shared` (Postgres), other
   * instances, whose leases are waited out.
   */
  leases?: "own" | "shared";
}

export interface CallbackEvent {
  webhook: string;
  resource: string;
  resourceId: string;
  event: DeliveryEntry["event"];
  /** Where to send it; undefined when no URL is known (the entry is logged as skipped). */
  url?: string;
  payload: unknown;
  /** 1, or 2 to deliver it twice. */
  times: number;
  /** The event's key (../engine/events.ts): every delivery of one event, resends included, carries it. */
  idempotencyKey?: string;
}

/** What one attempt gave. */
interface Outcome {
  status: number;
  error?: string;
  startedAt: number;
  elapsed: number;
}

const direct: StateRunner = (state, work) => work(state);

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as Promise<unknown> | undefined)?.then === "function";

export class Deliverer {
  readonly policy: RetryPolicy;
  readonly targets: TargetPolicy;
  readonly queue: QueueBounds;
  private readonly fetch: typeof fetch;
  private readonly run: StateRunner;
  /** The states with deliveries queued, by credential key. */
  private readonly active = new Map<string, CredentialState>();
  /** The attempts in flight, by delivery id: how to abort each, and its end. */
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** The leases this process holds, by delivery id: until when (a lease it took and has not yet given back). */
  private readonly held = new Map<string, number>();
  private readonly scheduler = new Scheduler((key) => this.due(key));
  private idlers: Array<() => void> = [];
  private closed = false;
  /** Told how each delivery ended (a hosted sandbox's metrics); nothing is counted without it. */
  onOutcome: ((outcome: DeliveryOutcome) => void) | undefined = undefined;
  /** Closed keeping what waits (a durable store): nothing fails for the stop. */
  private keep = false;
  private readonly leases: "own" | "shared";

  constructor(private readonly options: DelivererOptions) {
    this.policy = boundedRetry(options.retry);
    this.targets = options.targets ?? new TargetPolicy();
    this.queue = options.queue ?? { perCredential: LIMITS.deliveryQueue, total: LIMITS.deliveryQueueTotal };
    this.run = options.run ?? direct;
    this.leases = options.leases ?? "own";
    const base = options.fetch ?? this.targets.fetch;
    // Never follow a redirect: a 3xx is an answer like any other non-2xx.
    this.fetch = ((input: RequestInfo | URL, init?: RequestInit) => base(input, { ...init, redirect: "manual" })) as typeof fetch;
  }

  /**
   * Logs the event in the credential's delivery log and queues its delivery (both changes of the
   * state, made inside the request that raised it); returns the log entry.
   */
  enqueue(state: CredentialState, event: CallbackEvent): DeliveryEntry {
    const url = event.url === undefined ? undefined : displayUrl(event.url);
    const entry: DeliveryEntry = {
      id: `dlv_${randomUUID()}`,
      seq: 0,
      webhook: event.webhook,
      resource: event.resource,
      resourceId: event.resourceId,
      event: event.event,
      url,
      idempotencyKey: event.idempotencyKey ?? randomUUID(),
      payload: event.payload,
      state: "pending",
      times: event.times,
      deliveredCount: 0,
      attempts: [],
      createdAt: new Date().toISOString(),
    };
    const refusal = this.refusal(state, event.url, url);
    if (refusal !== undefined) {
      entry.state = refusal.state;
      entry.note = refusal.note;
      if (refusal.state === "skipped") delete entry.idempotencyKey;
      state.logDelivery(entry);
      this.onOutcome?.(refusal.outcome ?? refusal.state);
      return entry;
    }
    state.logDelivery(entry);
    state.queueDelivery({ entry, target: event.url!, attempts: 0, dueAt: Date.now(), next: "attempt" });
    this.watch(state);
    return entry;
  }

  /** Why an event is not queued (logged as skipped or failed with the reason); undefined when it is. */
  private refusal(
    state: CredentialState,
    target: string | undefined,
    shown: string | undefined,
  ): { state: "failed" | "skipped"; note: string; outcome?: DeliveryOutcome } | undefined {
    const failed = (note: string) => ({ state: "failed" as const, note });
    if (target === undefined || target === "")
      return { state: "skipped" as const, note: "no callback URL is known for this event (see the webhook's url rule in GET /_sandbox)" };
    if (shown === undefined) return failed("the callback URL is not an http(s) URL");
    if (isExampleHost(target))
      return failed("the callback URL's host is a reserved example domain (RFC 2606), which does not exist: nothing is sent");
    if (hasUserinfo(target)) return failed("the callback URL carries a user name or password, which the sandbox does not send");
    try {
      this.targets.check(target);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      return { ...failed(error.message), outcome: "refused" };
    }
    const { total } = this.queue;
    const bounds = state.budget.boundsOf(state.key);
    const perCredential = bounds.queuedCallbacks ?? this.queue.perCredential;
    if (state.queue.length >= perCredential)
      return failed(
        `${perCredential} callbacks of this credential are already waiting to be delivered, ${bounds.queuedCallbacks === undefined ? "the sandbox's limit" : bounds.named}: this one is not sent`,
      );
    if (this.queued() >= total)
      return failed(`${total} callbacks are already waiting to be delivered on this mock, the sandbox's limit: this one is not sent`);
    if (this.closed && !this.keep) return failed(STOPPED);
    return undefined;
  }

  /** Takes a state's queue into the scheduler (a state whose queue was just added to, or loaded with deliveries pending). */
  watch(state: CredentialState): void {
    if (this.closed) return;
    if (state.queue.length === 0) {
      // A state read back with nothing queued: one kept here for its credential is out of date.
      this.active.delete(state.key);
      return;
    }
    this.active.set(state.key, state);
    const head = state.queue[0];
    if (head.lease === undefined) this.scheduler.at(state.key, head.dueAt);
    else if (!this.held.has(head.entry.id)) this.scheduler.at(state.key, this.leases === "shared" ? head.lease : Date.now());
  }

  /** How many events wait to be delivered for `state` (undefined: every credential together). */
  queued(state?: CredentialState): number {
    if (state !== undefined) return state.queue.length;
    let waiting = 0;
    for (const active of this.active.values()) waiting += active.queue.length;
    return waiting;
  }

  /** Cancels every delivery queued for a credential (its state was reset or dropped), the one in flight included. */
  cancel(state: CredentialState): void {
    for (const pending of [...state.queue]) {
      this.finish(state, pending, "failed", CANCELLED);
      this.inFlight.get(pending.entry.id)?.abort.abort();
      this.held.delete(pending.entry.id);
    }
    if (this.active.get(state.key) === state) {
      this.active.delete(state.key);
      this.scheduler.at(state.key, undefined);
    }
    this.settled();
  }

  /** Resolves when every delivery queued so far has finished (delivered, failed or cancelled). */
  async idle(): Promise<void> {
    while (this.busy()) await new Promise<void>((resolve) => this.idlers.push(resolve));
  }

  /**
   * Stops: what waits fails at once; deliveries in flight end with their current attempt. With
   * `keep` (a durable store), what waits stays queued and an attempt in flight records its outcome
   * and its next step, which the next start makes.
   */
  close({ keep = false } = {}): void {
    this.closed = true;
    this.keep = keep;
    this.scheduler.close();
    if (!keep) for (const state of [...this.active.values()]) void this.step(state);
  }

  /** Resolves when no attempt is in flight any more, or after `ms`. */
  async drain(ms: number): Promise<void> {
    const ends = [...this.inFlight.values()].map((flight) => flight.done.catch(() => undefined));
    if (ends.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(ends), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  private busy(): boolean {
    if (this.inFlight.size > 0) return true;
    for (const state of this.active.values()) if (state.queue.length > 0) return true;
    return false;
  }

  private settled(): void {
    if (this.idlers.length === 0 || this.busy()) return;
    for (const resolve of this.idlers.splice(0)) resolve();
  }

  private due(key: string): void {
    const state = this.active.get(key);
    if (state) void this.step(state);
  }

  /** Takes the credential's queue as far as it goes now (through the store's one path), then starts the attempt that is due, if any. */
  private async step(state: CredentialState): Promise<void> {
    let leased: string | undefined;
    try {
      const ran = this.run(state, (current) => {
        const next = this.advance(current);
        leased = next?.pending.entry.id;
        return next;
      });
      const started = isPromise(ran) ? await ran : ran;
      if (started) this.launch(started.state, started.pending);
    } catch {
      // The store could not run the step (a durable store's write failed): the queue stays as stored
      // (the lease taken in memory was not kept), and the step is tried again after an attempt's timeout.
      if (leased !== undefined) this.held.delete(leased);
      this.scheduler.at(state.key, Date.now() + this.policy.timeoutMs);
    }
    this.settled();
  }

  /**
   * The queue's next steps that are due: a give-up done, a head whose next attempt is due leased and
   * returned to be made. A head in flight or due later waits (the scheduler is set for it).
   */
  private advance(state: CredentialState): { state: CredentialState; pending: PendingDelivery } | undefined {
    for (;;) {
      const head = state.queue[0];
      if (!head) {
        // The state given is the credential's current one: one kept here for it is done (or out of date).
        this.active.delete(state.key);
        return undefined;
      }
      const now = Date.now();
      if (head.lease !== undefined) {
        if (this.held.has(head.entry.id)) return undefined; // this process's attempt, in flight
        if (this.closed) return undefined;
        if (this.leases === "shared" && head.lease > now) {
          // Another instance's attempt: looked at again when its lease ends.
          this.active.set(state.key, state);
          this.scheduler.at(state.key, head.lease);
          return undefined;
        }
        this.abandoned(state, head, now);
        continue;
      }
      if (this.closed) {
        if (this.keep) return undefined;
        this.finish(state, head, "failed", STOPPED);
        continue;
      }
      if (head.dueAt > now) {
        this.active.set(state.key, state);
        this.scheduler.at(state.key, head.dueAt);
        return undefined;
      }
      if (head.next === "give-up") {
        this.finish(state, head, "failed", `no 2xx answer after ${this.policy.attempts} attempt(s)`);
        continue;
      }
      head.attempts += 1;
      head.lease = now + this.policy.timeoutMs + LEASE_GRACE_MS;
      this.held.set(head.entry.id, head.lease);
      state.touchDelivery(head.entry);
      return { state, pending: head };
    }
  }

  /** An attempt whose maker stopped during it: logged without an outcome, and made again at once (or given up, its attempts used). */
  private abandoned(state: CredentialState, pending: PendingDelivery, now: number): void {
    const { entry } = pending;
    if (entry.attempts.length < LIMITS.attemptsLogged)
      entry.attempts.push({ at: new Date(now).toISOString(), status: 0, error: ABANDONED });
    pending.lease = undefined;
    state.touchDelivery(entry);
    if (pending.attempts < this.policy.attempts) Object.assign(pending, { dueAt: now, next: "attempt" });
    else this.finish(state, pending, "failed", `no 2xx answer after ${this.policy.attempts} attempt(s)`);
  }

  private finish(state: CredentialState, pending: PendingDelivery, outcome: "delivered" | "failed", note?: string): void {
    pending.entry.state = outcome;
    if (note !== undefined) pending.entry.note = note;
    state.unqueueDelivery(pending);
    this.onOutcome?.(outcome);
  }

  /** Makes an attempt in flight; its outcome goes back into the state through the one path. */
  private launch(state: CredentialState, pending: PendingDelivery): void {
    const abort = new AbortController();
    const id = pending.entry.id;
    const done = this.attempt(pending, abort.signal).then(async (outcome) => {
      const ran = this.run(state, (current) => this.record(current, id, pending.entry, outcome));
      if (isPromise(ran)) await ran;
    });
    this.inFlight.set(id, { abort, done });
    void done
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(id);
        return this.step(state);
      });
  }

  /** Records an attempt's outcome on its delivery and sets its next step. */
  private record(state: CredentialState, id: string, sent: DeliveryEntry, outcome: Outcome): void {
    const lease = this.held.get(id);
    this.held.delete(id);
    const found = state.queue.find((p) => p.entry.id === id);
    // The delivery is this attempt's while it holds the lease this process took (another instance may have taken it over since).
    const pending = found?.lease !== undefined && found.lease === lease ? found : undefined;
    // A cancelled delivery keeps the attempt it had in flight (in the log, where it still is).
    const entry = found?.entry ?? state.deliveries.find((logged) => logged.id === id) ?? sent;
    const opaque = this.targets.opaque;
    if (entry.attempts.length < LIMITS.attemptsLogged) {
      entry.attempts.push({
        at: new Date(outcome.startedAt).toISOString(),
        status: outcome.status,
        // A shared sandbox shows neither why nor how fast an attempt failed (a port scanner's answers).
        ...(outcome.error && !opaque ? { error: outcome.error } : {}),
        ...(opaque && outcome.status === 0 ? {} : { durationMs: Math.round(outcome.elapsed) }),
      });
      state.touchDelivery(entry);
    }
    if (!pending) return;
    pending.lease = undefined;
    state.touchDelivery(entry);
    const now = Date.now();
    if (outcome.status >= 200 && outcome.status < 300) {
      entry.deliveredCount++;
      if (entry.deliveredCount >= entry.times) this.finish(state, pending, "delivered");
      else if (this.closed && !this.keep) this.finish(state, pending, "failed", STOPPED);
      else Object.assign(pending, { attempts: 0, dueAt: now, next: "attempt" });
      return;
    }
    if (this.closed && !this.keep) {
      this.finish(state, pending, "failed", STOPPED);
      return;
    }
    // ... and on a shared sandbox a failure takes as long as the attempt's whole timeout before anything else happens.
    const hold = opaque && outcome.status === 0 && outcome.elapsed < this.policy.timeoutMs ? this.policy.timeoutMs - outcome.elapsed : 0;
    if (pending.attempts < this.policy.attempts) {
      Object.assign(pending, { dueAt: now + hold + backoff(this.policy, pending.attempts + 1), next: "attempt" });
    } else if (hold > 0) {
      Object.assign(pending, { dueAt: now + hold, next: "give-up" });
    } else {
      this.finish(state, pending, "failed", `no 2xx answer after ${this.policy.attempts} attempt(s)`);
    }
  }

  /** One attempt over the network: the status (0 when the request failed) and how long it took. */
  private async attempt(pending: PendingDelivery, cancelled: AbortSignal): Promise<Outcome> {
    const started = performance.now();
    const startedAt = Date.now();
    const send = this.fetch;
    // A cancelled credential's attempt in flight is aborted too.
    const fetchWithCancel = ((input: RequestInfo | URL, init?: RequestInit) =>
      send(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, cancelled]) : cancelled })) as typeof fetch;
    let status = 0;
    let error: string | undefined;
    try {
      const result = await sendCallback(this.options.alias, pending.entry.webhook, {
        to: pending.target,
        payload: pending.entry.payload,
        idempotencyKey: pending.entry.idempotencyKey,
        timeoutMs: this.policy.timeoutMs,
        registry: this.options.registry,
        fetch: fetchWithCancel,
      });
      const delivery = result.deliveries[0];
      status = delivery.status;
      error = delivery.error;
    } catch (failure) {
      error = (failure as Error).message;
    }
    return { status, error, startedAt, elapsed: performance.now() - started };
  }
}
