/**
 * The validating proxy under hostile and unlucky upstreams, on every API (its first operation with
 * a JSON example, and its credential header): a 3xx is passed back, never followed, so the
 * credential never reaches the redirect's target; any status (501 included) comes back as the
 * upstream sent it; request bytes go upstream as received (big integers, duplicate keys, a chunked
 * body re-framed with one Content-Length), hop-by-hop headers dropped both ways; a non-JSON 200 is
 * passed through with its violation reported; a stall is a 504 and a broken answer a 502, each
 * reported; bodies are bounded both ways; the upstream URL's userinfo is never shown (nor printed
 * by the CLI: tests/unit/src/cli/proxy.spawn.test.ts). Real local servers on port 0; the client side
 * speaks raw node:http so that framing and headers are exact.
 */
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
  createServer,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ProxyExchange, type ProxyServer, startProxy } from "../../../../src/proxy/index.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../../src/testing/requests.js";
import { named } from "../../../helpers/registry.js";
import { type ContractCase, contractCases } from "../cli/cases.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

interface Upstream {
  url: string;
  port: number;
  server: Server;
  received: Received[];
  /** How the upstream answers; receives the request once its body is read. */
  handle: (request: Received, response: ServerResponse, incoming: IncomingMessage) => void;
  close(): Promise<void>;
}

async function upstream(): Promise<Upstream> {
  const up = { received: [] as Received[] } as unknown as Upstream;
  up.handle = (_, response) => response.end();
  up.server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const received = {
        method: incoming.method!,
        url: incoming.url!,
        headers: incoming.headers,
        rawHeaders: incoming.rawHeaders,
        body: Buffer.concat(chunks),
      };
      up.received.push(received);
      up.handle(received, response, incoming);
    });
  });
  await new Promise<void>((resolve) => up.server.listen(0, "127.0.0.1", resolve));
  up.port = (up.server.address() as AddressInfo).port;
  up.url = `http://127.0.0.1:${up.port}`;
  up.close = async () => {
    up.server.closeAllConnections();
    await new Promise((resolve) => up.server.close(resolve));
  };
  return up;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** One raw request through the proxy: the path, headers (a flat raw list, so that duplicates and hop-by-hop headers go as written) and body are sent exactly. */
function send(
  base: string,
  options: { method?: string; path: string; headers?: string[]; body?: Buffer | string; chunked?: boolean },
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  // A raw header list gets no Host from Node: add it, as any client does.
  const headers = ["Host", `${hostname}:${port}`, ...(options.headers ?? [])];
  if (body && !options.chunked) headers.push("Content-Length", String(body.length));
  if (options.chunked) headers.push("Transfer-Encoding", "chunked");
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method: options.method ?? "GET", path: options.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body && options.chunked) {
      // Two chunks, so that the proxy really receives a chunked body.
      req.write(body.subarray(0, Math.floor(body.length / 2)));
      req.end(body.subarray(Math.floor(body.length / 2)));
    } else req.end(body);
  });
}

const flat = (headers: Record<string, string>) => Object.entries(headers).flat();
/** The case's operation: its path with parameters, and its credential headers. */
const target = (c: ContractCase) => ({
  path: requestUrl(c.op, requestParams(c.api.doc, c.op)),
  credentials: credentialHeaders(c.api.doc, c.op),
});

const SECRET = "s3cr3t-pw-7431";
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "upgrade",
  "x-named-in-connection",
];

it("runs on every API that has an operation with a JSON example", () => {
  expect(contractCases.length).toBeGreaterThanOrEqual(7);
  expect(new Set(contractCases.map((c) => c.alias)).size).toBe(contractCases.length);
});

/**
 * The proxy's time limit in these tests: long enough that no exchange of a busy machine reaches it
 * in real time (the 504 tests pass it on the fake clock, pastTimeout).
 */
const TIMEOUT_MS = 10_000;

/**
 * Runs `exchange` with the proxy's clock faked: once `stalled()` (the upstream holds the request or
 * has sent part of its answer), timeoutMs passes at once rather than in real time.
 */
