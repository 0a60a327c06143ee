/**
 * `bank-api-contracts/callbacks`: receive the provider's callbacks safely, and send test callbacks.
 *
 *     import { createCallbackHandler } from "bank-api-contracts/callbacks";
 *     import { createPaymentInitiationClient } from "bank-api-contracts/payment-initiation";
 *
 *     const api = createPaymentInitiationClient({ environment: "live", apiKey: process.env.DIRECT_KEY! });
 *     const handler = createCallbackHandler("payment-initiation@1.0.0", "transactionCompleted", async (event) => {
 *       await settle(event.record);             // the record the API confirmed, once per Idempotency-Key
 *     }, { confirm: { client: api } });
 *     http.createServer(handler).listen(3000);  // Node.js http
 *     export const POST = handler.fetch;        // or the Fetch API (Request -> Response)
 *
 * The handler validates each delivery against the webhook in the bundled spec (400 with the
 * violations when invalid), verifies it (a `verify` hook, or `confirm`: fetching the announced
 * record from the API; refused 403), leases its Idempotency-Key in the store (in memory by
 * default; pass `store` for a shared one), calls onEvent within its time limit and marks the key
 * done only once onEvent resolved, answering 200. `sendCallback` plays the provider: it posts a
 * schema-valid payload from the spec's examples with a fresh key. Validation needs the optional
 * peer dependencies ajv and ajv-formats.
 */
export {
  createCallbackHandler,
  type CallbackDelivery,
  type CallbackEvent,
  type CallbackHandler,
  type CallbackHandlerOptions,
  type CallbackReply,
  type OnEvent,
  type VerifiableDelivery,
} from "./handler.js";
export {
  atPointer,
  CONFIRMATIONS,
  confirmationOf,
  type ConfirmClient,
  type Confirmation,
  type ConfirmOptions,
  type ConfirmOutcome,
} from "./confirm.js";
export {
  type ClaimResult,
  createMemoryStore,
  DEFAULT_RETENTION_MS,
  type IdempotencyStore,
  type MemoryStoreOptions,
  StoreFullError,
} from "./store.js";
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
