/**
 * Retries and the call deadline (src/client/retry.ts) against a local node:http server that answers
 * from a script, one entry per request: what is retried (idempotent methods on 408/429/5xx,
 * connections never made for any method, a POST only where its contract declares an
 * Idempotency-Key header and the call sends one; a real TCP reset is not "never made"), the
 * waits (jittered backoff, Retry-After in seconds and as an HTTP-date, capped), the bound on
 * attempts, the deadline per call and per client, the caller's abort, the hook and the middleware
 * on every attempt, the body sent again, and the credential kept on its origin.
 *
 * No test waits on time: the `sleep` option records each wait and returns at once, `random` is
 * fixed at 0.5 (so a backoff is 3/4 of its ceiling), and the server counts the requests. The
 * timeout tests use a server that never answers, so only the deadline can end the call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, createApiClient, type RetryEvent, unwrap } from "../../../../src/client/index.js";
import { CallTimeoutError, causeCode } from "../../../../src/client/errors.js";
import { backoffMs, retryAfterMs } from "../../../../src/client/retry.js";

interface Item {
  id: string;
}
type Json = { headers: { [name: string]: unknown }; content: { "application/json": Item } };
interface paths {
  "/items/{id}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: { parameters: { query?: never; header?: never; path: { id: string }; cookie?: never }; responses: { 200: Json } };
    put: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      requestBody: { content: { "application/json": Item } };
      responses: { 200: Json };
    };
  };
  "/items": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header?: { "Idempotency-Key"?: string }; path?: never; cookie?: never };
      requestBody: { content: { "application/json": Item } };
      responses: { 201: Json };
    };
  };
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}
type Answer = (response: ServerResponse, request: IncomingMessage) => void;

/** A server answering each request with the next entry of `script` (then 200 `{"id":"ok"}`), recording what it got. */
async function scriptedServer() {
  const seen: Seen[] = [];
  let script: Answer[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const answer = script.shift() ?? ok;
      answer(response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    seen,
    answer: (...answers: Answer[]) => {
      script = answers;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ok: Answer = (response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ id: "ok" }));
};
const status =
  (code: number, headers: Record<string, string> = {}): Answer =>
  (response) => {
    response.writeHead(code, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify({ status: code }));
  };
const never: Answer = () => {};

let api: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  api = await scriptedServer();
});
afterAll(() => api.close());
beforeEach(() => {
  api.seen.length = 0;
  api.answer();
});

