/**
 * A record as the control API shows it (src/sandbox/control/views.ts `recordView`), in the control
 * document's Record schema (src/sandbox/openapi.yaml: `expires_at` "when an expiry rule applies and
 * it has not expired"), on an engine of the fixture API shop@1.0.0 (tests/fixtures/sandbox/
 * shop.sandbox.yaml: an order expires from CREATED, and PAID is final): an order CREATED with an
 * expiry shows when it expires; once PAID, whatever time it held, it shows none, nor where the
 * declaration no longer has the expiry rule (a durable store's record read after a change); its data is
 * rendered by its schema; a status member that holds no text shows no status.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { recordView } from "../../../../src/sandbox/control/views.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const shopDeclaration = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const engine = createEngine(shop, loadDocument(shop.bundlePath), { declarationPath: shopDeclaration, registry: registryPath });
// The same declaration without its expiry rule: what a sandbox restarted on a changed declaration
// reads a durable store's records with (a record may still hold the time it was given before).
const withoutExpiry = join(mkdtempSync(join(repoRoot, ".tmp/record-view-")), "shop.sandbox.yaml");
writeFileSync(withoutExpiry, readFileSync(shopDeclaration, "utf8").replace(/\n {4}expiry:\n(?: {6}.*\n)+/, "\n"));
const changed = createEngine(shop, loadDocument(shop.bundlePath), { declarationPath: withoutExpiry, registry: registryPath });
afterAll(() => {
  engine.close();
  changed.close();
});

const state = engine.store.run(credentialKey("record-view"), (s: CredentialState) => s) as CredentialState;
const EXPIRES = Date.parse("2026-03-01T12:00:00.000Z");

describe("a record's view", () => {
  it("shows when it expires while its status is one its expiry rule applies to", () => {
    const order = state.add("order", "o-1", { order_id: "o-1", status: "CREATED", merchant_id: "m-1" }, EXPIRES);
    expect(JSON.parse(JSON.stringify(recordView(engine, order)))).toEqual({
      resource: "order",
      id: "o-1",
      status: "CREATED",
      expires_at: "2026-03-01T12:00:00.000Z",
      // Rendered by the Order schema, which does not declare merchant_id.
      data: { order_id: "o-1", status: "CREATED" },
    });
  });

  it("shows no expiry in a status the rule does not apply to, nor for a record without one", () => {
    const paid = state.add("order", "o-2", { order_id: "o-2", status: "PAID" }, EXPIRES);
    expect(Object.keys(recordView(engine, paid))).toEqual(["resource", "id", "status", "data"]);
    const timeless = state.add("order", "o-3", { order_id: "o-3", status: "CREATED" });
    expect(Object.keys(recordView(engine, timeless))).toEqual(["resource", "id", "status", "data"]);
  });

  it("shows no expiry for a record that holds a time when its resource declares no expiry any more", () => {
    expect(changed.declaration?.resources.order.expiry).toBeUndefined();
    const kept = state.add("order", "o-5", { order_id: "o-5", status: "CREATED" }, EXPIRES);
    expect(Object.keys(recordView(changed, kept))).toEqual(["resource", "id", "status", "data"]);
  });

  it("shows no status where its status member holds no text (the Record schema's status is a string)", () => {
    const blank = state.add("order", "o-4", { order_id: "o-4", status: null });
    expect(JSON.parse(JSON.stringify(recordView(engine, blank)))).toEqual({
      resource: "order",
      id: "o-4",
      data: { order_id: "o-4", status: null },
    });
  });
});
