/**
 * A minimal static file server for the built docs site (node:http; the project has no static-server
 * dependency). GET and HEAD only; paths are decoded, normalised and confined to the root (symlinks
 * included); a folder is served by its index.html (with a redirect to the trailing slash so relative
 * links resolve; the redirect is a path on this origin, never `//host`); nothing is listed; unknown
 * types are served as application/octet-stream.
 *
 * Caching and compression, for a portal whose reference pages share a 3.5 MB script:
 *
 * - a content-hashed asset (`assets/<name>.<10 hex>.js|css`, scripts/docs/build.ts) is served with
 *   `Cache-Control: public, max-age=31536000, immutable`: a browser loads it once, whichever page
 *   asks, and never asks again (its name changes with its content);
 * - everything else with `Cache-Control: no-cache` and validators (`ETag`, `Last-Modified`): a
 *   browser asks again each time and gets `304 Not Modified` without the body while the file is
 *   unchanged (`If-None-Match`, else `If-Modified-Since`);
 * - a file with a brotli (`<file>.br`) or gzip (`<file>.gz`) copy beside it, which the build makes,
 *   is sent as that copy to a client that accepts the encoding (`Accept-Encoding`, q-values
 *   honoured; brotli preferred), with `Content-Encoding` and `Vary: Accept-Encoding`; each
 *   encoding has its own ETag. Nothing is compressed per request.
 *
 * Every answer carries `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and a
 * Content-Security-Policy fitting the site: everything from this origin only, no plugins, no
 * framing, no forms, no `<base>`; images and fonts also as `data:` URLs (the reference's icons);
 * workers also from `blob:`; styles also inline (Scalar's themes and `style` attributes); scripts
 * from this origin plus, on an HTML page, exactly the inline scripts that page contains, by their
 * sha256 hash (the site's own pages have none), never `'unsafe-inline'`; connections to this origin
 * and to loopback addresses on any port, where the reference pages' request console reaches the
 * local mocks and sandbox (no other host: a console request to the provider's own servers is
 * refused by the browser, and each of those servers says so in its description).
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { extname, join, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".yml": "application/yaml; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

export interface StaticServer {
  /** `http://<host>:<port>/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
}

const POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
  // The request console calls the local mocks and sandbox (ports 4010-4016, or any given with ?port=).
  "connect-src 'self' http://127.0.0.1:* http://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

/** The Content-Security-Policy of an answer; `scripts` are the CSP hash sources of a page's inline scripts. */
export function contentSecurityPolicy(scripts: readonly string[] = []): string {
  return [...POLICY, `script-src ${["'self'", ...scripts].join(" ")}`].join("; ");
}

/** Headers every answer carries. */
function securityHeaders(scripts: readonly string[] = []): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(scripts),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
  };
}

/** Pages larger than this are served without hashes (their inline scripts are then blocked). */
const MAX_HASHED_PAGE = 8 * 1024 * 1024;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** `'sha256-...'` of each inline script (a `<script>` without `src`) in an HTML text. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** Hashes per page file, kept while the file's size and modification time stay the same. */
const pageHashes = new Map<string, { stamp: string; hashes: string[] }>();

function hashesOf(file: string, size: number, mtimeMs: number): string[] {
  if (size > MAX_HASHED_PAGE) return [];
  const stamp = `${size}:${mtimeMs}`;
  const known = pageHashes.get(file);
  if (known?.stamp === stamp) return known.hashes;
  const hashes = inlineScriptHashes(readFileSync(file, "utf8"));
  pageHashes.set(file, { stamp, hashes });
  return hashes;
}

function send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    ...securityHeaders(),
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(res.req.method === "HEAD" ? undefined : text);
}

/** The path of a request target: origin-form (`/a//b`) kept as sent, so that `//host` stays a path. */
function pathOf(target: string): string {
  return new URL(target.startsWith("/") ? `http://localhost${target}` : target).pathname;
}

/** The file a URL path names inside `root`, or undefined when it is outside, hidden or missing. */
export function resolveInside(root: string, urlPath: string): { file: string; redirect?: string } | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.split(/[\\/]/).some((s) => s === ".." || (s.startsWith(".") && s.length > 1))) return undefined;
  let file = resolve(root, `.${decoded}`);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) {
    // One leading slash: `//apis/` would be a redirect to the host "apis".
    if (!urlPath.endsWith("/")) return { file, redirect: `/${urlPath.replace(/^[/\\]+/, "")}/` };
    file = join(file, "index.html");
    try {
      if (!statSync(file).isFile()) return undefined;
    } catch {
      return undefined;
    }
  } else if (!stat.isFile()) {
    return undefined;
  }
  const real = realpathSync(file);
  return real.startsWith(root + sep) ? { file: real } : undefined;
}

