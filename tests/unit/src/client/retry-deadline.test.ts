/**
 * The call's signal and waits in src/client/retry.ts, driven through `withRetries` by a hand-made
 * attempt: the deadline's signal behaves as the AbortSignal fetch reads (the module header and
 * docs/adr/0006-client-deadline-and-fetch.md: `aborted`, `reason`, `throwIfAborted`, "abort"
 * listeners called once each with the signal as `this`, function or `handleEvent` object, removable;
 * other event types ignored; one abort only), the call's end stops following the caller's signal,
 * a body is handed to every attempt and a stream body left unread is cancelled, the default wait
 * follows its signal, and a wait that fails or is aborted ends the call as the module says.
 */
import { describe, expect, it } from "vitest";
import { type ApiError, CallTimeoutError, type Operation } from "../../../../src/client/errors.js";
import { type AttemptOutcome, retryPolicy, withRetries } from "../../../../src/client/retry.js";

const OPERATION: Operation = { method: "GET", path: "/items/{id}" };
type Result = { response: Response; fault?: ApiError };

const answered = (status: number, method = "GET"): AttemptOutcome<Result> => ({
  result: { response: new Response(null, { status }) },
  request: new Request("http://api.test/items/1", { method }),
  answered: true,
});

function call(
  attempt: (signal: AbortSignal, body: unknown, n: number) => Promise<AttemptOutcome<Result>>,
  options: {
    timeoutMs?: number;
    signal?: AbortSignal;
    body?: unknown;
    attempts?: number;
    sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  } = {},
) {
  let n = 0;
  const policy = retryPolicy("test", {
    attempts: options.attempts ?? 3,
    baseDelayMs: 0,
    random: () => 0,
    sleep: options.sleep ?? (async () => undefined),
  });
  return withRetries<Result>({
    operation: OPERATION,
    policy,
    deduplicated: false,
    timeoutMs: options.timeoutMs ?? 60_000,
    signal: options.signal,
    body: options.body,
    attempt: (signal, body) => attempt(signal, body, ++n),
    fault: (error) => ({ response: Response.error(), fault: error as ApiError }),
  });
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve())));

describe("the deadline's signal", () => {
  it("calls each abort listener once, function or handleEvent object, with the signal as this; not other types, nor one removed", async () => {
    const seen: string[] = [];
    let kept: AbortSignal | undefined;
    await call(
      async (signal) => {
        kept = signal;
        expect(signal.aborted).toBe(false);
        expect(() => signal.throwIfAborted()).not.toThrow();
        expect((signal as unknown as { getMaxListeners(): number }).getMaxListeners()).toBe(Number.POSITIVE_INFINITY);
        (signal as unknown as { setMaxListeners(n: number): void }).setMaxListeners(5);
        const removed = () => seen.push("removed");
        const neverAdded = () => seen.push("never added");
        signal.addEventListener("abort", function (this: unknown, event: Event) {
          seen.push(`function ${this === signal} ${event.type}`);
        });
        signal.addEventListener("abort", { handleEvent: (event: Event) => seen.push(`object ${event.type}`) });
        const stays = () => seen.push("stays");
        signal.addEventListener("abort", removed);
        signal.addEventListener("abort", stays);
        signal.addEventListener("other" as "abort", () => seen.push("other type"));
        signal.addEventListener("abort", null as never);
        signal.removeEventListener("abort", removed);
        signal.removeEventListener("abort", neverAdded); // removes nothing, not the last one either
        signal.removeEventListener("other" as "abort", stays); // another type: removes nothing
        await aborted(signal);
        return answered(200);
      },
      { timeoutMs: 20 },
    );
    expect(seen).toEqual(["function true abort", "object abort", "stays"]);
    expect(kept?.aborted).toBe(true);
    expect(kept?.reason).toBeInstanceOf(CallTimeoutError);
    expect(() => kept?.throwIfAborted()).toThrow(CallTimeoutError);
    expect((kept?.reason as CallTimeoutError | undefined)?.message).toBe("no complete answer within the call's limit of 20 ms (timeoutMs)");
  });

  it("removing a listener before any was added is harmless; a listener added after the abort is never called", async () => {
    const seen: string[] = [];
    await call(
      async (signal) => {
        signal.removeEventListener("abort", () => undefined);
        await aborted(signal);
        signal.addEventListener("abort", () => seen.push("late"));
        return answered(200);
      },
      { timeoutMs: 10 },
    );
    expect(seen).toEqual([]);
  });

  it("aborts once: the caller's abort after the deadline's keeps the deadline's reason", async () => {
    const caller = new AbortController();
    let reason: unknown;
    await call(
      async (signal) => {
        await aborted(signal);
        caller.abort(new Error("the caller's"));
        reason = signal.reason;
        return answered(200);
      },
      { timeoutMs: 10, signal: caller.signal },
    );
    expect(reason).toBeInstanceOf(CallTimeoutError);
  });

  it("follows the caller's signal while the call runs, and no longer once it has ended", async () => {
    const caller = new AbortController();
    let kept: AbortSignal | undefined;
    const result = await call(
      async (signal) => {
        kept = signal;
        return answered(200);
      },
      { signal: caller.signal },
    );
    expect(result.response.status).toBe(200);
    caller.abort(new Error("after the call"));
    expect(kept?.aborted).toBe(false);

    const during = new AbortController();
    const ended = await call(
      async (signal) => {
        during.abort(new Error("during the call"));
        expect(signal.aborted).toBe(true);
        expect((signal.reason as Error).message).toBe("during the call");
        return answered(503);
      },
      { signal: during.signal, sleep: async (_ms, signal) => signal.throwIfAborted() },
    );
    expect((ended.fault as unknown as Error).message).toBe("during the call");
  });
});

