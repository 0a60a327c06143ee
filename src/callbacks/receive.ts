/**
 * The first stages of a delivery (handler.ts runs them): the method (405), the Idempotency-Key
 * (an empty one is none, an overlong one 400), the body (413 over `maxBodyBytes`; parsed as JSON
 * when its media type is JSON or unnamed, 400 when it does not parse), and the payload and headers
 * validated against the webhook in the bundled spec (400 with the violations).
 */
import { IDEMPOTENCY_HEADER } from "./webhooks.js";
import { invalid, json } from "./reply.js";
import type { CallbackDelivery, CallbackReply, HandlerSettings } from "./types.js";

const JSON_MEDIA = /^application\/(.+\+)?json$/i;

/** A delivery that passed the checks: its headers (names in lower case), key, payload and raw body. */
export interface Received {
  headers: Record<string, string>;
  key: string | undefined;
  payload: unknown;
  rawBody: Buffer | undefined;
}

function lowerCaseHeaders(headers: CallbackDelivery["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

/** The payload of a delivery's body: a framework's parsed value as it is, else the bytes (within the bound) parsed. */
function payloadOf(
  context: HandlerSettings,
  body: CallbackDelivery["body"],
  contentType: string | undefined,
): { reply: CallbackReply } | { payload: unknown; rawBody: Buffer | undefined } {
  if (body !== undefined && typeof body === "object" && !Buffer.isBuffer(body)) return { payload: body.parsed, rawBody: undefined };
  const rawBody = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
  if (rawBody && rawBody.length > context.maxBody) return { reply: json(413, { error: `the body exceeds ${context.maxBody} bytes` }) };
  const text = rawBody ? rawBody.toString("utf8") : "";
  if (text.trim() === "") return { payload: undefined, rawBody };
  if (contentType !== undefined && !JSON_MEDIA.test(contentType.split(";")[0].trim())) {
    return { payload: text, rawBody }; // the validator reports the undeclared content type
  }
  try {
    return { payload: JSON.parse(text), rawBody };
  } catch (error) {
    return { reply: invalid(context, [{ in: "body", path: "$", message: `is not valid JSON: ${(error as Error).message}` }]) };
  }
}

/** The delivery checked and validated, or the reply that refuses it. */
export function receive(context: HandlerSettings, delivery: CallbackDelivery): { reply: CallbackReply } | Received {
  const { info } = context;
  if (delivery.method.toUpperCase() !== info.method) {
    return { reply: json(405, { error: `${info.name} callbacks are sent with ${info.method}` }, { allow: info.method }) };
  }
  const headers = lowerCaseHeaders(delivery.headers);
  // An empty key is no key; an overlong one is refused before anything keeps it.
  if (headers[context.keyHeader] !== undefined && headers[context.keyHeader].trim() === "") delete headers[context.keyHeader];
  const key = headers[context.keyHeader];
  if (key !== undefined && key.length > context.maxKeyLength) {
    return {
      reply: invalid(context, [
        {
          in: "header",
          path: `header.${info.idempotencyKey?.name ?? IDEMPOTENCY_HEADER}`,
          message: `must be at most ${context.maxKeyLength} characters`,
        },
      ]),
    };
  }
  const contentType = headers["content-type"];
  const body = payloadOf(context, delivery.body, contentType);
  if ("reply" in body) return body;
  const result = context.validator.validateRequest({
    operationId: info.operationId,
    body: body.payload,
    params: { header: headers },
    contentType: contentType ?? info.contentType,
  });
  if (!result.valid) return { reply: invalid(context, result.violations) };
  return { headers, key, payload: body.payload, rawBody: body.rawBody };
}
