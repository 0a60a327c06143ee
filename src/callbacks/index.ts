/**
 * `bank-api-contracts/callbacks`: receive the provider's callbacks safely, and send test callbacks.
 *
 *     import { createCallbackHandler } from "bank-api-contracts/callbacks";
 *
 *     const handler = createCallbackHandler("payment-initiation@1.0.0", "transactionCompleted", async (event) => {
 *       await markPaid(event.payload);          // called once per Idempotency-Key
 *     });
 *     http.createServer(handler).listen(3000);  // Node.js http
 *     export const POST = handler.fetch;        // or the Fetch API (Request -> Response)
 *
 * The handler validates each delivery against the webhook in the bundled spec (400 with the
 * violations when invalid), deduplicates on Idempotency-Key (in memory by default; pass `store`
 * for a shared one), calls onEvent once per key and answers 200. `sendCallback` plays the
 * provider: it posts a schema-valid payload from the spec's examples with a fresh key.
 * Validation needs the optional peer dependencies ajv and ajv-formats.
 */
export {
  createCallbackHandler,
  type CallbackDelivery,
  type CallbackEvent,
  type CallbackHandler,
  type CallbackHandlerOptions,
  type CallbackReply,
  type OnEvent,
} from "./handler.js";
export { createMemoryStore, type IdempotencyStore, type MemoryStoreOptions } from "./store.js";
export {
  buildCallbackPayload,
  CallbackPayloadError,
  sendCallback,
  type CallbackPayload,
  type Delivery,
  type PayloadChoice,
  type SendCallbackOptions,
  type SendCallbackResult,
} from "./send.js";
export {
  findWebhook,
  IDEMPOTENCY_HEADER,
  listWebhooks,
  webhooksOf,
  type WebhookExample,
  type WebhookInfo,
  type WebhookStatus,
} from "./webhooks.js";
