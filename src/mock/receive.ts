/**
 * Stage 1 of a request's way through the mock (server.ts): receive the body, within its bound, and
 * decode it as prism-http-server hands it to Prism (parsed JSON for a JSON Content-Type, else the
 * text). An unreadable body is refused here with micri's error answer (413, 400), as
 * prism-http-server does.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isJsonMediaType } from "../document/media.js";
import { MAX_BODY_BYTES, MAX_DRAIN_BYTES, MAX_DRAIN_MS, MAX_JSON_DEPTH } from "./limits.js";
import type { RawBody } from "./types.js";
import { sendBodyError } from "./write.js";

/** micri's error body (prism-http-server answers unreadable bodies through micri). */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Answer at once, without waiting for the client to finish sending (a declared length over the limit). */
    readonly atOnce = false,
  ) {
    super(message);
  }
}

export const INVALID_JSON = () => new BodyError(400, "invalid_json", "Invalid JSON");
/** DEVIATIONS jsonDepth: a JSON body nested deeper than MAX_JSON_DEPTH is refused as unparseable JSON is. */
export const TOO_DEEP = () => new BodyError(400, "invalid_json", `Invalid JSON: nested deeper than ${MAX_JSON_DEPTH} levels`);
const TOO_LARGE = (atOnce: boolean) => new BodyError(413, "request_entity_too_large", "Body exceeded 10mb limit", atOnce);

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
  // A declared length over the limit is refused before any byte arrives (the client may never send them).
  if (headers["transfer-encoding"] === undefined && Number(headers["content-length"]) > MAX_BODY_BYTES) {
    over = true;
    settle(TOO_LARGE(true));
  }
  request.on("data", (chunk: Buffer) => {
    length += chunk.length;
    if (over) {
      if (length > MAX_BODY_BYTES + MAX_DRAIN_BYTES) request.destroy();
      return;
    }
    if (length > MAX_BODY_BYTES) {
      over = true;
      chunks = [];
      settle(TOO_LARGE(false));
      return;
    }
    chunks.push(chunk);
  });
  request.once("end", () => settle(undefined, { present: true, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length) }));
  request.once("error", () => settle(new BodyError(400, "invalid_body", "Invalid body")));
}

/**
 * Answers a body that could not be read. A 413 is sent once the client has sent its body (or after
 * MAX_DRAIN_MS), then the connection is closed (DEVIATIONS bodyLimit); a 413 for a declared length,
 * and any other error, at once.
 */
export function refuseBody(request: IncomingMessage, response: ServerResponse, error: BodyError): void {
  if (error.status !== 413 || request.complete || error.atOnce) {
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

const JSON_BYTE = new Uint8Array(256);
JSON_BYTE["[".charCodeAt(0)] = 1;
JSON_BYTE["{".charCodeAt(0)] = 1;
JSON_BYTE["]".charCodeAt(0)] = 2;
JSON_BYTE["}".charCodeAt(0)] = 2;
JSON_BYTE['"'.charCodeAt(0)] = 3;
JSON_BYTE["\\".charCodeAt(0)] = 4;

/** Whether JSON text nests arrays and objects deeper than `max` (strings skipped); a text shorter than 2 x max cannot. */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  if (bytes.length <= 2 * max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const kind = JSON_BYTE[bytes[i]];
    if (kind === 0) continue;
    if (inString) {
      if (kind === 4) i++;
      else if (kind === 3) inString = false;
    } else if (kind === 1) {
      if (++depth > max) return true;
    } else if (kind === 2) depth--;
    else if (kind === 3) inString = true;
  }
  return false;
}

/**
 * The body as prism-http-server hands it to Prism: parsed JSON for a JSON Content-Type, else the
 * text; `invalid` for bad JSON, `tooDeep` for JSON nested deeper than MAX_JSON_DEPTH (DEVIATIONS
 * jsonDepth: the sandbox's state, the worker's reply and any recursive reader of the body stay
 * within the stack; Prism itself has no such bound).
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): { value: unknown } | "invalid" | "tooDeep" {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (!isJsonContentType(contentType)) return { value: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "invalid";
  }
  return nestsDeeperThan(bytes, MAX_JSON_DEPTH) ? "tooDeep" : { value };
}

/** The body Prism sees: null when there is none; a BodyError (400) for bad JSON. */
export function parseBody(request: IncomingMessage, raw: RawBody): unknown {
  if (!raw.present) return null;
  const decoded = decodeBody(raw.bytes, request.headers["content-type"]);
  if (decoded === "invalid") throw INVALID_JSON();
  if (decoded === "tooDeep") throw TOO_DEEP();
  return decoded.value;
}
