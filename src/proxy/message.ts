/**
 * An HTTP message as the proxy handles it, in either direction: the end-to-end headers (hop-by-hop
 * ones dropped, RFC 9110 7.6.1), the header object Prism validates, the parsed copy of a body, and a
 * body read within its bound.
 */
import type { IncomingMessage } from "node:http";
import { readBounded } from "../body.js";
import { ProxyFailure } from "./types.js";

/** Hop-by-hop headers (RFC 9110 7.6.1, plus the legacy Keep-Alive, Proxy-* and Upgrade): never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
const JSON_MEDIA = /^application\/(?:[\w.!#$&^-]+\+)?json$/i;

/** The raw header list without hop-by-hop headers (and those the Connection header names) nor `skip`. */
export function endToEnd(rawHeaders: string[], skip: ReadonlySet<string> = new Set()): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === "connection") {
      for (const token of rawHeaders[i + 1].split(",")) named.add(token.trim().toLowerCase());
    }
  }
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || skip.has(name)) continue;
    kept.push(rawHeaders[i], rawHeaders[i + 1]);
  }
  return kept;
}

/** Header names in lower case, repeated values joined (for Prism's validation copy). */
export function headerObject(rawHeaders: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    out[name] = name in out ? `${out[name]}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  return out;
}

/** The parsed copy Prism validates: JSON when the media type says so and it parses, else the text; null when empty. */
export function parsedCopy(body: Buffer, contentType: string | undefined): { value: unknown; notJson?: string } {
  if (body.length === 0) return { value: null };
  const text = body.toString("utf8");
  if (!JSON_MEDIA.test((contentType ?? "").split(";")[0].trim())) return { value: text };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { value: text, notJson: (error as Error).message };
  }
}

/** A body read within `limit` (src/body.ts): over it, `over()` (a 413 or 502); broken off, a 502. */
export const readBody = (stream: IncomingMessage, what: string, limit: number, over: () => ProxyFailure) =>
  readBounded(stream, limit, over, () => new ProxyFailure(502, `${what} broke off before its body was complete`));
