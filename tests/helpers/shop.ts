/**
 * The fixture API shop@1.0.0 (tests/fixtures/mock/redocly.yaml) with its sandbox declaration
 * (tests/fixtures/sandbox/shop.sandbox.yaml), which the engine's stage tests run on: one in-process
 * sandbox of it per test file, made before the file's first test and closed after its last, or its
 * engine alone (the stages without the HTTP sandbox around them), closed after the file's last test.
 */
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { loadDocument } from "../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../src/registry.js";
import { createEngine } from "../../src/sandbox/engine/create.js";
import { createSandbox, type Sandbox } from "../../src/sandbox/index.js";

export const shopRegistry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
export const shopDeclaration = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");

/** Makes the shop's sandbox for the calling file and hands it to `use` before the file's first test. */
export function withShopSandbox(use: (sandbox: Sandbox) => void): void {
  let sandbox: Sandbox | undefined;
  beforeAll(() => {
    const [shop] = loadRegistry(shopRegistry);
    sandbox = createSandbox(shop, loadDocument(shop.bundlePath), { declarationPath: shopDeclaration, registry: shopRegistry });
    use(sandbox);
  });
  afterAll(() => sandbox?.close());
}

/** The shop's engine, made now and closed after the calling file's (or describe block's) last test. */
export function shopEngine(): ReturnType<typeof createEngine> {
  const [shop] = loadRegistry(shopRegistry);
  const engine = createEngine(shop, loadDocument(shop.bundlePath), { declarationPath: shopDeclaration, registry: shopRegistry });
  afterAll(() => engine.close());
  return engine;
}
