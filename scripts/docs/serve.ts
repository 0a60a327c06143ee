/**
 * A minimal static file server for the built docs site (node:http; the project has no static-server
 * dependency). GET and HEAD only; paths are decoded, normalised and confined to the root (symlinks
 * included); a folder is served by its index.html (with a redirect to the trailing slash so relative
 * links resolve); nothing is listed; unknown types are served as application/octet-stream.
 */
import { createReadStream, realpathSync, statSync } from "node:fs";
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

function send(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(res.req.method === "HEAD" ? undefined : text);
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
    if (!urlPath.endsWith("/")) return { file, redirect: `${urlPath}/` };
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
      pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    } catch {
      return send(res, 400, "Bad Request\n");
    }
    const found = resolveInside(root, pathname);
    if (!found) return send(res, 404, "Not Found\n");
    if (found.redirect) return send(res, 301, `Moved to ${found.redirect}\n`, { Location: found.redirect });
    const size = statSync(found.file).size;
    res.writeHead(200, {
      "Content-Type": TYPES[extname(found.file).toLowerCase()] ?? "application/octet-stream",
      "Content-Length": size,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
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
