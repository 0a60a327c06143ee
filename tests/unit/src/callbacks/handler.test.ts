/**
 * The callback handler, sender and stores in detail, on a fixture API (tests/callbacks/fixtures:
 * a webhook with a strict payload schema, a required Idempotency-Key, named examples and a status
 * list): violations by JSON path, status variants, failures and redelivery, shared stores.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildCallbackPayload,
  CallbackPayloadError,
  createCallbackHandler,
  createMemoryStore,
  type CallbackEvent,
  type IdempotencyStore,
  sendCallback,
  webhooksOf,
} from "../../../../src/callbacks/index.js";
import { repoRoot } from "../../../../src/registry.js";

const registry = join(repoRoot, "tests/fixtures/callbacks/redocly.yaml");
const ALIAS = "shop@1.0.0";
const valid = { order_id: "ord_9", status_code: 1, status: "PAID", amount: { cur: "IDR", num: "1000" } };

function deliver(handler: ReturnType<typeof createCallbackHandler>, body: unknown, key?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== undefined) headers["idempotency-key"] = key;
  return handler.fetch(
    new Request("https://partner.example.test/cb", {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

describe("the webhook catalogue", () => {
  it("reads name, method, operationId, header, examples and statuses from the bundle", () => {
    const [webhook] = webhooksOf(ALIAS, registry);
    expect(webhook).toMatchObject({
      alias: ALIAS,
      name: "orderPaid",
      method: "POST",
      operationId: "notifyOrderPaid",
      idempotencyKey: { name: "Idempotency-Key", required: true },
      contentType: "application/json",
      bodyRequired: true,
    });
    expect(webhook.examples.map((e) => e.name)).toEqual(["paid", "refunded", "broken"]);
    expect(webhook.statuses).toEqual([
      { code: 1, status: "PAID", meaning: "Paid in full." },
      { code: 2, status: "REFUNDED", meaning: "Paid back." },
    ]);
  });

  it("names the known webhooks when one is unknown, and finds one by operationId too", () => {
    expect(() => createCallbackHandler(ALIAS, "orderShipped", () => {}, { registry })).toThrow(
      'shop@1.0.0 has no webhook "orderShipped"; known: orderPaid',
    );
    expect(createCallbackHandler(ALIAS, "notifyOrderPaid", () => {}, { registry }).webhook.name).toBe("orderPaid");
    expect(() => createCallbackHandler("nope@1.0.0", "orderPaid", () => {}, { registry })).toThrow(
      /unknown API "nope@1.0.0"; known: shop@1.0.0/,
    );
  });
});

describe("validation", () => {
  it("answers 400 with every violation by JSON path, and does not call onEvent", async () => {
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), { registry });
    const response = await deliver(
      handler,
      { order_id: 7, status: "SHIPPED", amount: { cur: "idr", num: "1000" }, extra: true },
      "key-00000001",
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = await response.json();
    expect(body.error).toBe("invalid orderPaid callback for shop@1.0.0");
    expect(body.violations).toEqual(
      expect.arrayContaining([
        { in: "body", path: "$.order_id", message: "must be string" },
        { in: "body", path: "$.status", message: 'must be one of "PAID", "REFUNDED"' },
        { in: "body", path: "$.amount.cur", message: 'must match pattern "^[A-Z]{3}$"' },
        { in: "body", path: "$.extra", message: "is not allowed here (the schema does not declare it)" },
      ]),
    );
    expect(events).toEqual([]);
  });

  it("checks the header's schema and the required body", async () => {
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { registry });
    const short = await (await deliver(handler, valid, "short")).json();
    expect(short.violations).toEqual([{ in: "header", path: "header.Idempotency-Key", message: "must NOT have fewer than 8 characters" }]);
    const empty = await handler.fetch(new Request("https://x.test/", { method: "POST", headers: { "idempotency-key": "key-00000002" } }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).violations).toEqual([{ in: "body", path: "$", message: "is required by notifyOrderPaid" }]);
  });

  it("rejects a body over maxBodyBytes with 413", async () => {
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { registry, maxBodyBytes: 64 });
    const response = await deliver(handler, { ...valid, order_id: "x".repeat(100) }, "key-00000003");
    expect(response.status).toBe(413);
  });

  it("accepts a body a framework already parsed (req.body), as express.json() leaves it", async () => {
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), { registry });
    const reply = await handler.handle({
      method: "POST",
      headers: { "Idempotency-Key": "key-00000004", "Content-Type": "application/json" },
      body: { parsed: valid },
    });
    expect(reply.status).toBe(200);
    expect(events[0].payload).toEqual(valid);
    expect(events[0].headers["idempotency-key"]).toBe("key-00000004");
  });
});

describe("deduplication", () => {
  it("releases the key when onEvent throws: 500, and the provider's next delivery is processed", async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const handler = createCallbackHandler(
      ALIAS,
      "orderPaid",
      () => {
        calls++;
        if (calls === 1) throw new Error("database down");
      },
      { registry, onError: (error) => errors.push(error) },
    );
    const first = await deliver(handler, valid, "key-00000005");
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: "the callback could not be processed" });
    expect(String(errors[0])).toContain("database down");
    const second = await deliver(handler, valid, "key-00000005");
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true, duplicate: false });
    const third = await deliver(handler, valid, "key-00000005");
    expect(await third.json()).toEqual({ received: true, duplicate: true });
    expect(calls).toBe(2);
  });

  it("deliveries waiting on a key whose processing fails take over: the event is processed once it succeeds", async () => {
    let calls = 0;
    const handler = createCallbackHandler(
      ALIAS,
      "orderPaid",
      async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 10));
        if (calls === 1) throw new Error("transient");
      },
      { registry, onError: () => {} },
    );
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(handler, valid, "key-00000006").then((r) => r.status)));
    expect(answers.sort()).toEqual([200, 200, 200, 200, 500]);
    expect(calls).toBe(2);
  });

  it("keys are per webhook and API: the same key on another handler's store namespace does not collide", async () => {
    const store = createMemoryStore();
    const seen: string[] = [];
    await store.claim("other@1.0.0 orderPaid key-00000007");
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void seen.push(e.idempotencyKey!), { registry, store });
    expect((await deliver(handler, valid, "key-00000007")).status).toBe(200);
    expect(seen).toEqual(["key-00000007"]);
  });

  it("a shared asynchronous store (as Redis SET NX would be) deduplicates across handlers (processes)", async () => {
    const taken = new Set<string>();
    const claims: string[] = [];
    const shared: IdempotencyStore = {
      async claim(key) {
        claims.push(key);
        await new Promise((r) => setTimeout(r, Math.random() * 5)); // a network round trip
        if (taken.has(key)) return false;
        taken.add(key);
        return true;
      },
      async release(key) {
        taken.delete(key);
      },
    };
    let calls = 0;
    const onEvent = async () => {
      calls++;
    };
    const a = createCallbackHandler(ALIAS, "orderPaid", onEvent, { registry, store: shared });
    const b = createCallbackHandler(ALIAS, "orderPaid", onEvent, { registry, store: shared });
    const answers = await Promise.all([a, b, a, b, a].map((h) => deliver(h, valid, "key-00000008")));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(calls).toBe(1);
    expect(claims.every((k) => k === "shop@1.0.0 orderPaid key-00000008")).toBe(true);
  });
});

describe("the memory store", () => {
  it("claims a key once, again after its time to live, and forgets the oldest keys beyond maxKeys", async () => {
    let time = 1000;
    const store = createMemoryStore({ ttlMs: 100, maxKeys: 2, now: () => time });
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("a")).toBe(false);
    time += 101;
    expect(await store.claim("a")).toBe(true);
    expect(await store.claim("b")).toBe(true);
    expect(await store.claim("c")).toBe(true);
    expect(store.size).toBe(2);
    expect(await store.claim("a")).toBe(true); // forgotten: the oldest of three
    expect(await store.claim("c")).toBe(false);
    await store.release!("c");
    expect(await store.claim("c")).toBe(true);
  });

  it("rejects nonsense limits", () => {
    expect(() => createMemoryStore({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => createMemoryStore({ maxKeys: 0 })).toThrow(RangeError);
  });
});

describe("payloads for sending", () => {
  it("takes the first example by default, a named one with example, a status variant with status", () => {
    expect(buildCallbackPayload(ALIAS, "orderPaid", { registry })).toMatchObject({
      payload: { order_id: "ord_1", status: "PAID" },
      source: 'example "paid"',
    });
    expect(buildCallbackPayload(ALIAS, "orderPaid", { registry, example: "refunded" }).payload).toMatchObject({
      order_id: "ord_2",
      status_code: 2,
    });
    expect(buildCallbackPayload(ALIAS, "orderPaid", { registry, status: "refunded" }).source).toBe('example "refunded"');
    const byCode = buildCallbackPayload(ALIAS, "orderPaid", { registry, status: "2", example: "paid" });
    expect(byCode).toMatchObject({
      payload: { order_id: "ord_1", status_code: 2, status: "REFUNDED" },
      source: 'example "paid", status 2 REFUNDED',
    });
    expect(buildCallbackPayload(ALIAS, "orderPaid", { registry, status: "REFUNDED" }).payload).toMatchObject({
      status_code: 2,
      status: "REFUNDED",
    });
  });

  it("refuses unknown examples and statuses, and payloads that break the schema, naming what exists", () => {
    expect(() => buildCallbackPayload(ALIAS, "orderPaid", { registry, example: "lost" })).toThrow(
      'shop@1.0.0 orderPaid has no example "lost"; examples: paid, refunded, broken',
    );
    expect(() => buildCallbackPayload(ALIAS, "orderPaid", { registry, status: "9" })).toThrow(
      'has no status "9"; statuses: 1 PAID, 2 REFUNDED',
    );
    let error: unknown;
    try {
      buildCallbackPayload(ALIAS, "orderPaid", { registry, example: "broken" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CallbackPayloadError);
    expect((error as CallbackPayloadError).violations).toEqual([
      { in: "body", path: "$.order_id", message: "must be string", keyword: "type" },
    ]);
    expect(() => buildCallbackPayload(ALIAS, "orderPaid", { registry, payload: { order_id: "x", status: "LOST" } })).toThrow(
      /\$\.status: must be one of "PAID", "REFUNDED"/,
    );
  });

  it("sendCallback reports a delivery that could not connect, without throwing", async () => {
    const result = await sendCallback(ALIAS, "orderPaid", { registry, to: "http://127.0.0.1:9/unreachable", timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    expect(result.deliveries).toHaveLength(1);
    expect(result.deliveries[0].status).toBe(0);
    expect(result.deliveries[0].error).toBeTruthy();
  });
});
