/**
 * The last stages of a delivery: its Idempotency-Key claimed in the store as a lease (done already:
 * 200 duplicate; leased elsewhere: 503; the store failing or slow: 503), deliveries of one key in
 * this process waiting for the first one's outcome, then onEvent run within its time limit and the
 * key marked done only once it resolved (released when it throws: 500; left to its lease when it
 * runs late: 503).
 */
import { json, retryLater, TimedOut, within } from "./reply.js";
import type { IdempotencyStore } from "./store.js";
import type { CallbackEvent, CallbackReply, HandlerContext, HandlerSettings } from "./types.js";

/** Runs onEvent within its time limit; `settled` reports how it finally ended (also after a timeout). */
export async function runOnEvent<T>(
  context: HandlerContext<T>,
  event: CallbackEvent<T>,
  settled: (outcome: "resolved" | "rejected") => Promise<void>,
): Promise<CallbackReply> {
  const { onError } = context;
  const controller = new AbortController();
  const run = Promise.resolve().then(() => context.onEvent({ ...event, signal: controller.signal }));
  try {
    await within(run, context.onEventTimeout, "onEvent");
  } catch (error) {
    if (error instanceof TimedOut) {
      controller.abort(error);
      onError(error, event as CallbackEvent);
      run.then(
        () => settled("resolved"),
        () => settled("rejected"),
      );
      return retryLater("the callback is still being processed; retry later", context.leaseMs);
    }
    onError(error, event as CallbackEvent);
    await settled("rejected");
    return json(500, { error: "the callback could not be processed" });
  }
  await settled("resolved");
  return json(200, { received: true, duplicate: false });
}

/** A store call within its time limit; its failure is reported and answered 503 by the caller. */
const storeCall = <R>(context: HandlerSettings, what: string, call: () => Promise<R>) =>
  within(Promise.resolve().then(call), context.storeTimeout, `the store's ${what}`);

/** The key's claim, then onEvent when it is this delivery's to process; one delivery of a key at a time in this process. */
export async function processKeyed<T>(context: HandlerContext<T>, event: CallbackEvent<T>, storeKey: string): Promise<CallbackReply> {
  const { inflight, store, onError, leaseMs } = context;
  for (;;) {
    const pending = inflight.get(storeKey);
    if (pending) {
      await pending; // the first delivery of this key is being processed here: wait for its outcome
      continue;
    }
    let done!: () => void;
    inflight.set(storeKey, new Promise<void>((resolve) => (done = resolve)));
    try {
      let claim: Awaited<ReturnType<IdempotencyStore["claim"]>>;
      try {
        claim = await storeCall(context, "claim", () => store.claim(storeKey, leaseMs));
      } catch (error) {
        onError(new Error(`the idempotency store failed: ${(error as Error).message}`), event as CallbackEvent);
        return retryLater("the callback cannot be recorded now; retry later");
      }
      if (claim === "done") return json(200, { received: true, duplicate: true });
      if (claim !== "acquired") return retryLater("the callback is being processed; retry later", leaseMs);
      return await runOnEvent(context, event, async (outcome) => {
        try {
          if (outcome === "resolved") await storeCall(context, "complete", () => store.complete(storeKey));
          else await storeCall(context, "release", () => store.release(storeKey));
        } catch (error) {
          // onEvent's outcome stands; the lease expires on its own.
          onError(new Error(`the idempotency store failed to record the outcome: ${(error as Error).message}`), event as CallbackEvent);
        }
      });
    } finally {
      inflight.delete(storeKey);
      done();
    }
  }
}
