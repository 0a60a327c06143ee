/**
 * One attempt's way to the server and back (src/client/transport.ts, through createApiClient), with
 * an injected fetch that records every request it is given and answers from a script: the redirects
 * followed as the Fetch standard follows them (4.4 HTTP-redirect fetch: 303 turns any method but
 * GET and HEAD into a GET without a body, 301 and 302 only a POST; 307 and 308 repeat the method and
 * the body; at most 20), only on the request's origin and never to a URL with userinfo; a redirect
 * without a usable Location is the answer; the body bound of `maxResponseBytes` at its exact limit,
 * declared or counted. The call's options (`retry`, `timeoutMs`) are the call's, never sent.
 */
import { describe, expect, it } from "vitest";
import { ApiError, createApiClient, unwrap } from "../../../../src/client/index.js";

const ORIGIN = "http://api.test";

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  redirect: string;
}

type Call = (
  path: string,
  init?: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; fault?: ApiError; response: Response }>;
type Client = Record<"GET" | "POST" | "PUT" | "DELETE" | "HEAD" | "PATCH", Call> & {
  request: (method: string, path: string, init?: Record<string, unknown>) => ReturnType<Call>;
  use: (middleware: object) => void;
  eject: (middleware: object) => void;
};

/** A client whose fetch records each request and answers with the next of `answers` (the last one repeats). */
function scripted(answers: Array<(sent: Sent) => Response | Promise<Response>>, options: Record<string, unknown> = {}) {
  const sent: Sent[] = [];
  const fetch = async (input: Request, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input);
    const record: Sent = {
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: request.body ? await request.clone().text() : "",
      redirect: init?.redirect ?? request.redirect,
    };
    sent.push(record);
    return answers[Math.min(sent.length - 1, answers.length - 1)](record);
  };
  const client = createApiClient(
    { name: "createItemsClient", servers: [], auth: { kind: "apiKey", scheme: "key", header: "x-api-key", option: "apiKey" } },
    { baseUrl: ORIGIN, apiKey: "k-1", fetch, retry: false, ...options },
  ) as unknown as Client;
  return { client, sent };
}

/** A fetch that answers nothing until its signal aborts, rejecting then with the reason, as fetch does (at once when it came aborted). */
const untilAborted = (request: Request) =>
  new Promise<Response>((_, reject) => {
    if (request.signal.aborted) reject(request.signal.reason);
    else request.signal.addEventListener("abort", () => reject(request.signal.reason));
  });

const redirect = (status: number, location: string | null) => (): Response =>
  new Response(null, { status, headers: location === null ? {} : { location } });
const json =
  (value: unknown, status = 200) =>
  () =>
    Response.json(value, { status });

