/**
 * The mock's HTTP layer (src/mock/server.ts) and its hooks, on the shop fixture: the fast path calls
 * the hooks exactly as Prism's pipeline does (the first request of a kind goes through Prism, the
 * next ones through the fast path), `intercept` runs before either, and Prism's judgement of a
 * request is never handed to `answer`; the response cache (for requests the fast path does not
 * take) never replays a 5xx (its bound of 1000 answers: server.slow.test.ts and response-cache.test.ts).
 */
import { type IncomingMessage, request, type ServerResponse } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MockContext } from "../../../../src/mock/context.js";
import type { Judgement } from "../../../../src/mock/judge-thread.js";
import { LARGE_BODY_BYTES } from "../../../../src/mock/limits.js";
import { ResponseCache } from "../../../../src/mock/response-cache.js";
import {
  afterReceive,
  createContext,
  createPrismServer,
  type HookAnswer,
  type JudgedRequest,
  loadOperations,
  type MockHooks,
  type ObservedRequest,
  type PrismServer,
} from "../../../../src/mock/server.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const QUIRKS = join(repoRoot, "tests/fixtures/mock-quirks/openapi.yaml");
const BEARER = { authorization: "Bearer t" };

let server: PrismServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(hooks: MockHooks = {}, cache = true, spec = shop.bundlePath): Promise<string> {
  server = createPrismServer(await loadOperations(spec), { hooks, cache });
  return server.listen(0, "127.0.0.1");
}

async function call(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(url + path, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, violations: response.headers.get("sl-violations"), body: await response.text() };
}

const order = (amt: string) => ({ merchant_id: "m-1", amount: { cur: "PHP", amt } });

