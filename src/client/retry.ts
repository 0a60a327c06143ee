/**
 * Retries and the call deadline of the generated clients (used by factory.ts). Every call is made
 * of at most `retry.attempts` attempts, each a whole openapi-fetch call (so every attempt passes
 * through the client's middleware: onRequest, then onResponse or onError), all within `timeoutMs`.
 *
 * What is retried (each wait is a jittered exponential backoff, or the answer's `Retry-After`):
 *   - an answer whose status is in `retry.statuses` (default 408, 429, 500, 502, 503, 504), and a
 *     `network` fault (no answer, or a connection that broke), when the call may be repeated: its
 *     method is idempotent (GET, HEAD, OPTIONS, PUT, DELETE, TRACE; RFC 9110, 9.2.2), or the
 *     operation's contract declares an `Idempotency-Key` request header (the provider deduplicates
 *     it; the generated client lists such operations from the spec) and the call sends one. A POST
 *     or PATCH of any other operation is never repeated once it may have reached the server: a
 *     second one could create a second payment. No option turns this off;
 *   - for any method (POST and PATCH included), a connection that could not be made (ECONNREFUSED,
 *     ENOTFOUND, EAI_AGAIN, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL, a connect timeout) before any
 *     answer: the request never reached the server. A connection reset or closed after it was made
 *     (ECONNRESET, UND_ERR_SOCKET, ...) is not that: the server may have read the request.
 * Never retried: a timeout (the deadline covers the whole call), the caller's abort, a 2xx, a body
 * that is not JSON or too large, a redirect to another origin (the 3xx is the answer), any other
 * status.
 *
 * `Retry-After` (seconds, or an HTTP-date read against the answer's `Date` header, else the clock)
 * is honoured on every retried status: the wait is exactly what the server asked for. When it asks
 * for more than `maxDelayMs`, or the wait would end past the deadline, there is no retry: the answer
 * is the result (its `Retry-After` readable on `response`).
 *
 * Bounds: attempts 1..10 (default 3), `baseDelayMs` 0..60 000 (default 200), `maxDelayMs`
 * 0..300 000 (default 5 000), `timeoutMs` 1..2 147 483 647 (default 60 000) for the whole call,
 * attempts and waits included. When the deadline passes, the pending attempt is aborted and the
 * result is the fault `timeout`, its message naming the operation and the limit, its `cause` a
 * CallTimeoutError. A caller's own `signal` still works beside the deadline (the fault `aborted`).
 * The deadline sets no timer per call (calls share one timer per 16 ms slot, see Deadline), so it
 * fires at most 16 ms after the limit; what remains of its cost is fetch's own following of the
 * call's AbortSignal, the price of a request that can still be stopped when the limit passes.
 *
 * A body is sent again as it was given: openapi-fetch serializes `body` anew for each attempt, and
 * a ReadableStream body (with a pass-through `bodySerializer`) is split with `tee()` before each
 * attempt that may be followed by another, so the next attempt has its own copy.
 */
import { type ApiError, CallTimeoutError, causeCode, type Operation } from "./errors.js";

/** What a retry is about to answer for: passed to `onRetry` before the wait. */
export interface RetryEvent {
  /** The operation: HTTP method and the spec's path template. */
  operation: Operation;
  /** Number of the attempt about to be made (2 for the first retry). */
  attempt: number;
  /** The most attempts this call makes. */
  attempts: number;
  /** The wait before that attempt, milliseconds. */
  delayMs: number;
  /** `status`: the answer's status is retried; `network`: there was no usable answer. */
  reason: "status" | "network";
  /** The status of the answer retried; 0 for `network`. */
  status: number;
  /** The failed attempt's request, as sent (after the middleware). */
  request: Request;
  /** The answer retried (its body already read); undefined for `network`. */
  response?: Response;
  /** The `network` fault, an ApiError whose `cause` is what fetch threw. */
  fault?: ApiError;
}

