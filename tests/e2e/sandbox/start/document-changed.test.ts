/**
 * A declaration that passed its check at a sandbox's start is trusted when the engine is made (on
 * the first request) only while the document is the one it passed against (src/sandbox/start.ts):
 * when the document changed in between, the declaration is checked again, against the new document,
 * and a declaration that no longer fits fails the request that made the engine, naming the member
 * (here a status the document's schema no longer allows: a check a trusted declaration skips).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { startSandbox } from "../../../../src/sandbox/start.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-document-changed-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a document that changes between the start and the first request", () => {
  it("has the declaration checked again: one that no longer fits fails the request, naming the member", async () => {
    const spec = join(work, "openapi.yaml");
    copyFileSync(shop.bundlePath, spec);
    const cacheDir = join(work, "cache");
    mkdirSync(cacheDir, { mode: 0o700 }); // a cache folder only its owner can read, as the cache requires
    const sandbox = await startSandbox(shop, { declarationPath, registry }, spec, cacheDir);
    try {
      // The declaration's initial status, CREATED, is no longer one the order's schema allows.
      const text = readFileSync(spec, "utf8");
      expect(text).toContain("enum: [CREATED, Created, PAID]");
      writeFileSync(spec, text.replace("enum: [CREATED, Created, PAID]", "enum: [Created, PAID]"));
      const response = { setHeader() {}, writeHead() {}, end() {} } as unknown as ServerResponse;
      const request = { method: "GET", url: "/_sandbox", headers: {} } as unknown as IncomingMessage;
      let failure: Error | undefined;
      try {
        await sandbox.hooks.intercept!(request, response, Buffer.alloc(0));
      } catch (error) {
        failure = error as Error;
      }
      expect(failure?.name).toBe("DeclarationError");
      expect(failure?.message).toContain('resources.order.status.initial: "CREATED" is not a status #/components/schemas/Order allows');
    } finally {
      await sandbox.close();
    }
  });
});