describe("createPrismServer", () => {
  it("takes the second request of a kind from the fast path, with the same answer", async () => {
    const url = await start();
    const first = await call(url, "POST", "/v1/order", BEARER, order("1.00"));
    expect(server!.stats()).toEqual({ fast: 0, prism: 1, cache: 0, judged: 0 });
    const second = await call(url, "POST", "/v1/order", BEARER, order("2.00"));
    expect(server!.stats()).toEqual({ fast: 1, prism: 1, cache: 0, judged: 0 });
    expect(second).toEqual(first);
    expect(first.status).toBe(200);
    // Another kind (an invalid body) is learnt from Prism first, then answered fast.
    const invalid = await call(url, "POST", "/v1/order", BEARER, { merchant_id: 5 });
    const again = await call(url, "POST", "/v1/order", BEARER, { merchant_id: 6 });
    expect(server!.stats()).toEqual({ fast: 2, prism: 2, cache: 0, judged: 0 });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(again.violations!).map((v: { location: string[] }) => v.location)).toEqual(
      JSON.parse(invalid.violations!).map((v: { location: string[] }) => v.location),
    );
  });

  it("calls the answer hook alike on Prism's path and on the fast path, and sends its answer", async () => {
    const seen: JudgedRequest[] = [];
    const hooks: MockHooks = {
      answer: (request) => {
        seen.push(request);
        return {
          status: 201,
          headers: { "x-state": String(seen.length) },
          body: { n: seen.length, amount: (request.body as { amount: unknown }).amount },
        };
      },
      validateAnswer: (_, answer) => [
        { location: ["response", "body"], severity: "Warning", code: "test", message: `checked ${answer.status}` },
      ],
    };
    const url = await start(hooks);
    const answers = [];
    for (const amt of ["1.00", "2.00"]) answers.push(await call(url, "POST", "/v1/order?x=1", { ...BEARER, "x-extra": amt }, order(amt)));
    expect(server!.stats()).toEqual({ fast: 1, prism: 1, cache: 0, judged: 0 });
    expect(seen).toHaveLength(2);
    const [viaPrism, viaFast] = seen;
    expect(viaFast.operation).toBe(viaPrism.operation);
    expect(viaPrism.operation.path).toBe("/v1/order");
    for (const [i, judged] of seen.entries()) {
      const amt = ["1.00", "2.00"][i];
      expect(judged).toMatchObject({ method: "post", path: "/v1/order", query: { x: "1" }, status: 200, body: order(amt) });
      expect(judged.headers["x-extra"]).toBe(amt);
      expect(judged.example).toEqual({ order_id: "o-1", status: "CREATED", created: { seconds: 1700000000, nanos: 0 } });
    }
    expect(viaFast.example).toEqual(viaPrism.example);
    for (const [i, answer] of answers.entries()) {
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({ n: i + 1, amount: order(["1.00", "2.00"][i]).amount });
      expect(JSON.parse(answer.violations!)).toEqual([
        { location: ["response", "body"], severity: "Warning", code: "test", message: "checked 201" },
      ]);
    }
  });

  it("sends the same bytes whether the answer hook answers at once or through a promise", async () => {
    // x-case picks the hook's answer: JSON without headers of its own, with its own headers, no body, Prism's kept.
    const replacements: Record<string, HookAnswer | undefined> = {
      json: { status: 201, body: { note: "é ✓", list: [1, null] } },
      own: { status: 202, headers: { "content-type": "application/json; charset=utf-8", "x-state": "1" }, body: { n: 1 } },
      none: { status: 204 },
      kept: undefined,
    };
    const hooks: MockHooks = {
      answer: (request) => {
        const replaced = replacements[String(request.headers["x-case"])];
        return request.headers["x-async"] ? Promise.resolve(replaced) : replaced;
      },
      validateAnswer: (_, answer) =>
        answer.status === 202 ? [{ location: ["response", "status"], severity: "Error", code: "test", message: "not declared" }] : [],
    };
    const url = await start(hooks);
    const raw = async (headers: Record<string, string>) => {
      const response = await fetch(`${url}/v1/order`, {
        method: "POST",
        headers: { ...BEARER, ...headers, "content-type": "application/json" },
        body: JSON.stringify(order("1.00")),
      });
      const pairs = [...response.headers].filter(([name]) => name !== "date");
      return { status: response.status, pairs, body: Buffer.from(await response.arrayBuffer()).toString("hex") };
    };
    for (const name of Object.keys(replacements)) {
      const atOnce = await raw({ "x-case": name });
      expect(await raw({ "x-case": name, "x-async": "1" })).toEqual(atOnce);
      expect(atOnce.status).toBe({ json: 201, own: 202, none: 204, kept: 200 }[name]);
    }
    const json = await raw({ "x-case": "json" });
    expect(json.pairs).toContainEqual(["content-type", "application/json"]);
    expect(Buffer.from(json.body, "hex").toString()).toBe(JSON.stringify(replacements.json!.body));
    expect((await raw({ "x-case": "own" })).pairs).toContainEqual(["sl-violations", expect.stringContaining("not declared")]);
    // Its own headers replace the default Content-Type; no findings, no sl-violations; no body, no Content-Type.
    const own = await raw({ "x-case": "own" });
    expect(own.pairs).toContainEqual(["x-state", "1"]);
    expect(own.pairs.filter(([name]) => name === "content-type")).toEqual([["content-type", "application/json; charset=utf-8"]]);
    expect(Buffer.from(own.body, "hex").toString()).toBe('{"n":1}');
    expect(json.pairs.map(([name]) => name)).not.toContain("sl-violations");
    const none = await raw({ "x-case": "none" });
    expect(none.pairs.map(([name]) => name)).not.toContain("content-type");
    expect(none.body).toBe("");
  });

  it("never hands a request Prism judged invalid or unauthorised to the answer hook", async () => {
    const seen: JudgedRequest[] = [];
    const url = await start({ answer: (request) => void seen.push(request) });
    for (let i = 0; i < 2; i++) {
      expect((await call(url, "POST", "/v1/order", BEARER, { merchant_id: i })).status).toBe(400);
      expect((await call(url, "POST", "/v1/order", {}, order("1.00"))).status).toBe(401);
    }
    expect(server!.stats().fast).toBe(2);
    expect(seen).toEqual([]);
  });

  it.each([
    ["invalid first", ["authenticated invalid", "unauthenticated invalid", "unauthenticated valid", "authenticated valid"]],
    ["unauthenticated first", ["unauthenticated valid", "unauthenticated invalid", "authenticated invalid", "authenticated valid"]],
  ])("keeps credentials and validity apart on the fast path (%s): never a kept 400 for a 401, nor a 401 for a 400", async (_, sequence) => {
    const url = await start();
    const requests: Record<string, [Record<string, string>, unknown]> = {
      "authenticated invalid": [BEARER, { merchant_id: 5 }],
      "unauthenticated invalid": [{}, { merchant_id: 5 }],
      "unauthenticated valid": [{}, order("1.00")],
      "authenticated valid": [BEARER, order("1.00")],
    };
    const expected: Record<string, number> = {
      "authenticated invalid": 400,
      "unauthenticated invalid": 401,
      "unauthenticated valid": 401,
      "authenticated valid": 200,
    };
    for (let round = 0; round < 2; round++) {
      for (const name of sequence) {
        const [headers, body] = requests[name];
        expect((await call(url, "POST", `/v1/order?round=${round}`, headers, body)).status, `${name}, round ${round}`).toBe(expected[name]);
      }
    }
    // The second round came from the fast path: its answers are the kept ones.
    expect(server!.stats().fast).toBeGreaterThanOrEqual(sequence.length);
  });

  it("lets intercept answer before the fast path and Prism", async () => {
    const intercepted: string[] = [];
    const url = await start({
      intercept: (request, response, body) => {
        intercepted.push(`${request.method} ${request.url} ${body.length}`);
        if (!request.url?.startsWith("/_sandbox/")) return false;
        response.statusCode = 204;
        response.end();
        return true;
      },
    });
    for (let i = 0; i < 2; i++) {
      expect((await call(url, "POST", "/v1/order", BEARER, order("1.00"))).status).toBe(200);
      expect((await call(url, "GET", "/_sandbox/state", BEARER)).status).toBe(204);
    }
    const bytes = JSON.stringify(order("1.00")).length;
    expect(intercepted).toEqual([`POST /v1/order ${bytes}`, "GET /_sandbox/state 0", `POST /v1/order ${bytes}`, "GET /_sandbox/state 0"]);
    expect(server!.stats()).toEqual({ fast: 1, prism: 1, cache: 0, judged: 0 });
  });

  it("answers requests that choose their answer through Prism, and replays identical ones from the response cache", async () => {
    const url = await start();
    const prefer = { ...BEARER, prefer: "example=legacy" };
    const first = await call(url, "POST", "/v1/order", prefer, order("1.00"));
    const again = await call(url, "POST", "/v1/order", prefer, order("1.00"));
    expect(JSON.parse(first.body)).toMatchObject({ order_id: "o-2", status: "Created" });
    expect(again).toEqual(first);
    expect(server!.stats()).toEqual({ fast: 0, prism: 1, cache: 1, judged: 0 });
  });

  it("never replays a 5xx from the response cache (Prism answers it every time)", async () => {
    const url = await start({}, true, QUIRKS);
    const item = { ...BEARER, "x-count": "1" };
    // quirks' getItem declares a default response: Prism answers it with the status asked for.
    const error = await call(url, "GET", "/v1/items/1", { ...item, prefer: "code=503" });
    expect(error.status).toBe(503);
    expect(await call(url, "GET", "/v1/items/1", { ...item, prefer: "code=503" })).toEqual(error);
    expect(server!.stats()).toEqual({ fast: 0, prism: 2, cache: 0, judged: 0 });
    // The same request asking for a 4xx is kept and replayed.
    const client = await call(url, "GET", "/v1/items/1", { ...item, prefer: "code=418" });
    expect(client.status).toBe(418);
    expect(await call(url, "GET", "/v1/items/1", { ...item, prefer: "code=418" })).toEqual(client);
    expect(server!.stats()).toEqual({ fast: 0, prism: 3, cache: 1, judged: 0 });
  });

  it("replays a kept answer with its headers, in order, and its bytes: a 404 problem too", async () => {
    const url = await start();
    const raw = async () => {
      const response = await fetch(`${url}/no-such-path`, { headers: BEARER });
      return { status: response.status, pairs: [...response.headers].filter(([name]) => name !== "date"), body: await response.text() };
    };
    const first = await raw();
    expect(first.status).toBe(404);
    expect(first.pairs).toContainEqual(["content-type", "application/problem+json"]);
    expect(await raw()).toEqual(first);
    expect(server!.stats()).toEqual({ fast: 0, prism: 1, cache: 1, judged: 0 });
  });

  it("off (cache: false), nothing is replayed", async () => {
    const url = await start({}, false);
    for (let i = 0; i < 2; i++) expect((await call(url, "GET", "/no-such-path", BEARER)).status).toBe(404);
    expect(server!.stats()).toEqual({ fast: 0, prism: 2, cache: 0, judged: 0 });
  });
});

