/**
 * The sandbox as a shared service (src/sandbox/shared.ts, targets.ts, operator.ts and their use by
 * the engine, the control API and the delivery), through the mock's HTTP layer: the operations over
 * every credential absent without an operator token and guarded by it; the control API's credential
 * only in the Bearer scheme and its query parameters held to the document's limits (a flood of new
 * credentials: shared.slow.test.ts); the memory budget reported; a reset cancelling queued callbacks; Pay's
 * merchant `webhook_url` held to the callback policy in both modes.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findOperation, jsonRequest, loadDocument } from "../../../../src/document/index.js";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { findApi, loadRegistry, repoRoot } from "../../../../src/registry.js";
import { OPERATOR_TOKEN_ENV } from "../../../../src/sandbox/operator.js";
import { SHARED_BOUNDS, sharedSettings } from "../../../../src/sandbox/shared.js";
import { LIMITS, SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { requestParams, requestUrl } from "../../../../src/testing/requests.js";
import { call, controlViolations, startReceiver } from "../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const OPERATOR = "operator-token-of-the-shared-tests";
const order = { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } };

const mocks: MockServer[] = [];
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function shopMock(sandbox: Record<string, unknown> = {}) {
  const mock = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath, ...sandbox } });
  mocks.push(mock);
  return mock;
}

describe("the operations over every credential", () => {
  it("do not exist without an operator token (404), whatever the call carries", async () => {
    expect(process.env[OPERATOR_TOKEN_ENV]).toBeUndefined();
    const mock = await shopMock();
    const headers = { authorization: "Bearer partner-a", "x-sandbox-operator-token": OPERATOR };
    for (const method of ["GET", "DELETE"]) {
      const answer = await call(mock.url, method, "/_sandbox/state/all", { headers });
      expect(answer.status).toBe(404);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.body.detail).toMatch(/exist only when the sandbox's operator sets a token/);
    }
    expect((await call(mock.url, "GET", "/_sandbox")).body.sharing).toMatchObject({ operator_token: false });
  });

  it("answer only the operator's token, sent in X-Sandbox-Operator-Token (401 otherwise), and never show it", async () => {
    const mock = await shopMock({ operatorToken: OPERATOR });
    const partner = { authorization: "Bearer partner-a" };
    expect((await call(mock.url, "POST", "/v1/order", { headers: partner, body: order })).status).toBe(200);
    for (const headers of [
      partner,
      { authorization: `Bearer ${OPERATOR}` },
      { "x-sandbox-operator-token": `${OPERATOR}x` },
      { "x-sandbox-operator-token": OPERATOR.slice(0, -1) },
      { "x-sandbox-operator-token": "" },
    ]) {
      for (const method of ["GET", "DELETE"]) {
        const answer = await call(mock.url, method, "/_sandbox/state/all", { headers });
        expect(answer.status, JSON.stringify(headers)).toBe(401);
        expect(answer.body.detail).toBe(
          "this operation acts on every credential's state: it needs the sandbox operator's token in x-sandbox-operator-token",
        );
        expect(controlViolations(method === "GET" ? "listStates" : "resetAllStates", answer)).toEqual([]);
      }
    }
    // Nothing was reset by the refused calls.
    expect((await call(mock.url, "GET", "/_sandbox/state", { headers: partner })).body.resources.order).toHaveLength(1);
    const operator = { "x-sandbox-operator-token": OPERATOR };
    const listed = await call(mock.url, "GET", "/_sandbox/state/all", { headers: operator });
    expect(listed.status).toBe(200);
    expect(listed.body.credentials).toEqual([expect.objectContaining({ records: 1 })]);
    expect(controlViolations("listStates", listed)).toEqual([]);
    const described = await call(mock.url, "GET", "/_sandbox");
    expect(described.body.sharing).toMatchObject({ operator_token: true });
    expect(JSON.stringify(described.body)).not.toContain(OPERATOR);
    expect((await call(mock.url, "DELETE", "/_sandbox/state/all", { headers: operator })).body).toEqual({ reset: 1 });
  });

  it("refuse a guessable token and read it from the environment when no option gives one", async () => {
    await expect(shopMock({ operatorToken: "short" })).rejects.toThrow(/operator token must have at least 16 characters/);
    process.env[OPERATOR_TOKEN_ENV] = OPERATOR;
    try {
      const mock = await shopMock();
      const answer = await call(mock.url, "GET", "/_sandbox/state/all", { headers: { "x-sandbox-operator-token": OPERATOR } });
      expect(answer.status).toBe(200);
    } finally {
      delete process.env[OPERATOR_TOKEN_ENV];
    }
  });
});

describe("the control API's inputs", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await shopMock();
  });

  it("takes a credential only in the Bearer scheme (or the API-key header), as the APIs' own operations do", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNzd29yZA==", "Digest username=x", "Token abc", "bearer"]) {
      const api = await call(mock.url, "GET", "/v1/order?limit=1", { headers: { authorization } });
      expect(api.status, authorization).toBe(401);
      const control = await call(mock.url, "GET", "/_sandbox/state", { headers: { authorization } });
      expect(control.status, authorization).toBe(401);
      expect(controlViolations("getState", control)).toEqual([]);
    }
    for (const authorization of ["Bearer abc", "bearer abc", "BEARER abc"])
      expect((await call(mock.url, "GET", "/_sandbox/state", { headers: { authorization } })).status, authorization).toBe(200);
    const key = await call(mock.url, "GET", "/_sandbox/state", { headers: { authorization: "Basic dXNlcjpwYXNz", "x-api-key": "key-1" } });
    expect(key.status).toBe(200);
  });

  it("holds the webhook filter to its declared length (400 naming the parameter)", async () => {
    const headers = { authorization: "Bearer filter" };
    const long = await call(mock.url, "GET", `/_sandbox/deliveries?webhook=${"w".repeat(201)}`, { headers });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      field: "webhook",
      detail: expect.stringMatching(/^webhook: must NOT have more than 200 characters/),
    });
    expect(controlViolations("listDeliveries", long)).toEqual([]);
    expect((await call(mock.url, "GET", `/_sandbox/deliveries?webhook=${"w".repeat(200)}`, { headers })).status).toBe(200);
  });
});

describe("registering a callback URL", () => {
  it("refuses a URL the callback policy refuses (400 naming url), in either mode", async () => {
    const local = await shopMock();
    const shared = await shopMock({ binding: "0.0.0.0", callbackAllow: ["partner.test"] });
    const headers = { authorization: "Bearer registers" };
    const put = (mock: MockServer, url: string) => call(mock.url, "PUT", "/_sandbox/callbacks/orderPaid", { headers, body: { url } });
    for (const mock of [local, shared]) {
      const answer = await put(mock, "http://[fd00:ec2::254]/latest/");
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ field: "url", detail: expect.stringMatching(/link-local or cloud metadata address/) });
      expect(controlViolations("registerCallback", answer)).toEqual([]);
    }
    expect((await put(local, "http://127.0.0.1:9/cb")).status).toBe(200);
    const refused = await put(shared, "http://127.0.0.1:9/cb");
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/sends callbacks only to the targets its operator allows: partner.test/);
    expect((await put(shared, "https://partner.test/cb")).status).toBe(200);
  });
});

describe("the operator's settings", () => {
  const settingsOf = (body: Record<string, unknown>) => body.settings;

  it("are shown by GET /_sandbox only to a call with the operator's token; another token answers 401", async () => {
    const options = {
      operatorToken: OPERATOR,
      binding: "0.0.0.0",
      callbackAllow: "partner.test,10.20.0.0/16",
      budget: new SandboxBudget(5 * 1024 * 1024),
      evictIdleSeconds: 90,
      deliveryQueue: 7,
      deliveryQueueTotal: 70,
    };
    const mock = await shopMock(options);
    const callers: Record<string, string>[] = [{}, { authorization: "Bearer partner-a" }, { authorization: `Bearer ${OPERATOR}` }];
    for (const headers of callers) {
      const anyone = await call(mock.url, "GET", "/_sandbox", { headers });
      expect(anyone.status).toBe(200);
      expect(settingsOf(anyone.body)).toBeUndefined();
      expect(anyone.body.sharing).toEqual({ mode: "shared", operator_token: true });
      const text = JSON.stringify(anyone.body);
      for (const hidden of ["partner.test", "10.20.0.0", "evict_idle", "delivery_queue"]) expect(text, hidden).not.toContain(hidden);
      expect(controlViolations("getSandbox", anyone)).toEqual([]);
    }
    const operator = await call(mock.url, "GET", "/_sandbox", { headers: { "x-sandbox-operator-token": OPERATOR } });
    expect(settingsOf(operator.body)).toEqual({
      callback_allow: ["partner.test", "10.20.0.0/16"],
      memory_budget_bytes: 5 * 1024 * 1024,
      evict_idle_seconds: 90,
      delivery_queue: 7,
      delivery_queue_total: 70,
    });
    expect(JSON.stringify(operator.body)).not.toContain(OPERATOR);
    expect(controlViolations("getSandbox", operator)).toEqual([]);
    const wrong = await call(mock.url, "GET", "/_sandbox", { headers: { "x-sandbox-operator-token": `${OPERATOR}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toBe("the token in x-sandbox-operator-token is not the sandbox operator's");
    expect(controlViolations("getSandbox", wrong)).toEqual([]);
  });

  it("are not shown on a sandbox without an operator token, whatever the call carries", async () => {
    const mock = await shopMock({ callbackAllow: "partner.test" });
    const answer = await call(mock.url, "GET", "/_sandbox", { headers: { "x-sandbox-operator-token": OPERATOR } });
    expect(answer.status).toBe(200);
    expect(settingsOf(answer.body)).toBeUndefined();
    expect(JSON.stringify(answer.body)).not.toContain("partner.test");
  });

  it("are checked against their bounds: one out of them, or a queue per credential longer than the total, is refused by name", () => {
    expect(sharedSettings({}, {})).toMatchObject({
      evictIdleSeconds: LIMITS.evictIdleSeconds,
      queue: { perCredential: LIMITS.deliveryQueueLocal, total: LIMITS.deliveryQueueTotal },
    });
    for (const [name, { min, max }] of Object.entries(SHARED_BOUNDS)) {
      for (const bad of [min - 1, max + 1, 1.5]) {
        expect(() => sharedSettings({ [name]: bad }, {}), `${name} ${bad}`).toThrow(
          new RegExp(`the sandbox's ${name} must be an integer from ${min} to ${max}`),
        );
      }
    }
    expect(() => sharedSettings({ deliveryQueue: 30, deliveryQueueTotal: 20 }, {})).toThrow(
      "the sandbox's deliveryQueue (30) must not exceed its deliveryQueueTotal (20)",
    );
  });

  it("the queue per credential: 200 callbacks on a local sandbox (loopback), 20 on a shared one, at most the total; an option wins", () => {
    const perCredential = (options: Parameters<typeof sharedSettings>[0]) => sharedSettings(options, {}).queue.perCredential;
    expect(perCredential({})).toBe(200);
    expect(perCredential({ binding: "127.0.0.1" })).toBe(200);
    expect(perCredential({ binding: "::1" })).toBe(200);
    expect(perCredential({ binding: "localhost" })).toBe(200);
    expect(perCredential({ binding: "0.0.0.0" })).toBe(20);
    expect(perCredential({ binding: "10.1.2.3" })).toBe(20);
    expect(perCredential({ deliveryQueueTotal: 50 })).toBe(50);
    expect(perCredential({ binding: "0.0.0.0", deliveryQueue: 300 })).toBe(300);
    expect(perCredential({ deliveryQueue: 5 })).toBe(5);
    expect(sharedSettings({}, {}).queue.total).toBe(500);
  });

  it("evictIdleSeconds: a credential idle that long gives way to a newcomer at the credential limit, one used more recently never does", async () => {
    let now = 1_000_000;
    const { MemoryStore } = await import("../../../../src/sandbox/store/memory.js");
    const store = new MemoryStore({ budget: new SandboxBudget(), evictIdleSeconds: 30, now: () => now });
    for (let i = 0; i < LIMITS.credentials; i++) store.forCredential(`c-${i}`);
    now += 29_000;
    expect(() => store.forCredential("newcomer")).toThrow(/every one was used in the last 30 seconds/);
    now += 1_000;
    expect(store.forCredential("newcomer")).toBeDefined();
    expect(store.size).toBe(LIMITS.credentials);
  });
});

describe("the memory budget", () => {
  it("is one for every mock given it, reported by GET /_sandbox, and refuses what would exceed it", async () => {
    const budget = new SandboxBudget(4000);
    const one = await shopMock({ budget });
    const two = await shopMock({ budget });
    const big = { ...order, merchant_id: "m".repeat(1500) };
    expect((await call(one.url, "POST", "/v1/order", { headers: { authorization: "Bearer a" }, body: big })).status).toBe(200);
    expect((await call(two.url, "POST", "/v1/order", { headers: { authorization: "Bearer b" }, body: big })).status).toBe(200);
    const refused = await call(two.url, "POST", "/v1/order", { headers: { authorization: "Bearer c" }, body: big });
    expect(refused.status).toBe(507);
    expect(refused.body.detail).toMatch(/the sandbox's memory budget \(4000 bytes for every credential together\) is used up/);
    const described = await call(one.url, "GET", "/_sandbox");
    expect(described.body.memory).toEqual({ budget_bytes: 4000, used_bytes: budget.used, credentials: 1, queued_callbacks: 0 });
    expect(budget.used).toBeGreaterThan(3000);
    expect(controlViolations("getSandbox", described)).toEqual([]);
    await call(one.url, "DELETE", "/_sandbox/state", { headers: { authorization: "Bearer a" } });
    expect((await call(two.url, "POST", "/v1/order", { headers: { authorization: "Bearer c" }, body: big })).status).toBe(200);
  });
});

describe("events in the memory budget", () => {
  const big = { ...order, merchant_id: "m".repeat(1500) };
  const pay = async (url: string, headers: Record<string, string>) => {
    const id = (await call(url, "POST", "/v1/order", { headers, body: big })).body.order_id;
    expect((await call(url, "POST", `/_sandbox/resources/order/${id}/actions/pay`, { headers })).status).toBe(200);
    return id;
  };

  it("are counted in the budget GET /_sandbox reports while kept, and given back on reset", async () => {
    const budget = new SandboxBudget(1_000_000);
    const mock = await shopMock({ budget });
    const headers = { authorization: "Bearer events-counted" };
    const id = (await call(mock.url, "POST", "/v1/order", { headers, body: big })).body.order_id;
    const recordsOnly = budget.used;
    expect((await call(mock.url, "POST", `/_sandbox/resources/order/${id}/actions/pay`, { headers })).status).toBe(200);
    const [event] = (await call(mock.url, "GET", "/_sandbox/events", { headers })).body.events;
    expect(event).toMatchObject({ resource_id: id, to: "PAID" });
    // The event (its id, key, change and callback) is counted: some hundreds of bytes.
    expect(budget.used - recordsOnly).toBeGreaterThan(300);
    expect((await call(mock.url, "GET", "/_sandbox")).body.memory.used_bytes).toBe(budget.used);
    await call(mock.url, "DELETE", "/_sandbox/state", { headers });
    expect(budget.used).toBe(0);
  });

  it("stay within it: the credential's oldest events make room for a new one", async () => {
    // Two orders of about 1.6 kB and one event of about 0.5 kB fit; two events do not.
    const budget = new SandboxBudget(4000);
    const mock = await shopMock({ budget });
    const headers = { authorization: "Bearer events-bounded" };
    await pay(mock.url, headers);
    const second = await pay(mock.url, headers);
    const events = (await call(mock.url, "GET", "/_sandbox/events", { headers })).body.events;
    expect(events.map((e: { resource_id: string }) => e.resource_id)).toEqual([second]);
    expect(budget.used).toBeLessThanOrEqual(4000);
    expect(
      (await call(mock.url, "GET", "/_sandbox/state", { headers })).body.resources.order.map((o: { status: string }) => o.status),
    ).toEqual(["PAID", "PAID"]);
  });
});

describe("callbacks of a reset credential", () => {
  it("are cancelled, the one in flight included", async () => {
    const held: IncomingMessage[] = [];
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    const server = createServer((req) => {
      held.push(req);
      req.on("error", () => undefined);
      arrived();
    });
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const mock = await shopMock({ retry: { attempts: 1, timeoutMs: 30_000 } });
    const headers = { authorization: "Bearer resets" };
    await call(mock.url, "PUT", "/_sandbox/callbacks/orderPaid", {
      headers,
      body: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb` },
    });
    for (let i = 0; i < 3; i++) {
      const id = (await call(mock.url, "POST", "/v1/order", { headers, body: order })).body.order_id;
      await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, { headers, body: { status: "PAID" } });
    }
    await first;
    expect((await call(mock.url, "GET", "/_sandbox")).body.memory.queued_callbacks).toBe(3);
    const aborted = new Promise((resolve) => held[0].on("close", resolve));
    expect((await call(mock.url, "DELETE", "/_sandbox/state", { headers })).body).toEqual({ reset: 1 });
    await aborted;
    // The queue empties (the cancelled deliveries end at once); the two waiting were never sent.
    while ((await call(mock.url, "GET", "/_sandbox")).body.memory.queued_callbacks !== 0) await new Promise(setImmediate);
    expect(held).toHaveLength(1);
  });
});

describe("Pay's merchant webhook_url and the callback policy", () => {
  const pay = findApi("pay@1.3.0");
  const doc = loadDocument(pay.bundlePath);
  const send = (mock: MockServer, operationId: string, token: string, body: unknown) => {
    const op = findOperation(doc, operationId)!;
    const params = requestParams(doc, op);
    return call(mock.url, op.method.toUpperCase(), requestUrl(op, params), {
      headers: { ...(params.header as Record<string, string>), authorization: `Bearer ${token}` },
      body,
    });
  };
  const invoiceBody = jsonRequest(doc, findOperation(doc, "createInvoice")!)!.examples[0].value;

  /** Sets the merchant's webhook_url, pays an invoice, returns the delivery the payment logged. */
  async function payTo(mock: MockServer, token: string, url: string) {
    expect((await send(mock, "createMerchant", token, { name: "Shop", webhook_url: url })).status).toBe(200);
    const id = (await send(mock, "createInvoice", token, invoiceBody)).body.invoice_id;
    const moved = await call(mock.url, "POST", `/_sandbox/resources/invoice/${id}/status`, {
      headers: { authorization: `Bearer ${token}` },
      body: { status: "Success" },
    });
    expect(moved.status).toBe(200);
    return moved.body.deliveries[0];
  }

  it("local mode: the merchant's receiver on localhost is reached; metadata and link-local addresses never are", async () => {
    const mock = await startMock(pay, { port: 0, sandbox: true });
    mocks.push(mock);
    const receiver = await startReceiver(pay.alias, "invoicePaid");
    try {
      await payTo(mock, "pay-local", receiver.url);
      expect(await receiver.eventCount(1)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://0xa9fea9fe/",
      "http://[::ffff:169.254.169.254]/",
      "http://metadata.google.internal./",
    ]) {
      const delivery = await payTo(mock, `pay-metadata-${url.length}`, url);
      expect(delivery, url).toMatchObject({ state: "failed", attempts: [] });
      expect(delivery.note).toMatch(/link-local or cloud metadata address, which the sandbox never reaches/);
    }
  });

  it("shared mode: only the targets the operator allows", async () => {
    const receiver = await startReceiver(pay.alias, "invoicePaid");
    try {
      const closed = await startMock(pay, { port: 0, sandbox: { binding: "0.0.0.0" } });
      const allowed = await startMock(pay, { port: 0, sandbox: { binding: "0.0.0.0", callbackAllow: "127.0.0.1/32" } });
      mocks.push(closed, allowed);
      const refused = await payTo(closed, "pay-shared", receiver.url);
      expect(refused).toMatchObject({ state: "failed", attempts: [] });
      expect(refused.note).toMatch(/shared .* allows no callback targets/);
      expect((await call(closed.url, "GET", "/_sandbox")).body.sharing).toEqual({ mode: "shared", operator_token: false });
      await payTo(allowed, "pay-shared", receiver.url);
      expect(await receiver.deliveryCount(1)).toEqual([{ key: expect.any(String), status: 200 }]);
      expect(receiver.events).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});