describe("redirects on the request's origin", () => {
  it.each([
    [303, "POST", "GET"],
    [303, "PUT", "GET"],
    [303, "DELETE", "GET"],
    [303, "PATCH", "GET"],
    [301, "POST", "GET"],
    [302, "POST", "GET"],
    [301, "PUT", "PUT"],
    [302, "PATCH", "PATCH"],
    [307, "POST", "POST"],
    [308, "PUT", "PUT"],
  ] as const)("%i after a %s: the next request is a %s", async (status, method, next) => {
    const { client, sent } = scripted([redirect(status, "/moved"), json({ ok: true })]);
    const result = await client[method]("/items", { body: { id: "i1" } });
    expect(result.data).toEqual({ ok: true });
    expect(sent.map((s) => [s.method, s.url])).toEqual([
      [method, `${ORIGIN}/items`],
      [next, `${ORIGIN}/moved`],
    ]);
    const body = next === "GET" ? "" : '{"id":"i1"}';
    expect(sent[1].body).toBe(body);
    // The body's headers go with the body; the credential stays on the same origin.
    expect(sent[1].headers["content-type"]).toBe(next === "GET" ? undefined : "application/json");
    expect(sent[1].headers["x-api-key"]).toBe("k-1");
    expect(sent.every((s) => s.redirect === "manual")).toBe(true);
  });

  it("303 after a GET stays a GET and keeps its headers, content-type included", async () => {
    const { client, sent } = scripted([redirect(303, "/moved"), json({ ok: true })]);
    await client.GET("/items", { headers: { "content-type": "application/json", "content-language": "en" } });
    expect(sent.map((s) => s.method)).toEqual(["GET", "GET"]);
    expect(sent[1].headers).toMatchObject({ "content-type": "application/json", "content-language": "en" });
  });

  it("303 after a HEAD stays a HEAD", async () => {
    const { client, sent } = scripted([redirect(303, "/moved"), () => new Response(null, { status: 200 })]);
    await client.HEAD("/items");
    expect(sent.map((s) => s.method)).toEqual(["HEAD", "HEAD"]);
  });

  it("a 307 after a DELETE without a body is followed", async () => {
    const { client, sent } = scripted([redirect(307, "/moved"), () => new Response(null, { status: 204 })]);
    const result = await client.DELETE("/items");
    expect(result.response.status).toBe(204);
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ["DELETE", `${ORIGIN}/items`, ""],
      ["DELETE", `${ORIGIN}/moved`, ""],
    ]);
  });

  it("a 307 after a request a middleware replaced: its body goes again", async () => {
    const { client, sent } = scripted([redirect(307, "/moved"), json({ ok: true })]);
    client.use({
      onRequest: ({ request }: { request: Request }) =>
        new Request(request.url, { method: "POST", headers: request.headers, body: '{"id":"replaced"}' }),
    });
    await client.POST("/items", { body: { id: "i1" } });
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ["POST", `${ORIGIN}/items`, '{"id":"replaced"}'],
      ["POST", `${ORIGIN}/moved`, '{"id":"replaced"}'],
    ]);
  });

  it("a 307 after a body given as a stream: a stream cannot be sent again, so the 307 is the answer", async () => {
    const { client, sent } = scripted([redirect(307, "/moved"), json({ ok: true })]);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":"s"}'));
        controller.close();
      },
    });
    const result = await client.POST("/items", { body: stream, bodySerializer: (body: unknown) => body, duplex: "half" });
    expect(result.fault).toBeUndefined();
    expect(result.response.status).toBe(307);
    expect(sent).toHaveLength(1);
  });

  it("follows 20 redirects, as fetch does, and gives the 21st as the answer", async () => {
    const { client, sent } = scripted([(s) => redirect(302, `/hop/${Number(s.url.split("/").at(-1)) + 1 || 1}`)()]);
    const result = await client.GET("/items");
    expect(result.response.status).toBe(302);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(sent).toHaveLength(21);
    expect(sent.at(-1)?.url).toBe(`${ORIGIN}/hop/20`);
  });

  it("a redirect whose answer has no body (null) is followed", async () => {
    const { client, sent } = scripted([() => new Response(null, { status: 302, headers: { location: "/moved" } }), json({ ok: 1 })]);
    expect((await client.GET("/items")).data).toEqual({ ok: 1 });
    expect(sent).toHaveLength(2);
  });

  it("a followed request carries the call's signal: the deadline aborts it", async () => {
    const requests: Request[] = [];
    const client = createApiClient(
      { name: "createItemsClient", servers: [], auth: { kind: "none" } },
      {
        baseUrl: ORIGIN,
        retry: false,
        fetch: (request: Request) => {
          requests.push(request);
          if (requests.length === 1) return Promise.resolve(redirect(307, "/slow")());
          return untilAborted(request);
        },
      },
    ) as unknown as Client;
    const result = await client.GET("/items", { timeoutMs: 30 });
    expect(result.fault?.kind).toBe("timeout");
    expect(requests.map((r) => r.url)).toEqual([`${ORIGIN}/items`, `${ORIGIN}/slow`]);
    expect(requests[1].signal.aborted).toBe(true);
  });
});

