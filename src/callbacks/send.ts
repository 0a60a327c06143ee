/**
 * Sending callbacks as the provider would: a schema-valid payload taken from the webhook's examples
 * in the bundled spec (or given), POSTed to your endpoint with a fresh `Idempotency-Key` (when the
 * spec names the header), and, with `repeat`, delivered again with the same key, as the provider
 * may. Used by `bank-api-contracts callback` and by tests of your receiver. A redirect is not
 * followed (its status is the delivery's, and no header reaches another host), and at most the
 * first 64 KiB of an answer are kept.
 */
import { randomUUID } from "node:crypto";
import { findApi, loadRegistry } from "../registry.js";
import { type ContractViolation, createValidator, formatViolations } from "../validation/contract.js";
import { IDEMPOTENCY_HEADER, type WebhookInfo, findWebhook } from "./webhooks.js";

export interface PayloadChoice {
  /** A named example of the webhook. */
  example?: string;
  /**
   * A status variant: the name of an example, or a code or status name of the webhook's
   * `x-status-codes` list (e.g. `12` or `FLAGGED`), written into the example's `status_code` and
   * `status` members.
   */
  status?: string;
  /** Your own payload instead of an example; it is validated all the same. */
  payload?: unknown;
  /** Registry (a redocly.yaml) to look the alias up in; default: the package's own. */
  registry?: string;
}

export interface CallbackPayload {
  webhook: WebhookInfo;
  payload: unknown;
  /** Where the payload came from, e.g. `example "placeholder", status 12 FLAGGED`. */
  source: string;
}

/** A payload error the caller can fix (an unknown example or status, an invalid payload). */
export class CallbackPayloadError extends Error {
  override readonly name = "CallbackPayloadError";
  constructor(
    message: string,
    readonly violations: ContractViolation[] = [],
  ) {
    super(message);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The payload to send for `webhook` of `alias`, checked against the webhook's schema. */
export function buildCallbackPayload(alias: string, webhook: string, choice: PayloadChoice = {}): CallbackPayload {
  const entry = findApi(alias, loadRegistry(choice.registry));
  const info = findWebhook(entry, webhook);
  const label = `${entry.alias} ${info.name}`;
  const names = info.examples.map((e) => e.name);
  let payload: unknown;
  let source: string;
  if (choice.payload !== undefined) {
    payload = choice.payload;
    source = "the given payload";
  } else {
    const wanted = choice.example ?? (choice.status !== undefined && names.includes(choice.status) ? choice.status : undefined);
    const example = wanted !== undefined ? info.examples.find((e) => e.name === wanted) : info.examples[0];
    if (wanted !== undefined && !example) {
      throw new CallbackPayloadError(`${label} has no example "${wanted}"; examples: ${names.join(", ") || "none"}`);
    }
    if (example) {
      payload = structuredClone(example.value);
      source = `example "${example.name}"`;
    } else {
      // The spec shows no payload (an x-unspecified gap): send the smallest object, if the schema accepts it.
      payload = {};
      source = "no example in the spec: an empty object";
    }
    if (choice.status !== undefined && !names.includes(choice.status)) {
      if (info.statuses.length === 0) {
        throw new CallbackPayloadError(`${label} declares no status variants (no x-status-codes); examples: ${names.join(", ") || "none"}`);
      }
      const wantedStatus = choice.status.toLowerCase();
      const status = info.statuses.find((s) => String(s.code) === choice.status || s.status.toLowerCase() === wantedStatus);
      if (!status) {
        throw new CallbackPayloadError(
          `${label} has no status "${choice.status}"; statuses: ${info.statuses.map((s) => `${s.code} ${s.status}`).join(", ")}`,
        );
      }
      if (!isObject(payload) || !("status" in payload || "status_code" in payload)) {
        throw new CallbackPayloadError(`${label}: ${source} has no status or status_code member to set; pass the payload yourself`);
      }
      if ("status_code" in payload) payload.status_code = status.code;
      if ("status" in payload) payload.status = status.status;
      source += `, status ${status.code} ${status.status}`;
    }
  }
  const result = createValidator(entry).validateRequest({ operationId: info.operationId, body: payload, contentType: info.contentType });
  const violations = result.violations.filter((v) => v.in === "body");
  if (violations.length > 0) {
    throw new CallbackPayloadError(`${label}: ${source} does not match the webhook's schema:\n${formatViolations(violations)}`, violations);
  }
  return { webhook: info, payload, source };
}

export interface SendCallbackOptions extends PayloadChoice {
  /** Your endpoint's URL. */
  to: string;
  /** The Idempotency-Key to send. Default: a fresh UUID when the spec names the header, none otherwise. */
  idempotencyKey?: string;
  /** Deliver the same callback (same key) this many more times after the first. Default 0. */
  repeat?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Per-delivery timeout, ms. Default 10000. */
  timeoutMs?: number;
  /** Called after each delivery. */
  onDelivery?: (delivery: Delivery) => void;
  fetch?: typeof fetch;
}

export interface Delivery {
  /** 1 for the first delivery, 2 for the first repeat, ... */
  attempt: number;
  idempotencyKey?: string;
  /** HTTP status; 0 when the request failed (see `error`). */
  status: number;
  body: string;
  durationMs: number;
  error?: string;
}

export interface SendCallbackResult extends CallbackPayload {
  to: string;
  idempotencyKey?: string;
  deliveries: Delivery[];
  /** True when every delivery got a 2xx answer. */
  ok: boolean;
}

/** How much of an answer a delivery keeps, bytes. */
const MAX_KEPT_ANSWER = 64 * 1024;

/** The first `limit` bytes of an answer, as text; the rest is not read. */
async function headOf(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

/** Sends one callback (plus `repeat` repeats with the same key), one delivery after the other. */
export async function sendCallback(alias: string, webhook: string, options: SendCallbackOptions): Promise<SendCallbackResult> {
  const built = buildCallbackPayload(alias, webhook, options);
  const { webhook: info, payload } = built;
  const repeat = options.repeat ?? 0;
  if (!Number.isInteger(repeat) || repeat < 0) throw new RangeError(`repeat must be a non-negative integer, got ${options.repeat}`);
  const key = options.idempotencyKey ?? (info.idempotencyKey ? randomUUID() : undefined);
  const headers: Record<string, string> = { "content-type": info.contentType, ...options.headers };
  if (key !== undefined) headers[info.idempotencyKey?.name ?? IDEMPOTENCY_HEADER] = key;
  const doFetch = options.fetch ?? fetch;
  const body = JSON.stringify(payload);
  const deliveries: Delivery[] = [];
  for (let attempt = 1; attempt <= repeat + 1; attempt++) {
    const started = performance.now();
    let delivery: Delivery;
    try {
      const response = await doFetch(options.to, {
        method: info.method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        redirect: "manual",
      });
      delivery = {
        attempt,
        idempotencyKey: key,
        status: response.status,
        body: await headOf(response, MAX_KEPT_ANSWER),
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      delivery = {
        attempt,
        idempotencyKey: key,
        status: 0,
        body: "",
        durationMs: Math.round(performance.now() - started),
        error: cause ?? (error as Error).message,
      };
    }
    deliveries.push(delivery);
    options.onDelivery?.(delivery);
  }
  return { ...built, to: options.to, idempotencyKey: key, deliveries, ok: deliveries.every((d) => d.status >= 200 && d.status < 300) };
}
