/**
 * The durable store (src/sandbox/store/durable.ts) under the sandbox's engine, in process, on the
 * `file:` backend in a scratch directory, over the fixture API shop@1.0.0: an answer's changes are in
 * the store before it is sent (a second sandbox on the directory reads them); a store that cannot
 * write answers 503 and leaves the state as stored; one credential's requests run in order; what
 * another instance changed is read back; the states in memory are bounded; a read writes nothing;
 * resets remove what is stored; and what was left due is carried out at start, at once when overdue.
 * Real processes (SIGKILL, SIGTERM, two instances on Postgres): tests/e2e/store/.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { findOperation, loadDocument } from "../../../../../src/document/index.js";
import type { JudgedRequest } from "../../../../../src/mock/types.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { createSandbox, type Sandbox } from "../../../../../src/sandbox/index.js";
import { controlDocument } from "../../../../../src/sandbox/control/document.js";
import type { DurableBackend } from "../../../../../src/sandbox/store/backend.js";
import { DurableStore, type DurableStoreOptions } from "../../../../../src/sandbox/store/durable.js";
import { FileBackend } from "../../../../../src/sandbox/store/file.js";
import { credentialKey } from "../../../../../src/sandbox/store/state.js";
import type { StateStoreOptions } from "../../../../../src/sandbox/store/store.js";
import { startReceiver } from "../../../../helpers/sandbox.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const doc = loadDocument(shop.bundlePath);
const scratch = mkdtempSync(join(repoRoot, ".tmp", "durable-store-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

let dirs = 0;
/** A new file store (the root: closed after the test). */
async function fileStore(dir = join(scratch, `store-${++dirs}`)): Promise<FileBackend> {
  const root = new FileBackend(dir);
  await root.open();
  opened.push(root);
  return root;
}

/** A store that fails its writes while `failing` (after the work ran: as a full disk or a lost database would). */
class FailingBackend {
  failing = false;
  constructor(readonly inner: DurableBackend) {}
  wrap(backend = this.inner): DurableBackend {
    return new Proxy(backend, {
      get: (target, name) => {
        const value = Reflect.get(target, name);
        if (name === "scope") return (namespace: string) => this.wrap(target.scope(namespace));
        // Bound to the store itself: its private members are not the proxy's.
        if (name !== "transact") return typeof value === "function" ? value.bind(target) : value;
        return ((key, known, work) =>
          this.failing
            ? target.transact(key, known, (stored) => {
                work(stored);
                throw new Error("disk full");
              })
            : target.transact(key, known, work)) as DurableBackend["transact"];
      },
    });
  }
}

/** A sandbox over the fixture API whose states live in `backend`'s namespace of shop@1.0.0. */
async function sandboxOn(backend: DurableBackend, options: DurableStoreOptions = {}) {
  const view = backend.scope(shop.alias);
  await view.open();
  let store!: DurableStore;
  const sandbox = createSandbox(shop, doc, {
    declarationPath,
    registry,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 },
    store: (storeOptions: StateStoreOptions) => (store = new DurableStore(view, { ...storeOptions, ...options })),
  });
  opened.push(sandbox);
  return { sandbox, store, view };
}

const credential = (name: string) => ({ authorization: `Bearer ${name}` });

/** An API request Prism judged valid, as the mock hands it to the `answer` hook. */
const judged = (operationId: string, path: string, body: unknown = null, headers = credential("durable")): JudgedRequest =>
  ({
    operation: { iid: operationId },
    method: "POST",
    path,
    query: {},
    headers,
    body,
    status: 200,
    example: undefined,
  }) as unknown as JudgedRequest;

const answer = async (sandbox: Sandbox, operationId: string, path: string, body: unknown = null, headers = credential("durable")) =>
  (await sandbox.hooks.answer!(judged(operationId, path, body, headers))) as {
    status: number;
    headers?: Record<string, string>;
    body: any;
  };

