/**
 * The one path to a credential's state (src/sandbox/store/store.ts StateStore `run`), over the
 * fixture API shop@1.0.0 and its declaration, in process: the memory store answers a request
 * synchronously (no promise on the way); a store plugged in through the sandbox's `store` option
 * (as a durable store will be) sees every API request and control call go through `run`, and a
 * tracked state hands it exactly the rows each request touched, none of a request that failed.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../../src/document/index.js";
import type { JudgedRequest } from "../../../../../src/mock/types.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { createSandbox, type Sandbox } from "../../../../../src/sandbox/index.js";
import type { ChangeSet } from "../../../../../src/sandbox/store/backend.js";
import { MemoryStore } from "../../../../../src/sandbox/store/memory.js";
import type { CredentialState } from "../../../../../src/sandbox/store/state.js";
import type { StateStoreOptions, StateWork } from "../../../../../src/sandbox/store/store.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const doc = loadDocument(shop.bundlePath);
const AUTH = { authorization: "Bearer token-of-the-store-tests" };

/** A store as a durable one works: every state tracked, the changes of each run taken after the work (none when it throws). */
class TrackingStore extends MemoryStore {
  readonly runs: Array<{ existing: boolean; changes: ChangeSet }> = [];
  private tracked<T>(existing: boolean, work: StateWork<T>): StateWork<T> {
    return (state: CredentialState) => {
      state.track();
      const result = work(state);
      this.runs.push({ existing, changes: state.takeChanges() });
      return result;
    };
  }
  override run<T>(key: string, work: StateWork<T>): T {
    return super.run(key, this.tracked(false, work));
  }
  override runExisting<T>(key: string, work: StateWork<T>): T | undefined {
    return super.runExisting(key, this.tracked(true, work));
  }
}

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.close();
});

function sandboxWith(tracking = false) {
  let store: TrackingStore | undefined;
  const sandbox = createSandbox(shop, doc, {
    declarationPath,
    registry,
    ...(tracking ? { store: (options: StateStoreOptions) => (store = new TrackingStore(options)) } : {}),
  });
  sandboxes.push(sandbox);
  return { sandbox, store: store! };
}

/** An API request Prism judged valid, as the mock hands it to the `answer` hook. */
const judged = (operationId: string, path: string, body: unknown = null): JudgedRequest =>
  ({
    operation: { iid: operationId },
    method: "POST",
    path,
    query: {},
    headers: AUTH,
    body,
    status: 200,
    example: undefined,
  }) as unknown as JudgedRequest;

/** A control call through the `intercept` hook; resolves to its status and parsed body. */
async function control(sandbox: Sandbox, method: string, url: string, body?: unknown) {
  const written: { status?: number; body?: string } = {};
  const response = {
    writeHead(status: number) {
      written.status = status;
    },
    end(text: string) {
      written.body = text;
    },
  } as unknown as ServerResponse;
  const request = { method, url, headers: { ...AUTH, "content-type": "application/json" } } as unknown as IncomingMessage;
  await sandbox.hooks.intercept!(request, response, Buffer.from(body === undefined ? "" : JSON.stringify(body)));
  return { status: written.status, body: JSON.parse(written.body ?? "null") };
}

const keys = (changes: ChangeSet) => ({
  puts: changes.puts.map((r) => `${r.collection}:${r.id}`).sort(),
  deletes: changes.deletes.map((r) => `${r.collection}:${r.id}`).sort(),
});

describe("the memory store", () => {
  it("answers a request on its state synchronously: no promise on the way", () => {
    const { sandbox } = sandboxWith();
    expect(sandbox.engine.store).toBeInstanceOf(MemoryStore);
    const answer = sandbox.hooks.answer!(judged("createOrder", "/v1/order", { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } }));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ status: 200, body: { status: "CREATED" } });
  });
});

describe("a store plugged in", () => {
  it("runs every API request and control call through its one path, and is handed exactly the rows each touched", async () => {
    const { sandbox, store } = sandboxWith(true);
    expect(sandbox.engine.store).toBe(store);

    const created = sandbox.hooks.answer!(judged("createOrder", "/v1/order", { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } }));
    const id = (created as { body: { order_id: string } }).body.order_id;
    // A create: the record, and the meta row (the sequence that orders the records, the clock's wake for its expiry).
    expect(store.runs.map((r) => keys(r.changes))).toEqual([{ puts: ["meta:meta", `record:order/${id}`], deletes: [] }]);

    const paid = await control(sandbox, "POST", `/_sandbox/resources/order/${id}/actions/pay`);
    expect(paid.status).toBe(200);
    const [event] = paid.body.deliveries.map((d: { id: string }) => d.id);
    // A status move: the record, its event, the event's delivery (skipped: no URL registered), and the meta row.
    expect(keys(store.runs[1].changes)).toEqual({
      puts: [`delivery:${event}`, `event:${paid.body.event.id}`, "meta:meta", `record:order/${id}`].sort(),
      deletes: [],
    });

    const registered = await control(sandbox, "PUT", "/_sandbox/callbacks/orderPaid", { url: "http://127.0.0.1:9/hook" });
    expect(registered.status).toBe(200);
    expect(keys(store.runs[2].changes)).toEqual({ puts: ["meta:meta"], deletes: [] });

    const deleted = sandbox.hooks.answer!(judged("deleteOrder", `/v1/order/${id}`));
    expect(deleted).toMatchObject({ status: 200 });
    expect(keys(store.runs[3].changes)).toEqual({ puts: [], deletes: [`record:order/${id}`] });
    expect(store.runs.every((r) => !r.existing)).toBe(true);
  });

  it("is handed no change of a request that failed and was undone", async () => {
    const { sandbox, store } = sandboxWith(true);
    const created = sandbox.hooks.answer!(judged("createOrder", "/v1/order", { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } }));
    const id = (created as { body: { order_id: string } }).body.order_id;
    expect((await control(sandbox, "POST", `/_sandbox/resources/order/${id}/actions/pay`)).status).toBe(200);
    const before = store.runs.length;
    // PAID is final: the update merges its members, then its move is refused; the whole request is undone.
    const refused = sandbox.hooks.answer!(judged("updateOrder", `/v1/order/${id}`, { status: "CREATED" }));
    expect(refused).toMatchObject({ status: 409 });
    // An unknown id: the declared 404, nothing kept.
    const missing = sandbox.hooks.answer!(judged("getOrder", "/v1/order/o-0000000000000000"));
    expect(missing).toMatchObject({ status: 404 });
    // A control call refused after its checks.
    expect((await control(sandbox, "POST", `/_sandbox/resources/order/${id}/actions/expire`)).status).toBe(409);
    expect(store.runs.slice(before).map((r) => keys(r.changes))).toEqual([
      { puts: [], deletes: [] },
      { puts: [], deletes: [] },
      { puts: [], deletes: [] },
    ]);
  });
});
