/**
 * The first stage of a request's way through the proxy (server.ts): its body read whole within
 * `maxBodyBytes` (over it a 413, and nothing is forwarded), and the copy Prism validates, made from
 * what was received without changing what will be forwarded.
 */
import type { IncomingMessage } from "node:http";
import { endToEnd, headerObject, parsedCopy, readBody } from "./message.js";
import { type PrismInput, ProxyFailure } from "./types.js";

/** Whether the request came with a body (a Content-Length or a chunked one), even an empty one. */
export const hasBody = (request: IncomingMessage): boolean =>
  request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined;

/** The request's body within `maxBody` bytes: a ProxyFailure 413 over it, a 502 when it broke off. */
export function receive(request: IncomingMessage, maxBody: number): Promise<Buffer> {
  return readBody(request, "the request", maxBody, () => new ProxyFailure(413, `the request body exceeds ${maxBody} bytes (maxBodyBytes)`));
}

/** The copy Prism validates: the path and query read from `url`, headers as one object, the body parsed, its length as received. */
export function prismInput(request: IncomingMessage, method: string, url: string, body: Buffer): PrismInput {
  const { searchParams, pathname } = new URL(url.startsWith("/") ? `http://proxy${url}` : url);
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  const headers = headerObject(endToEnd(request.rawHeaders, new Set(["content-length"])));
  if (hasBody(request)) headers["content-length"] = String(body.length);
  return { method: method.toLowerCase(), url: { path: pathname, query }, headers, body: parsedCopy(body, headers["content-type"]).value };
}
