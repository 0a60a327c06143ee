/**
 * The callback handler, sender and stores in detail, on a fixture API (tests/fixtures/callbacks:
 * a webhook with a strict payload schema, a required Idempotency-Key, named examples and a status
 * list): violations by JSON path, status variants, verification before anything acts, leases
 * (at least once, exactly-once effects), store failures and time limits, bounds on keys and
 * bodies while reading, the memory store's retention.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildCallbackPayload,
  CallbackPayloadError,
  type CallbackEvent,
  type CallbackHandlerOptions,
  type ClaimResult,
  createCallbackHandler,
  createMemoryStore,
  type IdempotencyStore,
  sendCallback,
  StoreFullError,
  webhooksOf,
} from "../../../../src/callbacks/index.js";
import { repoRoot } from "../../../../src/registry.js";

const registry = join(repoRoot, "tests/fixtures/callbacks/redocly.yaml");
/** For the tests that are not about verification. */
const unverified: CallbackHandlerOptions = { registry, acceptUnverified: true };
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
    expect(() => createCallbackHandler(ALIAS, "orderShipped", () => {}, unverified)).toThrow(
      'shop@1.0.0 has no webhook "orderShipped"; known: orderPaid',
    );
    expect(createCallbackHandler(ALIAS, "notifyOrderPaid", () => {}, unverified).webhook.name).toBe("orderPaid");
    expect(() => createCallbackHandler("nope@1.0.0", "orderPaid", () => {}, unverified)).toThrow(
      /unknown API "nope@1.0.0"; known: shop@1.0.0/,
    );
  });
});

describe("validation", () => {
  it("answers 400 with every violation by JSON path, and does not call onEvent", async () => {
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), unverified);
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
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, unverified);
    const short = await (await deliver(handler, valid, "short")).json();
    expect(short.violations).toEqual([{ in: "header", path: "header.Idempotency-Key", message: "must NOT have fewer than 8 characters" }]);
    const empty = await handler.fetch(new Request("https://x.test/", { method: "POST", headers: { "idempotency-key": "key-00000002" } }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).violations).toEqual([{ in: "body", path: "$", message: "is required by notifyOrderPaid" }]);
  });

  it("rejects a body over maxBodyBytes with 413", async () => {
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { ...unverified, maxBodyBytes: 64 });
    const response = await deliver(handler, { ...valid, order_id: "x".repeat(100) }, "key-00000003");
    expect(response.status).toBe(413);
  });

  it("accepts a body a framework already parsed (req.body), as express.json() leaves it", async () => {
    const events: CallbackEvent[] = [];
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), unverified);
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
      { ...unverified, onError: (error) => errors.push(error) },
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
      { ...unverified, onError: () => {} },
    );
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(handler, valid, "key-00000006").then((r) => r.status)));
    expect(answers.sort()).toEqual([200, 200, 200, 200, 500]);
    expect(calls).toBe(2);
  });

  it("keys are per webhook and API: the same key on another handler's store namespace does not collide", async () => {
    const store = createMemoryStore();
    const seen: string[] = [];
    await store.claim("other@1.0.0 orderPaid key-00000007", 1000);
    await store.complete("other@1.0.0 orderPaid key-00000007");
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void seen.push(e.idempotencyKey!), { ...unverified, store });
    expect((await deliver(handler, valid, "key-00000007")).status).toBe(200);
    expect(seen).toEqual(["key-00000007"]);
  });

  it("a shared asynchronous store deduplicates across handlers (processes): one processes, the rest wait (503) or see it done", async () => {
    const store = slowShared();
    let calls = 0;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const onEvent = async () => {
      calls++;
      await finished;
    };
    const a = createCallbackHandler(ALIAS, "orderPaid", onEvent, { ...unverified, store });
    const b = createCallbackHandler(ALIAS, "orderPaid", onEvent, { ...unverified, store });
    const first = deliver(a, valid, "key-00000008");
    await store.claimed; // a holds the lease, its onEvent runs
    const whileBusy = await Promise.all([b, b].map((h) => deliver(h, valid, "key-00000008")));
    expect(whileBusy.map((r) => r.status)).toEqual([503, 503]);
    expect(whileBusy[0].headers.get("retry-after")).toMatch(/^\d+$/);
    finish();
    expect((await first).status).toBe(200);
    const after = await Promise.all([a, b].map((h) => deliver(h, valid, "key-00000008").then((r) => r.json())));
    expect(after).toEqual([
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    expect(calls).toBe(1);
  });
});

