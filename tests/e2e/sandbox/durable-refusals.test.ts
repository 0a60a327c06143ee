/**
 * A request refused at a bound on a durable store (src/sandbox/engine/run.ts over
 * src/sandbox/store/durable.ts, the `file:` backend in a scratch directory, in process), over the
 * fixture API shop@1.0.0 and its declaration (tests/fixtures/sandbox/shop.sandbox.yaml: an order
 * expires `expiry_hours` after its creation): what the credential's clock made due before the request
 * (stage 2, src/sandbox/README.md) is kept, though the request's own change is refused 507 and undone.
 * The stored rows are read back as another instance would load them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadDocument } from "../../../src/document/index.js";
import type { JudgedRequest } from "../../../src/mock/types.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { createSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import type { DurableBackend } from "../../../src/sandbox/store/backend.js";
import { DurableStore } from "../../../src/sandbox/store/durable.js";
import { FileBackend } from "../../../src/sandbox/store/file.js";
import { LIMITS } from "../../../src/sandbox/store/limits.js";
import { CredentialState, credentialKey } from "../../../src/sandbox/store/state.js";
import type { StateStoreOptions } from "../../../src/sandbox/store/store.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const scratch = mkdtempSync(join(repoRoot, ".tmp", "durable-refusals-"));

let root: FileBackend;
let view: DurableBackend;
let sandbox: Sandbox;
beforeAll(async () => {
  root = new FileBackend(join(scratch, "store"));
  await root.open();
  view = root.scope(shop.alias);
  await view.open();
  sandbox = createSandbox(shop, loadDocument(shop.bundlePath), {
    declarationPath,
    registry,
    store: (options: StateStoreOptions) => new DurableStore(view, options),
  });
});
afterAll(async () => {
  vi.useRealTimers();
  await sandbox.close();
  await root.close();
  rmSync(scratch, { recursive: true, force: true });
});

const TOKEN = "token-of-a-durable-refusal";
const createOrder = async (body: Record<string, unknown>) =>
  (await sandbox.hooks.answer!({
    operation: { iid: "createOrder" },
    method: "POST",
    path: "/v1/order",
    query: {},
    headers: { authorization: `Bearer ${TOKEN}` },
    body: { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" }, ...body },
    status: 200,
  } as unknown as JudgedRequest)) as { status: number; body: any };

/** The credential's state as stored (what another instance loads). */
async function stored(): Promise<CredentialState> {
  for await (const credential of view.loadAll()) if (credential.key === credentialKey(TOKEN)) return CredentialState.load(credential);
  throw new Error("the credential is not stored");
}

describe("a request refused at a bound", () => {
  it("keeps the expiry its clock made due before it; its own record is not kept", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-01T10:00:00.000Z"));
    const created = await createOrder({ expiry_hours: 1 });
    expect(created.status).toBe(200);
    const id = created.body.order_id as string;
    expect((await stored()).get("order", id)?.data.status).toBe("CREATED");

    vi.setSystemTime(new Date("2026-03-01T11:00:00.000Z"));
    const refused = await createOrder({ merchant_id: "m".repeat(LIMITS.recordBytes) });
    expect(refused).toMatchObject({ status: 507, body: { title: "Sandbox limit reached" } });

    const state = await stored();
    expect(state.list("order").map((record) => [record.id, record.data.status])).toEqual([[id, "Created"]]);
    expect(state.events.map((kept) => [kept.event.resourceId, kept.event.to, kept.event.cause])).toEqual([[id, "Created", "expiry"]]);
  });
});
