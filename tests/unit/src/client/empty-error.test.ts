/**
 * Every non-2xx answer gives a defined `error` (src/client/factory.ts): the body the server sent,
 * untouched, or, when there is no body, an ApiError (kind `http`, the status, the operation, `body`
 * undefined), so that `if (error)` never reads an error as a success. A 2xx without a body stays a
 * success (`data` and `error` undefined).
 */
import { createServer, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createApiClient, unwrap } from "../../../../src/client/index.js";

interface paths {
  "/things/{id}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": { id: string } } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": { code: string } } };
      };
    };
    head: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      responses: { 200: { headers: { [name: string]: unknown }; content?: never } };
    };
  };
}

let answer: { status: number; headers: OutgoingHttpHeaders; body?: string } = { status: 200, headers: {} };
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let client: ReturnType<typeof createApiClient<paths>>;
beforeAll(() => {
  client = createApiClient<paths>({ name: "createThingsClient", servers: [], auth: { kind: "none" } }, { baseUrl, retry: false });
});
const get = () => client.GET("/things/{id}", { params: { path: { id: "t1" } } });

describe("a non-2xx answer without a body", () => {
  it.each([
    [404, "Content-Length: 0", { "content-length": "0" }],
    [404, "chunked, no length", {}],
    [401, "Content-Length: 0", { "content-length": "0" }],
    [500, "Content-Length: 0", { "content-length": "0" }],
    [503, "chunked, no length", {}],
  ] as const)("%i (%s) -> error is an ApiError naming the status and the operation", async (status, _, headers) => {
    answer = { status, headers };
    const result = await get();
    expect(result.fault).toBeUndefined();
    expect(result.data).toBeUndefined();
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ kind: "http", status, method: "GET", path: "/things/{id}", body: undefined });
    expect((result.error as ApiError).message).toMatch(new RegExp(`^GET /things/\\{id\\} responded ${status}`));
    expect(result.response.status).toBe(status);
    expect(() => unwrap(result)).toThrow(result.error as ApiError);
  });

  it("a HEAD answered 404 -> error is an ApiError", async () => {
    answer = { status: 404, headers: { "content-length": "0" } };
    const result = await client.HEAD("/things/{id}", { params: { path: { id: "t1" } } });
    expect(result.error).toMatchObject({ kind: "http", status: 404, method: "HEAD" });
  });
});

describe("a non-2xx answer with a body keeps it as error", () => {
  it("a 404 with the declared JSON body -> that body, untouched", async () => {
    answer = { status: 404, headers: { "content-type": "application/json" }, body: '{"code":"NOT_FOUND"}' };
    const result = await get();
    expect(result.error).toEqual({ code: "NOT_FOUND" });
    expect(() => unwrap(result)).toThrow(expect.objectContaining({ kind: "http", status: 404, body: { code: "NOT_FOUND" } }));
  });
});

describe("a 2xx without a body stays a success", () => {
  it.each([
    [200, "Content-Length: 0", { "content-length": "0" }],
    [200, "chunked, no length", {}],
    [202, "Content-Length: 0", { "content-length": "0" }],
    [204, "no content", {}],
  ] as const)("%i (%s) -> data and error undefined; unwrap returns undefined", async (status, _, headers) => {
    answer = { status, headers };
    const result = await get();
    expect(result.fault).toBeUndefined();
    expect(result.error).toBeUndefined();
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(status);
    expect(unwrap(result)).toBeUndefined();
  });
});