/** A shared store (as Redis would be: each call a round trip) over one memory store; `claimed` resolves on the first acquired lease. */
function slowShared(now?: () => number) {
  const inner = createMemoryStore({ now });
  let claimedOnce!: () => void;
  const calls: string[] = [];
  const roundTrip = () => new Promise((resolve) => setImmediate(resolve));
  return {
    calls,
    claimed: new Promise<void>((resolve) => (claimedOnce = resolve)),
    async claim(key: string, leaseMs: number): Promise<ClaimResult> {
      await roundTrip();
      const result = await inner.claim(key, leaseMs);
      calls.push(`claim ${result}`);
      if (result === "acquired") claimedOnce();
      return result;
    },
    async complete(key: string) {
      await roundTrip();
      calls.push("complete");
      return inner.complete(key);
    },
    async release(key: string) {
      await roundTrip();
      calls.push("release");
      return inner.release(key);
    },
  } satisfies IdempotencyStore & Record<string, unknown>;
}

/** An HMAC-SHA256 of the raw body with a shared secret, as a partner's own verify hook might check it. */
const SHARED = "shared-secret-for-tests";
const sign = (body: string) => createHmac("sha256", SHARED).update(body).digest("hex");
const hmacVerify: CallbackHandlerOptions["verify"] = ({ headers, rawBody }) => {
  const given = Buffer.from(headers["x-signature"] ?? "", "utf8");
  const wanted = Buffer.from(rawBody ? sign(rawBody.toString("utf8")) : "", "utf8");
  return given.length === wanted.length && timingSafeEqual(given, wanted);
};

function signed(handler: ReturnType<typeof createCallbackHandler>, body: unknown, key: string, signature?: string) {
  const text = JSON.stringify(body);
  return handler.fetch(
    new Request("https://partner.example.test/cb", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key, "x-signature": signature ?? sign(text) },
      body: text,
    }),
  );
}

