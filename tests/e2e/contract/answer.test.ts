/**
 * The mock's answer stage (src/mock/answer.ts) and its writing (src/mock/write.ts), in process,
 * against stock Prism's own server (scripts/lib/stock-prism.ts) on the same documents: each request
 * is sent to stock Prism once and to the mock twice, and the raw bytes of every answer (its Date
 * line aside) must be stock Prism's with the `cors` deviation applied (no Allow-Credentials). The
 * second answer comes from where the mock keeps answers (the fast path, or the response cache for a
 * request that chooses its answer), which the counts show. Then what stock Prism cannot be asked:
 * a malformed Accept (stock Prism never answers; the mock answers its 406), a generated answer (never
 * kept), and the `answer` hook (MockHooks) keeping Prism's answer or replacing a 2xx with its own.
 */
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismServer, loadOperations, type PrismServer } from "../../../src/mock/server.js";
import type { HookAnswer, JudgedRequest, MockHooks, Violation } from "../../../src/mock/types.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { type StockPrism, startStockPrism } from "../../../scripts/lib/stock-prism.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const QUIRKS = join(repoRoot, "tests/fixtures/mock-quirks/openapi.yaml");

/**
 * A document of what the fixtures do not have: a text answer whose example is an object (no text
 * can carry it: prism-http-server's 500, sent with the answer's headers), with a header of its own,
 * a deprecated parameter and an example that breaks its schema, and one that keeps to it; two
 * answers whose generated data always breaks their schema (a pattern beside a format, which
 * json-schema-faker ignores) and one whose generated data keeps to it (and a deprecated header);
 * a 300 beside a 200.
 */
const ODD = `openapi: 3.1.0
info: { title: Odd answers, version: 1.0.0 }
paths:
  /text:
    get:
      operationId: getText
      parameters:
        - { name: legacy, in: query, deprecated: true, schema: { type: string } }
      responses:
        '200':
          description: Text
          headers:
            X-Rate: { schema: { type: integer }, example: 5 }
          content:
            text/plain:
              schema: { type: string }
              example: { not: text }
  /object-text:
    get:
      operationId: getObjectText
      responses:
        '200':
          description: Text whose schema is an object
          content:
            text/plain:
              schema: { type: object }
              example: { not: text }
  /when:
    get:
      operationId: getWhen
      responses:
        '200':
          description: Now
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Stamp' }
              example: { at: '2025-11-21T10:00:00.000Z' }
        '201':
          description: Then
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Stamp' }
              example: { at: '2024-01-01T00:00:00.000Z' }
  /word:
    get:
      operationId: getWord
      responses:
        '200':
          description: A word whose generated data keeps to its schema
          headers:
            X-Old: { deprecated: true, schema: { type: string }, example: old }
          content:
            application/json:
              schema: { type: object, required: [word], properties: { word: { type: string, pattern: '^[a-z]{16}$' } } }
              example: { word: abcdefghijklmnop }
  /choice:
    get:
      operationId: getChoice
      responses:
        '200':
          description: Chosen
          content:
            application/json:
              schema: { type: object }
              example: { chosen: true }
        '300':
          description: Choices
          content:
            application/json:
              schema: { type: object }
              example: { choices: [a, b] }
components:
  schemas:
    Stamp:
      type: object
      required: [at]
      properties:
        at: { type: string, format: date-time, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$' }
`;

const BEARER = "Authorization: Bearer t\r\n";
const JSON_BODY = "Content-Type: application/json\r\n";

/** The raw bytes of the answer to a request (its head lines after the request line, and a body), its Date line taken out. */
async function raw(url: string, request: string, headers = "", body?: string): Promise<string> {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const length = body === undefined ? "" : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  socket.write(`${request} HTTP/1.1\r\nHost: x\r\n${headers}${length}Connection: close\r\n\r\n${body ?? ""}`);
  await once(socket, "close");
  return Buffer.concat(chunks)
    .toString("latin1")
    .replace(/\r\nDate: [^\r]*/, "");
}