async function pastTimeout<T>(exchange: () => Promise<T>, stalled: () => boolean): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    const answer = exchange();
    await vi.waitFor(() => expect(stalled(), "the upstream to hold the request").toBe(true));
    vi.advanceTimersByTime(TIMEOUT_MS);
    return await answer;
  } finally {
    vi.useRealTimers();
  }
}

describe.each(named(contractCases))("proxy %s", (_, c) => {
  let up: Upstream;
  let elsewhere: Upstream;
  let proxy: ProxyServer;
  const exchanges: ProxyExchange[] = [];
  const { path, credentials } = target(c);
  beforeAll(async () => {
    [up, elsewhere] = await Promise.all([upstream(), upstream()]);
    proxy = await startProxy(c.alias, {
      upstream: up.url,
      port: 0,
      timeoutMs: TIMEOUT_MS,
      maxBodyBytes: 64 * 1024,
      onExchange: (e) => exchanges.push(e),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await Promise.all([up.close(), elsewhere.close()]);
  });
  const reset = () => {
    exchanges.length = 0;
    up.received.length = 0;
    elsewhere.received.length = 0;
  };

  it.each([301, 302, 303, 307, 308])("passes a %i back and never follows it: the credential never reaches its target", async (status) => {
    reset();
    for (const location of [`${elsewhere.url}/steal`, `http://localhost:${elsewhere.port}/steal`]) {
      up.handle = (_, response) => {
        response.writeHead(status, { location, "content-type": "application/json" });
        response.end('{"moved":true}');
      };
      const answer = await send(proxy.url, { method: c.op.method.toUpperCase(), path, headers: flat(credentials) });
      expect(answer.status).toBe(status);
      expect(answer.headers.location).toBe(location);
      expect(answer.body.toString()).toBe('{"moved":true}');
    }
    expect(elsewhere.received).toEqual([]);
    expect(up.received).toHaveLength(2);
    for (const [name, value] of Object.entries(credentials)) expect(up.received[0].headers[name]).toBe(value);
  });

  it("passes an upstream 501 back as it is, never the spec's example", async () => {
    reset();
    up.handle = (_, response) => {
      response.writeHead(501, "Not Implemented Here", { "content-type": "text/plain" });
      response.end("upstream says 501");
    };
    const answer = await send(proxy.url, { method: c.op.method.toUpperCase(), path, headers: flat(credentials) });
    expect(answer.status).toBe(501);
    expect(answer.body.toString()).toBe("upstream says 501");
    expect(exchanges).toEqual([expect.objectContaining({ status: 501 })]);
    expect(exchanges[0].error).toBeUndefined();
  });

  it("forwards the request bytes as received: big integers and duplicate keys intact, with its own Content-Length", async () => {
    reset();
    up.handle = (_, response) => response.end();
    const body = '{ "amount": 123456789012345678901234567890, "dup": 1, "dup": 2, "f": 1.10 }\n';
    await send(proxy.url, { method: "POST", path, headers: ["Content-Type", "application/json", ...flat(credentials)], body });
    expect(up.received[0].body.toString()).toBe(body);
    expect(up.received[0].headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(up.received[0].headers["transfer-encoding"]).toBeUndefined();
  });

  it("re-frames a chunked request with one Content-Length, never both, and drops hop-by-hop headers", async () => {
    reset();
    up.handle = (_, response) => response.end();
    const body = JSON.stringify({ n: 98765432109876543210n.toString(), pad: "x".repeat(3000) });
    await send(proxy.url, {
      method: "POST",
      path,
      chunked: true,
      body,
      headers: [
        "Content-Type",
        "application/json",
        ...flat(credentials),
        "Connection",
        "keep-alive, X-Named-In-Connection",
        "Keep-Alive",
        "timeout=5",
        "Proxy-Authorization",
        `Basic ${SECRET}`,
        "TE",
        "trailers",
        "Trailer",
        "X-Checksum",
        "X-Named-In-Connection",
        "drop me",
        "X-End-To-End",
        "keep me",
      ],
    });
    const [received] = up.received;
    expect(received.body.toString()).toBe(body);
    expect(received.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(received.headers["transfer-encoding"]).toBeUndefined();
    const names = received.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    for (const name of HOP_BY_HOP.filter((n) => n !== "connection")) expect(names, name).not.toContain(name);
    expect(received.headers.connection ?? "keep-alive").not.toMatch(/x-named-in-connection/i);
    expect(received.headers["x-end-to-end"]).toBe("keep me");
    for (const [name, value] of Object.entries(credentials)) expect(received.headers[name]).toBe(value);
    expect(received.headers.host).toBe(`127.0.0.1:${up.port}`);
  });

  it("passes the response bytes back as sent, without the upstream's hop-by-hop headers", async () => {
    reset();
    const body = `{"big": 123456789012345678901234567890, "same": 1, "same": 2}`;
    up.handle = (_, response) => {
      response.writeHead(c.status, [
        "Content-Type",
        "application/json",
        "Connection",
        "X-Named-In-Connection",
        "X-Named-In-Connection",
        "drop me",
        "Keep-Alive",
        "timeout=5",
        "Upgrade",
        "h2c",
        "Proxy-Authenticate",
        "Basic",
        "Trailer",
        "X-Checksum",
        "X-End-To-End",
        "keep me",
      ]);
      response.end(body);
    };
    const answer = await send(proxy.url, { method: c.op.method.toUpperCase(), path, headers: flat(credentials) });
    expect(answer.status).toBe(c.status);
    expect(answer.body.toString()).toBe(body);
    const names = answer.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    for (const name of HOP_BY_HOP.filter((n) => n !== "connection")) expect(names, name).not.toContain(name);
    expect(answer.headers["x-end-to-end"]).toBe("keep me");
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
  });

  it.each([
    ["text/html", "<html><body>maintenance</body></html>"],
    ["application/json", '{"truncated": '],
  ])("passes a %s 200 that is not the JSON the spec declares through, reporting it, not a 500", async (type, body) => {
    reset();
    up.handle = (_, response) => {
      response.writeHead(c.status, { "content-type": type });
      response.end(body);
    };
    const answer = await send(proxy.url, { method: c.op.method.toUpperCase(), path, headers: flat(credentials) });
    expect(answer.status).toBe(c.status);
    expect(answer.body.toString()).toBe(body);
    expect(answer.headers["content-type"]).toBe(type);
    const header = JSON.parse(String(answer.headers["sl-violations"]));
    expect(header).toEqual(expect.arrayContaining([expect.objectContaining({ location: expect.arrayContaining(["response"]) })]));
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ status: c.status });
    expect(exchanges[0].error).toBeUndefined();
    expect(exchanges[0].violations.some((v) => v.location[0] === "response")).toBe(true);
  });

  it("answers 504 when the upstream does not answer within timeoutMs, and reports it", async () => {
    reset();
    up.handle = () => undefined; // never answers
    const answer = await pastTimeout(
      () => send(proxy.url, { path, headers: flat(credentials) }),
      () => up.received.length > 0,
    );
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body.toString()).error).toBe(
      `${c.alias} proxy: the upstream did not answer within ${TIMEOUT_MS} ms (timeoutMs)`,
    );
    expect(exchanges).toEqual([
      expect.objectContaining({ status: 504, error: `the upstream did not answer within ${TIMEOUT_MS} ms (timeoutMs)` }),
    ]);
  });

  it("answers 504 when the upstream sends part of a body and stalls", async () => {
    reset();
    let sent = false;
    up.handle = (_, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"partial": ', () => (sent = true));
    };
    const answer = await pastTimeout(
      () => send(proxy.url, { path, headers: flat(credentials) }),
      () => sent,
    );
    expect(answer.status).toBe(504);
    expect(exchanges[0]).toMatchObject({ status: 504 });
  });

  it("answers 502 when the upstream sends part of a body and resets the connection", async () => {
    reset();
    up.handle = (_, response, incoming) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"partial": ', () => incoming.socket.destroy());
    };
    const answer = await send(proxy.url, { path, headers: flat(credentials) });
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body.toString()).error).toMatch(/upstream/);
    expect(exchanges).toEqual([expect.objectContaining({ status: 502, error: expect.any(String) })]);
  });

  it("answers 502 to an upstream body over maxBodyBytes, declared or growing, and lets go of it", async () => {
    reset();
    up.handle = (_, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) });
      response.write(" ".repeat(1024));
    };
    const declared = await send(proxy.url, { path, headers: flat(credentials) });
    expect(declared.status).toBe(502);
    expect(JSON.parse(declared.body.toString()).error).toMatch(/exceeds 65536 bytes/);

    let closed!: Promise<number>;
    up.handle = (_, response) => {
      let written = 0;
      closed = new Promise((resolve) => response.once("close", () => resolve(written)));
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length;
      };
      response.on("drain", pump);
      pump();
    };
    const growing = await send(proxy.url, { path, headers: flat(credentials) });
    expect(growing.status).toBe(502);
    expect(await closed).toBeLessThan(64 * 1024 * 32); // stopped reading, not the whole stream
    expect(exchanges.map((e) => e.status)).toEqual([502, 502]);
  });

  it("answers 413 to a request body over maxBodyBytes, and forwards nothing", async () => {
    reset();
    const answer = await send(proxy.url, {
      method: "POST",
      path,
      headers: flat(credentials),
      body: "x".repeat(64 * 1024 + 1),
      chunked: true,
    });
    expect(answer.status).toBe(413);
    expect(up.received).toEqual([]);
  });
});