const definition = {
  name: "createItemsClient",
  servers: [],
  auth: { kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" },
} as const;

/** The waits asked for, in order; `sleep` returns at once. */
let waits: number[];
let events: RetryEvent[];
beforeEach(() => {
  waits = [];
  events = [];
});
const fastRetry = {
  sleep: async (ms: number) => {
    waits.push(ms);
  },
  random: () => 0.5,
  onRetry: (event: RetryEvent) => {
    events.push(event);
  },
};

/** The same API, its contract declaring the Idempotency-Key header of POST /items (the generator lists such operations). */
const deduplicating = { ...definition, deduplicated: ["POST /items"] };

function client(extra: Record<string, unknown> = {}, baseUrl = api.url, contract: typeof definition | typeof deduplicating = definition) {
  const { retry, ...rest } = extra;
  return createApiClient<paths>(contract, {
    baseUrl,
    accessToken: "t0k",
    retry: retry === false ? false : { ...fastRetry, ...(retry as object) },
    ...rest,
  });
}
const get = (c = client(), init: Record<string, unknown> = {}) => c.GET("/items/{id}", { params: { path: { id: "i1" } }, ...init });
const post = (c = client(), init: Record<string, unknown> = {}) => c.POST("/items", { body: { id: "new" }, ...init });

describe("what is retried", () => {
  it("a GET answered 503, 503, then 200: three requests, the data of the third, two backoff waits", async () => {
    api.answer(status(503), status(503), ok);
    const result = await get();
    expect(result.data).toEqual({ id: "ok" });
    expect(api.seen.map((s) => s.method)).toEqual(["GET", "GET", "GET"]);
    // random 0.5: 3/4 of base * 2^(n - 2), base 200
    expect(waits).toEqual([150, 300]);
  });

  it.each([408, 429, 500, 502, 503, 504])("a GET answered %i is retried by default", async (code) => {
    api.answer(status(code), ok);
    expect((await get()).data).toEqual({ id: "ok" });
    expect(api.seen).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422, 501])("a GET answered %i is not retried", async (code) => {
    api.answer(status(code));
    const result = await get();
    expect(result.response.status).toBe(code);
    expect(result.error).toEqual({ status: code });
    expect(api.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("a PUT (idempotent) is retried, its body sent again each time", async () => {
    api.answer(status(503), ok);
    const result = await client().PUT("/items/{id}", { params: { path: { id: "i1" } }, body: { id: "i1" } });
    expect(result.data).toEqual({ id: "ok" });
    expect(api.seen.map((s) => [s.method, s.body])).toEqual([
      ["PUT", '{"id":"i1"}'],
      ["PUT", '{"id":"i1"}'],
    ]);
  });

  it("a POST answered 503 is not retried by default: one request, the 503 is the result", async () => {
    api.answer(status(503), ok);
    const result = await post();
    expect(result.response.status).toBe(503);
    expect(api.seen).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it("retry: { unsafe: true } is refused, on the client and on a call: no option repeats a POST the provider does not deduplicate", async () => {
    expect(() => client({ retry: { unsafe: true } })).toThrow(/"retry.unsafe" is not supported.*Idempotency-Key/);
    await expect(post(client(), { retry: { unsafe: true } })).rejects.toThrow(/POST \/items: option "retry.unsafe" is not supported/);
    expect(api.seen).toHaveLength(0);
  });

  it("a POST carrying an Idempotency-Key is retried, with the same key and body, where its contract declares the header", async () => {
    api.answer(status(503), ok);
    const result = await post(client({}, api.url, deduplicating), { params: { header: { "Idempotency-Key": "k-1" } } });
    expect(result.response.status).toBe(200);
    expect(api.seen.map((s) => [s.headers["idempotency-key"], s.body])).toEqual([
      ["k-1", '{"id":"new"}'],
      ["k-1", '{"id":"new"}'],
    ]);
  });

  it("a POST carrying an Idempotency-Key is not retried where its contract does not declare the header (nothing says the provider deduplicates)", async () => {
    api.answer(status(503), ok);
    const result = await post(client(), { params: { header: { "Idempotency-Key": "k-1" } } });
    expect(result.response.status).toBe(503);
    expect(api.seen).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it("a POST without the key is not retried, even where the contract declares the header", async () => {
    api.answer(status(503), ok);
    expect((await post(client({}, api.url, deduplicating))).response.status).toBe(503);
    expect(api.seen).toHaveLength(1);
  });

  it("a POST whose body is a stream is sent again whole (the stream is split before the first send)", async () => {
    api.answer(status(503), ok);
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":'));
          controller.enqueue(new TextEncoder().encode('"streamed"}'));
          controller.close();
        },
      });
    const result = await client({}, api.url, deduplicating).POST("/items", {
      params: { header: { "Idempotency-Key": "k-2" } },
      body: stream() as never,
      bodySerializer: (body: unknown) => body as BodyInit,
      duplex: "half",
    });
    expect(result.response.status).toBe(200);
    expect(api.seen.map((s) => s.body)).toEqual(['{"id":"streamed"}', '{"id":"streamed"}']);
  });

  it("retry: false on the call, or attempts: 1 on the client, makes one attempt", async () => {
    api.answer(status(503), ok);
    expect((await get(client(), { retry: false })).response.status).toBe(503);
    api.answer(status(503), ok);
    expect((await get(client({ retry: { attempts: 1 } }))).response.status).toBe(503);
    expect(api.seen).toHaveLength(2);
  });

  it("a redirect to another origin is not retried, and the credential never reaches that origin", async () => {
    const other = await scriptedServer();
    try {
      api.answer(status(503), (response) => {
        response.writeHead(307, { location: `${other.url}/items/i1` });
        response.end();
      });
      let credentialCalls = 0;
      const c = client({
        accessToken: () => {
          credentialCalls++;
          return "t0k";
        },
      });
      const result = await get(c);
      expect(result.response.status).toBe(307);
      expect(result.error).toBeInstanceOf(ApiError);
      expect(other.seen).toEqual([]);
      // the credential, asked for on each attempt, went to the API's origin only
      expect(credentialCalls).toBe(2);
      expect(api.seen.map((s) => s.headers.authorization)).toEqual(["Bearer t0k", "Bearer t0k"]);
    } finally {
      await other.close();
    }
  });

  it("a same-origin redirect followed by a 503: the retry starts again at the operation's URL", async () => {
    api.answer(
      (response) => {
        response.writeHead(302, { location: "/moved" });
        response.end();
      },
      status(503),
      ok,
    );
    expect((await get()).data).toEqual({ id: "ok" });
    expect(api.seen.map((s) => s.url)).toEqual(["/items/i1", "/moved", "/items/i1"]);
  });
});

describe("connections that could not be made", () => {
  /** A port nothing listens on (bound, then closed). */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it("a POST refused (ECONNREFUSED) is retried: the server started during the wait gets it once", async () => {
    const port = await closedPort();
    const late = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        api.seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
        ok(response, request);
      });
    });
    try {
      const c = client(
        {
          retry: {
            sleep: async (ms: number) => {
              waits.push(ms);
              await new Promise<void>((resolve) => late.listen(port, "127.0.0.1", resolve));
            },
          },
        },
        `http://127.0.0.1:${port}`,
      );
      const result = await post(c);
      expect(result.fault).toBeUndefined();
      expect(result.response.status).toBe(200);
      expect(api.seen.map((s) => [s.method, s.body])).toEqual([["POST", '{"id":"new"}']]);
      expect(events).toMatchObject([{ attempt: 2, reason: "network", status: 0 }]);
      expect(events[0].fault?.message).toContain("ECONNREFUSED");
    } finally {
      late.closeAllConnections();
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it("refused on every attempt: the network fault after `attempts` tries", async () => {
    const port = await closedPort();
    const result = await get(client({ retry: { attempts: 4 } }, `http://127.0.0.1:${port}`));
    expect(result.fault?.kind).toBe("network");
    expect(result.fault?.message).toContain("ECONNREFUSED");
    expect(events.map((e) => e.attempt)).toEqual([2, 3, 4]);
    expect(waits).toHaveLength(3);
  });

  it("a POST whose connection is closed after it was sent is not retried", async () => {
    api.answer((_, request) => request.socket.destroy());
    const result = await post();
    expect(result.fault?.kind).toBe("network");
    expect(api.seen).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it("a POST cut by a real TCP reset (RST) after the server read it is not retried as not sent", async () => {
    // resetAndDestroy sends an RST: the client sees ECONNRESET, a connection that was made, not one that never was.
    api.answer((_, request) => request.socket.resetAndDestroy());
    const result = await post();
    expect(result.fault?.kind).toBe("network");
    expect(causeCode(result.fault?.cause)).toBe("ECONNRESET");
    expect(api.seen.map((s) => [s.method, s.body])).toEqual([["POST", '{"id":"new"}']]);
    expect(events).toEqual([]);
    expect(waits).toEqual([]);
  });

  it("a GET cut by a real TCP reset is retried", async () => {
    api.answer((_, request) => request.socket.resetAndDestroy(), ok);
    expect((await get()).data).toEqual({ id: "ok" });
    expect(api.seen).toHaveLength(2);
    expect(events).toMatchObject([{ reason: "network" }]);
  });

  it("a GET whose connection is reset is retried", async () => {
    api.answer((_, request) => request.socket.destroy(), ok);
    expect((await get()).data).toEqual({ id: "ok" });
    expect(api.seen).toHaveLength(2);
    expect(events).toMatchObject([{ reason: "network" }]);
  });
});

describe("Retry-After and the bounds", () => {
  it("Retry-After in seconds is waited exactly", async () => {
    api.answer(status(503, { "retry-after": "2" }), ok);
    expect((await get()).data).toEqual({ id: "ok" });
    expect(waits).toEqual([2000]);
  });

  it("Retry-After as an HTTP-date is measured from the answer's Date", async () => {
    api.answer(status(503, { date: "Wed, 21 Oct 2015 07:28:00 GMT", "retry-after": "Wed, 21 Oct 2015 07:28:03 GMT" }), ok);
    expect((await get()).data).toEqual({ id: "ok" });
    expect(waits).toEqual([3000]);
  });

  it("a 429 with Retry-After: the wait it asks, then the data", async () => {
    api.answer(status(429, { "retry-after": "1" }), ok);
    expect((await get()).data).toEqual({ id: "ok" });
    expect(waits).toEqual([1000]);
    expect(events).toMatchObject([{ reason: "status", status: 429, delayMs: 1000 }]);
  });

  it("a Retry-After over maxDelayMs ends the retries: the 503 is the result, its Retry-After readable", async () => {
    api.answer(status(503, { "retry-after": "6" }), ok);
    const result = await get();
    expect(result.response.status).toBe(503);
    expect(result.response.headers.get("retry-after")).toBe("6");
    expect(api.seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("a Retry-After that would end past the call's timeoutMs is not waited", async () => {
    api.answer(status(503, { "retry-after": "2" }), ok);
    const result = await get(client({ timeoutMs: 1500 }));
    expect(result.response.status).toBe(503);
    expect(api.seen).toHaveLength(1);
  });

  it("attempts are bounded: always 503 gives `attempts` requests, each wait capped at maxDelayMs", async () => {
    api.answer(...Array(10).fill(status(503)));
    const result = await get(client({ retry: { attempts: 5, baseDelayMs: 2000, maxDelayMs: 5000 } }));
    expect(result.response.status).toBe(503);
    expect(api.seen).toHaveLength(5);
    // ceilings 2000, 4000, 5000 (capped), 5000; random 0.5 -> 3/4 of each
    expect(waits).toEqual([1500, 3000, 3750, 3750]);
  });

  it("the default is 3 attempts", async () => {
    api.answer(...Array(10).fill(status(503)));
    expect((await get()).response.status).toBe(503);
    expect(api.seen).toHaveLength(3);
  });

  it.each([
    [{ retry: { attempts: 0 } }, /option "attempts" must be an integer from 1 to 10, got 0/],
    [{ retry: { attempts: 11 } }, /option "attempts" must be an integer from 1 to 10, got 11/],
    [{ retry: { maxDelayMs: -1 } }, /option "maxDelayMs" must be an integer from 0 to 300000/],
    [{ retry: { statuses: [200] } }, /option "retry.statuses" must be a list of 4xx and 5xx statuses/],
    [{ retry: { tries: 2 } }, /unknown option "retry.tries"/],
    [{ timeoutMs: 0 }, /option "timeoutMs" must be an integer from 1 to 2147483647, got 0/],
  ])("a bad option on the client is refused, naming it: %j", (options, message) => {
    expect(() => createApiClient<paths>(definition, { baseUrl: api.url, accessToken: "t0k", ...options })).toThrow(message);
    expect(() => createApiClient<paths>(definition, { baseUrl: api.url, accessToken: "t0k", ...options })).toThrow(/^createItemsClient: /);
  });

  it("a bad option on a call rejects the call, naming the operation and the option; nothing is sent", async () => {
    await expect(get(client(), { retry: { attempts: 20 } })).rejects.toThrow('GET /items/{id}: option "attempts"');
    await expect(get(client(), { timeoutMs: -5 })).rejects.toThrow('GET /items/{id}: option "timeoutMs"');
    expect(api.seen).toEqual([]);
  });
});

describe("the deadline (timeoutMs)", () => {
  const expectTimeout = (result: Awaited<ReturnType<typeof get>>, limit: number) => {
    expect(result.fault?.kind).toBe("timeout");
    expect(result.fault?.message).toBe(`GET /items/{id} timed out: no complete answer within the call's limit of ${limit} ms (timeoutMs)`);
    expect(result.fault?.cause).toBeInstanceOf(CallTimeoutError);
    expect(result.fault?.cause).toMatchObject({ timeoutMs: limit, operation: { method: "GET", path: "/items/{id}" } });
    expect(() => unwrap(result)).toThrow(result.fault!);
    expect(events).toEqual([]); // a timeout is not retried
  };

  it("per client: a call with no answer ends at the client's timeoutMs, with a timeout fault naming the operation and the limit", async () => {
    api.answer(never);
    expectTimeout(await get(client({ timeoutMs: 50 })), 50);
  });

  it("the request in flight is stopped when the limit passes: the server sees its connection closed", async () => {
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    api.answer((_, request) => request.socket.once("close", () => closed()));
    expectTimeout(await get(client({ timeoutMs: 50 })), 50);
    const stillOpen = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("the connection stayed open 2 s past the limit: the abort did not reach fetch")), 2000).unref(),
    );
    await Promise.race([socketClosed, stillOpen]);
  });

  it("a middleware reading the request's signal gets an AbortSignal, aborted by the limit with its reason", async () => {
    api.answer(never);
    const signals: AbortSignal[] = [];
    const c = client({ timeoutMs: 50 });
    c.use({ onRequest: ({ request }) => void signals.push(request.signal) });
    expectTimeout(await get(c), 50);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(signals[0].aborted).toBe(true);
    expect(signals[0].reason).toBeInstanceOf(CallTimeoutError);
  });

  it("per call: the call's timeoutMs replaces the client's", async () => {
    api.answer(never);
    expectTimeout(await get(client({ timeoutMs: 600_000 }), { timeoutMs: 40 }), 40);
  });

  it("calls sharing a deadline timer each end at their own limit, each with its own operation; the ones that answered are untouched", async () => {
    // Started together, the calls with the same limit fall in the same slot of the shared timer. Only the PUT is answered.
    const putOnly: Answer = (response, request) => (request.method === "PUT" ? ok(response, request) : never(response, request));
    api.answer(putOnly, putOnly, putOnly, putOnly);
    const c = client({ timeoutMs: 2000 }); // long enough for the PUT's answer on a busy machine
    const results = await Promise.all([
      get(c),
      get(c),
      c.PUT("/items/{id}", { params: { path: { id: "i1" } }, body: { id: "i1" } }),
      get(c),
    ]);
    expect(results.map((r) => r.fault?.kind)).toEqual(["timeout", "timeout", undefined, "timeout"]);
    expect(results[2].data).toEqual({ id: "ok" });
    for (const i of [0, 1, 3]) expectTimeout(results[i] as Awaited<ReturnType<typeof get>>, 2000);
  });

  it("a caller's signal aborted before the call: the fault aborted, nothing sent", async () => {
    const result = await get(client(), { signal: AbortSignal.abort() });
    expect(result.fault?.kind).toBe("aborted");
    expect(api.seen).toHaveLength(0);
  });

  it("the caller's signal still works beside the deadline: its abort is the fault aborted, not retried", async () => {
    const controller = new AbortController();
    api.answer(() => controller.abort());
    const result = await get(client(), { signal: controller.signal });
    expect(result.fault?.kind).toBe("aborted");
    expect(api.seen).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it("an abort during a backoff wait ends the call there: the fault aborted, no further request", async () => {
    const controller = new AbortController();
    api.answer(status(503), ok);
    const c = client({
      retry: {
        sleep: (_: number, signal: AbortSignal) => {
          controller.abort();
          return Promise.reject(signal.reason);
        },
      },
    });
    const result = await get(c, { signal: controller.signal });
    expect(result.fault?.kind).toBe("aborted");
    expect(api.seen).toHaveLength(1);
  });
});

describe("every attempt is visible", () => {
  it("to the client's middleware (onRequest, onResponse) and to onRetry, in order", async () => {
    api.answer(status(503), status(429, { "retry-after": "0" }), ok);
    const c = client();
    const log: string[] = [];
    c.use({
      onRequest({ request }) {
        log.push(`request ${request.method} ${request.headers.get("authorization")}`);
      },
      onResponse({ response }) {
        log.push(`response ${response.status}`);
      },
    });
    const result = await get(c, {
      retry: { onRetry: (event: RetryEvent) => void log.push(`retry ${event.attempt} after ${event.delayMs}`) },
    });
    expect(result.data).toEqual({ id: "ok" });
    expect(log).toEqual([
      "request GET Bearer t0k",
      "response 503",
      "retry 2 after 150",
      "request GET Bearer t0k",
      "response 429",
      "retry 3 after 0",
      "request GET Bearer t0k",
      "response 200",
    ]);
  });

  it("onRetry gets the operation, the attempt, the wait, the reason, the request and the answer", async () => {
    api.answer(status(503), ok);
    await get();
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      operation: { method: "GET", path: "/items/{id}" },
      attempt: 2,
      attempts: 3,
      delayMs: 150,
      reason: "status",
      status: 503,
    });
    expect(event.request.url).toBe(`${api.url}/items/i1`);
    expect(event.response?.status).toBe(503);
  });

  it("an error thrown by onRetry rejects the call (the caller's to fix)", async () => {
    api.answer(status(503), ok);
    const c = client({
      retry: {
        onRetry: () => {
          throw new Error("hook failed");
        },
      },
    });
    await expect(get(c)).rejects.toThrow("hook failed");
    expect(api.seen).toHaveLength(1);
  });
});

describe("the wait computations", () => {
  it.each([
    // [header, Date header, now, expected ms]
    ["0", null, 0, 0],
    ["2", null, 0, 2000],
    [" 120 ", null, 0, 120_000],
    ["Wed, 21 Oct 2015 07:28:03 GMT", "Wed, 21 Oct 2015 07:28:00 GMT", 0, 3000],
    ["Wed, 21 Oct 2015 07:28:03 GMT", null, Date.UTC(2015, 9, 21, 7, 28, 1), 2000],
    ["Wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 07:29:00 GMT", 0, 0],
    ["soon", null, 0, undefined],
    ["1.5", null, 0, undefined],
    ["-1", null, 0, undefined],
  ] as const)("Retry-After %j (Date %j) -> %j ms", (value, date, now, expected) => {
    expect(retryAfterMs(value, date, now)).toBe(expected);
  });

  it("a missing Retry-After gives undefined", () => {
    expect(retryAfterMs(null, null)).toBeUndefined();
  });

  it.each([
    // [attempt, random, expected]: half the ceiling plus random times the other half; ceiling min(max, base * 2^(n-2))
    [2, 0, 100],
    [2, 0.999, 200],
    [3, 0.5, 300],
    [4, 0, 400],
    [8, 0.5, 3750], // 200 * 64 = 12800, capped at 5000
  ])("backoff before attempt %i with random %d: %i ms", (next, random, expected) => {
    expect(backoffMs(next, { baseDelayMs: 200, maxDelayMs: 5000, random: () => random })).toBe(expected);
  });
});

afterEach(() => {
  api.answer();
});
