/**
 * The docs site's static server (scripts/docs/serve.ts): files with their types, folders by their
 * index.html, and nothing outside the root, hidden, or by another method; a redirect never leaves
 * the origin; every answer carries the security headers, and a page's policy allows exactly its own
 * inline scripts. Caching: a content-hashed asset is immutable for a year, anything else is
 * revalidated and answered 304 while unchanged (ETag, Last-Modified); a file's brotli or gzip copy
 * is sent to a client that accepts it, each with its own ETag.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accepts, serveStatic, type StaticServer } from "../../../../scripts/docs/serve.js";
import { occupyPort } from "../../../helpers/ports.js";

let tmp: string;
let server: StaticServer;

const INLINE_CLASSIC = 'document.documentElement.classList.add("light")';
const INLINE_MODULE = '\n  import { x } from "../app.js";\n  x();\n';
/** A text worth compressing. */
const BIG = `${"const widget = 'the same line again';\n".repeat(400)}`;
/** The CSP source of a script's text, computed here independently of the server. */
const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "docs-serve-"));
  const root = join(tmp, "site");
  mkdirSync(join(root, "apis/pay/1.3.0"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<h1>index</h1>");
  writeFileSync(join(root, "apis/pay/1.3.0/index.html"), "<h1>pay</h1>");
  writeFileSync(join(root, "apis/pay/1.3.0/openapi.yaml"), "openapi: 3.1.0\n");
  writeFileSync(join(root, "app.js"), "export {};");
  writeFileSync(
    join(root, "apis/page.html"),
    `<html><head><script>${INLINE_CLASSIC}</script></head><body>
<script type="module">${INLINE_MODULE}</script><script type="module" src="../app.js"></script></body></html>`,
  );
  writeFileSync(join(root, ".docs-site.json"), "{}");
  // An asset under a content-hashed name, and a page, each with its compressed copies beside it (as the build writes them).
  mkdirSync(join(root, "assets"));
  for (const file of ["assets/bundle.0123456789.js", "assets/plain.js", "guide.html"]) {
    writeFileSync(join(root, file), BIG);
    writeFileSync(join(root, `${file}.br`), brotliCompressSync(BIG));
    writeFileSync(join(root, `${file}.gz`), gzipSync(BIG));
  }
  writeFileSync(join(tmp, "secret.txt"), "outside the root");
  symlinkSync(join(tmp, "secret.txt"), join(root, "link.txt"));
  server = await serveStatic(root);
});

afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A raw request: the path is sent exactly as given (fetch would normalise `..`), the body as bytes (`bytes`) and text. */
function raw(
  path: string,
  method = "GET",
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: bytes.toString("utf8"), bytes });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

