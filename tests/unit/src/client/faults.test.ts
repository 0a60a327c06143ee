/**
 * The generated clients under faults: every registered API's client (its versioned factory, its
 * first operation with the spec example) against a local node:http server that misbehaves on
 * purpose. Each call must resolve, never reject, to a typed result: `fault` an ApiError whose kind
 * names what went wrong (network, timeout, aborted, invalid-body), or openapi-fetch's own result
 * for an HTTP answer (a 500 with an empty or an HTML body); `unwrap` throws the matching ApiError;
 * and no promise rejection is left unhandled. A body over `maxResponseBytes` (declared, or growing
 * without a length) is the fault too-large, and the client stops reading it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pathToFileURL } from "node:url";
import { ApiError, createApiClient, DEFAULT_MAX_RESPONSE_BYTES, unwrap } from "../../../../src/client/index.js";
import { type Json, jsonRequest, operations } from "../../../../src/document/index.js";
import { requestParams, TEST_API_KEY, TEST_TOKEN } from "../../../../src/testing/requests.js";
import { type AnyClient, bundled, createTestClient } from "../../../helpers/registry.js";

type Mode = (request: IncomingMessage, response: ServerResponse) => void;
let mode: Mode = (_, response) => response.end();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    mode(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  // Let any stray rejection surface before looking: Node reports one after the microtasks of the turn
  // it happened in, so two further turns of the event loop are enough.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled, "unhandled rejections").toEqual([]);
});

interface Call {
  alias: string;
  method: string;
  path: string;
  run: (client: AnyClient, init?: Record<string, unknown>) => ReturnType<AnyClient[string]>;
}

/** Each API's first operation, called the way the contract tests call it (spec example, parameters). */
const calls: Call[] = bundled.map((api) => {
  const op = operations(api.doc)[0];
  const example: Json = jsonRequest(api.doc, op)?.examples[0]?.value;
  const params = requestParams(api.doc, op);
  return {
    alias: api.entry.alias,
    method: op.method.toUpperCase(),
    path: op.path,
    run: (client, init = {}) =>
      // One attempt: these cases are about what a single answer gives (retry.test.ts covers retries).
      client[op.method.toUpperCase()](op.path, { params, ...(example === undefined ? {} : { body: example }), retry: false, ...init }),
  };
});

const clients = new Map<string, AnyClient>();
async function clientFor(call: Call): Promise<AnyClient> {
  let client = clients.get(call.alias);
  if (!client)
    clients.set(call.alias, (client = await createTestClient(bundled.find((a) => a.entry.alias === call.alias)!.entry, baseUrl)));
  return client;
}

type Result = Awaited<ReturnType<AnyClient[string]>> & { fault?: ApiError };

async function expectFault(call: Call, result: Result, kind: ApiError["kind"], status: number) {
  expect(
    result.fault,
    `${call.alias}: expected a ${kind} fault, got ${JSON.stringify({ data: result.data, error: result.error })}`,
  ).toBeInstanceOf(ApiError);
  const fault = result.fault!;
  expect(fault).toMatchObject({ kind, status, method: call.method, path: call.path, body: undefined });
  expect(result.data).toBeUndefined();
  expect(result.error).toBeUndefined();
  expect(result.response.status).toBe(status);
  expect(fault.message).toContain(`${call.method} ${call.path}`);
  expect(() => unwrap(result)).toThrow(fault);
  return fault;
}