const order = (merchant = "m-1") => ({ merchant_id: merchant, amount: { cur: "PHP", amt: "1.00" } });

/** A control call through the `intercept` hook; its status, headers and parsed body. */
async function control(
  sandbox: Sandbox,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = credential("durable"),
) {
  const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
  const response = {
    writeHead(status: number, head: Record<string, string>) {
      written.status = status;
      written.headers = head;
    },
    end(text: string) {
      written.body = text;
    },
  } as unknown as ServerResponse;
  const request = { method, url, headers: { ...headers, "content-type": "application/json" } } as unknown as IncomingMessage;
  await sandbox.hooks.intercept!(request, response, Buffer.from(body === undefined ? "" : JSON.stringify(body)));
  return { status: written.status, headers: written.headers, body: JSON.parse(written.body ?? "null") };
}

describe("a durable store under the sandbox", () => {
  it("has each answer's changes stored before it is sent: a second sandbox on the store reads them back", async () => {
    const root = await fileStore();
    const first = await sandboxOn(root);
    const created = await answer(first.sandbox, "createOrder", "/v1/order", order());
    expect(created).toMatchObject({ status: 200, body: { status: "CREATED" } });
    const id = created.body.order_id;
    expect((await control(first.sandbox, "PUT", "/_sandbox/callbacks/orderPaid", { url: "http://127.0.0.1:9/hook" })).status).toBe(200);
    expect((await control(first.sandbox, "POST", "/_sandbox/clock/advance", { seconds: 60 })).status).toBe(200);
    // Another sandbox, as a process started next would be: nothing in its memory, everything in the store.
    const second = await sandboxOn(root);
    expect(second.store.size).toBe(0);
    expect(await answer(second.sandbox, "getOrder", `/v1/order/${id}`)).toMatchObject({ status: 200, body: created.body });
    expect((await control(second.sandbox, "GET", "/_sandbox/callbacks")).body).toEqual({
      callbacks: [{ webhook: "orderPaid", url: "http://127.0.0.1:9/hook" }],
    });
    expect((await control(second.sandbox, "GET", "/_sandbox/clock")).body.offset_seconds).toBe(60);
  });

  it("answers 503 when the store cannot write, and leaves the state as stored (the change undone in memory)", async () => {
    const failing = new FailingBackend(await fileStore());
    const { sandbox } = await sandboxOn(failing.wrap());
    const kept = (await answer(sandbox, "createOrder", "/v1/order", order("m-kept"))).body.order_id;
    failing.failing = true;
    const refused = await answer(sandbox, "createOrder", "/v1/order", order("m-lost"));
    expect(refused.status).toBe(503);
    expect(refused.headers).toMatchObject({ "Content-Type": "application/problem+json", "Retry-After": "1" });
    expect(refused.body).toMatchObject({ status: 503, title: "Sandbox store unavailable", detail: expect.stringContaining("disk full") });
    // createOrder declares no 503: sl-violations names the sandbox's own answer.
    expect(sandbox.hooks.validateAnswer!({ iid: "createOrder" } as never, refused as never)).toEqual([
      expect.objectContaining({ location: ["response", "status"], code: "sandbox-store" }),
    ]);
    // A control call: 503 problem+json too.
    const registered = await control(sandbox, "PUT", "/_sandbox/callbacks/orderPaid", { url: "http://127.0.0.1:9/hook" });
    expect(registered).toMatchObject({ status: 503, headers: { "Retry-After": "1" }, body: { title: "Sandbox store unavailable" } });
    // ...which the control API's document declares, with its Retry-After.
    const declared = findOperation(controlDocument(), "registerCallback")?.value.responses?.["503"];
    expect(declared).toEqual({ $ref: "#/components/responses/StoreUnavailable" });
    failing.failing = false;
    const listed = await answer(sandbox, "listOrders", "/v1/order");
    expect(listed.body.orders.map((o: { order_id: string }) => o.order_id)).toEqual([kept]);
    expect((await control(sandbox, "GET", "/_sandbox/callbacks")).body).toEqual({ callbacks: [] });
  });

  it("runs one credential's requests one after another, in the order they came", async () => {
    const { sandbox } = await sandboxOn(await fileStore());
    const merchants = Array.from({ length: 12 }, (_, i) => `m-${i}`);
    const answers = await Promise.all(merchants.map((m) => answer(sandbox, "createOrder", "/v1/order", order(m))));
    expect(answers.map((a) => a.status)).toEqual(merchants.map(() => 200));
    const listed = (await answer(sandbox, "listOrders", "/v1/order")).body.orders;
    // Created in the order asked: listed (oldest first) in that order.
    expect(listed.map((o: { order_id: string }) => o.order_id)).toEqual(answers.map((a) => a.body.order_id));
  });

  it("bounds the requests waiting on one credential: one beyond is answered 503, the others as usual", async () => {
    const { sandbox } = await sandboxOn(await fileStore(), { queuePerCredential: 3 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => answer(sandbox, "createOrder", "/v1/order", order())));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 503]);
    expect(answers[3]!.body.detail).toBe(
      "3 requests of this credential are already waiting for the store, the sandbox's limit; retry later",
    );
    expect((await answer(sandbox, "listOrders", "/v1/order")).body.orders).toHaveLength(3);
  });

  it("reads back what another instance changed: a copy in memory is brought up to date", async () => {
    const root = await fileStore();
    const [a, b] = [await sandboxOn(root), await sandboxOn(root)];
    const id = (await answer(a.sandbox, "createOrder", "/v1/order", order())).body.order_id;
    expect((await answer(b.sandbox, "getOrder", `/v1/order/${id}`)).body.status).toBe("CREATED");
    expect((await control(a.sandbox, "POST", `/_sandbox/resources/order/${id}/actions/pay`)).status).toBe(200);
    // b holds the credential's state at the version before the pay: the store hands it the new one.
    expect((await answer(b.sandbox, "getOrder", `/v1/order/${id}`)).body.status).toBe("PAID");
    expect((await control(b.sandbox, "POST", `/_sandbox/resources/order/${id}/actions/pay`)).status).toBe(409);
    // A reset through one instance: gone through the other too.
    expect((await control(a.sandbox, "DELETE", "/_sandbox/state")).body).toEqual({ reset: 1 });
    expect((await answer(b.sandbox, "getOrder", `/v1/order/${id}`)).status).toBe(404);
    expect((await control(b.sandbox, "GET", "/_sandbox/events")).body).toEqual({ events: [] });
  });

  it("keeps a bounded number of states in memory, and reads one that left back on its next request", async () => {
    const { sandbox, store } = await sandboxOn(await fileStore(), { cacheCredentials: 2 });
    const ids: string[] = [];
    for (const name of ["one", "two", "three", "four"])
      ids.push((await answer(sandbox, "createOrder", "/v1/order", order(), credential(name))).body.order_id);
    expect(store.size).toBe(2);
    expect(await answer(sandbox, "getOrder", `/v1/order/${ids[0]}`, null, credential("one"))).toMatchObject({
      status: 200,
      body: { order_id: ids[0] },
    });
    expect(store.size).toBe(2);
  });

  it("writes nothing for a request that changes nothing, and keeps no state in memory for it", async () => {
    const root = await fileStore();
    const { sandbox, store, view } = await sandboxOn(root);
    expect((await answer(sandbox, "listOrders", "/v1/order", null, credential("reader"))).body).toEqual({ orders: [] });
    expect((await control(sandbox, "GET", "/_sandbox/state", undefined, credential("reader"))).status).toBe(200);
    expect(store.size).toBe(0);
    const stored: string[] = [];
    for await (const credentialState of view.loadAll()) stored.push(credentialState.key);
    expect(stored).toEqual([]);
  });

  it("lists every stored credential to the operator, and resets remove what is stored", async () => {
    const root = await fileStore();
    const view = root.scope(shop.alias);
    await view.open();
    const sandbox = createSandbox(shop, doc, {
      declarationPath,
      registry,
      operatorToken: "operator-token-of-the-durable-tests",
      store: (storeOptions: StateStoreOptions) => new DurableStore(view, { ...storeOptions, cacheCredentials: 1 }),
    });
    opened.push(sandbox);
    const operator = { "x-sandbox-operator-token": "operator-token-of-the-durable-tests" };
    for (const name of ["one", "two", "three"]) await answer(sandbox, "createOrder", "/v1/order", order(), credential(name));
    await answer(sandbox, "createOrder", "/v1/order", order(), credential("two"));
    const listed = await control(sandbox, "GET", "/_sandbox/state/all", undefined, operator);
    const byLabel = Object.fromEntries(
      listed.body.credentials.map((c: { credential: string; records: number }) => [c.credential, c.records]),
    );
    expect(byLabel).toEqual({
      [credentialKey("one").slice(0, 12)]: 1,
      [credentialKey("two").slice(0, 12)]: 2,
      [credentialKey("three").slice(0, 12)]: 1,
    });
    expect((await control(sandbox, "DELETE", "/_sandbox/state", undefined, credential("two"))).body).toEqual({ reset: 1 });
    expect((await control(sandbox, "GET", "/_sandbox/state/all", undefined, operator)).body.credentials).toHaveLength(2);
    expect((await control(sandbox, "DELETE", "/_sandbox/state/all", undefined, operator)).body).toEqual({ reset: 2 });
    const stored: string[] = [];
    for await (const credentialState of view.loadAll()) stored.push(credentialState.key);
    expect(stored).toEqual([]);
  });

  it("carries out at start what was left due: an overdue delayed move (its callback sent) and an attempt whose process stopped", async () => {
    const root = await fileStore();
    const receiver = await startReceiver(shop.alias, "orderPaid", { registry });
    opened.push(receiver);
    // What a stopped process left in the store: an order whose delayed pay is overdue, and a delivery
    // leased by an attempt in flight when it stopped.
    const left = new DurableStore(root.scope(shop.alias));
    await left.backend.open();
    const key = credentialKey("durable");
    await left.run(key, (state) => {
      state.setCallbackUrl("orderPaid", receiver.url);
      const record = state.add("order", "o-1", { order_id: "o-1", merchant_id: "m-paid-later", status: "CREATED" });
      state.scheduleMove({
        resource: "order",
        id: "o-1",
        seq: record.seq,
        action: "pay",
        at: state.now() - 2_000,
        cause: "test value paid_later",
      });
      state.wakeBy(state.now() - 2_000);
      const entry = {
        id: "dlv_left",
        seq: 0,
        webhook: "orderPaid",
        resource: "order",
        resourceId: "o-0",
        event: { from: "CREATED", to: "PAID", cause: "control" },
        url: receiver.url,
        idempotencyKey: "key-of-the-attempt-in-flight",
        payload: { order_id: "o-0", merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" }, status: "PAID" },
        state: "pending" as const,
        times: 1,
        deliveredCount: 0,
        attempts: [],
        createdAt: new Date().toISOString(),
      };
      state.logDelivery(entry);
      state.queueDelivery({
        entry,
        target: receiver.url,
        attempts: 1,
        dueAt: Date.now() - 5_000,
        next: "attempt",
        lease: Date.now() + 3_600_000,
      });
    });
    await left.close();

    const { sandbox } = await sandboxOn(root);
    const deliveries = await receiver.deliveryCount(2);
    expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
    expect(deliveries.map((d) => d.key)).toContain("key-of-the-attempt-in-flight");
    expect((await answer(sandbox, "getOrder", "/v1/order/o-1")).body.status).toBe("PAID");
    const events = (await control(sandbox, "GET", "/_sandbox/events")).body.events;
    expect(events.map((e: { type: string; cause: string }) => [e.type, e.cause])).toEqual([["order.pay", "test value paid_later"]]);
  });
});
