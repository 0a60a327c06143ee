/**
 * The request object the generated clients hand to middleware (src/client/factory.ts
 * DeferredRequest, built lazily for speed) behaves as a Request: `instanceof Request`, method, URL,
 * headers a middleware sets reach the server, the body can be read from a clone, a middleware may
 * replace it, `signal` works, and an injected fetch receives a real Request with the body.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiClient, unwrap } from "../../../../src/client/index.js";

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface paths {
  "/echo/{id}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: { q?: string }; header?: never; path: { id: string }; cookie?: never };
      requestBody: { content: { "application/json": { n: number; s: string } } };
      responses: { 200: { headers: { [name: string]: unknown }; content: { "application/json": Echo } } };
    };
  };
}

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const definition = {
  name: "createEchoClient",
  servers: [],
  auth: { kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" },
} as const;
const call = (client: ReturnType<typeof createApiClient<paths>>) =>
  client.POST("/echo/{id}", { params: { path: { id: "a b" }, query: { q: "1" } }, body: { n: 1, s: "é" } });

describe("the request middleware sees", () => {
  it("a Request: instanceof, method, URL, body readable from a clone; its headers reach the server", async () => {
    const client = createApiClient<paths>(definition, { baseUrl, accessToken: "t0k" });
    const seen: unknown[] = [];
    client.use({
      async onRequest({ request }) {
        seen.push(
          request instanceof Request,
          request.method,
          request.url,
          await request.clone().json(),
          request.signal instanceof AbortSignal,
        );
        request.headers.set("x-trace", "abc");
      },
    });
    const echo = unwrap(await call(client));
    expect(seen).toEqual([true, "POST", `${baseUrl}/echo/a%20b?q=1`, { n: 1, s: "é" }, true]);
    expect(echo).toMatchObject({ method: "POST", url: "/echo/a%20b?q=1", body: JSON.stringify({ n: 1, s: "é" }) });
    expect(echo.headers).toMatchObject({ authorization: "Bearer t0k", "x-trace": "abc", "content-type": "application/json" });
  });

  it("a Request it may replace with a new one", async () => {
    const client = createApiClient<paths>(definition, { baseUrl, accessToken: "t0k" });
    client.use({
      onRequest({ request }) {
        return new Request(request.url.replace("/echo/", "/echo/replaced-"), {
          method: "POST",
          headers: request.headers,
          body: '{"n":2,"s":"x"}',
        });
      },
    });
    const echo = unwrap(await call(client));
    expect(echo).toMatchObject({ url: "/echo/replaced-a%20b?q=1", body: '{"n":2,"s":"x"}' });
  });
});

describe("the credential", () => {
  it("fixed: set on the request before the caller's middleware sees it, over a call's own header of that name", async () => {
    const client = createApiClient<paths>(definition, { baseUrl, accessToken: "t0k" });
    const seen: Array<string | null> = [];
    client.use({ onRequest: ({ request }) => void seen.push(request.headers.get("authorization")) });
    const echo = unwrap(
      await client.POST("/echo/{id}", {
        params: { path: { id: "x" } },
        body: { n: 1, s: "s" },
        headers: { Authorization: "Bearer not-this" },
      }),
    );
    expect(seen).toEqual(["Bearer t0k"]);
    expect(echo.headers.authorization).toBe("Bearer t0k");
  });

  it("a function: called for every request, its value sent", async () => {
    let n = 0;
    const client = createApiClient<paths>(definition, { baseUrl, accessToken: () => `t${++n}` });
    const first = unwrap(await call(client));
    const second = unwrap(await call(client));
    expect([first.headers.authorization, second.headers.authorization]).toEqual(["Bearer t1", "Bearer t2"]);
  });
});

describe("an injected fetch", () => {
  it("receives a real Request with the body and the credential", async () => {
    const received: Array<{ real: boolean; body: unknown; authorization: string | null }> = [];
    const client = createApiClient<paths>(definition, {
      baseUrl,
      accessToken: "t0k",
      fetch: async (input: Request) => {
        received.push({
          real: input.constructor === Request,
          body: await input.clone().json(),
          authorization: input.headers.get("authorization"),
        });
        return fetch(input);
      },
    });
    const echo = unwrap(await call(client));
    expect(received).toEqual([{ real: true, body: { n: 1, s: "é" }, authorization: "Bearer t0k" }]);
    expect(echo.body).toBe(JSON.stringify({ n: 1, s: "é" }));
  });
});
