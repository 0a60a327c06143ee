/**
 * Callback delivery for the sandbox, through the package's sender (src/callbacks/send.ts
 * `sendCallback`, which checks the payload against the webhook's schema): one event is one
 * `Idempotency-Key`, delivered until the receiver answers 2xx, at most `attempts` times with an
 * exponential backoff between attempts (`baseDelayMs`, doubling, at most `maxDelayMs`), each
 * attempt with a timeout. Asked to deliver an event twice, the sandbox sends it once more, with the
 * same key, after the first success. Redirects are not followed (a 3xx is a failed attempt).
 *
 * Events of one credential are delivered one after the other, in the order they happened. Every
 * attempt is recorded in the credential's delivery log (src/sandbox/store.ts), which the control
 * API shows. This retry policy is the sandbox's own: the sources do not show the provider's.
 * Nothing is sent to a URL with userinfo or to a reserved example domain (the specs' examples use
 * them), nor to a target the callback policy (./targets.ts) refuses: such an event is logged as
 * failed with the reason. On a shared sandbox (the policy's `opaque`), a failed attempt is logged
 * without its error or duration, and the next attempt waits as if it had run its whole timeout, so
 * the log cannot tell an open port from a closed or filtered one.
 *
 * The queue is bounded (`queue`, the sandbox's options; by default LIMITS.deliveryQueue events
 * per credential and LIMITS.deliveryQueueTotal per mock): an event beyond is logged as failed and not sent. Resetting or
 * dropping a credential's state (`cancel`) cancels what was queued for it, in flight included.
 */
import { randomUUID } from "node:crypto";
import { sendCallback } from "../callbacks/send.js";
import { type CredentialState, type DeliveryEntry, LIMITS } from "./store.js";
import { TargetPolicy, TargetRefused } from "./targets.js";

export interface RetryPolicy {
  /** Attempts per delivery, the first included (1-10). */
  attempts: number;
  /** Wait before the second attempt, ms; doubled for each later one (1-60000). */
  baseDelayMs: number;
  /** Longest wait between attempts, ms (1-60000). */
  maxDelayMs: number;
  /** Timeout of one attempt, ms (100-30000). */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 4000, timeoutMs: 5000 };

const clamp = (value: number | undefined, min: number, max: number, fallback: number) =>
  value === undefined || !Number.isFinite(value) ? fallback : Math.min(max, Math.max(min, Math.round(value)));

/** The policy with every value inside its bounds. */
export function boundedRetry(policy: Partial<RetryPolicy> = {}): RetryPolicy {
  return {
    attempts: clamp(policy.attempts, 1, 10, DEFAULT_RETRY.attempts),
    baseDelayMs: clamp(policy.baseDelayMs, 1, 60_000, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: clamp(policy.maxDelayMs, 1, 60_000, DEFAULT_RETRY.maxDelayMs),
    timeoutMs: clamp(policy.timeoutMs, 100, 30_000, DEFAULT_RETRY.timeoutMs),
  };
}

/** The wait before attempt `n` (2, 3, ...). */
export const backoff = (policy: RetryPolicy, n: number) => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 2));

/** `url` without userinfo, for the log; undefined when it is not an http(s) URL. */
export function displayUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** True when an http(s) URL carries userinfo (`user:pass@`). */
export function hasUserinfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== "" || parsed.password !== "";
  } catch {
    return false;
  }
}

/**
 * True for a host under the domains RFC 2606 reserves for examples (example.com, .net, .org and
 * the .example and .invalid TLDs): the specs' example URLs use them, and they never resolve, so the
 * sandbox does not try (no DNS lookup, no retries).
 */
export function isExampleHost(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
    return /(^|\.)example\.(com|net|org)$/.test(host) || /\.(example|invalid)$/.test(host) || host === "example" || host === "invalid";
  } catch {
    return false;
  }
}

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
}

export interface QueueBounds {
  perCredential: number;
  total: number;
}

/** A credential's place in the delivery queue. */
interface Lane {
  tail: Promise<void>;
  waiting: number;
  cancelled: AbortController;
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
  /** The event's key (./lifecycle.ts): every delivery of one event, resends included, carries it. */
  idempotencyKey?: string;
}

export class Deliverer {
  readonly policy: RetryPolicy;
  readonly targets: TargetPolicy;
  readonly queue: QueueBounds;
  private readonly lanes = new WeakMap<CredentialState, Lane>();
  private readonly pending = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  private readonly fetch: typeof fetch;
  /** Events waiting or being delivered, every credential together. */
  private waiting = 0;

  constructor(private readonly options: DelivererOptions) {
    this.policy = boundedRetry(options.retry);
    this.targets = options.targets ?? new TargetPolicy();
    this.queue = options.queue ?? { perCredential: LIMITS.deliveryQueue, total: LIMITS.deliveryQueueTotal };
    const base = options.fetch ?? this.targets.fetch;
    // Never follow a redirect: a 3xx is an answer like any other non-2xx.
    this.fetch = ((input: RequestInfo | URL, init?: RequestInit) => base(input, { ...init, redirect: "manual" })) as typeof fetch;
  }

