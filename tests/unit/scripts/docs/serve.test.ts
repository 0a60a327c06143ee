/**
 * The docs site's static server (scripts/docs/serve.ts): files with their types, folders by their
 * index.html, and nothing outside the root, hidden, or by another method; a redirect never leaves
 * the origin; every answer carries the security headers, and a page's policy allows exactly its own
 * inline scripts.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../../../scripts/docs/serve.js";
import { occupyPort } from "../../../helpers/ports.js";

let tmp: string;
let server: StaticServer;

const INLINE_CLASSIC = 'document.documentElement.classList.add("light")';
const INLINE_MODULE = '\n  import { x } from "../app.js";\n  x();\n';
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
  writeFileSync(join(tmp, "secret.txt"), "outside the root");
  symlinkSync(join(tmp, "secret.txt"), join(root, "link.txt"));
  server = await serveStatic(root);
});

afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A raw request: the path is sent exactly as given (fetch would normalise `..`). */
function raw(
  path: string,
  method = "GET",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path, method }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
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

  it("names the port when it is taken", async () => {
    const held = await occupyPort();
    try {
      await expect(serveStatic(tmp, { port: held.port })).rejects.toThrow(`port 127.0.0.1:${held.port} is already in use`);
    } finally {
      await held.close();
    }
  });
});
