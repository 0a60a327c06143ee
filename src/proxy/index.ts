/**
 * A validating proxy in front of a real server (a sandbox): every request is forwarded to
 * `upstream`, and the request and the upstream's answer are both validated by Prism against the
 * API's bundled spec. Nothing is blocked or rewritten: findings are added to the answer in the
 * `sl-violations` header (as the mock does) and reported to `onExchange`, one call per request.
 *
 * What goes through, exactly:
 * - The request's bytes go upstream as they were received (no re-serialisation: big integers and
 *   duplicate JSON keys stay intact); Prism validates a parsed copy. A chunked request is sent with
 *   one Content-Length (never with Transfer-Encoding as well). Hop-by-hop headers (Connection,
 *   Keep-Alive, Proxy-Authorization, Proxy-Authenticate, TE, Trailer, Transfer-Encoding, Upgrade
 *   and those the Connection header names) are dropped in both directions; Host names the upstream.
 * - The upstream's answer comes back as it was sent: its status (a 3xx is passed back, never
 *   followed, so no credential reaches the redirect's target; a 501 is a 501, never replaced by an
 *   example), its end-to-end headers and its body bytes. An answer that breaks the contract (a
 *   200 that is not the JSON the spec declares, say) is passed through with its violations.
 * - Only when there is no answer to pass back does the proxy answer itself, with a JSON
 *   `{ error }`: 504 when the upstream sent nothing complete within `timeoutMs` (default 30 s for
 *   the whole exchange), 502 when the connection failed or broke or the answer's body exceeds
 *   `maxBodyBytes` (default 10 MiB), 413 when the request's body exceeds it (not forwarded). Each
 *   is reported to `onExchange` with `error` set, or written to standard error when there is no
 *   `onExchange`.
 * - The upstream URL's userinfo (`https://user:password@host`) is never shown: not in `upstream`,
 *   an error, a report or an answer. It is sent upstream as Basic credentials when the request has
 *   no Authorization header of its own (as Node's http client does with a URL's userinfo).
 * - CORS is the upstream's: preflights are forwarded like any request, and no CORS header is added.
 *
 * The stages of an exchange are modules of their own (server.ts runs them: receive.ts, judge.ts,
 * write.ts; upstream.ts is the way to the upstream, message.ts the headers and bodies, types.ts the
 * types); this module checks the options and starts and stops one proxy.
 *
 * Needs the optional peer dependency @stoplight/prism-http.
 */
import { once } from "node:events";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { listenOrExplain } from "../mock/listen.js";
import { type ApiEntry, defaultPort, findApi } from "../registry.js";
import { createJudge } from "./judge.js";
import { createProxyServer, reportFailures } from "./server.js";
import type { ProxyOptions, ProxyServer } from "./types.js";
import { parseUpstream, upstreamOf } from "./upstream.js";

export type { ProxyExchange, ProxyOptions, ProxyServer, ProxyViolation } from "./types.js";

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

function positiveInteger(alias: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${alias}: ${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

/** Starts a validating proxy for one API (alias or registry entry) in front of `options.upstream`. */
export async function startProxy(api: string | ApiEntry, options: ProxyOptions): Promise<ProxyServer> {
  const entry = typeof api === "string" ? findApi(api) : api;
  const url = parseUpstream(entry.alias, options.upstream);
  const timeoutMs = positiveInteger(entry.alias, "timeoutMs", options.timeoutMs, DEFAULT_UPSTREAM_TIMEOUT_MS);
  const maxBody = positiveInteger(entry.alias, "maxBodyBytes", options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
  const port = options.port ?? defaultPort(entry);
  const host = options.host ?? "127.0.0.1";
  if (!existsSync(entry.bundlePath)) throw new Error(`${entry.alias}: bundled spec ${entry.bundlePath} not found`);
  const operations = await getHttpOperationsFromSpec(entry.bundlePath);
  const upstream = upstreamOf(url, timeoutMs, maxBody);
  const server = createProxyServer({
    alias: entry.alias,
    maxBody,
    judge: createJudge(upstream, operations),
    report: options.onExchange ?? reportFailures(entry.alias),
  });
  const address = await listenOrExplain(
    {
      listen: async (p, h) => {
        await once(server.listen(p, h), "listening");
        const { port: bound } = server.address() as AddressInfo;
        return `http://${h.includes(":") ? `[${h}]` : h}:${bound}`;
      },
    },
    entry.alias,
    port,
    host,
  );
  return {
    alias: entry.alias,
    url: address,
    port: Number(new URL(address).port),
    upstream: upstream.shown.href,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.agent.destroy();
      }),
  };
}