describe("redirects that are the answer, unfollowed", () => {
  it.each([
    ["no Location", null],
    ["a Location that is not a URL", "http://[bad"],
    ["another origin (host)", "http://elsewhere.test/items"],
    ["another origin (port)", "http://api.test:8080/items"],
    ["another origin (scheme)", "https://api.test/items"],
    ["userinfo with a user name only", "http://user@api.test/items"],
    ["userinfo with a password only", "http://:pw@api.test/items"],
  ])("%s", async (_, location) => {
    const { client, sent } = scripted([redirect(302, location), json({ from: "elsewhere" })]);
    const result = await client.GET("/items");
    expect(result.fault).toBeUndefined();
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(302);
    expect(() => unwrap(result)).toThrow(ApiError);
    expect(sent).toHaveLength(1);
  });

  it("a request a middleware replaced goes out with redirect manual too: fetch never follows another origin's redirect", async () => {
    const { client, sent } = scripted([redirect(302, "http://elsewhere.test/x"), json({ from: "elsewhere" })]);
    client.use({ onRequest: ({ request }: { request: Request }) => new Request(request.url, { headers: request.headers }) });
    await client.GET("/items");
    expect(sent.map((s) => s.redirect)).toEqual(["manual"]);
  });
});

describe("a redirect's answers count as answers", () => {
  it("a POST refused after two same-origin redirects is not retried: it was answered, so it may have been sent", async () => {
    const refused = () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    };
    const retried: unknown[] = [];
    const retry = { attempts: 3, sleep: async () => undefined, onRetry: (event: unknown) => void retried.push(event) };
    const { client, sent } = scripted([redirect(307, "/a"), redirect(307, "/b"), refused], { retry });
    const result = await client.POST("/items", { body: { id: "i1" } });
    expect(result.fault?.kind).toBe("network");
    expect(sent).toHaveLength(3);
    expect(retried).toEqual([]);
  });

  it("a POST refused before any answer is retried: it was not sent", async () => {
    const refused = () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    };
    const { client, sent } = scripted([refused, json({ ok: true })], { retry: { attempts: 2, sleep: async () => undefined } });
    expect((await client.POST("/items", { body: { id: "i1" } })).data).toEqual({ ok: true });
    expect(sent).toHaveLength(2);
  });

  it("a fault after an answer names its operation for a later ApiError of the response", async () => {
    const { client } = scripted([() => new Response("{not json", { status: 200, headers: { "content-type": "application/json" } })]);
    const result = await client.GET("/items");
    expect(result.fault?.kind).toBe("invalid-body");
    expect(new ApiError(result.response, undefined)).toMatchObject({ method: "GET", path: "/items" });
  });
});

