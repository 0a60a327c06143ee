/**
 * Redirects and credentials, for the credential of every registered API (its generated `auth`:
 * `Authorization: Bearer` or an API-key header): a redirect to another origin (another port, another
 * host name) is never followed, so no request, and so no credential, reaches the other origin, and
 * the 3xx comes back as the answer (never the other host's body as `data`); a redirect on the same
 * origin is followed with the credential, methods rewritten as fetch does. Real servers on port 0.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthDefinition, createApiClient, unwrap } from "../../../../src/client/index.js";
import { jsonRequest, operations } from "../../../../src/document/index.js";
import { requestParams, TEST_API_KEY, TEST_TOKEN } from "../../../../src/testing/requests.js";
import { bundled, createTestClient } from "../../../helpers/registry.js";

interface Seen {
  method: string;
  url: string;
  host: string;
  headers: IncomingMessage["headers"];
  body: string;
}

interface Recorder {
  server: Server;
  port: number;
  seen: Seen[];
  /** How the next requests are answered. */
  answer: (request: Seen) => { status: number; headers?: Record<string, string>; body?: string };
}

async function recorder(): Promise<Recorder> {
  const r = { seen: [] as Seen[], answer: () => ({ status: 200, body: "{}" }) } as unknown as Recorder;
  r.server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const seen = { method: request.method!, url: request.url!, host: request.headers.host!, headers: request.headers, body };
      r.seen.push(seen);
      const { status, headers = {}, body: out = "" } = r.answer(seen);
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(out);
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.port = (r.server.address() as AddressInfo).port;
  return r;
}

let api: Recorder;
let elsewhere: Recorder;
beforeAll(async () => {
  [api, elsewhere] = await Promise.all([recorder(), recorder()]);
  elsewhere.answer = () => ({ status: 200, body: JSON.stringify({ from: "elsewhere" }) });
});
afterAll(async () => {
  for (const r of [api, elsewhere]) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
  }
});

/** Each API's credential: the header its generated client sets, and the value it sends for the test credential. */
const credentials = await Promise.all(
  bundled.map(async ({ entry }) => {
    const module = (await import(pathToFileURL(entry.clientPath).href)) as { auth: AuthDefinition };
    const { auth } = module;
    if (auth.kind === "none") throw new Error(`${entry.alias}: expected a credential`);
    return {
      alias: entry.alias,
      auth,
      header: auth.header.toLowerCase(),
      value: auth.kind === "bearer" ? `Bearer ${TEST_TOKEN}` : TEST_API_KEY,
      options: auth.kind === "bearer" ? { accessToken: TEST_TOKEN } : { apiKey: TEST_API_KEY },
    };
  }),
);

interface paths {
  "/r": {
    get: { responses: { 200: { content: { "application/json": unknown } } } };
    post: {
      requestBody: { content: { "application/json": { n: number } } };
      responses: { 200: { content: { "application/json": unknown } } };
    };
  };
}

const STATUSES = [301, 302, 303, 307, 308] as const;
/** What fetch (and so the client) sends after a same-origin redirect: method, and whether the body goes again. */
const AFTER: Record<(typeof STATUSES)[number], { POST: [string, boolean]; GET: [string, boolean] }> = {
  301: { POST: ["GET", false], GET: ["GET", false] },
  302: { POST: ["GET", false], GET: ["GET", false] },
  303: { POST: ["GET", false], GET: ["GET", false] },
  307: { POST: ["POST", true], GET: ["GET", false] },
  308: { POST: ["POST", true], GET: ["GET", false] },
};
const TARGETS = ["another port", "another host name", "the same origin"] as const;
const targetUrl = (target: (typeof TARGETS)[number]) =>
  target === "another port"
    ? `http://127.0.0.1:${elsewhere.port}/landing`
    : target === "another host name"
      ? `http://localhost:${api.port}/landing`
      : "/landing";

const cases = credentials.flatMap((c) =>
  STATUSES.flatMap((status) => TARGETS.flatMap((target) => (["GET", "POST"] as const).map((method) => ({ ...c, status, target, method })))),
);

it("covers every API's credential, every redirect status, three targets and two methods", () => {
  expect(credentials.length).toBe(bundled.length);
  expect(new Set(credentials.map((c) => c.auth.kind))).toEqual(new Set(["bearer", "apiKey"]));
  expect(cases).toHaveLength(bundled.length * STATUSES.length * TARGETS.length * 2);
});

describe.each(cases.map((c) => [`${c.alias} ${c.header}: ${c.method} -> ${c.status} to ${c.target}`, c] as const))("%s", (_, c) => {
  it(
    c.target === "the same origin"
      ? "is followed, with the credential, as fetch rewrites the method"
      : "is not followed: nothing reaches the other origin, and the 3xx is the answer",
    async () => {
      api.seen.length = 0;
      elsewhere.seen.length = 0;
      api.answer = (seen) =>
        seen.url === "/landing"
          ? { status: 200, body: JSON.stringify({ from: "api", method: seen.method }) }
          : { status: c.status, headers: { location: targetUrl(c.target) }, body: JSON.stringify({ moved: true }) };
      const client = createApiClient<paths>(
        { name: "createRedirectClient", servers: [], auth: c.auth },
        {
          baseUrl: `http://127.0.0.1:${api.port}`,
          ...c.options,
        },
      );
      const result = c.method === "POST" ? await client.POST("/r", { body: { n: 1 } }) : await client.GET("/r");
      expect(result.fault).toBeUndefined();
      expect(api.seen[0]).toMatchObject({ method: c.method, url: "/r" });
      expect(api.seen[0].headers[c.header]).toBe(c.value);

      if (c.target === "the same origin") {
        const [method, withBody] = AFTER[c.status][c.method];
        expect(api.seen.map((s) => s.url)).toEqual(["/r", "/landing"]);
        expect(api.seen[1].method).toBe(method);
        expect(api.seen[1].headers[c.header]).toBe(c.value);
        expect(api.seen[1].body).toBe(withBody ? JSON.stringify({ n: 1 }) : "");
        expect(result.response.status).toBe(200);
        expect(result.data).toEqual({ from: "api", method });
      } else {
        expect(elsewhere.seen).toEqual([]);
        expect(api.seen).toHaveLength(1);
        expect(api.seen.every((s) => s.host === `127.0.0.1:${api.port}`)).toBe(true);
        expect(result.response.status).toBe(c.status);
        expect(result.response.headers.get("location")).toBe(targetUrl(c.target));
        expect(result.data).toBeUndefined();
        expect(() => unwrap(result)).toThrow(expect.objectContaining({ kind: "http", status: c.status }));
      }
    },
  );
});

describe("through each API's generated client and its first operation", () => {
  it.each(bundled.map((b) => [b.entry.alias, b] as const))("%s: a 302 to another origin is not followed", async (_, b) => {
    const op = operations(b.doc)[0];
    const example = jsonRequest(b.doc, op)?.examples[0]?.value;
    api.seen.length = 0;
    elsewhere.seen.length = 0;
    api.answer = () => ({ status: 302, headers: { location: `http://127.0.0.1:${elsewhere.port}/steal` } });
    const client = await createTestClient(b.entry, `http://127.0.0.1:${api.port}`);
    const result = (await client[op.method.toUpperCase()](op.path, {
      params: requestParams(b.doc, op),
      ...(example === undefined ? {} : { body: example }),
    })) as { data?: unknown; response: Response };
    expect(api.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
    expect(result.response.status).toBe(302);
    expect(result.data).toBeUndefined();
  });
});
