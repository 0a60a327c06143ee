/**
 * `createCallbackHandler(alias, webhook, onEvent, options)`: a receiver for one webhook of one API,
 * usable as a Node.js `http` request listener and, through `.fetch`, with the Fetch API
 * (`Request` -> `Response`: Next.js route handlers, Hono, Deno, Bun, Cloudflare Workers).
 *
 * For each delivery it:
 * 1. checks the method (405) and the size, while reading (413 as soon as the body passes
 *    `maxBodyBytes`, in both forms; the rest is not read);
 * 2. validates the payload and the headers against the webhook in the bundled spec (Ajv 2020):
 *    400 with `{ error, violations: [{ in, path, message }] }` when invalid (a body that is not
 *    JSON, a required Idempotency-Key missing, a key longer than `maxKeyLength`); an empty
 *    Idempotency-Key counts as missing;
 * 3. verifies the delivery before anything acts on it: the `verify` hook, and/or the built-in
 *    confirmation (`confirm`, see confirm.ts) that fetches the announced record from the API; a
 *    delivery that fails is answered 403 and never reaches the store or onEvent; one that cannot
 *    be verified now (the API unreachable, the hook throwing or slow) 503. A handler must be given
 *    one of them, or `acceptUnverified: true` to opt out explicitly;
 * 4. claims the Idempotency-Key in the store as a lease (`leaseMs`): a key processed already is
 *    answered 200 `"duplicate": true`; a key leased by another delivery still being processed
 *    elsewhere 503 with Retry-After; a store that fails or is slow 503. Deliveries of one key that
 *    arrive together in one process wait for the first one's outcome;
 * 5. calls `onEvent` within `onEventTimeoutMs` and marks the key done only once it resolved:
 *    200 `{ received: true, duplicate: false }`. When it throws, the lease is released (the
 *    provider's next delivery is processed) and the answer is 500. When it runs past its time
 *    limit, its `signal` is aborted, the answer is 503, and the lease stays until it expires (or
 *    until onEvent settles: done if it resolves, released if it throws), so the provider's retry
 *    is processed only if the first run did not finish.
 *
 * Each step is a module of its own (receive.ts: 1-2; verify.ts: 3; process.ts: 4-5; forms.ts: the
 * two forms; settings.ts: the options checked once; types.ts: the types); this module puts them
 * together.
 *
 * Processing is at least once, with exactly-once effects while the store is healthy and onEvent
 * honours its time limit. A delivery without the header (where the spec does not require it)
 * cannot be deduplicated: it is processed every time.
 */
import { processKeyed, runOnEvent } from "./process.js";
import { receive } from "./receive.js";
import { fetchHandler, nodeListener } from "./forms.js";
import { handlerContext } from "./settings.js";
import type {
  CallbackDelivery,
  CallbackEvent,
  CallbackHandler,
  CallbackHandlerOptions,
  CallbackReply,
  HandlerContext,
  OnEvent,
} from "./types.js";
import { verifyDelivery } from "./verify.js";

export type {
  CallbackDelivery,
  CallbackEvent,
  CallbackHandler,
  CallbackHandlerOptions,
  CallbackReply,
  OnEvent,
  VerifiableDelivery,
} from "./types.js";

/** One delivery through the steps: received and validated, verified, then processed once per key. */
async function handleDelivery<T>(context: HandlerContext<T>, delivery: CallbackDelivery): Promise<CallbackReply> {
  const received = receive(context, delivery);
  if ("reply" in received) return received.reply;
  const { headers, key, payload, rawBody } = received;
  const verified = await verifyDelivery(context, {
    method: delivery.method.toUpperCase(),
    headers,
    rawBody,
    payload,
    webhook: context.info,
  });
  if (verified.reply) return verified.reply;

  const event: CallbackEvent<T> = {
    alias: context.entry.alias,
    webhook: context.info.name,
    operationId: context.info.operationId,
    payload: payload as T,
    ...(context.confirm ? { record: verified.record } : {}),
    idempotencyKey: key,
    headers,
    signal: new AbortController().signal,
  };
  if (key === undefined) return runOnEvent(context, event, async () => undefined);
  return processKeyed(context, event, `${context.entry.alias} ${context.info.name} ${key}`);
}

/**
 * A handler for webhook `webhook` (its name under `webhooks:` or its operationId) of API `alias`.
 * Throws at once when the API or the webhook is unknown, or when nothing verifies the deliveries.
 */
export function createCallbackHandler<T = unknown>(
  alias: string,
  webhook: string,
  onEvent: OnEvent<T>,
  options: CallbackHandlerOptions = {},
): CallbackHandler {
  const context = handlerContext(alias, webhook, onEvent, options);
  const handle = (delivery: CallbackDelivery) => handleDelivery(context, delivery);
  const handler = nodeListener(handle, context.maxBody) as CallbackHandler;
  handler.fetch = fetchHandler(handle, context.maxBody);
  handler.handle = handle;
  Object.defineProperty(handler, "webhook", { value: context.info, enumerable: true });
  return handler;
}
