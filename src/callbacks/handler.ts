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
 * Processing is at least once, with exactly-once effects while the store is healthy and onEvent
 * honours its time limit. A delivery without the header (where the spec does not require it)
 * cannot be deduplicated: it is processed every time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBounded } from "../body.js";
import { findApi, loadRegistry } from "../registry.js";
import { type ContractViolation, createValidator } from "../validation/contract.js";
import { type ConfirmOptions, type Confirmation, confirmationOf, confirmEvent, resolveConfirmation } from "./confirm.js";
import { createMemoryStore, type IdempotencyStore } from "./store.js";
import { findWebhook, IDEMPOTENCY_HEADER, type WebhookInfo } from "./webhooks.js";

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

const JSON_MEDIA = /^application\/(.+\+)?json$/i;

class BodyTooLarge extends Error {}
class TimedOut extends Error {}

function json(status: number, value: unknown, headers: Record<string, string> = {}): CallbackReply {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

function lowerCaseHeaders(headers: CallbackDelivery["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

/** Reads a Fetch API body the same way: the stream is cancelled as soon as it passes `limit`. */
async function readFetchBody(request: Request, limit: number): Promise<Buffer | undefined> {
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * After a 413 to a body still arriving: Node ends its side of the connection and discards what
 * still comes, so that the client can read the answer before the connection goes (closing at once
 * would reset it, and a reset can take the unread answer with it); the discarding is bounded, by
 * `maxBytes` more bytes and 5 s, then the socket is destroyed.
 */
function closeAfterLinger(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const socket = req.socket;
  res.once("finish", () => {
    let discarded = 0;
    const timer = setTimeout(() => socket.destroy(), 5000);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > maxBytes) socket.destroy();
    });
    req.resume();
  });
}

/** `promise`, or a TimedOut rejection after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new RangeError(`createCallbackHandler: ${name} must be a positive integer, got ${value}`);
  return value;
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
  if (typeof onEvent !== "function") throw new TypeError("createCallbackHandler: onEvent must be a function");
  const entry = findApi(alias, loadRegistry(options.registry));
  const info = findWebhook(entry, webhook);
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

  // Verification: a hook, the built-in confirmation, or an explicit opt-out; nothing at all is refused here.
  const declared: Confirmation | undefined = options.confirm?.how ?? confirmationOf(entry, info.name);
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
  const confirmation = options.confirm && declared ? resolveConfirmation(entry, info.name, declared) : undefined;

  /** Keys being processed in this process: later deliveries of the same key wait for the first. */
  const inflight = new Map<string, Promise<void>>();
  const keyHeader = (info.idempotencyKey?.name ?? IDEMPOTENCY_HEADER).toLowerCase();

  const invalid = (violations: ContractViolation[]) =>
    json(400, {
      error: `invalid ${info.name} callback for ${entry.alias}`,
      violations: violations.map(({ in: where, path, message }) => ({ in: where, path, message })),
    });
  const retryLater = (error: string, retryAfterMs = 1000) =>
    json(503, { error }, { "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });

  /** 403 (refused), 503 (cannot verify now), or the confirmed record. */
  async function verifyDelivery(
    delivery: VerifiableDelivery,
  ): Promise<{ reply: CallbackReply; record?: never } | { reply?: never; record: unknown }> {
    if (options.verify) {
      let accepted: boolean;
      try {
        accepted = await within(
          Promise.resolve().then(() => options.verify!(delivery)),
          verifyTimeout,
          "verify",
        );
      } catch (error) {
        onError(new Error(`verify could not run: ${error instanceof Error ? error.message : String(error)}`));
        return { reply: retryLater("the callback could not be verified now; retry later") };
      }
      if (accepted !== true) return { reply: json(403, { error: "the callback could not be verified" }) };
    }
    if (!confirmation) return { record: undefined };
    const outcome = await confirmEvent(confirmation, options.confirm!.client, delivery.payload, verifyTimeout);
    if (outcome.kind === "refused") return { reply: json(403, { error: `the callback could not be confirmed: ${outcome.reason}` }) };
    if (outcome.kind === "unavailable") {
      onError(new Error(`cannot confirm the callback now: ${outcome.reason}`));
      return { reply: retryLater("the callback could not be confirmed now; retry later") };
    }
    return { record: outcome.record };
  }

  /** Runs onEvent within its time limit; `settled` reports how it finally ended (also after a timeout). */
  async function runOnEvent(event: CallbackEvent<T>, settled: (outcome: "resolved" | "rejected") => Promise<void>): Promise<CallbackReply> {
    const controller = new AbortController();
    const run = Promise.resolve().then(() => onEvent({ ...event, signal: controller.signal }));
    try {
      await within(run, onEventTimeout, "onEvent");
    } catch (error) {
      if (error instanceof TimedOut) {
        controller.abort(error);
        onError(error, event as CallbackEvent);
        run.then(
          () => settled("resolved"),
          () => settled("rejected"),
        );
        return retryLater("the callback is still being processed; retry later", leaseMs);
      }
      onError(error, event as CallbackEvent);
      await settled("rejected");
      return json(500, { error: "the callback could not be processed" });
    }
    await settled("resolved");
    return json(200, { received: true, duplicate: false });
  }

  /** A store call within its time limit; its failure is reported and answered 503 by the caller. */
  const storeCall = <R>(what: string, call: () => Promise<R>) => within(Promise.resolve().then(call), storeTimeout, `the store's ${what}`);

  async function processKeyed(event: CallbackEvent<T>, storeKey: string): Promise<CallbackReply> {
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
          claim = await storeCall("claim", () => store.claim(storeKey, leaseMs));
        } catch (error) {
          onError(new Error(`the idempotency store failed: ${(error as Error).message}`), event as CallbackEvent);
          return retryLater("the callback cannot be recorded now; retry later");
        }
        if (claim === "done") return json(200, { received: true, duplicate: true });
        if (claim !== "acquired") return retryLater("the callback is being processed; retry later", leaseMs);
        return await runOnEvent(event, async (outcome) => {
          try {
            if (outcome === "resolved") await storeCall("complete", () => store.complete(storeKey));
            else await storeCall("release", () => store.release(storeKey));
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

  async function handle(delivery: CallbackDelivery): Promise<CallbackReply> {
    if (delivery.method.toUpperCase() !== info.method) {
      return json(405, { error: `${info.name} callbacks are sent with ${info.method}` }, { allow: info.method });
    }
    const headers = lowerCaseHeaders(delivery.headers);
    // An empty key is no key; an overlong one is refused before anything keeps it.
    if (headers[keyHeader] !== undefined && headers[keyHeader].trim() === "") delete headers[keyHeader];
    const key = headers[keyHeader];
    if (key !== undefined && key.length > maxKeyLength) {
      return invalid([
        {
          in: "header",
          path: `header.${info.idempotencyKey?.name ?? IDEMPOTENCY_HEADER}`,
          message: `must be at most ${maxKeyLength} characters`,
        },
      ]);
    }
    const contentType = headers["content-type"];
    let payload: unknown;
    let rawBody: Buffer | undefined;
    if (delivery.body !== undefined && typeof delivery.body === "object" && !Buffer.isBuffer(delivery.body)) {
      payload = delivery.body.parsed;
    } else {
      rawBody = delivery.body === undefined ? undefined : Buffer.isBuffer(delivery.body) ? delivery.body : Buffer.from(delivery.body);
      if (rawBody && rawBody.length > maxBody) return json(413, { error: `the body exceeds ${maxBody} bytes` });
      const text = rawBody ? rawBody.toString("utf8") : "";
      if (text.trim() !== "") {
        if (contentType === undefined || JSON_MEDIA.test(contentType.split(";")[0].trim())) {
          try {
            payload = JSON.parse(text);
          } catch (error) {
            return invalid([{ in: "body", path: "$", message: `is not valid JSON: ${(error as Error).message}` }]);
          }
        } else {
          payload = text; // the validator reports the undeclared content type
        }
      }
    }
    const result = validator.validateRequest({
      operationId: info.operationId,
      body: payload,
      params: { header: headers },
      contentType: contentType ?? info.contentType,
    });
    if (!result.valid) return invalid(result.violations);

    const verified = await verifyDelivery({ method: delivery.method.toUpperCase(), headers, rawBody, payload, webhook: info });
    if (verified.reply) return verified.reply;

    const event: CallbackEvent<T> = {
      alias: entry.alias,
      webhook: info.name,
      operationId: info.operationId,
      payload: payload as T,
      ...(confirmation ? { record: verified.record } : {}),
      idempotencyKey: key,
      headers,
      signal: new AbortController().signal,
    };
    if (key === undefined) return runOnEvent(event, async () => undefined);
    return processKeyed(event, `${entry.alias} ${info.name} ${key}`);
  }

  const tooLarge = () => json(413, { error: `the body exceeds ${maxBody} bytes` }, { connection: "close" });

  const handler = (async (req: IncomingMessage, res: ServerResponse) => {
    let reply: CallbackReply;
    try {
      const preRead = (req as IncomingMessage & { body?: unknown }).body;
      let body: CallbackDelivery["body"];
      if (typeof preRead === "string" || Buffer.isBuffer(preRead)) body = preRead;
      else if (preRead !== undefined && req.readableEnded) body = { parsed: preRead };
      else {
        const declared = Number(req.headers["content-length"]);
        if (Number.isFinite(declared) && declared > maxBody) throw new BodyTooLarge();
        body = await readBounded(req, maxBody, () => new BodyTooLarge());
      }
      reply = await handle({ method: req.method ?? "GET", headers: req.headers, body });
    } catch (error) {
      reply = error instanceof BodyTooLarge ? tooLarge() : json(400, { error: `cannot read the request: ${(error as Error).message}` });
    }
    if (!res.headersSent) {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
      if (reply.headers.connection === "close" && !req.readableEnded) closeAfterLinger(req, res, maxBody);
    }
  }) as CallbackHandler;

  handler.fetch = async (request: Request): Promise<Response> => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const declared = Number(headers["content-length"]);
    let reply: CallbackReply;
    try {
      if (Number.isFinite(declared) && declared > maxBody) throw new BodyTooLarge();
      reply = await handle({ method: request.method, headers, body: await readFetchBody(request, maxBody) });
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        await request.body?.cancel().catch(() => undefined);
        reply = tooLarge();
      } else reply = json(400, { error: `cannot read the request: ${(error as Error).message}` });
    }
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
  handler.handle = handle;
  Object.defineProperty(handler, "webhook", { value: info, enumerable: true });
  return handler;
}