describe("verification before anything acts", () => {
  it("refuses to create a handler that verifies nothing, saying why and what to pass", () => {
    expect(() => createCallbackHandler(ALIAS, "orderPaid", () => {}, { registry })).toThrow(
      /createCallbackHandler\(shop@1\.0\.0, orderPaid\): a callback must be verified before onEvent runs .*cannot be confirmed against the API .*Pass verify: \(delivery\) => boolean .*or acceptUnverified: true to opt out explicitly/,
    );
    const client = { request: async () => ({ response: new Response(null) }) };
    expect(() => createCallbackHandler(ALIAS, "orderPaid", () => {}, { registry, confirm: { client } })).toThrow(
      /this webhook cannot be confirmed against the API .*pass verify: \(delivery\) => boolean, confirm\.how with your own declaration, or acceptUnverified: true/,
    );
    expect(() => createCallbackHandler(ALIAS, "orderPaid", () => {}, { registry, verify: "yes" as never })).toThrow(
      /verify must be a function/,
    );
  });

  it("a forged delivery (a fresh key, a plausible payload, no valid signature) is answered 403 and never reaches the store or onEvent", async () => {
    const events: CallbackEvent[] = [];
    const store = createMemoryStore();
    const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), { registry, store, verify: hmacVerify });
    for (const signature of ["", "0".repeat(64), sign("{}")]) {
      const response = await signed(handler, valid, `forged-${signature.length}-0001`, signature);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: "the callback could not be verified" });
    }
    expect(events).toEqual([]);
    expect(store.size).toBe(0);
    const genuine = await signed(handler, valid, "genuine-00000001");
    expect(genuine.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it("the hook sees the raw body, the headers and the validated payload", async () => {
    const seen: unknown[] = [];
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, {
      registry,
      verify: (delivery) => {
        seen.push({ raw: delivery.rawBody?.toString(), key: delivery.headers["idempotency-key"], payload: delivery.payload });
        return true;
      },
    });
    await deliver(handler, valid, "key-00000101");
    expect(seen).toEqual([{ raw: JSON.stringify(valid), key: "key-00000101", payload: valid }]);
  });

  it("only an explicit true verifies: a hook answering anything else (undefined, a truthy value, a promise of one) is answered 403, and nothing acts", async () => {
    const answers: unknown[] = [
      undefined,
      null,
      false,
      1,
      "true",
      "yes",
      {},
      [],
      Promise.resolve(undefined),
      Promise.resolve("true"),
      Promise.resolve(1),
    ];
    const events: CallbackEvent[] = [];
    const store = createMemoryStore();
    for (const [i, answer] of answers.entries()) {
      const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), {
        registry,
        store,
        verify: () => answer as boolean,
      });
      const response = await deliver(handler, valid, `key-0000030${i}`.slice(-12));
      expect(response.status, String(answer)).toBe(403);
      expect(await response.json()).toEqual({ error: "the callback could not be verified" });
    }
    expect(events).toEqual([]);
    expect(store.size).toBe(0);
    for (const answer of [true, Promise.resolve(true)]) {
      const handler = createCallbackHandler(ALIAS, "orderPaid", (e) => void events.push(e), { registry, store, verify: () => answer });
      expect((await deliver(handler, valid, `key-true-${events.length}-0001`)).status).toBe(200);
    }
    expect(events).toHaveLength(2);
  });

  it("a hook that throws or runs past verifyTimeoutMs is answered 503 (retry), and nothing acts", async () => {
    let calls = 0;
    const errors: unknown[] = [];
    for (const verify of [
      () => {
        throw new Error("key service down");
      },
      () => new Promise<boolean>(() => undefined), // never settles
    ]) {
      const handler = createCallbackHandler(ALIAS, "orderPaid", () => void calls++, {
        registry,
        verify,
        verifyTimeoutMs: 50,
        onError: (e) => errors.push(e),
      });
      const response = await deliver(handler, valid, "key-00000102");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
    }
    expect(calls).toBe(0);
    expect(errors.map(String)).toEqual([
      expect.stringContaining("key service down"),
      expect.stringContaining("did not finish within 50 ms"),
    ]);
  });
});