describe("the body bound (maxResponseBytes)", () => {
  const body =
    (text: string, headers: Record<string, string> = {}) =>
    () =>
      new Response(text, { status: 200, headers: { "content-type": "application/json", ...headers } });
  const chunked = (text: string) => () => {
    const response = new Response(
      new ReadableStream({
        start(controller) {
          for (const part of [text.slice(0, 3), text.slice(3)]) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      }),
      { status: 200, statusText: "Fine", headers: { "content-type": "application/json" } },
    );
    // As fetch gives it: the URL it answered.
    Object.defineProperty(response, "url", { value: `${ORIGIN}/items` });
    return response;
  };

  it("a declared length exactly at the limit is read", async () => {
    const { client } = scripted([body('"12345678"', { "content-length": "10" })], { maxResponseBytes: 10 });
    expect((await client.GET("/items")).data).toBe("12345678");
  });

  it("a declared length one over the limit is too-large, unread", async () => {
    const { client } = scripted([body('"123456789"', { "content-length": "11" })], { maxResponseBytes: 10 });
    expect((await client.GET("/items")).fault?.kind).toBe("too-large");
  });

  it.each(["11x", "x11", "1 1"])("a Content-Length %j that is not a number: the body is counted as it comes", async (declared) => {
    const { client } = scripted([body('"12"', { "content-length": declared })], { maxResponseBytes: 10 });
    expect((await client.GET("/items")).data).toBe("12");
  });

  it("a body without a length exactly at the limit is read; its status, text, headers and URL kept", async () => {
    const { client } = scripted([chunked('"12345678"')], { maxResponseBytes: 10 });
    const result = await client.GET("/items");
    expect(result.data).toBe("12345678");
    expect(result.response.status).toBe(200);
    expect(result.response.statusText).toBe("Fine");
    expect(result.response.headers.get("content-type")).toBe("application/json");
    expect(result.response.url).toBe(`${ORIGIN}/items`);
  });

  it("a body without a length one byte over the limit is too-large", async () => {
    const { client } = scripted([chunked('"123456789"')], { maxResponseBytes: 10 });
    expect((await client.GET("/items")).fault?.kind).toBe("too-large");
  });
});

describe("the client's options and methods", () => {
  it.each([-1, 1.5, "10", true])("maxResponseBytes %j is refused", (value) => {
    expect(() => scripted([json({})], { maxResponseBytes: value })).toThrow(
      new TypeError(`createItemsClient: option "maxResponseBytes" must be a non-negative integer, got ${JSON.stringify(value)}`),
    );
  });

  it("maxResponseBytes 0 is taken: an empty body only", async () => {
    const { client } = scripted([() => new Response(null, { status: 204 })], { maxResponseBytes: 0 });
    expect((await client.DELETE("/items")).response.status).toBe(204);
  });

  it.each([null, "options", 3])("options %j that are not an object are refused", (options) => {
    expect(() => createApiClient({ name: "createItemsClient", servers: [], auth: { kind: "none" } }, options as unknown as object)).toThrow(
      new TypeError("createItemsClient: expected an options object"),
    );
  });

  it("request(method, path) runs the call as the method's own, its method upper-cased", async () => {
    const { client, sent } = scripted([json({ code: "NOPE" }, 404)]);
    const result = await client.request("get", "/items");
    expect(sent.map((s) => s.method)).toEqual(["GET"]);
    expect(() => unwrap(result)).toThrow("GET /items responded 404");
  });

  it("eject removes a middleware", async () => {
    const { client, sent } = scripted([json({})]);
    const middleware = {
      onRequest: ({ request }: { request: Request }) => {
        request.headers.set("x-trace", "1");
        return request;
      },
    };
    client.use(middleware);
    await client.GET("/items");
    client.eject(middleware);
    await client.GET("/items");
    expect(sent.map((s) => s.headers["x-trace"])).toEqual(["1", undefined]);
  });

  it("a call's retry and timeoutMs are the call's: honoured, and never given to fetch", async () => {
    let init: RequestInit | undefined;
    const answers = [json({}, 503), json({ ok: true })];
    let n = 0;
    const client = createApiClient(
      { name: "createItemsClient", servers: [], auth: { kind: "none" } },
      {
        baseUrl: ORIGIN,
        retry: false,
        fetch: async (request: Request, given?: RequestInit) => {
          init = given;
          expect(Object.keys(request)).not.toContain("retry");
          return answers[n++]();
        },
      },
    ) as unknown as Client;
    const result = await client.GET("/items", { retry: { attempts: 2, sleep: async () => undefined }, timeoutMs: 5_000 });
    expect(result.data).toEqual({ ok: true });
    expect(n).toBe(2);
    expect(JSON.stringify(init ?? {})).not.toMatch(/retry|timeoutMs/);
  });

  it("a call's own timeoutMs bounds it", async () => {
    const client = createApiClient(
      { name: "createItemsClient", servers: [], auth: { kind: "none" } },
      {
        baseUrl: ORIGIN,
        retry: false,
        timeoutMs: 60_000,
        fetch: untilAborted,
      },
    ) as unknown as Client;
    const result = await client.GET("/items", { timeoutMs: 20 });
    expect(result.fault?.kind).toBe("timeout");
    expect(result.fault?.message).toContain("20 ms");
  });
});

describe("deduplicated operations", () => {
  const contract = (deduplicated: string[]) => ({ name: "createItemsClient", servers: [], auth: { kind: "none" }, deduplicated }) as const;
  const run = async (deduplicated: string[], path: string) => {
    let n = 0;
    const client = createApiClient(contract(deduplicated), {
      baseUrl: ORIGIN,
      retry: { attempts: 2, sleep: async () => undefined },
      fetch: async () => (n++ === 0 ? Response.json({}, { status: 503 }) : Response.json({ ok: true })),
    }) as unknown as Client;
    await client.POST(path, { body: {}, headers: { "idempotency-key": "key-1" } });
    return n;
  };

  it("a POST with its Idempotency-Key is retried only when the contract declares the key for that operation", async () => {
    expect(await run(["POST /items"], "/items")).toBe(2);
    expect(await run(["POST /items"], "/other")).toBe(1);
    expect(await run([], "/items")).toBe(1);
  });
});
