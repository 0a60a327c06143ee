/**
 * `createCallbackHandler(alias, webhook, onEvent, options)`: a receiver for one webhook of one API,
 * usable as a Node.js `http` request listener and, through `.fetch`, with the Fetch API
 * (`Request` -> `Response`: Next.js route handlers, Hono, Deno, Bun, Cloudflare Workers).
 *
 * For each delivery it:
 * 1. checks the method (405 otherwise) and the size (413 over `maxBodyBytes`);
 * 2. validates the payload and the headers against the webhook in the bundled spec (Ajv 2020):
 *    400 with `{ error, violations: [{ in, path, message }] }` when invalid (including a body
 *    that is not JSON, and a missing Idempotency-Key where the spec requires it);
 * 3. deduplicates on the `Idempotency-Key` header: the first delivery of a key is processed,
 *    repeats are answered 200 with `"duplicate": true` and not processed. Deliveries of one key
 *    that arrive together in one process wait for the first; across processes the store's atomic
 *    `claim` decides (see IdempotencyStore);
 * 4. calls `onEvent` once per key and answers 200 `{ received: true, duplicate: false }`. When
 *    `onEvent` throws, the key is released (the provider's next delivery is processed) and the
 *    answer is 500.
 *
 * A delivery without the header (where the spec does not require it) cannot be deduplicated: it
 * is processed every time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ContractViolation, createValidator } from "../validation/contract.js";
import { type IdempotencyStore, createMemoryStore } from "./store.js";
import { IDEMPOTENCY_HEADER, type WebhookInfo, findWebhook } from "./webhooks.js";
import { findApi, loadRegistry } from "../registry.js";

export interface CallbackEvent<T = unknown> {
  /** API alias, e.g. `payment-initiation@1.0.0`. */
  alias: string;
  /** Webhook name under `webhooks:`, e.g. `transactionCompleted`. */
  webhook: string;
  operationId: string;
  /** The validated payload (parsed JSON; undefined when the delivery has no body). */
  payload: T;
  /** The delivery's Idempotency-Key, when it carries one. */
  idempotencyKey?: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
}

export type OnEvent<T = unknown> = (event: CallbackEvent<T>) => void | Promise<void>;

export interface CallbackHandlerOptions {
  /** Where accepted Idempotency-Keys are recorded. Default: a new in-memory store (one process). */
  store?: IdempotencyStore;
  /** Largest body accepted, bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Registry (a redocly.yaml) to look the alias up in; default: the package's own. */
  registry?: string;
  /** Called when onEvent throws (the delivery is answered 500). Default: logs the error's message to stderr. */
  onError?: (error: unknown, event: CallbackEvent) => void;
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

function readNodeBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.resume(); // drain the rest without keeping it
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/**
 * A handler for webhook `webhook` (its name under `webhooks:` or its operationId) of API `alias`.
 * Throws at once when the API or the webhook is unknown.
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
  const validator = createValidator(entry);
  const store = options.store ?? createMemoryStore();
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const onError =
    options.onError ??
    ((error: unknown) =>
      process.stderr.write(`${entry.alias} ${info.name}: onEvent failed: ${error instanceof Error ? error.message : String(error)}\n`));
  /** Keys being processed in this process: later deliveries of the same key wait for the first. */
  const inflight = new Map<string, Promise<void>>();

  const invalid = (violations: ContractViolation[]) =>
    json(400, {
      error: `invalid ${info.name} callback for ${entry.alias}`,
      violations: violations.map(({ in: where, path, message }) => ({ in: where, path, message })),
    });

  async function processEvent(event: CallbackEvent<T>): Promise<CallbackReply> {
    try {
      await onEvent(event);
      return json(200, { received: true, duplicate: false });
    } catch (error) {
      onError(error, event as CallbackEvent);
      return json(500, { error: "the callback could not be processed" });
    }
  }

  async function handle(delivery: CallbackDelivery): Promise<CallbackReply> {
    if (delivery.method.toUpperCase() !== info.method) {
      return json(405, { error: `${info.name} callbacks are sent with ${info.method}` }, { allow: info.method });
    }
    const headers = lowerCaseHeaders(delivery.headers);
    const contentType = headers["content-type"];
    let payload: unknown;
    if (delivery.body !== undefined && typeof delivery.body === "object" && !Buffer.isBuffer(delivery.body)) {
      payload = delivery.body.parsed;
    } else {
      const text = delivery.body === undefined ? "" : delivery.body.toString("utf8");
      if (Buffer.byteLength(text) > maxBody) return json(413, { error: `the body exceeds ${maxBody} bytes` });
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

    const key = headers[IDEMPOTENCY_HEADER.toLowerCase()];
    const event: CallbackEvent<T> = {
      alias: entry.alias,
      webhook: info.name,
      operationId: info.operationId,
      payload: payload as T,
      idempotencyKey: key,
      headers,
    };
    if (key === undefined || key === "") return processEvent(event);

    const storeKey = `${entry.alias} ${info.name} ${key}`;
    for (;;) {
      const pending = inflight.get(storeKey);
      if (pending) {
        await pending; // the first delivery of this key is being processed here: wait for its outcome
        continue;
      }
      let done!: () => void;
      inflight.set(storeKey, new Promise<void>((resolve) => (done = resolve)));
      try {
        if (!(await store.claim(storeKey))) return json(200, { received: true, duplicate: true });
        const reply = await processEvent(event);
        if (reply.status !== 200) await store.release?.(storeKey);
        return reply;
      } finally {
        inflight.delete(storeKey);
        done();
      }
    }
  }

  const handler = (async (req: IncomingMessage, res: ServerResponse) => {
    let reply: CallbackReply;
    try {
      const preRead = (req as IncomingMessage & { body?: unknown }).body;
      let body: CallbackDelivery["body"];
      if (typeof preRead === "string" || Buffer.isBuffer(preRead)) body = preRead;
      else if (preRead !== undefined && req.readableEnded) body = { parsed: preRead };
      else body = await readNodeBody(req, maxBody);
      reply = await handle({ method: req.method ?? "GET", headers: req.headers, body });
    } catch (error) {
      reply =
        error instanceof BodyTooLarge
          ? json(413, { error: `the body exceeds ${maxBody} bytes` })
          : json(400, { error: `cannot read the request: ${(error as Error).message}` });
    }
    if (!res.headersSent) {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    }
  }) as CallbackHandler;

  handler.fetch = async (request: Request): Promise<Response> => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const declared = Number(headers["content-length"]);
    let reply: CallbackReply;
    if (Number.isFinite(declared) && declared > maxBody) {
      reply = json(413, { error: `the body exceeds ${maxBody} bytes` });
    } else {
      const buffer = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
      reply = await handle({ method: request.method, headers, body: buffer });
    }
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
  handler.handle = handle;
  Object.defineProperty(handler, "webhook", { value: info, enumerable: true });
  return handler;
}