describe("at least once, exactly-once effects", () => {
  it("a delivery whose process died inside onEvent is processed by the retry on another instance once the lease expires", async () => {
    let time = 1_000_000;
    const store = slowShared(() => time);
    let hang!: () => void;
    const dying = createCallbackHandler(ALIAS, "orderPaid", () => new Promise<void>((resolve) => (hang = resolve)), {
      ...unverified,
      store,
      onEventTimeoutMs: 60_000,
      leaseMs: 120_000,
    });
    const processed: string[] = [];
    const survivor = createCallbackHandler(ALIAS, "orderPaid", (e) => void processed.push(e.idempotencyKey!), {
      ...unverified,
      store,
      onEventTimeoutMs: 60_000,
      leaseMs: 120_000,
    });
    const lost = deliver(dying, valid, "key-00000201"); // this instance "dies": its onEvent never returns
    await store.claimed;
    const early = await deliver(survivor, valid, "key-00000201");
    expect(early.status).toBe(503); // the lease still runs: retry later, not "duplicate"
    expect(processed).toEqual([]);
    time += 120_001; // the lease expired
    const retry = await deliver(survivor, valid, "key-00000201");
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, duplicate: false });
    expect(processed).toEqual(["key-00000201"]);
    expect((await deliver(survivor, valid, "key-00000201").then((r) => r.json())).duplicate).toBe(true);
    hang();
    await lost;
  });

  it("marks the key done only after onEvent resolved", async () => {
    const store = slowShared();
    const handler = createCallbackHandler(
      ALIAS,
      "orderPaid",
      async () => {
        store.calls.push("onEvent start");
        await new Promise((resolve) => setImmediate(resolve));
        store.calls.push("onEvent end");
      },
      { ...unverified, store },
    );
    expect((await deliver(handler, valid, "key-00000202")).status).toBe(200);
    expect(store.calls).toEqual(["claim acquired", "onEvent start", "onEvent end", "complete"]);
  });

  it("a store that throws or hangs is answered 503 (the provider retries), and onEvent does not run", async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const failing: IdempotencyStore[] = [
      {
        claim: async () => {
          throw new Error("connection refused");
        },
        complete: async () => undefined,
        release: async () => undefined,
      },
      { claim: () => new Promise<ClaimResult>(() => undefined), complete: async () => undefined, release: async () => undefined },
    ];
    for (const store of failing) {
      const handler = createCallbackHandler(ALIAS, "orderPaid", () => void calls++, {
        ...unverified,
        store,
        storeTimeoutMs: 50,
        onError: (e) => errors.push(e),
      });
      const response = await deliver(handler, valid, "key-00000203");
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: "the callback cannot be recorded now; retry later" });
    }
    expect(calls).toBe(0);
    expect(errors.map(String)).toEqual([expect.stringContaining("connection refused"), expect.stringContaining("within 50 ms")]);
  });

  it("a full store (maxKeys unexpired keys) is answered 503 rather than forgetting a processed key", async () => {
    const store = createMemoryStore({ maxKeys: 1 });
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { ...unverified, store, onError: () => {} });
    expect((await deliver(handler, valid, "key-00000204")).status).toBe(200);
    expect((await deliver(handler, valid, "key-00000205")).status).toBe(503);
    expect(await (await deliver(handler, valid, "key-00000204")).json()).toEqual({ received: true, duplicate: true });
  });

  it("an onEvent past onEventTimeoutMs: its signal aborts, 503; repeats wait for its lease; the key is done once it resolves", async () => {
    const store = slowShared();
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    const signals: AbortSignal[] = [];
    let calls = 0;
    const completed = new Promise<void>((resolve) => {
      const complete = store.complete.bind(store);
      store.complete = async (key: string) => {
        await complete(key);
        resolve();
      };
    });
    const handler = createCallbackHandler(
      ALIAS,
      "orderPaid",
      async (event) => {
        calls++;
        signals.push(event.signal);
        await late;
      },
      { ...unverified, store, onEventTimeoutMs: 50, leaseMs: 60_000, onError: () => {} },
    );
    const first = await deliver(handler, valid, "key-00000206");
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("60");
    expect(signals[0].aborted).toBe(true);
    expect((await deliver(handler, valid, "key-00000206")).status).toBe(503); // still leased: not processed twice
    release();
    await completed;
    expect(await (await deliver(handler, valid, "key-00000206")).json()).toEqual({ received: true, duplicate: true });
    expect(calls).toBe(1);
  });

  it("rejects a lease that is not longer than the onEvent time limit", () => {
    expect(() => createCallbackHandler(ALIAS, "orderPaid", () => {}, { ...unverified, onEventTimeoutMs: 1000, leaseMs: 1000 })).toThrow(
      /leaseMs \(1000\) must be longer than onEventTimeoutMs \(1000\)/,
    );
  });
});

