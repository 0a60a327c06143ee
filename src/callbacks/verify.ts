/**
 * The delivery verified before anything acts on it: the `verify` hook within `verifyTimeoutMs`
 * (false: 403; throwing or late: 503), then, with `confirm`, the record the payload announces
 * fetched from the API (confirm.ts: none, 403; the API unreachable now, 503).
 */
import { confirmEvent } from "./confirm.js";
import { json, retryLater, within } from "./reply.js";
import type { CallbackReply, HandlerSettings, VerifiableDelivery } from "./types.js";

/** 403 (refused), 503 (cannot verify now), or the confirmed record (undefined without `confirm`). */
export async function verifyDelivery(
  context: HandlerSettings,
  delivery: VerifiableDelivery,
): Promise<{ reply: CallbackReply; record?: never } | { reply?: never; record: unknown }> {
  const { verify, confirm, onError } = context;
  if (verify) {
    let accepted: boolean;
    try {
      accepted = await within(
        Promise.resolve().then(() => verify(delivery)),
        context.verifyTimeout,
        "verify",
      );
    } catch (error) {
      onError(new Error(`verify could not run: ${error instanceof Error ? error.message : String(error)}`));
      return { reply: retryLater("the callback could not be verified now; retry later") };
    }
    if (accepted !== true) return { reply: json(403, { error: "the callback could not be verified" }) };
  }
  if (!confirm) return { record: undefined };
  const outcome = await confirmEvent(confirm.resolved, confirm.client, delivery.payload, context.verifyTimeout);
  if (outcome.kind === "refused") return { reply: json(403, { error: `the callback could not be confirmed: ${outcome.reason}` }) };
  if (outcome.kind === "unavailable") {
    onError(new Error(`cannot confirm the callback now: ${outcome.reason}`));
    return { reply: retryLater("the callback could not be confirmed now; retry later") };
  }
  return { record: outcome.record };
}