describe("an upstream URL with userinfo", () => {
  const [c] = contractCases;
  let up: Upstream;
  beforeAll(async () => {
    up = await upstream();
  });
  afterAll(() => up.close());

  it("is never shown: not in the proxy's upstream, a 502 body, a reported error, nor a bad-URL error", async () => {
    const refused = await upstream();
    const port = refused.port;
    await refused.close();
    const exchanges: ProxyExchange[] = [];
    const proxy = await startProxy(c.alias, {
      upstream: `http://user:${SECRET}@127.0.0.1:${port}/base`,
      port: 0,
      onExchange: (e) => exchanges.push(e),
    });
    try {
      expect(proxy.upstream).toBe(`http://127.0.0.1:${port}/base`);
      const answer = await send(proxy.url, { path: target(c).path });
      expect(answer.status).toBe(502);
      expect(answer.body.toString()).not.toContain(SECRET);
      expect(answer.body.toString()).not.toContain("user:");
      expect(exchanges[0].error).toBeDefined();
      expect(JSON.stringify(exchanges)).not.toContain(SECRET);
    } finally {
      await proxy.close();
    }
    for (const bad of [`ftp://user:${SECRET}@example.test/`, `http://user:${SECRET}@exa mple.test/`]) {
      const error = await startProxy(c.alias, { upstream: bad, port: 0 }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error, bad).toBeInstanceOf(Error);
      expect(error!.message, bad).not.toContain(SECRET);
    }
  });

  it("sends the userinfo upstream as Basic credentials when the request has no Authorization of its own", async () => {
    const proxy = await startProxy(c.alias, { upstream: `http://user:${SECRET}@127.0.0.1:${up.port}`, port: 0 });
    try {
      up.handle = (_, response) => response.end();
      up.received.length = 0;
      await send(proxy.url, { path: target(c).path });
      await send(proxy.url, { path: target(c).path, headers: ["Authorization", "Bearer own-token"] });
      expect(up.received.map((r) => r.headers.authorization)).toEqual([
        `Basic ${Buffer.from(`user:${SECRET}`).toString("base64")}`,
        "Bearer own-token",
      ]);
    } finally {
      await proxy.close();
    }
  });
});

describe("options", () => {
  it("rejects a timeoutMs or maxBodyBytes that is not a positive integer, naming it", async () => {
    const [c] = contractCases;
    for (const [name, value] of [
      ["timeoutMs", 0],
      ["timeoutMs", 1.5],
      ["maxBodyBytes", -1],
    ] as const) {
      await expect(startProxy(c.alias, { upstream: "http://127.0.0.1:9", port: 0, [name]: value })).rejects.toThrow(
        new RegExp(`${name} must be a positive integer`),
      );
    }
  });
});