describe("bounds", () => {
  it("refuses an Idempotency-Key over maxKeyLength before keeping it, and treats an empty one as missing", async () => {
    const store = createMemoryStore();
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { ...unverified, store });
    const long = await deliver(handler, valid, "k".repeat(257));
    expect(long.status).toBe(400);
    expect((await long.json()).violations).toEqual([
      { in: "header", path: "header.Idempotency-Key", message: "must be at most 256 characters" },
    ]);
    expect((await deliver(handler, valid, "k".repeat(256))).status).toBe(200);
    for (const empty of ["", "   "]) {
      const response = await deliver(handler, valid, empty);
      expect(response.status, JSON.stringify(empty)).toBe(400);
      expect((await response.json()).violations).toEqual([{ in: "header", path: "header.Idempotency-Key", message: "is required" }]);
    }
    expect(store.size).toBe(1);
  });

  it("the Fetch form stops reading a body (chunked, no length) once it passes maxBodyBytes: 413", async () => {
    const limit = 64 * 1024;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.length;
        controller.enqueue(chunk);
        if (pulled >= 300 * 1024 * 1024) controller.close();
      },
    });
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { ...unverified, maxBodyBytes: limit });
    const response = await handler.fetch(
      new Request("https://partner.example.test/cb", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: endless,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(limit + 4 * chunk.length); // a few chunks read ahead, not 300 MB
  });

  it("the node:http form stops reading too: 413, then the connection closes", async () => {
    const limit = 64 * 1024;
    const handler = createCallbackHandler(ALIAS, "orderPaid", () => {}, { ...unverified, maxBodyBytes: limit });
    const server = createServer(handler);
    const sockets: Array<{ socket: Socket; closed: Promise<unknown> }> = [];
    server.on("connection", (socket) => sockets.push({ socket, closed: once(socket, "close") }));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/cb", headers: { "content-type": "application/json" } });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        });
        req.on("error", (error: NodeJS.ErrnoException) => {
          // Writing on after the server closed; the answer came first.
          if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
        });
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        const pump = () => {
          while (!req.destroyed && req.write(chunk));
        };
        req.on("drain", pump);
        pump();
      });
      expect(status).toBe(413);
      await sockets[0].closed; // the server let go of the connection: it does not read the endless body
      expect(sockets).toHaveLength(1);
      expect(sockets[0].socket.bytesRead).toBeLessThan(8 * limit);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("the memory store", () => {
  it("leases a key, gives it again once the lease expires, keeps a processed key for its retention", async () => {
    let time = 1000;
    const store = createMemoryStore({ retentionMs: 500, now: () => time });
    expect(await store.claim("a", 100)).toBe("acquired");
    expect(await store.claim("a", 100)).toBe("busy");
    time += 101;
    expect(await store.claim("a", 100)).toBe("acquired"); // the first holder died: the lease expired
    await store.complete("a");
    expect(await store.claim("a", 100)).toBe("done");
    time += 499;
    expect(await store.claim("a", 100)).toBe("done");
    time += 2;
    expect(await store.claim("a", 100)).toBe("acquired"); // retention over
    await store.release("a");
    expect(await store.claim("a", 100)).toBe("acquired");
  });

  it("never forgets an unexpired key to make room: a claim beyond maxKeys fails until keys expire", async () => {
    let time = 0;
    const store = createMemoryStore({ retentionMs: 1000, maxKeys: 2, now: () => time });
    for (const key of ["a", "b"]) {
      await store.claim(key, 10);
      await store.complete(key);
    }
    await expect(store.claim("c", 10)).rejects.toThrow(StoreFullError);
    expect(await store.claim("a", 10)).toBe("done");
    time += 1001;
    expect(await store.claim("c", 10)).toBe("acquired");
    expect(store.size).toBe(1);
  });

  it("rejects nonsense limits", () => {
    expect(() => createMemoryStore({ retentionMs: 0 })).toThrow(RangeError);
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

  it("sendCallback never follows a redirect (its headers, a shared secret say, never reach another origin) and keeps at most 64 KiB of an answer", async () => {
    const seen: string[] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(String(req.headers["x-shared-secret"]));
      res.end("elsewhere");
    });
    const endpoint = createServer((req, res) => {
      req.resume();
      if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("x".repeat(1024 * 1024));
        return;
      }
      res.writeHead(307, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/steal` });
      res.end();
    });
    for (const server of [elsewhere, endpoint]) {
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
    }
    try {
      const base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`;
      const moved = await sendCallback(ALIAS, "orderPaid", { registry, to: `${base}/cb`, headers: { "x-shared-secret": "s3cret" } });
      expect(moved.deliveries.map((d) => d.status)).toEqual([307]);
      expect(moved.ok).toBe(false);
      expect(seen).toEqual([]);
      const big = await sendCallback(ALIAS, "orderPaid", { registry, to: `${base}/big` });
      expect(big.deliveries[0].status).toBe(200);
      expect(big.deliveries[0].body.length).toBe(64 * 1024);
    } finally {
      for (const server of [elsewhere, endpoint]) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  it("sendCallback reports a delivery that could not connect, without throwing", async () => {
    const result = await sendCallback(ALIAS, "orderPaid", { registry, to: "http://127.0.0.1:9/unreachable", timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    expect(result.deliveries).toHaveLength(1);
    expect(result.deliveries[0].status).toBe(0);
    expect(result.deliveries[0].error).toBeTruthy();
  });
});