/** Retry settings, on the client (`retry`) and on a call (`retry`, merged over the client's). */
export interface RetryOptions {
  /** Attempts in all, the first included: 1 turns retries off. Default 3, at most 10. */
  attempts?: number;
  /** The first backoff, milliseconds; doubled per retry, with jitter (half of it random). Default 200. */
  baseDelayMs?: number;
  /** The longest wait between attempts, and the longest `Retry-After` honoured, milliseconds. Default 5000. */
  maxDelayMs?: number;
  /** The statuses retried. Default 408, 429, 500, 502, 503, 504. */
  statuses?: readonly number[];
  /** Called before each wait; awaited. An error it throws rejects the call. */
  onRetry?: (event: RetryEvent) => void | Promise<void>;
  /**
   * Waits `ms`, rejecting with `signal.reason` when it aborts. Default: a timer. Tests pass a stub.
   * `signal` is the call's deadline: it has an AbortSignal's `aborted`, `reason`, `throwIfAborted`
   * and "abort" listeners (timers/promises and fetch take it), but is not an AbortSignal instance
   * (`AbortSignal.any` does not take it).
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Returns a number in [0, 1) for the jitter. Default Math.random. */
  random?: () => number;
}

/** Options a call takes besides openapi-fetch's own. */
export interface CallOptions {
  /** Retry settings for this call, merged over the client's; `false`: one attempt only. */
  retry?: RetryOptions | false;
  /** Limit of this call (every attempt and wait), milliseconds; default the client's `timeoutMs`. */
  timeoutMs?: number;
}

export const DEFAULT_RETRY = {
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  statuses: [408, 429, 500, 502, 503, 504] as readonly number[],
} as const;

/** Default of `timeoutMs`: the limit of one call, every attempt and wait included. */
export const DEFAULT_TIMEOUT_MS = 60_000;

const LIMITS = { attempts: [1, 10], baseDelayMs: [0, 60_000], maxDelayMs: [0, 300_000], timeoutMs: [1, 2_147_483_647] } as const;

/** The settings of one call, validated. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  statuses: ReadonlySet<number>;
  onRetry?: RetryOptions["onRetry"];
  sleep: NonNullable<RetryOptions["sleep"]>;
  random: () => number;
}

function integerIn(where: string, option: keyof typeof LIMITS, value: unknown): number {
  const [min, max] = LIMITS[option];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${where}: option "${option}" must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function functionOrUndefined<T>(where: string, option: string, value: unknown): T | undefined {
  if (value !== undefined && typeof value !== "function") throw new TypeError(`${where}: option "retry.${option}" must be a function`);
  return value as T | undefined;
}

/**
 * Checks retry options (`where` names the factory or the call in the message) and merges them over
 * `base`; `false` gives one attempt.
 */
export function retryPolicy(where: string, given: unknown, base?: RetryPolicy): RetryPolicy {
  const start: RetryPolicy = base ?? {
    ...DEFAULT_RETRY,
    statuses: new Set(DEFAULT_RETRY.statuses),
    sleep: defaultSleep,
    random: Math.random,
  };
  if (given === undefined) return start;
  if (given === false) return { ...start, attempts: 1 };
  if (typeof given !== "object" || given === null) throw new TypeError(`${where}: option "retry" must be an object or false`);
  const o = given as Record<string, unknown>;
  const known = new Set(["attempts", "baseDelayMs", "maxDelayMs", "statuses", "onRetry", "sleep", "random"]);
  if ("unsafe" in o) {
    throw new TypeError(
      `${where}: option "retry.unsafe" is not supported: a POST or PATCH is retried only where its contract declares an Idempotency-Key header (the provider deduplicates it) and the call sends one`,
    );
  }
  for (const key of Object.keys(o)) if (!known.has(key)) throw new TypeError(`${where}: unknown option "retry.${key}"`);
  const policy = { ...start };
  if (o.attempts !== undefined) policy.attempts = integerIn(where, "attempts", o.attempts);
  if (o.baseDelayMs !== undefined) policy.baseDelayMs = integerIn(where, "baseDelayMs", o.baseDelayMs);
  if (o.maxDelayMs !== undefined) policy.maxDelayMs = integerIn(where, "maxDelayMs", o.maxDelayMs);
  if (o.statuses !== undefined) {
    const list = o.statuses;
    if (!Array.isArray(list) || !list.every((s) => Number.isInteger(s) && s >= 400 && s <= 599)) {
      throw new TypeError(`${where}: option "retry.statuses" must be a list of 4xx and 5xx statuses`);
    }
    policy.statuses = new Set(list as number[]);
  }
  if (o.onRetry !== undefined) policy.onRetry = functionOrUndefined(where, "onRetry", o.onRetry);
  if (o.sleep !== undefined) policy.sleep = functionOrUndefined(where, "sleep", o.sleep)!;
  if (o.random !== undefined) policy.random = functionOrUndefined(where, "random", o.random)!;
  return policy;
}