describe("serveStatic", () => {
  it("serves files with their content type, and a folder by its index.html", async () => {
    for (const [path, type, body] of [
      ["/", "text/html; charset=utf-8", "<h1>index</h1>"],
      ["/index.html", "text/html; charset=utf-8", "<h1>index</h1>"],
      ["/apis/pay/1.3.0/", "text/html; charset=utf-8", "<h1>pay</h1>"],
      ["/apis/pay/1.3.0/openapi.yaml", "application/yaml; charset=utf-8", "openapi: 3.1.0\n"],
      ["/app.js", "text/javascript; charset=utf-8", "export {};"],
      ["/index.html?x=1#frag", "text/html; charset=utf-8", "<h1>index</h1>"],
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers["content-type"], path).toBe(type);
      expect(res.headers["x-content-type-options"], path).toBe("nosniff");
      expect(res.body, path).toBe(body);
    }
  });

  it("redirects a folder without its trailing slash, so relative links resolve", async () => {
    const res = await raw("/apis/pay/1.3.0");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/apis/pay/1.3.0/");
  });

  it("answers 404 outside the root, for hidden files, symlinks leaving the root, folders without index and missing files", async () => {
    for (const path of [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/apis/..%2f..%2f..%2fsecret.txt",
      "/apis/%2e%2e/%2e%2e/%2e%2e/secret.txt",
      "/..\\secret.txt",
      "/.docs-site.json",
      "/link.txt",
      "/apis/",
      "/missing.html",
      "/%00index.html",
      "/%E0%A4%A",
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain("outside the root");
    }
  });

  it("answers HEAD without a body and other methods with 405", async () => {
    const head = await raw("/index.html", "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String("<h1>index</h1>".length));
    expect(head.body).toBe("");
    const post = await raw("/index.html", "POST");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  it("never redirects to another origin: a folder path with doubled or back slashes redirects to the same origin", async () => {
    const paths = ["/.//apis", "//apis", "///apis", "/.///apis", "/\\apis", "/\\/apis", "/./\\apis", "//apis/pay/1.3.0"];
    const origin = `http://127.0.0.1:${server.port}`;
    for (const path of paths) {
      const res = await raw(path);
      expect(res.status, path).toBe(301);
      const location = String(res.headers.location);
      expect(location, path).toMatch(/^\/[^/\\]/);
      expect(new URL(location, origin + path).origin, path).toBe(origin);
      expect(new URL(location, origin).pathname, path).toMatch(/^\/apis\/(pay\/1\.3\.0\/)?$/);
    }
    expect(paths).toHaveLength(8);
  });

  it("sends nosniff, X-Frame-Options and a Content-Security-Policy on every answer (connections: this origin and loopback only)", async () => {
    const answers = [
      ["/", "GET", 200],
      ["/apis/pay/1.3.0/openapi.yaml", "GET", 200],
      ["/app.js", "HEAD", 200],
      ["/apis/pay/1.3.0", "GET", 301],
      ["/missing.html", "GET", 404],
      ["/../secret.txt", "GET", 404],
      ["/index.html", "POST", 405],
      ["/apis/page.html", "GET", 200],
    ] as const;
    for (const [path, method, status] of answers) {
      const res = await raw(path, method);
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.headers["x-content-type-options"], `${method} ${path}`).toBe("nosniff");
      expect(res.headers["x-frame-options"], `${method} ${path}`).toBe("DENY");
      const csp = String(res.headers["content-security-policy"]);
      for (const directive of [
        "default-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'none'",
        "style-src 'self' 'unsafe-inline'",
        // The request console reaches the local mocks and sandbox, and nothing else outside this origin.
        "connect-src 'self' http://127.0.0.1:* http://localhost:*;",
      ]) {
        expect(csp, `${method} ${path}`).toContain(directive);
      }
      expect(csp, `${method} ${path}`).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
    expect(answers).toHaveLength(8);
  });

  it("allows exactly a page's own inline scripts, by hash", async () => {
    const page = await raw("/apis/page.html");
    const script = /(?:^|;\s*)script-src ([^;]*)/.exec(String(page.headers["content-security-policy"]))?.[1].split(" ");
    expect(script?.sort()).toEqual(["'self'", sha256(INLINE_CLASSIC), sha256(INLINE_MODULE)].sort());
    const plain = await raw("/index.html");
    expect(/(?:^|;\s*)script-src ([^;]*)/.exec(String(plain.headers["content-security-policy"]))?.[1]).toBe("'self'");
  });

  it("lets browsers keep a content-hashed asset for a year, and has everything else revalidated", async () => {
    const hashed = await raw("/assets/bundle.0123456789.js");
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    for (const path of ["/assets/plain.js", "/guide.html", "/index.html", "/apis/pay/1.3.0/openapi.yaml"]) {
      const res = await raw(path);
      expect(res.headers["cache-control"], path).toBe("no-cache");
      expect(res.headers.etag, path).toMatch(/^"[^"]+"$/);
      expect(new Date(String(res.headers["last-modified"])).getTime(), path).not.toBeNaN();
    }
  });

  it("answers 304 without a body while the validators match (If-None-Match before If-Modified-Since), 200 once the file changed", async () => {
    const first = await raw("/apis/pay/1.3.0/openapi.yaml");
    const etag = String(first.headers.etag);
    const again = await raw("/apis/pay/1.3.0/openapi.yaml", "GET", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["content-security-policy"]).toBeDefined();
    expect((await raw("/apis/pay/1.3.0/openapi.yaml", "GET", { "If-None-Match": `"other", W/${etag}` })).status).toBe(304);
    expect((await raw("/apis/pay/1.3.0/openapi.yaml", "GET", { "If-None-Match": '"other"' })).status).toBe(200);
    // If-None-Match decides when present, even with a matching date.
    const since = String(first.headers["last-modified"]);
    expect((await raw("/apis/pay/1.3.0/openapi.yaml", "GET", { "If-None-Match": '"other"', "If-Modified-Since": since })).status).toBe(200);
    expect((await raw("/apis/pay/1.3.0/openapi.yaml", "GET", { "If-Modified-Since": since })).status).toBe(304);

    const file = join(tmp, "site/apis/pay/1.3.0/openapi.yaml");
    writeFileSync(file, "openapi: 3.1.1\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const changed = await raw("/apis/pay/1.3.0/openapi.yaml", "GET", { "If-None-Match": etag, "If-Modified-Since": since });
    expect(changed.status).toBe(200);
    expect(changed.body).toBe("openapi: 3.1.1\n");
    expect(changed.headers.etag).not.toBe(etag);
  });

  it("sends the brotli copy to a client that accepts br, the gzip copy to one that accepts gzip only, the file to others", async () => {
    for (const path of ["/assets/bundle.0123456789.js", "/guide.html"]) {
      const br = await raw(path, "GET", { "Accept-Encoding": "gzip, deflate, br, zstd" });
      expect(br.headers["content-encoding"], path).toBe("br");
      expect(br.headers.vary, path).toBe("Accept-Encoding");
      expect(Number(br.headers["content-length"])).toBe(br.bytes.length);
      expect(br.bytes.length).toBeLessThan(Buffer.byteLength(BIG) / 5);
      expect(brotliDecompressSync(br.bytes).toString("utf8"), path).toBe(BIG);

      const gz = await raw(path, "GET", { "Accept-Encoding": "gzip, br;q=0" });
      expect(gz.headers["content-encoding"], path).toBe("gzip");
      expect(gunzipSync(gz.bytes).toString("utf8"), path).toBe(BIG);

      const plain = await raw(path, "GET", { "Accept-Encoding": "identity" });
      expect(plain.headers["content-encoding"], path).toBeUndefined();
      expect(plain.headers.vary, path).toBe("Accept-Encoding");
      expect(plain.body, path).toBe(BIG);

      // Each representation has its own validator.
      expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size, path).toBe(3);
      expect((await raw(path, "GET", { "Accept-Encoding": "br", "If-None-Match": String(br.headers.etag) })).status).toBe(304);
      expect((await raw(path, "GET", { "Accept-Encoding": "identity", "If-None-Match": String(br.headers.etag) })).status).toBe(200);
    }
    // The page's type and security headers stay those of the page.
    const page = await raw("/guide.html", "GET", { "Accept-Encoding": "br" });
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
  });

  it("reads Accept-Encoding as RFC 9110 writes it: names, q-values, the wildcard", () => {
    expect(accepts("gzip, deflate, br", "br")).toBe(true);
    expect(accepts("gzip;q=1.0, br;q=0", "br")).toBe(false);
    expect(accepts("GZIP", "gzip")).toBe(true);
    expect(accepts("*", "br")).toBe(true);
    expect(accepts("*;q=0, gzip", "br")).toBe(false);
    expect(accepts("identity", "gzip")).toBe(false);
    expect(accepts(undefined, "gzip")).toBe(false);
  });

  it("names the port when it is taken", async () => {
    const held = await occupyPort();
    try {
      await expect(serveStatic(tmp, { port: held.port })).rejects.toThrow(`port 127.0.0.1:${held.port} is already in use`);
    } finally {
      await held.close();
    }
  });
});