describe.each(calls.map((c) => [c.alias, c] as const))("%s client", (_, call) => {
  it("a 2xx whose body is not JSON -> fault invalid-body, with the real response", async () => {
    mode = (_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("<html>not json</html>");
    };
    const result = (await call.run(await clientFor(call))) as Result;
    const fault = await expectFault(call, result, "invalid-body", 200);
    expect(fault.cause).toBeInstanceOf(SyntaxError);
    expect(fault.message).toMatch(/not valid JSON/);
  });

  it("a 500 with an HTML body -> the text as error, and unwrap throws ApiError 500", async () => {
    mode = (_, response) => {
      response.writeHead(500, { "content-type": "text/html" });
      response.end("<h1>boom</h1>");
    };
    const result = (await call.run(await clientFor(call))) as Result;
    expect(result.fault).toBeUndefined();
    expect(result.response.status).toBe(500);
    expect(result.error).toBe("<h1>boom</h1>");
    expect(() => unwrap(result)).toThrow(
      expect.objectContaining({ kind: "http", status: 500, body: "<h1>boom</h1>", method: call.method, path: call.path }),
    );
  });

  it.each([
    ["with Content-Length: 0", { "content-length": "0" }],
    ["chunked, no length", {}],
  ])("a 500 with an empty body (%s) -> error an ApiError 500, which unwrap throws", async (_, headers) => {
    mode = (_, response) => {
      response.writeHead(500, headers);
      response.end();
    };
    const result = (await call.run(await clientFor(call))) as Result;
    expect(result.fault).toBeUndefined();
    expect(result.response.status).toBe(500);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ kind: "http", status: 500, body: undefined, method: call.method, path: call.path });
    expect(() => unwrap(result)).toThrow(result.error as ApiError);
  });

  it("a connection reset before any answer -> fault network, status 0", async () => {
    mode = (request) => request.socket.destroy();
    const result = (await call.run(await clientFor(call))) as Result;
    const fault = await expectFault(call, result, "network", 0);
    expect(result.response.type).toBe("error");
    expect(fault.cause).toBeInstanceOf(TypeError);
  });

  it("a connection reset in the middle of the body -> fault network, with the real response", async () => {
    mode = (request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      // Closed once the partial body has been handed to the network: no timer.
      response.write('{"partial": ', () => request.socket.destroy());
    };
    const result = (await call.run(await clientFor(call))) as Result;
    await expectFault(call, result, "network", 200);
  });

  /** A signal that times out (a TimeoutError, as AbortSignal.timeout gives) when `trigger` is called, not after a delay. */
  const timeoutSignal = () => {
    const controller = new AbortController();
    return {
      signal: controller.signal,
      fire: () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
    };
  };

  it("no answer before the signal times out -> fault timeout", async () => {
    const timeout = timeoutSignal();
    mode = () => timeout.fire(); // the request arrived; it is never answered
    const result = (await call.run(await clientFor(call), { signal: timeout.signal })) as Result;
    await expectFault(call, result, "timeout", 0);
  });

  it("headers, then a body that stalls until the signal times out -> fault timeout, with the real response", async () => {
    mode = (_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
    };
    const timeout = timeoutSignal();
    // The signal fires once the client holds the answer's headers: the body is what times out.
    const fetchThenTimeout = async (request: Request) => {
      const response = await fetch(request);
      timeout.fire();
      return response;
    };
    const result = (await call.run(await clientFor(call), { signal: timeout.signal, fetch: fetchThenTimeout })) as Result;
    await expectFault(call, result, "timeout", 200);
  });

  it("the caller aborting -> fault aborted", async () => {
    const controller = new AbortController();
    mode = () => controller.abort(); // aborted once the request has arrived
    const result = (await call.run(await clientFor(call), { signal: controller.signal })) as Result;
    await expectFault(call, result, "aborted", 0);
  });

  it("nothing listening -> fault network naming ECONNREFUSED", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = await createTestClient(bundled.find((a) => a.entry.alias === call.alias)!.entry, `http://127.0.0.1:${port}`);
    const result = (await call.run(client)) as Result;
    const fault = await expectFault(call, result, "network", 0);
    expect(fault.message).toContain("ECONNREFUSED");
  });

  it("an injected fetch that throws -> fault network", async () => {
    const entry = bundled.find((a) => a.entry.alias === call.alias)!.entry;
    const failing = async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
    };
    const client = await createTestClient(entry, baseUrl);
    const result = (await call.run(client, { fetch: failing })) as Result;
    const fault = await expectFault(call, result, "network", 0);
    expect(fault.message).toContain("ECONNRESET");
  });
});

