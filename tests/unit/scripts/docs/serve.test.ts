/**
 * The docs site's static server (scripts/docs/serve.ts): files with their types, folders by their
 * index.html, and nothing outside the root, hidden, or by another method.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../../../../scripts/docs/serve.js";
import { occupyPort } from "../../../helpers/ports.js";

let tmp: string;
let server: StaticServer;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "docs-serve-"));
  const root = join(tmp, "site");
  mkdirSync(join(root, "apis/pay/1.3.0"), { recursive: true });
  writeFileSync(join(root, "index.html"), "<h1>index</h1>");
  writeFileSync(join(root, "apis/pay/1.3.0/index.html"), "<h1>pay</h1>");
  writeFileSync(join(root, "apis/pay/1.3.0/openapi.yaml"), "openapi: 3.1.0\n");
  writeFileSync(join(root, "app.js"), "export {};");
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

  it("names the port when it is taken", async () => {
    const held = await occupyPort();
    try {
      await expect(serveStatic(tmp, { port: held.port })).rejects.toThrow(`port 127.0.0.1:${held.port} is already in use`);
    } finally {
      await held.close();
    }
  });
});