/** A content-hashed asset's path (see the module header): cached for good. */
const HASHED = /^\/assets\/[\w-]+\.[0-9a-f]{10}\.(?:js|css)$/;
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The encodings, best first, with the suffix of their copy beside the file. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

/** Whether an Accept-Encoding value accepts `coding` (by name or `*`, with a q-value above 0). */
export function accepts(header: string | undefined, coding: string): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const ok = q === undefined || Number(q) > 0;
    if (name.trim() === coding) return ok;
    if (name.trim() === "*") star = ok;
  }
  return star ?? false;
}

/** The validator of one representation: size, modification time and encoding. */
const etagOf = (size: number, mtimeMs: number, encoding?: string) =>
  `"${size.toString(36)}-${Math.floor(mtimeMs).toString(36)}${encoding ? `-${encoding}` : ""}"`;

/** Whether a request's validators match the representation (If-None-Match first, as RFC 9110 says). */
function notModified(req: IncomingMessage, etag: string, mtimeMs: number): boolean {
  const match = req.headers["if-none-match"];
  if (match !== undefined)
    return match
      .split(",")
      .map((tag) => tag.trim().replace(/^W\//, ""))
      .some((tag) => tag === etag || tag === "*");
  const since = req.headers["if-modified-since"];
  if (since === undefined) return false;
  const at = Date.parse(since);
  return !Number.isNaN(at) && Math.floor(mtimeMs / 1000) * 1000 <= at;
}

/** The copy to send for a request: the file itself or its compressed copy, with its size and time. */
function representation(file: string, acceptEncoding: string | undefined) {
  for (const encoding of ENCODINGS) {
    if (!accepts(acceptEncoding, encoding.name)) continue;
    try {
      const stat = statSync(file + encoding.suffix);
      if (stat.isFile()) return { path: file + encoding.suffix, size: stat.size, mtimeMs: stat.mtimeMs, encoding: encoding.name };
    } catch {
      // no copy in this encoding
    }
  }
  const { size, mtimeMs } = statSync(file);
  return { path: file, size, mtimeMs, encoding: undefined };
}

export function serveStatic(rootDir: string, options: ServeOptions = {}): Promise<StaticServer> {
  const root = realpathSync(resolve(rootDir));
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "Method Not Allowed\n", { Allow: "GET, HEAD" });
    let pathname: string;
    try {
      pathname = pathOf(req.url ?? "/");
    } catch {
      return send(res, 400, "Bad Request\n");
    }
    const found = resolveInside(root, pathname);
    if (!found) return send(res, 404, "Not Found\n");
    if (found.redirect) return send(res, 301, `Moved to ${found.redirect}\n`, { Location: found.redirect });
    const { size, mtimeMs } = statSync(found.file);
    const type = TYPES[extname(found.file).toLowerCase()] ?? "application/octet-stream";
    const sent = representation(found.file, req.headers["accept-encoding"]);
    const etag = etagOf(sent.size, sent.mtimeMs, sent.encoding);
    const headers: Record<string, string | number> = {
      ...securityHeaders(type.startsWith("text/html") ? hashesOf(found.file, size, mtimeMs) : []),
      "Cache-Control": HASHED.test(pathname) ? IMMUTABLE : "no-cache",
      ETag: etag,
      "Last-Modified": new Date(mtimeMs).toUTCString(),
      ...(sent.path !== found.file || existsSync(`${found.file}.br`) || existsSync(`${found.file}.gz`) ? { Vary: "Accept-Encoding" } : {}),
    };
    if (notModified(req, etag, sent.mtimeMs)) {
      res.writeHead(304, headers);
      return res.end();
    }
    res.writeHead(200, {
      ...headers,
      "Content-Type": type,
      "Content-Length": sent.size,
      ...(sent.encoding ? { "Content-Encoding": sent.encoding } : {}),
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(sent.path)
      .on("error", () => res.destroy())
      .pipe(res);
  };
  const server = createServer(handler);
  return new Promise((resolvePromise, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host ?? "127.0.0.1"}:${options.port ?? 0}`;
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`docs: port ${where} is already in use; choose another with --port`)
          : new Error(`docs: cannot listen on ${where}: ${error.message}`),
      );
    });
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
      const host = options.host ?? "127.0.0.1";
      const shown = host.includes(":") ? `[${host}]` : host;
      resolvePromise({
        url: `http://${shown}:${port}/`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