/** Stock Prism's answer with the `cors` deviation applied: every origin, never with credentials. */
const withoutCredentials = (answer: string) => answer.replace("Access-Control-Allow-Credentials: true\r\n", "");

interface Served {
  mock: PrismServer;
  url: string;
  stock: StockPrism;
}
const served: Record<"shop" | "quirks" | "odd", Served> = {} as never;
let oddPath = "";

beforeAll(async () => {
  const folder = mkdtempSync(join(repoRoot, ".tmp", "answer-contract-"));
  oddPath = join(folder, "openapi.yaml");
  writeFileSync(oddPath, ODD);
  for (const [name, path] of [
    ["shop", shop.bundlePath],
    ["quirks", QUIRKS],
    ["odd", oddPath],
  ] as const) {
    const mock = createPrismServer(await loadOperations(path));
    served[name] = { mock, url: await mock.listen(0, "127.0.0.1"), stock: await startStockPrism(path) };
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(served).flatMap(({ mock, stock }) => [mock.close(), stock.close()]));
});

type Kept = "fast" | "cache";
/** [document, request line, head lines, body, where the mock's second answer comes from, the status]. */
const CASES: Array<[keyof typeof served, string, string, string | undefined, Kept, number]> = [
  ["shop", "GET /v1/order/o-1", BEARER, undefined, "fast", 200],
  // A declared 401 without a body: kept, then written without one.
  ["shop", "GET /v1/order/o-1", "", undefined, "fast", 401],
  [
    "shop",
    "GET /v1/order/o-1",
    `${BEARER}Access-Control-Request-Headers: x-a\r\nAccess-Control-Expose-Headers: x-b\r\n`,
    undefined,
    "fast",
    200,
  ],
  ["shop", "GET /v1/order/o-1", `${BEARER}Access-Control-Expose-Headers: x-b\r\n`, undefined, "fast", 200],
  // Prism's own problems (Left): the 406 kept for its kind.
  ["shop", "GET /v1/order/o-1", `${BEARER}Accept: text/csv\r\n`, undefined, "fast", 406],
  // Requests that choose their answer: Prism's pipeline, then the response cache.
  ["shop", "GET /v1/order/o-1", `${BEARER}Prefer: code=abc\r\n`, undefined, "cache", 422],
  ["shop", "GET /v1/order/o-1", `${BEARER}Prefer: example=nope\r\n`, undefined, "cache", 404],
  ["shop", "GET /v1/order/o-1", `${BEARER}Prefer: code=401\r\n`, undefined, "cache", 401],
  [
    "shop",
    "POST /v1/order",
    `${BEARER}${JSON_BODY}Prefer: example=legacy\r\n`,
    '{"merchant_id":"m-1","amount":{"cur":"PHP","amt":"1.00"}}',
    "cache",
    200,
  ],
  // Declared 4xx without a body, the request's findings in sl-violations.
  ["shop", "POST /v1/order", `${BEARER}${JSON_BODY}`, "{}", "fast", 400],
  ["shop", "PUT /v1/order/o-1", `${BEARER}${JSON_BODY}`, "{}", "fast", 422],
  // No 4xx declared: Prism's 422 listing the findings, kept and listed per request.
  ["quirks", "POST /v1/batch", `${BEARER}${JSON_BODY}`, '{"items":[{}]}', "fast", 422],
  ["quirks", "POST /v1/batch", `${BEARER}${JSON_BODY}Access-Control-Expose-Headers: x-b\r\n`, '{"items":[{"id":1}]}', "fast", 422],
  // A body its Content-Type cannot carry: prism-http-server's 500, with the answer's headers and findings; never kept.
  ["odd", "GET /text", "", undefined, "fast", 500],
  ["odd", "GET /object-text", "", undefined, "fast", 500],
  // A deprecated parameter: Prism's warning of the request in sl-violations too.
  ["odd", "GET /text?legacy=1", "", undefined, "fast", 500],
];

