/**
 * A password written in a URL (`https://user:pass@host`) never shows in what the client says: the
 * factory refuses such a base URL (given, or built from a server variable) without quoting it; a
 * call's own `baseUrl` with one gives a network fault whose message, cause and stack do not carry it;
 * a same-origin redirect to such a URL is not followed. Against a local node:http server.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiClient } from "../../../../src/client/index.js";
import { withoutUserinfo } from "../../../../src/client/errors.js";

const SECRET = "s3cr3t-pw";

interface paths {
  "/items": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      responses: { 200: { headers: {}; content: { "application/json": { id: string } } } };
    };
  };
}

const definition = {
  name: "createItemsClient",
  servers: [{ environment: "sandbox", url: "http://{host}", variables: { host: { default: "127.0.0.1" } } }],
  auth: { kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" },
} as const;

let server: Server;
let origin: string;
let port: number;
let seen: string[];
let answer: (response: import("node:http").ServerResponse) => void;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  answer = (response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"id":"ok"}');
  };
});

/** Everything an error shows: message, stack, inspect (causes included). */
const shown = (error: unknown) => `${String(error)}\n${(error as Error)?.stack ?? ""}\n${inspect(error, { depth: 8 })}`;

function thrown(create: () => unknown): unknown {
  try {
    create();
  } catch (error) {
    return error;
  }
  throw new Error("expected the factory to throw");
}

describe("a base URL with userinfo", () => {
  it("is refused by the factory, the message naming the rule and quoting neither the user nor the password", () => {
    const error = thrown(() =>
      createApiClient<paths>(definition, { baseUrl: `http://alice:${SECRET}@127.0.0.1:${port}`, accessToken: "t" }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/createItemsClient: the base URL must not carry a user name or password/);
    expect(shown(error)).not.toContain(SECRET);
    expect(shown(error)).not.toContain("alice");
    expect(seen).toEqual([]);
  });

  it("is refused when a server variable writes it into the environment's URL", () => {
    const error = thrown(() =>
      createApiClient<paths>(definition, {
        environment: "sandbox",
        variables: { host: `alice:${SECRET}@127.0.0.1:${port}` },
        accessToken: "t",
      }),
    );
    expect(shown(error)).not.toContain(SECRET);
  });

  it("given as a call's own baseUrl: a network fault whose message, cause and stack do not carry it; nothing sent", async () => {
    const client = createApiClient<paths>(definition, { baseUrl: origin, accessToken: "t", retry: false });
    const result = await client.GET("/items", { baseUrl: `http://alice:${SECRET}@127.0.0.1:${port}` });
    expect(result.fault?.kind).toBe("network");
    expect(result.fault?.message).toMatch(/^GET \/items failed: no usable answer: /);
    expect(shown(result.fault)).not.toContain(SECRET);
    expect(shown(result.fault?.cause)).not.toContain(SECRET);
    expect(seen).toEqual([]);
  });
});

describe("a redirect to a URL with userinfo", () => {
  it("is not followed, also on the same origin: the 3xx is the answer, its message without the password", async () => {
    answer = (response) => {
      response.writeHead(307, { location: `http://alice:${SECRET}@127.0.0.1:${port}/items` });
      response.end();
    };
    const client = createApiClient<paths>(definition, { baseUrl: origin, accessToken: "t" });
    const result = await client.GET("/items");
    expect(result.response.status).toBe(307);
    expect(result.fault).toBeUndefined();
    expect(String((result.error as Error).message)).not.toContain(SECRET);
    expect(seen).toEqual(["GET /items Bearer t"]);
  });
});

describe("withoutUserinfo", () => {
  it("removes the userinfo of every URL in a text, and nothing else", () => {
    expect(withoutUserinfo(`fetch https://u:${SECRET}@a.example/x?y=1 then http://b.example/p@q and ws://only-user@c:1/`)).toBe(
      "fetch https://a.example/x?y=1 then http://b.example/p@q and ws://c:1/",
    );
  });
});
