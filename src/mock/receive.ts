/**
 * Stage 1 of a request's way through the mock (server.ts): receive the body, within its bound, and
 * decode it as prism-http-server hands it to Prism (parsed JSON for a JSON Content-Type, else the
 * text). An unreadable body is refused here with micri's error answer (413, 400), as
 * prism-http-server does.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isJsonMediaType } from "../document/media.js";
import { MAX_BODY_BYTES, MAX_DRAIN_BYTES, MAX_DRAIN_MS } from "./limits.js";
import type { RawBody } from "./types.js";
import { sendBodyError } from "./write.js";

/** micri's error body (prism-http-server answers unreadable bodies through micri). */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const INVALID_JSON = () => new BodyError(400, "invalid_json", "Invalid JSON");

export type { RawBody };

/**
 * Reads the body. Over MAX_BODY_BYTES it fails with 413 and keeps reading (dropping the bytes, at
 * most MAX_DRAIN_BYTES more) so that the client, which is still sending, reads the 413 before the
 * connection closes (DEVIATIONS bodyLimit: Prism's server reset the connection).
 */
export function readBody(request: IncomingMessage, done: (error: BodyError | undefined, raw?: RawBody) => void): void {
  const { headers } = request;
  if (headers["content-length"] === "0" || (headers["transfer-encoding"] === undefined && headers["content-length"] === undefined)) {
    request.resume();
    done(undefined, { present: false, bytes: Buffer.alloc(0) });
    return;
  }
  let chunks: Buffer[] = [];
  let length = 0;
  let over = false;
  let settled = false;
  const settle = (error: BodyError | undefined, raw?: RawBody) => {
    if (settled) return;
    settled = true;
    done(error, raw);
  };
  request.on("data", (chunk: Buffer) => {
    length += chunk.length;
    if (over) {
      if (length > MAX_BODY_BYTES + MAX_DRAIN_BYTES) request.destroy();
      return;
    }
    if (length > MAX_BODY_BYTES) {
      over = true;
      chunks = [];
      settle(new BodyError(413, "request_entity_too_large", "Body exceeded 10mb limit"));
      return;
    }
    chunks.push(chunk);
  });
  request.once("end", () => settle(undefined, { present: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length) }));
  request.once("error", () => settle(new BodyError(400, "invalid_body", "Invalid body")));
}

/**
 * Answers a body that could not be read. A 413 is sent once the client has sent its body (or after
 * MAX_DRAIN_MS), then the connection is closed (DEVIATIONS bodyLimit); any other error at once.
 */
export function refuseBody(request: IncomingMessage, response: ServerResponse, error: BodyError): void {
  if (error.status !== 413 || request.complete) {
    sendBodyError(request, response, error);
    return;
  }
  let sent = false;
  const answer = () => {
    if (sent) return;
    sent = true;
    sendBodyError(request, response, error);
  };
  request.once("end", answer);
  setTimeout(answer, MAX_DRAIN_MS).unref();
}

/** `application/json` and `application/*+json`, as type-is decides for prism-http-server (a malformed value is not JSON). */
function isJsonContentType(value: string | undefined): boolean {
  return value === "application/json" || isJsonMediaType(value);
}

/** The body as prism-http-server hands it to Prism: parsed JSON for a JSON Content-Type, else the text; `invalid` for bad JSON. */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): { value: unknown } | "invalid" {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (!isJsonContentType(contentType)) return { value: text };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return "invalid";
  }
}

/** The body Prism sees: null when there is none; a BodyError (400) for bad JSON. */
export function parseBody(request: IncomingMessage, raw: RawBody): unknown {
  if (!raw.present) return null;
  const decoded = decodeBody(raw.bytes, request.headers["content-type"]);
  if (decoded === "invalid") throw INVALID_JSON();
  return decoded.value;
}
