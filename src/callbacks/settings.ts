/**
 * A handler's context from its arguments, checked once when it is created: the API and the webhook
 * (unknown ones throw), the bounds (positive integers; a lease longer than onEvent's time limit),
 * and how deliveries are verified (a `verify` hook, `confirm` with a client and a declaration the
 * spec bears out, or an explicit `acceptUnverified`; nothing at all is refused here).
 */
import { findApi, loadRegistry } from "../registry.js";
import { createValidator } from "../validation/contract.js";
import { type Confirmation, confirmationOf, resolveConfirmation } from "./confirm.js";
import { createMemoryStore } from "./store.js";
import type { CallbackHandlerOptions, HandlerContext, OnEvent } from "./types.js";
import { findWebhook, IDEMPOTENCY_HEADER, type WebhookInfo } from "./webhooks.js";

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`createCallbackHandler: ${name} must be a positive integer, got ${value}`);
  return value;
}

/** The declared way to confirm the webhook, after checking that the options verify deliveries somehow. */
function verification(label: string, declared: Confirmation | undefined, options: CallbackHandlerOptions): void {
  if (options.verify !== undefined && typeof options.verify !== "function") throw new TypeError(`${label}: verify must be a function`);
  if (options.confirm !== undefined) {
    if (typeof options.confirm?.client?.request !== "function") {
      throw new TypeError(`${label}: confirm.client must be the API's generated client, created with your credential`);
    }
    if (!declared) {
      throw new Error(
        `${label}: this webhook cannot be confirmed against the API (the sources show no way to fetch the record it announces); pass verify: (delivery) => boolean, confirm.how with your own declaration, or acceptUnverified: true to opt out explicitly`,
      );
    }
  }
  if (options.verify === undefined && options.confirm === undefined && options.acceptUnverified !== true) {
    throw new Error(
      declared
        ? `${label}: a callback must be verified before onEvent runs (the sources do not show how callbacks are signed, so anyone who can reach the endpoint can post one). Pass confirm: { client } to confirm each event by fetching its record with ${declared.operationId}, or verify: (delivery) => boolean to check it yourself, or acceptUnverified: true to opt out explicitly`
        : `${label}: a callback must be verified before onEvent runs (the sources do not show how callbacks are signed, so anyone who can reach the endpoint can post one), and this webhook cannot be confirmed against the API (the sources show no way to fetch the record it announces). Pass verify: (delivery) => boolean to check it yourself (a shared secret, a signature, an address list), or acceptUnverified: true to opt out explicitly`,
    );
  }
}

/** The context of a handler for webhook `webhook` of API `alias`; throws naming what is wrong. */
export function handlerContext<T>(alias: string, webhook: string, onEvent: OnEvent<T>, options: CallbackHandlerOptions): HandlerContext<T> {
  if (typeof onEvent !== "function") throw new TypeError("createCallbackHandler: onEvent must be a function");
  const entry = findApi(alias, loadRegistry(options.registry));
  const info: WebhookInfo = findWebhook(entry, webhook);
  const label = `createCallbackHandler(${entry.alias}, ${info.name})`;
  const validator = createValidator(entry);
  const store = options.store ?? createMemoryStore();
  const maxBody = positive("maxBodyBytes", options.maxBodyBytes, 1024 * 1024);
  const maxKeyLength = positive("maxKeyLength", options.maxKeyLength, 256);
  const onEventTimeout = positive("onEventTimeoutMs", options.onEventTimeoutMs, 30_000);
  const leaseMs = positive("leaseMs", options.leaseMs, 2 * onEventTimeout);
  if (leaseMs <= onEventTimeout)
    throw new RangeError(`${label}: leaseMs (${leaseMs}) must be longer than onEventTimeoutMs (${onEventTimeout})`);
  const verifyTimeout = positive("verifyTimeoutMs", options.verifyTimeoutMs, 10_000);
  const storeTimeout = positive("storeTimeoutMs", options.storeTimeoutMs, 10_000);
  const onError =
    options.onError ??
    ((error: unknown) => process.stderr.write(`${entry.alias} ${info.name}: ${error instanceof Error ? error.message : String(error)}\n`));
  const declared = options.confirm?.how ?? confirmationOf(entry, info.name);
  verification(label, declared, options);
  return {
    entry,
    info,
    validator,
    store,
    onEvent,
    // Called on `options`, as a method of the options object.
    verify: options.verify === undefined ? undefined : (delivery) => options.verify!(delivery),
    confirm:
      options.confirm && declared
        ? { client: options.confirm.client, resolved: resolveConfirmation(entry, info.name, declared) }
        : undefined,
    onError,
    keyHeader: (info.idempotencyKey?.name ?? IDEMPOTENCY_HEADER).toLowerCase(),
    maxBody,
    maxKeyLength,
    onEventTimeout,
    leaseMs,
    verifyTimeout,
    storeTimeout,
    inflight: new Map(),
  };
}
