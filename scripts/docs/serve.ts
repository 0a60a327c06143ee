/**
 * A minimal static file server for the built docs site (node:http; the project has no static-server
 * dependency). GET and HEAD only; paths are decoded, normalised and confined to the root (symlinks
 * included); a folder is served by its index.html (with a redirect to the trailing slash so relative
 * links resolve; the redirect is a path on this origin, never `//host`); nothing is listed; unknown
 * types are served as application/octet-stream.
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
import { createReadStream, readFileSync, realpathSync, statSync } from "node:fs";
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
    res.writeHead(200, {
      ...securityHeaders(type.startsWith("text/html") ? hashesOf(found.file, size, mtimeMs) : []),
      "Content-Type": type,
      "Content-Length": size,
      "Cache-Control": "no-cache",
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(found.file)
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
