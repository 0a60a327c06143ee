/**
 * The upstream: its URL (checked, and shown without its userinfo), the connection settings every
 * exchange shares (one keep-alive agent, the userinfo as Basic credentials, the time and size
 * bounds), and one exchange with it: the request as received, the answer read whole within the
 * bounds, a redirect never followed.
 */
import { Agent, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { endToEnd, readBody } from "./message.js";
import { ProxyFailure, type UpstreamAnswer } from "./types.js";

/** Headers the proxy sets itself from what it really sends. */
const FRAMING = new Set(["host", "content-length"]);

/** What every exchange with the upstream shares. */
export interface Upstream {
  url: URL;
  /** `url` as it may be shown: without userinfo. */
  shown: URL;
  secure: boolean;
  agent: Agent;
  /** The URL's userinfo as an Authorization value, sent when the request has none of its own. */
  basic: string | undefined;
  timeoutMs: number;
  maxBody: number;
}

/** A URL as it may be shown: without userinfo. */
export function withoutUserinfo(url: URL): URL {
  const shown = new URL(url.href);
  shown.username = "";
  shown.password = "";
  return shown;
}

/** `user:password@` cut out of text that failed to parse as a URL, so that an error can quote the rest. */
const redactText = (text: string) => text.replace(/\/\/[^/@\s]*@/g, "//");

/** The upstream's URL, checked: an http or https URL, or an error that names the API and shows no userinfo. */
export function parseUpstream(alias: string, upstream: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(upstream));
  } catch {
    throw new Error(`${alias}: upstream ${JSON.stringify(redactText(String(upstream)))} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${alias}: upstream must be an http or https URL, got ${withoutUserinfo(url).href}`);
  return url;
}

/** The settings every exchange with `url` shares; `close` the agent when done. */
export function upstreamOf(url: URL, timeoutMs: number, maxBody: number): Upstream {
  const secure = url.protocol === "https:";
  return {
    url,
    shown: withoutUserinfo(url),
    secure,
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true }),
    basic:
      url.username || url.password
        ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`
        : undefined,
    timeoutMs,
    maxBody,
  };
}

/** Where a request goes upstream: the upstream's path followed by the request's, and the request's query. */
function targetOf(upstream: Upstream, requestUrl: string): URL {
  const target = new URL(upstream.url.href);
  const [path, query = ""] = requestUrl.split(/\?(.*)/s, 2);
  target.pathname = `${target.pathname.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
  target.search = query ? `?${query}` : "";
  return target;
}

/** The headers sent upstream: the request's end-to-end ones, Host naming the upstream, the body's length, the userinfo's credentials. */
function headersFor(upstream: Upstream, input: IncomingMessage, body: Buffer, hasBody: boolean): string[] {
  const headers = endToEnd(input.rawHeaders, FRAMING);
  headers.push("Host", upstream.url.host);
  if (hasBody) headers.push("Content-Length", String(body.length));
  if (upstream.basic && !headers.some((h, i) => i % 2 === 0 && h.toLowerCase() === "authorization")) {
    headers.push("Authorization", upstream.basic);
  }
  return headers;
}

/** One upstream exchange: the request as received (bytes and end-to-end headers), the answer read whole (bounded) within the time limit. */
export function callUpstream(
  upstream: Upstream,
  input: IncomingMessage,
  body: Buffer,
  hasBody: boolean,
  aborted: AbortSignal,
): Promise<UpstreamAnswer> {
  const { timeoutMs, maxBody } = upstream;
  const target = targetOf(upstream, input.url ?? "/");
  const headers = headersFor(upstream, input, body, hasBody);
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: UpstreamAnswer | ProxyFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      aborted.removeEventListener("abort", onAbort);
      if (outcome instanceof ProxyFailure) {
        request.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const onAbort = () => settle(new ProxyFailure(502, "the client went away"));
    const timer = setTimeout(
      () => settle(new ProxyFailure(504, `the upstream did not answer within ${timeoutMs} ms (timeoutMs)`)),
      timeoutMs,
    );
    const request = (upstream.secure ? httpsRequest : httpRequest)(
      {
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: input.method,
        headers,
        setHost: false,
        agent: upstream.agent,
      },
      (response) => {
        const declared = Number(response.headers["content-length"]);
        const tooLarge = () => new ProxyFailure(502, `the upstream's answer exceeds ${maxBody} bytes (maxBodyBytes)`);
        if (Number.isFinite(declared) && declared > maxBody) {
          settle(tooLarge());
          return;
        }
        readBody(response, "the upstream's answer", maxBody, tooLarge).then(
          (bytes) =>
            settle({
              status: response.statusCode ?? 502,
              statusMessage: response.statusMessage ?? "",
              rawHeaders: response.rawHeaders,
              body: bytes,
            }),
          (error: unknown) =>
            settle(
              error instanceof ProxyFailure ? error : new ProxyFailure(502, `the upstream's answer broke off: ${(error as Error).message}`),
            ),
        );
      },
    );
    if (aborted.aborted) onAbort();
    else aborted.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error: NodeJS.ErrnoException) =>
      settle(
        new ProxyFailure(502, `the upstream ${upstream.shown.origin} could not be reached or broke off: ${error.code ?? error.message}`),
      ),
    );
    request.end(hasBody ? body : undefined);
  });
}
