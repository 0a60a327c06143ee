/**
 * The sandbox engine through the mock's HTTP layer, over the fixture API shop@1.0.0
 * (tests/fixtures/mock) and its fixture declaration (tests/fixtures/sandbox/shop.sandbox.yaml):
 * records kept per credential, read back, updated and deleted; answers shaped and validated; expiry
 * on the credential's clock; queued error statuses; callbacks; an API without a declaration.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type MockServer } from "../../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { call, startReceiver } from "../../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop, vault] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");

const A = { authorization: "Bearer token-a" };
const B = { authorization: "Bearer token-b" };
const OPERATOR = "operator-token-of-the-engine-tests";
const UPDATE = { "idempotency-key": "6f1c2a8e-4b7d-4e8a-9c3f-1d2e3f4a5b6c" };

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(shop, {
    port: 0,
    sandbox: { declarationPath, registry: registryPath, retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 }, operatorToken: OPERATOR },
  });
});
afterAll(() => mock.close());

const createOrder = (headers: Record<string, string>, body: Record<string, unknown> = {}) =>
  call(mock.url, "POST", "/v1/order", { headers, body: { merchant_id: "m-1", amount: { cur: "PHP", amt: "100.00" }, ...body } });

describe("records", () => {
  it("creates from the request's values plus what the service adds, and reads, lists, updates, deletes it", async () => {
    const created = await createOrder(A, { merchant_id: "m-create" });
    expect(created.status).toBe(200);
    expect(created.violations).toEqual([]);
    expect(created.body.order_id).toMatch(/^o-\d{16}$/);
    expect(created.body.status).toBe("CREATED");
    expect(created.body.created).toEqual({ seconds: expect.any(Number), nanos: expect.any(Number) });
    // The answer is shaped to Order: members Order does not declare (merchant_id, amount) are not in it.
    expect(Object.keys(created.body).sort()).toEqual(["created", "order_id", "status"]);
    // In the record's order: the id, the initial status, then the record template's members.
    expect(Object.keys(created.body)).toEqual(["order_id", "status", "created"]);
    const id = created.body.order_id;

    const read = await call(mock.url, "GET", `/v1/order/${id}`, { headers: A });
    expect(read).toMatchObject({ status: 200, violations: [], body: created.body });

    const listed = await call(mock.url, "GET", "/v1/order?limit=10&merchant_id=m-create", { headers: A });
    expect(listed.status).toBe(200);
    expect(listed.violations).toEqual([]);
    expect(listed.body.orders.map((o: { order_id: string }) => o.order_id)).toEqual([id]);

    const updated = await call(mock.url, "PUT", `/v1/order/${id}`, { headers: { ...A, ...UPDATE }, body: { status: "PAID" } });
    expect(updated).toMatchObject({ status: 200, body: {}, violations: [] });
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers: A })).body.status).toBe("PAID");

    const deleted = await call(mock.url, "DELETE", `/v1/order/${id}`, { headers: A });
    expect(deleted).toMatchObject({ status: 200, body: {}, violations: [] });
    const gone = await call(mock.url, "GET", `/v1/order/${id}`, { headers: A });
    // getOrder declares no 404: the sandbox answers 404 all the same and says so in sl-violations.
    expect(gone.status).toBe(404);
    expect(gone.body).toBeUndefined();
    expect(gone.violations).toEqual([
      expect.objectContaining({ location: ["response", "status"], message: expect.stringMatching(/status 404 is not declared/) }),
    ]);
  });

  it("lists oldest first and honours the list's limit", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createOrder(A, { merchant_id: "m-limit" })).body.order_id);
    const all = await call(mock.url, "GET", "/v1/order?limit=10&merchant_id=m-limit", { headers: A });
    expect(all.body.orders.map((o: { order_id: string }) => o.order_id)).toEqual(ids);
    const two = await call(mock.url, "GET", "/v1/order?limit=2&merchant_id=m-limit", { headers: A });
    expect(two.body.orders.map((o: { order_id: string }) => o.order_id)).toEqual(ids.slice(0, 2));
  });

  it("keeps each credential's records apart", async () => {
    const created = await createOrder(A, { merchant_id: "m-isolation" });
    const id = created.body.order_id;
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers: B })).status).toBe(404);
    const listed = await call(mock.url, "GET", "/v1/order?limit=10&merchant_id=m-isolation", { headers: B });
    expect(listed.body).toEqual({ orders: [] });
    expect((await call(mock.url, "PUT", `/v1/order/${id}`, { headers: { ...B, ...UPDATE }, body: { status: "PAID" } })).status).toBe(404);
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers: A })).body.status).toBe("CREATED");
  });

  it("still answers 401 without a credential, as Prism does", async () => {
    const answer = await call(mock.url, "POST", "/v1/order", { body: { merchant_id: "m-1", amount: { cur: "PHP", amt: "1" } } });
    expect(answer.status).toBe(401);
  });

  it("keeps Prism's answer for an operation the declaration does not cover", async () => {
    const ping = await call(mock.url, "GET", "/v1/ping");
    expect(ping).toMatchObject({ status: 200, body: { ok: true }, violations: [] });
  });
});

describe("clock and expiry", () => {
  it("expires a record when its credential's clock passes its expiry, not before", async () => {
    const headers = { authorization: "Bearer token-clock" };
    const created = await createOrder(headers, { expiry_hours: 1 });
    const id = created.body.order_id;
    const early = await call(mock.url, "POST", "/_sandbox/clock/advance", { headers, body: { seconds: 3599 } });
    expect(early.status).toBe(200);
    expect(early.body.expired).toEqual([]);
    expect(early.body.clock.offset_seconds).toBe(3599);
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers })).body.status).toBe("CREATED");
    const late = await call(mock.url, "POST", "/_sandbox/clock/advance", { headers, body: { seconds: 2 } });
    expect(late.body.expired).toEqual([{ resource: "order", id, from: "CREATED", to: "Created", deliveries: [] }]);
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers })).body.status).toBe("Created");
    // Another credential's clock did not move.
    expect((await call(mock.url, "GET", "/_sandbox/clock", { headers: A })).body.offset_seconds).toBe(0);
  });

  it("uses the declaration's default when the request gives no expiry", async () => {
    const headers = { authorization: "Bearer token-clock-default" };
    const id = (await createOrder(headers)).body.order_id;
    expect((await call(mock.url, "POST", "/_sandbox/clock/advance", { headers, body: { seconds: 7199 } })).body.expired).toEqual([]);
    const due = await call(mock.url, "POST", "/_sandbox/clock/advance", { headers, body: { seconds: 1 } });
    expect(due.body.expired.map((e: { id: string }) => e.id)).toEqual([id]);
  });
});

describe("queued error statuses", () => {
  it("answers the next N valid calls with a declared error status, then the state again", async () => {
    const headers = { authorization: "Bearer token-errors" };
    const queued = await call(mock.url, "POST", "/_sandbox/errors", {
      headers,
      body: { operation_id: "createOrder", status: 400, count: 2 },
    });
    expect(queued.status).toBe(201);
    expect(queued.body).toMatchObject({ operation_id: "createOrder", status: 400, remaining: 2 });
    // An invalid request keeps Prism's answer and does not use the queued error up.
    const invalid = await call(mock.url, "POST", "/v1/order", { headers, body: { amount: "nope" } });
    expect(invalid.status).toBe(400);
    expect(invalid.violations.length).toBeGreaterThan(0);
    expect((await call(mock.url, "GET", "/_sandbox/errors", { headers })).body.errors[0].remaining).toBe(2);
    expect((await createOrder(headers)).status).toBe(400);
    expect((await createOrder(headers)).status).toBe(400);
    expect((await createOrder(headers)).status).toBe(200);
    expect((await call(mock.url, "GET", "/_sandbox/errors", { headers })).body).toEqual({ errors: [] });
    // Other credentials are not affected.
    expect((await createOrder(B)).status).toBe(200);
  });

  it("forces a status the operation does not declare, with a problem body and Retry-After; sl-violations names it", async () => {
    const queued = await call(mock.url, "POST", "/_sandbox/errors", {
      headers: A,
      body: { operation_id: "createOrder", status: 503, retry_after: 7 },
    });
    expect(queued).toMatchObject({ status: 201, body: { status: 503, retry_after: 7, remaining: 1 } });
    const forced = await createOrder(A);
    expect(forced.status).toBe(503);
    expect(forced.headers.get("retry-after")).toBe("7");
    expect(forced.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(forced.body).toMatchObject({ status: 503, detail: expect.stringMatching(/forced by the sandbox's control API/) });
    expect(forced.violations.length).toBeGreaterThan(0);
    expect(JSON.stringify(forced.violations)).toMatch(/503/);
    expect((await createOrder(A)).status).toBe(200);
  });
});

describe("callbacks", () => {
  it("delivers a status change's callback to the registered URL; delivered twice, the receiver processes it once", async () => {
    // A later event (another order paid) marks the end: its key arrives after every delivery of the first.
    const headers = { authorization: "Bearer token-callback" };
    const receiver = await startReceiver("shop@1.0.0", "orderPaid", { registry: registryPath });
    try {
      const registered = await call(mock.url, "PUT", "/_sandbox/callbacks/orderPaid", { headers, body: { url: receiver.url } });
      expect(registered).toMatchObject({ status: 200, body: { webhook: "orderPaid", url: receiver.url } });
      const id = (await createOrder(headers)).body.order_id;
      const moved = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, {
        headers,
        body: { status: "PAID", deliver_twice: true },
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ from: "CREATED", to: "PAID", changed: true, record: { id, status: "PAID" } });
      expect(moved.body.deliveries).toEqual([expect.objectContaining({ times: 2 })]);
      const key = moved.body.deliveries[0].idempotency_key;
      const later = (await createOrder(headers)).body.order_id;
      const marker = await call(mock.url, "POST", `/_sandbox/resources/order/${later}/status`, { headers, body: { status: "PAID" } });
      const markerKey = marker.body.deliveries[0].idempotency_key;
      const deliveries = await receiver.deliveriesThrough(markerKey);
      expect(deliveries.map((d) => d.key)).toEqual([key, key, markerKey]);
      await receiver.eventCount(2);
      expect(receiver.events).toHaveLength(2);
      expect(receiver.events[0].payload).toMatchObject({ order_id: id, status: "PAID" });
      const log = (await call(mock.url, "GET", "/_sandbox/deliveries", { headers })).body.deliveries;
      expect(log).toHaveLength(2);
      expect(log[0]).toMatchObject({
        state: "delivered",
        times: 2,
        delivered_count: 2,
        event: { from: "CREATED", to: "PAID", cause: "control" },
      });
      // A move to the status it already has sends nothing.
      const again = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, { headers, body: { status: "PAID" } });
      expect(again.body).toMatchObject({ changed: false, deliveries: [] });
    } finally {
      await receiver.close();
    }
  });

  it("an API operation that moves the status fires the callback too", async () => {
    const headers = { authorization: "Bearer token-callback-api" };
    const receiver = await startReceiver("shop@1.0.0", "orderPaid", { registry: registryPath });
    try {
      await call(mock.url, "PUT", "/_sandbox/callbacks/orderPaid", { headers, body: { url: receiver.url } });
      const id = (await createOrder(headers)).body.order_id;
      await call(mock.url, "PUT", `/v1/order/${id}`, { headers: { ...headers, ...UPDATE }, body: { status: "PAID" } });
      const [event] = await receiver.eventCount(1);
      expect(event.payload).toMatchObject({ order_id: id, status: "PAID" });
      const log = (await call(mock.url, "GET", "/_sandbox/deliveries", { headers })).body.deliveries;
      expect(log[0].event.cause).toBe("updateOrder");
    } finally {
      await receiver.close();
    }
  });

  it("retries with backoff while the receiver answers non-2xx, with the same Idempotency-Key", async () => {
    const headers = { authorization: "Bearer token-retry" };
    const receiver = await startReceiver("shop@1.0.0", "orderPaid", { registry: registryPath, failFirst: 2 });
    try {
      await call(mock.url, "PUT", "/_sandbox/callbacks/orderPaid", { headers, body: { url: receiver.url } });
      const id = (await createOrder(headers)).body.order_id;
      await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, { headers, body: { status: "PAID" } });
      const deliveries = await receiver.deliveryCount(3);
      await receiver.eventCount(1);
      expect(deliveries.map((d) => d.status)).toEqual([503, 503, 200]);
      expect(new Set(deliveries.map((d) => d.key)).size).toBe(1);
      expect(receiver.events).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("logs an event as skipped when no URL is registered", async () => {
    const headers = { authorization: "Bearer token-no-url" };
    const id = (await createOrder(headers)).body.order_id;
    const moved = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, { headers, body: { status: "PAID" } });
    expect(moved.body.deliveries).toEqual([
      expect.objectContaining({ state: "skipped", note: expect.stringContaining("no callback URL") }),
    ]);
  });
});

describe("credentials", () => {
  it("never shows or logs the credential; states are named by a hash prefix", async () => {
    const secret = "Bearer sk-very-secret-value-123";
    await createOrder({ authorization: secret });
    const mine = await call(mock.url, "GET", "/_sandbox/state", { headers: { authorization: secret } });
    expect(mine.body.credential).toMatch(/^[0-9a-f]{12}$/);
    expect(mine.body.resources.order).toHaveLength(1);
    const all = await call(mock.url, "GET", "/_sandbox/state/all", { headers: { "x-sandbox-operator-token": OPERATOR } });
    expect(all.body.credentials.map((c: { credential: string }) => c.credential)).toContain(mine.body.credential);
    for (const answer of [mine, all]) expect(JSON.stringify(answer.body)).not.toContain("sk-very-secret-value-123");
  });

  it("resets one credential's state, then every state", async () => {
    const headers = { authorization: "Bearer token-reset" };
    await createOrder(headers);
    expect((await call(mock.url, "DELETE", "/_sandbox/state", { headers })).body).toEqual({ reset: 1 });
    expect((await call(mock.url, "GET", "/_sandbox/state", { headers })).body.resources).toEqual({});
    expect((await call(mock.url, "GET", "/v1/order?limit=10", { headers: A })).body.orders.length).toBeGreaterThan(0);
  });
});

describe("an API without a declaration", () => {
  let plain: MockServer;
  beforeAll(async () => {
    plain = await startMock(vault, { port: 0, sandbox: true });
  });
  afterAll(() => plain.close());

  it("runs in sandbox mode with Prism's answers, the control API and queued errors", async () => {
    const headers = { "x-api-key": "key-1" };
    const described = await call(plain.url, "GET", "/_sandbox");
    expect(described.status).toBe(200);
    expect(described.body.resources).toEqual([]);
    expect(described.body.declaration).toBeUndefined();
    expect(described.body.operations.map((o: { sandbox: string }) => o.sandbox)).toEqual(["static"]);
    const confirm = () => call(plain.url, "POST", "/v1/transfers/7/confirm", { headers, body: { otp: "123456" } });
    expect(await confirm()).toMatchObject({ status: 200, body: { transfer_id: 7, confirmed_at: "2024-05-01T10:00:00Z" }, violations: [] });
    const queued = await call(plain.url, "POST", "/_sandbox/errors", { headers, body: { operation_id: "confirmTransfer", status: 400 } });
    expect(queued.status).toBe(201);
    expect((await confirm()).status).toBe(400);
    expect((await confirm()).status).toBe(200);
    expect((await call(plain.url, "GET", "/_sandbox/state", { headers })).body.resources).toEqual({});
    expect((await call(plain.url, "GET", "/_sandbox/resources/anything/1", { headers })).body).toMatchObject({
      status: 404,
      field: "resource",
      detail: 'vault@1.0.0 has no sandbox resource "anything" (it has no sandbox declaration)',
    });
  });
});
