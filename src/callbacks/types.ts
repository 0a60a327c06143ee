/**
 * The callback receiver's types: what partners see (the event, the options, the delivery, the
 * reply, the handler; re-exported by handler.ts and the `/callbacks` entry), and the context every
 * stage of one handler shares (settings.ts makes it from the options once).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiEntry } from "../registry.js";
import type { ContractValidator } from "../validation/contract.js";
import type { ConfirmClient, ConfirmOptions, ResolvedConfirmation } from "./confirm.js";
import type { IdempotencyStore } from "./store.js";
import type { WebhookInfo } from "./webhooks.js";

export interface CallbackEvent<T = unknown> {
  /** API alias, e.g. `payment-initiation@1.0.0`. */
  alias: string;
  /** Webhook name under `webhooks:`, e.g. `transactionCompleted`. */
  webhook: string;
  operationId: string;
  /** The validated payload (parsed JSON; undefined when the delivery has no body). As sent: confirm before trusting it. */
  payload: T;
  /** With `confirm`: the record as the API returned it. Act on this, not on the payload. */
  record?: unknown;
  /** The delivery's Idempotency-Key, when it carries one. */
  idempotencyKey?: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** Aborted when onEvent runs past `onEventTimeoutMs`: stop, the delivery is answered 503 and will be retried. */
  signal: AbortSignal;
}

export type OnEvent<T = unknown> = (event: CallbackEvent<T>) => void | Promise<void>;

/** What a `verify` hook gets: the delivery as received. */
export interface VerifiableDelivery {
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The raw body (for a signature over the bytes); undefined when a framework had already parsed it. */
  rawBody?: Buffer;
  /** The parsed, validated payload. */
  payload: unknown;
  webhook: WebhookInfo;
}

export interface CallbackHandlerOptions {
  /**
   * Your check that a delivery comes from the provider (a shared secret, a signature, an address
   * list, mutual TLS...): true to accept, false to refuse (403). Throwing or running past
   * `verifyTimeoutMs` answers 503 (the provider retries).
   */
  verify?: (delivery: VerifiableDelivery) => boolean | Promise<boolean>;
  /** Confirm each event by fetching its record with the API's generated client (see confirm.ts); where the webhook declares how. */
  confirm?: ConfirmOptions;
  /** Act on deliveries without verifying them. Only where something else authenticates the sender. */
  acceptUnverified?: boolean;
  /** Where Idempotency-Keys are leased and recorded. Default: a new in-memory store (one process, keys kept 7 days). */
  store?: IdempotencyStore;
  /** Largest body accepted, bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Longest Idempotency-Key accepted, characters. Default 256. */
  maxKeyLength?: number;
  /** Time limit of onEvent, ms. Default 30000. */
  onEventTimeoutMs?: number;
  /** How long a claim holds a key before another delivery may process it, ms; more than onEventTimeoutMs. Default twice onEventTimeoutMs. */
  leaseMs?: number;
  /** Time limit of the verify hook and of the confirming request, ms. Default 10000. */
  verifyTimeoutMs?: number;
  /** Time limit of each store call, ms. Default 10000. */
  storeTimeoutMs?: number;
  /** Registry (a redocly.yaml) to look the alias up in; default: the package's own. */
  registry?: string;
  /** Called when onEvent fails or runs late, verification cannot run, or the store fails. Default: the error's message on stderr. */
  onError?: (error: unknown, event?: CallbackEvent) => void;
}

/** What the handler answers: status, headers and a JSON body. */
export interface CallbackReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A delivery, independent of the server framework. */
export interface CallbackDelivery {
  method: string;
  /** Header names in any case. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body; or, when a framework already parsed it, `{ parsed: value }`. */
  body: string | Buffer | undefined | { parsed: unknown };
}

export interface CallbackHandler {
  /** Node.js `http` request listener: `http.createServer(handler)`. Honours a body a framework already read (`req.body`). */
  (req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Fetch API form: `export const POST = handler.fetch`. */
  fetch(request: Request): Promise<Response>;
  /** The framework-independent core the two forms call. */
  handle(delivery: CallbackDelivery): Promise<CallbackReply>;
  readonly webhook: WebhookInfo;
}

/** What every delivery to one handler shares but onEvent: the webhook, its checks and hooks, its bounds, resolved from the options once. */
export interface HandlerSettings {
  entry: ApiEntry;
  info: WebhookInfo;
  validator: ContractValidator;
  store: IdempotencyStore;
  verify: CallbackHandlerOptions["verify"];
  /** With `confirm`: the client and the declaration checked against the spec. */
  confirm?: { client: ConfirmClient; resolved: ResolvedConfirmation };
  onError: (error: unknown, event?: CallbackEvent) => void;
  /** The Idempotency-Key header's name, in lower case. */
  keyHeader: string;
  maxBody: number;
  maxKeyLength: number;
  onEventTimeout: number;
  leaseMs: number;
  verifyTimeout: number;
  storeTimeout: number;
  /** Keys being processed in this process: later deliveries of the same key wait for the first. */
  inflight: Map<string, Promise<void>>;
}

/** A handler's settings and its onEvent. */
export interface HandlerContext<T = unknown> extends HandlerSettings {
  onEvent: OnEvent<T>;
}