  /** Logs the event in the credential's delivery log and queues its delivery; returns the log entry. */
  enqueue(state: CredentialState, event: CallbackEvent): DeliveryEntry {
    const url = event.url === undefined ? undefined : displayUrl(event.url);
    const entry: DeliveryEntry = {
      id: `dlv_${randomUUID()}`,
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
    if (event.url === undefined || event.url === "") {
      entry.state = "skipped";
      entry.note = "no callback URL is known for this event (see the webhook's url rule in GET /_sandbox)";
      delete entry.idempotencyKey;
      state.log(entry);
      return entry;
    }
    if (url === undefined) {
      entry.state = "failed";
      entry.note = "the callback URL is not an http(s) URL";
      state.log(entry);
      return entry;
    }
    if (isExampleHost(event.url)) {
      entry.state = "failed";
      entry.note = "the callback URL's host is a reserved example domain (RFC 2606), which does not exist: nothing is sent";
      state.log(entry);
      return entry;
    }
    if (hasUserinfo(event.url)) {
      entry.state = "failed";
      entry.note = "the callback URL carries a user name or password, which the sandbox does not send";
      state.log(entry);
      return entry;
    }
    try {
      this.targets.check(event.url);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      entry.state = "failed";
      entry.note = error.message;
      state.log(entry);
      return entry;
    }
    let lane = this.lanes.get(state);
    if (!lane) {
      lane = { tail: Promise.resolve(), waiting: 0, cancelled: new AbortController() };
      this.lanes.set(state, lane);
    }
    const { perCredential, total } = this.queue;
    if (lane.waiting >= perCredential || this.waiting >= total) {
      entry.state = "failed";
      entry.note =
        lane.waiting >= perCredential
          ? `${perCredential} callbacks of this credential are already waiting to be delivered, the sandbox's limit: this one is not sent`
          : `${total} callbacks are already waiting to be delivered on this mock, the sandbox's limit: this one is not sent`;
      state.log(entry);
      return entry;
    }
    state.log(entry);
    const current = lane;
    current.waiting++;
    this.waiting++;
    const run = current.tail.then(() => this.deliver(entry, event.url!, current.cancelled.signal));
    current.tail = run;
    this.pending.add(run);
    void run.finally(() => {
      current.waiting--;
      this.waiting--;
      this.pending.delete(run);
    });
    return entry;
  }

  /** How many events wait to be delivered for `state` (undefined: every credential together). */
  queued(state?: CredentialState): number {
    return state === undefined ? this.waiting : (this.lanes.get(state)?.waiting ?? 0);
  }

  /** Cancels every delivery queued for a credential (its state was reset or dropped), the one in flight included. */
  cancel(state: CredentialState): void {
    this.lanes.get(state)?.cancelled.abort();
    this.lanes.delete(state);
  }

  /** Resolves when every delivery queued so far has finished (delivered, failed or cancelled). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Cancels waiting retries; deliveries in flight end with their current attempt. */
  close(): void {
    this.closing.abort();
  }

  private wait(ms: number, cancelled: AbortSignal): Promise<boolean> {
    if (this.closing.signal.aborted || cancelled.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.closing.signal.removeEventListener("abort", stop);
        cancelled.removeEventListener("abort", stop);
        resolve(true);
      }, ms);
      const stop = () => {
        clearTimeout(timer);
        this.closing.signal.removeEventListener("abort", stop);
        cancelled.removeEventListener("abort", stop);
        resolve(false);
      };
      this.closing.signal.addEventListener("abort", stop, { once: true });
      cancelled.addEventListener("abort", stop, { once: true });
    });
  }

  private async attempt(entry: DeliveryEntry, url: string, cancelled: AbortSignal): Promise<boolean> {
    const started = performance.now();
    const send = this.fetch;
    // A cancelled credential's attempt in flight is aborted too.
    const fetchWithCancel = ((input: RequestInfo | URL, init?: RequestInit) =>
      send(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, cancelled]) : cancelled })) as typeof fetch;
    let status = 0;
    let error: string | undefined;
    try {
      const result = await sendCallback(this.options.alias, entry.webhook, {
        to: url,
        payload: entry.payload,
        idempotencyKey: entry.idempotencyKey,
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
    const elapsed = performance.now() - started;
    const opaque = this.targets.opaque;
    if (entry.attempts.length < LIMITS.attemptsLogged) {
      entry.attempts.push({
        at: new Date(Date.now() - elapsed).toISOString(),
        status,
        // A shared sandbox shows neither why nor how fast an attempt failed (a port scanner's answers).
        ...(error && !opaque ? { error } : {}),
        ...(opaque && status === 0 ? {} : { durationMs: Math.round(elapsed) }),
      });
    }
    const ok = status >= 200 && status < 300;
    // ... and a failure takes as long as the attempt's whole timeout before anything else happens.
    if (opaque && status === 0 && elapsed < this.policy.timeoutMs) await this.wait(this.policy.timeoutMs - elapsed, cancelled);
    return ok;
  }

  private async deliver(entry: DeliveryEntry, url: string, cancelled: AbortSignal): Promise<void> {
    for (let time = 1; time <= entry.times; time++) {
      let ok = false;
      for (let n = 1; n <= this.policy.attempts; n++) {
        if (this.closing.signal.aborted || cancelled.aborted) break;
        if (n > 1 && !(await this.wait(backoff(this.policy, n), cancelled))) break;
        ok = await this.attempt(entry, url, cancelled);
        if (ok) break;
      }
      if (!ok) {
        entry.state = "failed";
        entry.note = cancelled.aborted
          ? "the credential's state was reset or dropped before the delivery succeeded"
          : this.closing.signal.aborted
            ? "the sandbox stopped before the delivery succeeded"
            : `no 2xx answer after ${this.policy.attempts} attempt(s)`;
        return;
      }
      entry.deliveredCount++;
    }
    entry.state = "delivered";
  }
}