describe("the body", () => {
  it("is handed to every attempt", async () => {
    const body = { amount: 1 };
    const bodies: unknown[] = [];
    await call(
      async (_signal, given, n) => {
        bodies.push(given);
        return answered(n < 3 ? 503 : 200);
      },
      { body },
    );
    expect(bodies).toEqual([body, body, body]);
    expect(bodies.every((b) => b === body)).toBe(true);
  });

  it("a stream body no attempt read is cancelled when the call ends; one read is left alone", async () => {
    const stream = (cancelled: unknown[]) =>
      new ReadableStream({
        pull(controller) {
          controller.enqueue(new TextEncoder().encode("payload"));
        },
        cancel(reason) {
          cancelled.push(reason);
        },
      });
    const unread: unknown[] = [];
    await call(async () => answered(200), { body: stream(unread), attempts: 1 });
    expect(unread).toHaveLength(1);
    const locked: unknown[] = [];
    await call(
      async (_signal, given) => {
        (given as ReadableStream).getReader();
        return answered(200);
      },
      { body: stream(locked), attempts: 1 },
    );
    expect(locked).toEqual([]);
  });
});

describe("the waits", () => {
  it("the default wait resolves after its time, and rejects with the signal's reason when it aborts, before or during", async () => {
    const { sleep } = retryPolicy("test", undefined);
    await expect(sleep(1, new AbortController().signal)).resolves.toBeUndefined();
    const before = new AbortController();
    before.abort(new Error("before"));
    await expect(sleep(60_000, before.signal)).rejects.toThrow("before");
    const during = new AbortController();
    const waiting = sleep(60_000, during.signal);
    during.abort(new Error("during"));
    await expect(waiting).rejects.toThrow("during");
  });

  it("a wait that fails on its own rejects the call with its error", async () => {
    const failing = call(async () => answered(503), {
      sleep: async () => {
        throw new Error("the wait broke");
      },
    });
    await expect(failing).rejects.toThrow("the wait broke");
  });

  it("an abort during a wait ends the call with the fault, whether the wait noticed it or not; no more attempts", async () => {
    for (const notices of [true, false]) {
      const caller = new AbortController();
      let attempts = 0;
      const result = await call(
        async () => {
          attempts++;
          return answered(503);
        },
        {
          signal: caller.signal,
          sleep: async (_ms, signal) => {
            caller.abort(new Error("stopped"));
            if (notices) signal.throwIfAborted();
          },
        },
      );
      expect(attempts, `notices ${notices}`).toBe(1);
      expect((result.fault as unknown as Error).message).toBe("stopped");
    }
  });

  it("retries without an onRetry", async () => {
    let attempts = 0;
    const result = await call(async () => answered(++attempts < 3 ? 503 : 200));
    expect(attempts).toBe(3);
    expect(result.response.status).toBe(200);
  });

  it("a call's options keep the client's onRetry, sleep and random unless they name their own", () => {
    const onRetry = () => undefined;
    const sleep = async () => undefined;
    const random = () => 0.25;
    const client = retryPolicy("client", { onRetry, sleep, random });
    const merged = retryPolicy("call", { attempts: 2 }, client);
    expect(merged.onRetry).toBe(onRetry);
    expect(merged.sleep).toBe(sleep);
    expect(merged.random).toBe(random);
  });
});