describe("createContext", () => {
  it("keeps answers by default, not when the cache is off or an answer hook answers", async () => {
    const operations = await loadOperations(shop.bundlePath);
    expect(createContext(operations).responses).toBeInstanceOf(ResponseCache);
    expect(createContext(operations, { cache: false }).responses).toBeUndefined();
    expect(createContext(operations, { hooks: { answer: () => undefined } }).responses).toBeUndefined();
  });
});

describe("a stage that fails", () => {
  it("gets a 500 problem when nothing was sent yet, whether it throws at once or rejects later", async () => {
    const url = await start({
      mayIntercept: (request) => {
        if (request.url === "/now") throw new Error("mayIntercept broke");
        return true;
      },
      intercept: async () => {
        throw new Error("intercept broke");
      },
    });
    for (const path of ["/now", "/later"]) {
      const response = await fetch(url + path, { headers: BEARER });
      expect(response.status, path).toBe(500);
      expect(response.headers.get("content-type"), path).toBe("application/problem+json");
    }
  });

  it("ends the connection when the answer had begun", async () => {
    const url = await start({
      intercept: async (_request, response) => {
        response.writeHead(200, { "content-length": "100" });
        response.write("partial");
        throw new Error("broke mid-answer");
      },
    });
    const response = await fetch(`${url}/x`, { headers: BEARER });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });
});