/** Checks a `timeoutMs` option; undefined gives `fallback`. */
export function timeoutOption(where: string, value: unknown, fallback: number): number {
  return value === undefined ? fallback : integerIn(where, "timeoutMs", value);
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Methods that may be repeated without changing the outcome (RFC 9110, 9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);

/** System errors of a connection that could not be made: the request was not sent. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * The milliseconds a `Retry-After` value asks for: delta-seconds, or an HTTP-date measured from the
 * answer's `Date` header (the server's clock), else from `now`. Undefined when absent or unreadable;
 * a date in the past gives 0.
 */
export function retryAfterMs(value: string | null, date: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (!/[a-z]/i.test(text) || Number.isNaN(at)) return undefined;
  const from = date === null ? Number.NaN : Date.parse(date);
  return Math.max(0, at - (Number.isNaN(from) ? now : from));
}

/** The backoff before attempt `next` (2 for the first retry): half of base * 2^(next - 2), plus a random part of the other half, capped. */
export function backoffMs(next: number, policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs" | "random">): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (next - 2));
  const r = policy.random();
  return Math.round(ceiling / 2 + (ceiling / 2) * (r >= 0 && r < 1 ? r : 0.5));
}

/** What one attempt gave: the result (openapi-fetch's, or a fault), and what the guard saw of it. */
export interface AttemptOutcome<R> {
  result: R;
  /** The request as sent (after the middleware); undefined when it never went out. */
  request?: Request;
  /** True once any answer arrived (a redirect's too). */
  answered: boolean;
}

interface ResultLike {
  fault?: ApiError;
  response: Response;
}

/**
 * Why this result may be retried (undefined: it is final). `deduplicated`: the operation's contract
 * declares an Idempotency-Key request header.
 */
function retryReason(outcome: AttemptOutcome<ResultLike>, policy: RetryPolicy, deduplicated: boolean): "status" | "network" | undefined {
  const { result, request } = outcome;
  if (!request) return undefined;
  const safe = IDEMPOTENT.has(request.method) || (deduplicated && request.headers.has("idempotency-key"));
  if (result.fault) {
    if (result.fault.kind !== "network") return undefined;
    const code = causeCode(result.fault.cause);
    if (safe || (!outcome.answered && code !== undefined && NOT_SENT.has(code))) return "network";
    return undefined;
  }
  return safe && policy.statuses.has(result.response.status) ? "status" : undefined;
}

/** Width of a deadline slot, milliseconds: a call's deadline fires at most this much after its limit. */
const SLOT_MS = 16;

/** The deadlines falling in one slot, and whether its timer is set. */
type Slot = Set<Deadline>;
const slots = new Map<number, Slot>();

/** Aborts every call still in the slot `key`. */
function fireSlot(key: number): void {
  const slot = slots.get(key);
  slots.delete(key);
  if (slot) for (const deadline of slot) deadline.fire();
}

type AbortListener = (this: unknown, event: { type: "abort" }) => void;

/**
 * A call's time limit, and the signal its attempts are sent with: it aborts (its `reason` a
 * CallTimeoutError) when `timeoutMs` has passed, or when the caller's own `signal` aborts (with that
 * reason). It costs nothing until it fires:
 *
 *  - no timer per call: a deadline joins the slot of SLOT_MS in which it falls, and one unref'd
 *    timer per slot, set by the first call in it, aborts the calls still there when it fires (a call
 *    that ends leaves its slot; the timer is never cleared, it finds the slot empty);
 *  - no AbortController or EventTarget per call: it is itself the signal, an object with what fetch
 *    reads of one (`aborted`, `reason`, `addEventListener`/`removeEventListener` for "abort"), which
 *    fetch accepts as it accepts a polyfilled AbortSignal. A real AbortSignal (an AbortController
 *    made per call, and fetch's listener added to that EventTarget for every request) adds
 *    noticeably to a call's CPU; this one adds nothing over no signal, since a listener is one array
 *    slot (docs/adr/0006-client-deadline-and-fetch.md). A Request built from it (an injected `fetch`,
 *    a followed redirect) carries fetch's own AbortSignal, which follows this one.
 *
 * A caller's own `signal` is followed by a listener on it, removed when the call ends.
 */
class Deadline {
  aborted = false;
  reason: unknown = undefined;
  #listeners: AbortListener[] | undefined;
  readonly #slot: Slot;
  readonly #caller: AbortSignal | undefined;
  #forward: (() => void) | undefined;

  constructor(
    readonly operation: Operation,
    readonly timeoutMs: number,
    caller: AbortSignal | null | undefined,
  ) {
    const at = performance.now() + timeoutMs;
    const key = Math.ceil(at / SLOT_MS);
    let slot = slots.get(key);
    if (!slot) {
      slot = new Set();
      slots.set(key, slot);
      setTimeout(fireSlot, key * SLOT_MS - performance.now(), key).unref();
    }
    slot.add(this);
    this.#slot = slot;
    this.#caller = caller ?? undefined;
    if (caller) {
      if (caller.aborted) this.abort(caller.reason);
      else {
        this.#forward = () => this.abort(caller.reason);
        caller.addEventListener("abort", this.#forward, { once: true });
      }
    }
  }

  /** This object as the AbortSignal type the code around it expects (see the class comment). */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  addEventListener(type: string, listener: AbortListener | { handleEvent: AbortListener } | null): void {
    if (type !== "abort" || !listener) return;
    const call: AbortListener = typeof listener === "function" ? listener : (event) => listener.handleEvent(event);
    if (this.aborted) return;
    (this.#listeners ??= []).push(call);
  }

  removeEventListener(type: string, listener: unknown): void {
    if (type !== "abort" || !this.#listeners) return;
    const at = this.#listeners.indexOf(listener as AbortListener);
    if (at !== -1) this.#listeners.splice(at, 1);
  }

  /** fetch adjusts an AbortSignal's listener limit before listening (events.setMaxListeners): nothing to adjust here. */
  getMaxListeners(): number {
    return Number.POSITIVE_INFINITY;
  }

  setMaxListeners(): void {}

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    // As an EventTarget calls them: once each, `this` the signal.
    if (listeners) for (const listener of listeners) listener.call(this, { type: "abort" });
  }

  fire(): void {
    this.abort(new CallTimeoutError(this.operation, this.timeoutMs));
  }

  /** The call ended: it leaves its slot and stops following the caller's signal. */
  end(): void {
    this.#slot.delete(this);
    this.#listeners = undefined;
    if (this.#forward) this.#caller!.removeEventListener("abort", this.#forward);
  }
}

/**
 * Runs `attempt` until its result is final, the attempts are used up, or the deadline passes. Each
 * attempt gets the call's signal (the deadline and the caller's `signal`) and the body to send.
 */
export async function withRetries<R extends ResultLike>(options: {
  operation: Operation;
  policy: RetryPolicy;
  /** The operation's contract declares an `Idempotency-Key` request header: a call sending one may be repeated. */
  deduplicated: boolean;
  timeoutMs: number;
  signal?: AbortSignal | null;
  body: unknown;
  attempt: (signal: AbortSignal, body: unknown) => Promise<AttemptOutcome<R>>;
  fault: (error: unknown) => R;
}): Promise<R> {
  const { operation, policy, timeoutMs } = options;
  const started = performance.now();
  const deadline = new Deadline(operation, timeoutMs, options.signal);
  const { signal } = deadline;
  let body = options.body;
  let spare: ReadableStream | undefined;
  try {
    for (let n = 1; ; n++) {
      if (body instanceof ReadableStream && n < policy.attempts) [body, spare] = body.tee();
      const outcome = await options.attempt(signal, body);
      if (spare) [body, spare] = [spare, undefined];
      const reason = n < policy.attempts ? retryReason(outcome, policy, options.deduplicated) : undefined;
      if (!reason) return outcome.result;
      const { response } = outcome.result;
      let delayMs = backoffMs(n + 1, policy);
      if (reason === "status") {
        const asked = retryAfterMs(response.headers.get("retry-after"), response.headers.get("date"));
        if (asked !== undefined) {
          if (asked > policy.maxDelayMs) return outcome.result;
          delayMs = asked;
        }
      }
      if (performance.now() - started + delayMs >= timeoutMs) return outcome.result;
      await policy.onRetry?.({
        operation,
        attempt: n + 1,
        attempts: policy.attempts,
        delayMs,
        reason,
        status: reason === "status" ? response.status : 0,
        request: outcome.request!,
        ...(reason === "status" ? { response } : { fault: outcome.result.fault }),
      });
      try {
        await policy.sleep(delayMs, signal);
      } catch (error) {
        if (!signal.aborted) throw error;
        return options.fault(signal.reason);
      }
      if (signal.aborted) return options.fault(signal.reason);
    }
  } finally {
    deadline.end();
    if (body instanceof ReadableStream && !body.locked) body.cancel().catch(() => undefined);
  }
}