describe("the mock's answers are stock Prism's, the first time and from where they are kept", () => {
  it("has the expected number of cases", () => expect(CASES).toHaveLength(16));

  it.each(CASES)("%s %s %j %j: from the %s, status %i", async (name, request, headers, body, kept, status) => {
    const { mock, url, stock } = served[name];
    const theirs = withoutCredentials(await raw(stock.url, request, headers, body));
    expect(theirs).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(await raw(url, request, headers, body)).toBe(theirs);
    const before = mock.stats();
    expect(await raw(url, request, headers, body)).toBe(theirs);
    const after = mock.stats();
    // A 500 is never kept: the second goes through Prism's pipeline again.
    const from = status >= 500 ? "prism" : kept;
    expect({ fast: after.fast - before.fast, cache: after.cache - before.cache, prism: after.prism - before.prism }).toEqual({
      fast: from === "fast" ? 1 : 0,
      cache: from === "cache" ? 1 : 0,
      prism: from === "prism" ? 1 : 0,
    });
  });
});

describe("what stock Prism cannot be asked", () => {
  /** Stock Prism's 406 to an Accept that matches nothing, with `accept` in its detail (and its length). */
  async function notAcceptable(accept: string): Promise<string> {
    const theirs = withoutCredentials(await raw(served.shop.stock.url, "GET /v1/order/o-1", `${BEARER}Accept: text/csv\r\n`));
    const end = theirs.indexOf("\r\n\r\n") + 4;
    const body = theirs.slice(end).replace("for text/csv", `for ${accept}`);
    return theirs.slice(0, end).replace(/Content-Length: \d+/, `Content-Length: ${Buffer.byteLength(body)}`) + body;
  }

  it.each(["nonsense", "undefined", "text/csv,nonsense", "text/csv;x", "text/csv; q="])(
    "malformedAccept: Accept %j is answered Prism's 406, also the second time",
    async (accept) => {
      const expected = await notAcceptable(accept);
      expect(expected).toContain(`"detail":"Unable to find content for ${accept}"`);
      // A request without Accept first: its answer is kept, and must not be taken for one with Accept "undefined".
      await raw(served.shop.url, "GET /v1/order/o-1", BEARER);
      for (let i = 0; i < 2; i++) expect(await raw(served.shop.url, "GET /v1/order/o-1", `${BEARER}Accept: ${accept}\r\n`)).toBe(expected);
    },
  );

  it("a generated answer (Prefer: dynamic=true) is never kept; a generated request's problem is Prism's", async () => {
    const { mock, url } = served.shop;
    const before = mock.stats();
    for (let i = 0; i < 2; i++) expect(await raw(url, "GET /v1/ping", "Prefer: dynamic=true\r\n")).toMatch(/^HTTP\/1.1 200 /);
    const after = mock.stats();
    expect([after.cache - before.cache, after.prism - before.prism]).toEqual([0, 2]);
    const theirs = withoutCredentials(
      await raw(served.shop.stock.url, "GET /v1/order/o-1", `${BEARER}Accept: text/csv\r\nPrefer: dynamic=true\r\n`),
    );
    expect(theirs).toMatch(/^HTTP\/1.1 406 /);
    expect(await raw(url, "GET /v1/order/o-1", `${BEARER}Accept: text/csv\r\nPrefer: dynamic=true\r\n`)).toBe(theirs);
  });
});

