/**
 * The proxy's last stage: the upstream's answer written back as it came (its status and message,
 * end-to-end headers, body bytes, a Content-Length from what is sent) with the findings in
 * `sl-violations`; or, when there is no answer, the proxy's own `{ error }` answer.
 */
import type { ServerResponse } from "node:http";
import { MAX_SAFE_HEADER_LENGTH } from "../mock/limits.js";
import { headerJson } from "../mock/write.js";
import { endToEnd } from "./message.js";
import type { ProxyFailure, ProxyViolation, UpstreamAnswer } from "./types.js";

/**
 * The sl-violations header: the JSON list, each violation encoded as the mock encodes it (a
 * character a header cannot carry written as its JSON escape, so a finding that quotes any text
 * still goes out and parses back), whole violations dropped from the end and counted when it
 * would be longer than prism-http-server's limit. Undefined when there are none.
 */
export function violationsHeader(violations: ProxyViolation[]): string | undefined {
  if (violations.length === 0) return undefined;
  const encoded = violations.map((v) => headerJson(v));
  let kept = violations.length;
  for (;;) {
    const list = encoded.slice(0, kept);
    if (kept < violations.length) {
      list.push(
        headerJson({ location: [], severity: "Information", code: "truncated", message: `${violations.length - kept} more violation(s)` }),
      );
    }
    const text = `[${list.join(",")}]`;
    if (text.length <= MAX_SAFE_HEADER_LENGTH || kept === 0) return text;
    kept = Math.max(0, Math.min(kept - 1, Math.floor((kept * MAX_SAFE_HEADER_LENGTH) / text.length)));
  }
}

/** The proxy's own answer when there is none to pass back: `{ error }` naming the API, with the failure's status. */
export function writeFailure(response: ServerResponse, alias: string, failure: ProxyFailure): void {
  if (response.headersSent || response.destroyed) return;
  const text = JSON.stringify({ error: `${alias} proxy: ${failure.message}` });
  response.writeHead(failure.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...(failure.status === 413 ? { connection: "close" } : {}),
  });
  response.end(text);
}

/** The upstream's answer to `method`, as it came, with `violations` in sl-violations (the upstream's own sl-violations replaced). */
export function writeAnswer(response: ServerResponse, method: string, answer: UpstreamAnswer, violations: ProxyViolation[]): void {
  if (response.destroyed) return;
  const out = endToEnd(answer.rawHeaders, new Set(["content-length", "sl-violations"]));
  const bodyless = method === "HEAD" || answer.status === 204 || answer.status === 304 || answer.status < 200;
  if (!bodyless) out.push("Content-Length", String(answer.body.length));
  else if (method === "HEAD") {
    const declared = answer.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === "content-length");
    if (declared >= 0) out.push("Content-Length", answer.rawHeaders[declared + 1]);
  }
  const header = violationsHeader(violations);
  if (header) out.push("sl-violations", header);
  response.writeHead(answer.status, answer.statusMessage, out);
  response.end(bodyless ? undefined : answer.body);
}