describe("a body's size", () => {
  /** A request of `bytes` bytes to POST /v1/order, through the stages after receiving, with a stand-in judge; whether it was handed to the judge. */
  async function judged(bytes: number): Promise<boolean> {
    const context: MockContext = createContext(await loadOperations(shop.bundlePath));
    const handed: number[] = [];
    const judgement: Judgement = { invalidJson: false, findings: undefined };
    context.judge = {
      count: 0,
      judge: (_op: unknown, _element: unknown, body: Buffer) => {
        handed.push(body.length);
        return Promise.resolve(judgement);
      },
      close: () => Promise.resolve(),
    } as unknown as MockContext["judge"];
    const text = JSON.stringify({ ...order("1.00"), note: "" });
    const body = Buffer.from(text.replace('"note":""', `"note":"${"x".repeat(bytes - text.length)}"`));
    expect(body.length).toBe(bytes);
    const headers = { ...BEARER, "content-type": "application/json", "content-length": String(bytes) };
    const request = { method: "POST", url: "/v1/order", headers, rawHeaders: Object.entries(headers).flat() } as unknown as IncomingMessage;
    let ended!: () => void;
    const done = new Promise<void>((resolve) => (ended = resolve));
    const written = {
      statusCode: 200,
      headersSent: false,
      writableEnded: false,
      setHeader: () => undefined,
      writeHead: () => {
        written.headersSent = true;
      },
      end: () => {
        written.writableEnded = true;
        ended();
      },
    };
    const response = written as unknown as ServerResponse;
    await afterReceive(context, { request, response, raw: { present: true, bytes: body } });
    await done;
    expect(handed.every((length) => length === bytes)).toBe(true);
    return handed.length > 0;
  }

  it("over LARGE_BODY_BYTES goes to the judge's worker; a body of LARGE_BODY_BYTES is decoded here", async () => {
    expect(await judged(LARGE_BODY_BYTES)).toBe(false);
    expect(await judged(LARGE_BODY_BYTES + 1)).toBe(true);
  });
});

describe("the observer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A server whose intercept hook holds each request until the test lets it go, telling the observer of each. */
  async function observed() {
    const seen: ObservedRequest[] = [];
    let held!: (release: () => void) => void;
    const arrived = () => new Promise<() => void>((resolve) => (held = resolve));
    let next = arrived();
    server = createPrismServer(await loadOperations(shop.bundlePath), {
      hooks: {
        intercept: () =>
          new Promise<boolean>((resolve) => {
            held(() => resolve(false));
          }),
      },
      observe: (done) => seen.push(done),
    });
    const url = await server.listen(0, "127.0.0.1");
    return {
      url,
      seen,
      /** Waits for the next request to reach the hook; resolves the function that lets it go. */
      next: async () => {
        const release = await next;
        next = arrived();
        return release;
      },
    };
  }

  it("is told of a request's status, its operation, the time from its arrival to its answer's end, and that it was not aborted", async () => {
    vi.useFakeTimers({ toFake: ["hrtime"] });
    // The clock does not start at zero: the time is the difference of two readings.
    vi.advanceTimersByTime(10_000);
    const { url, seen, next } = await observed();
    const answer = call(url, "POST", "/v1/order", BEARER, order("1.00"));
    const release = await next();
    vi.advanceTimersByTime(1500);
    release();
    expect((await answer).status).toBe(200);
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ status: 200, seconds: 1.5, operationId: "createOrder", aborted: false });
    expect(seen[0].request.url).toBe("/v1/order");
  });

  it("is told of a request whose client left before its answer as aborted, and of no operation where none takes it", async () => {
    const { url, seen, next } = await observed();
    // Its own connection, closed by the client while the answer is held.
    const client = request(`${url}/no-such-path`, { headers: BEARER, agent: false });
    client.on("error", () => undefined);
    client.end();
    const release = await next();
    client.destroy();
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ operationId: undefined, aborted: true });
    release();
  });
});

describe("listen", () => {
  it("rejects when the port is taken", async () => {
    const url = await start();
    const other = createPrismServer(await loadOperations(shop.bundlePath));
    await expect(other.listen(Number(new URL(url).port), "127.0.0.1")).rejects.toMatchObject({ code: "EADDRINUSE" });
    await other.close().catch(() => undefined);
  });
});