/** The API's generated client (its versioned factory) with extra options. */
async function clientWith(alias: string, extra: Record<string, unknown>): Promise<AnyClient> {
  const entry = bundled.find((a) => a.entry.alias === alias)!.entry;
  const module = (await import(pathToFileURL(entry.clientPath).href)) as Record<string, unknown>;
  const suffix = `V${entry.release.replace(/\./g, "")}Client`;
  const factory = Object.keys(module).find((name) => name.startsWith("create") && name.endsWith(suffix))!;
  const auth = module.auth as { option: "accessToken" | "apiKey" };
  const credential = auth.option === "accessToken" ? { accessToken: TEST_TOKEN } : { apiKey: TEST_API_KEY };
  return (module[factory] as (options: object) => AnyClient)({ baseUrl, ...credential, ...extra });
}

/** Answers with a body that never ends (chunked, no length), 64 KiB at a time as fast as the client reads; resolves with the bytes written once the client closed the connection. */
function endlessBody(): Promise<number> {
  return new Promise((resolveWritten) => {
    mode = (_, response) => {
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      response.writeHead(200, { "content-type": "application/json" });
      response.write("[");
      written++;
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length;
        if (!response.destroyed) written += chunk.length;
      };
      response.on("drain", pump);
      response.once("close", () => resolveWritten(written));
      pump();
    };
  });
}

describe.each(calls.map((c) => [c.alias, c] as const))("%s client, response body bound", (_, call) => {
  const limit = 4096;

  it("a Content-Length over maxResponseBytes -> fault too-large, with the real response, the body not read", async () => {
    let closed!: Promise<void>;
    mode = (_, response) => {
      closed = new Promise((resolve) => response.once("close", () => resolve()));
      response.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) });
      response.write(`"${" ".repeat(1024)}`);
    };
    const result = (await call.run(await clientWith(call.alias, { maxResponseBytes: limit }))) as Result;
    const fault = await expectFault(call, result, "too-large", 200);
    expect(fault.message).toContain(`exceeds ${limit} bytes`);
    await closed; // the client let go of the connection instead of reading 10 MiB
  });

  it("a body without a length growing past maxResponseBytes -> fault too-large; the client closes the connection", async () => {
    const written = endlessBody();
    const result = (await call.run(await clientWith(call.alias, { maxResponseBytes: limit }))) as Result;
    await expectFault(call, result, "too-large", 200);
    expect(await written).toBeGreaterThan(limit);
  });

  it("a body within maxResponseBytes is read as usual", async () => {
    mode = (_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ small: "x".repeat(100) }));
    };
    const result = (await call.run(await clientWith(call.alias, { maxResponseBytes: limit }))) as Result;
    expect(result.fault).toBeUndefined();
    expect(result.data).toEqual({ small: "x".repeat(100) });
  });
});

describe("the default response body bound", () => {
  it(`cuts a never-ending body off past ${DEFAULT_MAX_RESPONSE_BYTES} bytes: fault too-large`, async () => {
    const [call] = calls;
    const written = endlessBody();
    const result = (await call.run(await clientFor(call))) as Result;
    await expectFault(call, result, "too-large", 200);
    const bytes = await written;
    expect(bytes).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES);
    expect(bytes).toBeLessThan(DEFAULT_MAX_RESPONSE_BYTES * 2); // what sat in the socket buffers, not the whole stream
  });

  it("rejects a maxResponseBytes that is not a non-negative integer, naming the option", async () => {
    for (const bad of [-1, 1.5, "10"]) {
      await expect(clientWith(calls[0].alias, { maxResponseBytes: bad })).rejects.toThrow(
        /option "maxResponseBytes" must be a non-negative integer/,
      );
    }
  });
});

describe("errors before the request goes out", () => {
  it("a credential function that throws rejects the call with its own error (the caller's to fix, not a fault)", async () => {
    const client = createApiClient<{ "/x": { get: { responses: {} } } }>(
      {
        name: "createTestClient",
        servers: [],
        auth: { kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" },
      },
      {
        baseUrl,
        accessToken: () => {
          throw new Error("token store unavailable");
        },
      },
    );
    let requests = 0;
    mode = (_, response) => {
      requests++;
      response.end();
    };
    await expect(client.GET("/x" as never)).rejects.toThrow("token store unavailable");
    expect(requests).toBe(0);
  });
});