describe("dynamicFallback: a generated answer that breaks its schema", () => {
  it("only then: generated data that keeps to its schema is served (not the example), a warning of the answer (a deprecated header) or not", async () => {
    const answer = await raw(served.odd.url, "GET /word", "Prefer: dynamic=true\r\n");
    expect(answer).toMatch(/\r\nsl-violations: \[\{"location":\["response","header","X-Old"\],"severity":"Warning","code":"deprecated"/);
    const word = (JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { word: string }).word;
    expect(word).toMatch(/^[a-z]{16}$/);
    expect(word).not.toBe("abcdefghijklmnop");
  });

  it("is replaced by the static answer the request chose (Prefer code=201 and dynamic=true: stock Prism's answer to code=201)", async () => {
    const theirs = withoutCredentials(await raw(served.odd.stock.url, "GET /when", "Prefer: code=201\r\n"));
    expect(theirs).toMatch(/^HTTP\/1.1 201 [\s\S]*"2024-01-01T00:00:00.000Z"/);
    expect(await raw(served.odd.url, "GET /when", "Prefer: code=201, dynamic=true\r\n")).toBe(theirs);
  });
});

describe("the answer hook", () => {
  const asked: JudgedRequest[] = [];
  let reply: HookAnswer | undefined;
  let own: Violation[] = [];
  const hooks: MockHooks = {
    answer: (request) => {
      asked.push(request);
      return reply;
    },
    validateAnswer: () => own,
  };
  const hooked: Record<"shop" | "odd", string> = { shop: "", odd: "" };
  const servers: PrismServer[] = [];
  beforeAll(async () => {
    for (const [name, path] of [
      ["shop", shop.bundlePath],
      ["odd", oddPath],
    ] as const) {
      const server = createPrismServer(await loadOperations(path), { hooks });
      servers.push(server);
      hooked[name] = await server.listen(0, "127.0.0.1");
    }
  });
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  const UNKNOWN = '{"status":"PAID","extra":1}';
  const KEY = "Idempotency-Key: 3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b\r\n";
  /** [document, request line, head lines, body, the operation's path]: 2xx answers, with and without findings of the request and of the answer. */
  const TWO_XX: Array<["shop" | "odd", string, string, string | undefined, string]> = [
    ["shop", "GET /v1/order/o-1", BEARER, undefined, "/v1/order/{order_id}"],
    ["shop", "PUT /v1/order/o-1", `${BEARER}${JSON_BODY}${KEY}`, UNKNOWN, "/v1/order/{order_id}"],
    // Chooses its answer: Prism's pipeline, the operation from the router.
    [
      "shop",
      "POST /v1/order",
      `${BEARER}${JSON_BODY}Prefer: example=legacy\r\n`,
      '{"merchant_id":"m-1","amount":{"cur":"PHP","amt":"1.00"}}',
      "/v1/order",
    ],
    // A warning of the answer (a deprecated header).
    ["odd", "GET /word", "", undefined, "/word"],
  ];

  it.each(TWO_XX)(
    "%s %s %j: kept (undefined), the answer without a hook's, the operation handed to the hook",
    async (name, request, headers, body, path) => {
      reply = undefined;
      asked.length = 0;
      const plain = await raw(served[name].url, request, headers, body);
      expect(plain).toMatch(/^HTTP\/1.1 200 /);
      expect(await raw(hooked[name], request, headers, body)).toBe(plain);
      expect(await raw(hooked[name], request, headers, body)).toBe(plain);
      expect(asked.map((a) => a.operation.path)).toEqual([path, path]);
    },
  );

  const CORS = "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: *\r\nAccess-Control-Expose-Headers: *\r\n";
  it("replaced: the hook's status and JSON body, after the CORS headers", async () => {
    reply = { status: 201, body: { id: "o-9", name: "Zoë" } };
    own = [];
    const text = '{"id":"o-9","name":"Zoë"}';
    expect(await raw(hooked.shop, "GET /v1/order/o-1", BEARER)).toBe(
      `HTTP/1.1 201 Created\r\n${CORS}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${Buffer.from(text).toString("latin1")}`,
    );
  });

  it("replaced with headers: Content-Type application/json first unless given, then the hook's; no body, no Content-Type", async () => {
    own = [];
    reply = { status: 200, headers: { "X-A": "1" }, body: { a: 1 } };
    expect(await raw(hooked.shop, "GET /v1/order/o-1", BEARER)).toBe(
      `HTTP/1.1 200 OK\r\n${CORS}Content-Type: application/json\r\nX-A: 1\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}`,
    );
    reply = { status: 200, headers: { "content-type": "text/plain" }, body: "hi" };
    expect(await raw(hooked.shop, "GET /v1/order/o-1", BEARER)).toBe(
      `HTTP/1.1 200 OK\r\n${CORS}content-type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`,
    );
    reply = { status: 200, headers: { "X-A": "1" } };
    expect(await raw(hooked.shop, "GET /v1/order/o-1", BEARER)).toBe(
      `HTTP/1.1 200 OK\r\n${CORS}X-A: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });

  it("replaced: the request's findings and the hook's own violations in sl-violations; none without either", async () => {
    reply = { status: 200, body: {} };
    const mine: Violation = {
      location: ["response", "body"],
      severity: "Error",
      code: "required",
      message: "must have required property 'id'",
    };
    own = [mine];
    const both = await raw(hooked.shop, "PUT /v1/order/o-1", `${BEARER}${JSON_BODY}${KEY}`, UNKNOWN);
    const listed = JSON.parse(/\r\nsl-violations: ([^\r]*)/.exec(both)![1]) as Violation[];
    expect(listed.map((v) => v.location[0])).toEqual(["request", "response"]);
    expect(listed[0]).toMatchObject({ severity: "Warning", code: "unknown-member" });
    expect(listed[1]).toEqual(mine);
    expect(await raw(hooked.shop, "GET /v1/order/o-1", BEARER)).toMatch(/\r\nsl-violations: \[\{"location":\["response","body"\]/);
    own = [];
    const request = await raw(hooked.shop, "PUT /v1/order/o-1", `${BEARER}${JSON_BODY}${KEY}`, UNKNOWN);
    expect(JSON.parse(/\r\nsl-violations: ([^\r]*)/.exec(request)![1])).toHaveLength(1);
    expect(await raw(hooked.shop, "GET /v1/order/o-1", BEARER)).not.toContain("sl-violations");
    own = [];
  });

  it("a hook without validateAnswer: the request's findings alone in sl-violations", async () => {
    const server = createPrismServer(await loadOperations(shop.bundlePath), { hooks: { answer: () => ({ status: 200, body: {} }) } });
    try {
      const url = await server.listen(0, "127.0.0.1");
      const found = await raw(url, "PUT /v1/order/o-1", `${BEARER}${JSON_BODY}${KEY}`, UNKNOWN);
      const listed = JSON.parse(/\r\nsl-violations: ([^\r]*)/.exec(found)![1]) as Violation[];
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ location: ["request", "body", "extra"], severity: "Warning", code: "unknown-member" });
      expect(await raw(url, "GET /v1/order/o-1", BEARER)).toBe(
        `HTTP/1.1 200 OK\r\n${CORS}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    } finally {
      await server.close();
    }
  });

  it("never asked for an answer outside 2xx (a 401, a 300): Prism's is sent", async () => {
    reply = { status: 200, body: { replaced: true } };
    asked.length = 0;
    expect(await raw(hooked.shop, "GET /v1/order/o-1", `${BEARER}Prefer: code=401\r\n`)).toBe(
      await raw(served.shop.url, "GET /v1/order/o-1", `${BEARER}Prefer: code=401\r\n`),
    );
    const choices = await raw(hooked.odd, "GET /choice", "Prefer: code=300\r\n");
    expect(choices).toMatch(/^HTTP\/1.1 300 /);
    expect(choices).toBe(withoutCredentials(await raw(served.odd.stock.url, "GET /choice", "Prefer: code=300\r\n")));
    expect(asked).toEqual([]);
  });
});
