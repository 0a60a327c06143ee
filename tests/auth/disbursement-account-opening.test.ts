/**
 * The disbursement and account-opening clients authenticate with `x-api-key`: the generated
 * factories put the key in that header (captured by an injected fetch, no global patching), and
 * the mock answers 401 to a request without it and 200 with it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccountOpeningClient } from "../../generated/account-opening/1.0.0/client.js";
import { createDisbursementClient } from "../../generated/disbursement/1.0.0/client.js";
import { findApi } from "../../scripts/lib/registry.js";
import { closeMocks, type MockServer, startMock } from "../../src/mock/index.js";
import { loadBundle } from "../helpers/openapi.js";

const KEY = "test-api-key-123";

/** A fetch that records each request and answers 200 with an empty JSON object. */
function capturingFetch() {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input);
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  return { requests, fetch };
}

const disbursementDoc = loadBundle(findApi("disbursement@1.0.0").bundlePath);
const createBody = disbursementDoc.paths["/v1/disbursements"].post.requestBody.content["application/json"].examples.philippines.value;
const openBody = loadBundle(findApi("account-opening@1.0.0").bundlePath).paths["/v1/open-account"].post.requestBody.content["application/json"]
  .examples.dummyBank.value;

/** One call per API: the client factory, a call through the client, and the same request without credentials. */
const apis = [
  {
    alias: "disbursement@1.0.0",
    factory: createDisbursementClient as (options: object) => unknown,
    client: (baseUrl: string, fetch?: (r: Request) => Promise<Response>, apiKey: string | (() => string) = KEY) =>
      createDisbursementClient({ baseUrl, apiKey, fetch }),
    call: (c: ReturnType<typeof createDisbursementClient>) => c.POST("/v1/disbursements", { body: createBody }),
    raw: { path: "/v1/disbursements", method: "POST", body: createBody },
  },
  {
    alias: "account-opening@1.0.0",
    factory: createAccountOpeningClient as (options: object) => unknown,
    client: (baseUrl: string, fetch?: (r: Request) => Promise<Response>, apiKey: string | (() => string) = KEY) =>
      createAccountOpeningClient({ baseUrl, apiKey, fetch }),
    call: (c: ReturnType<typeof createAccountOpeningClient>) => c.POST("/v1/open-account", { body: openBody }),
    raw: { path: "/v1/open-account", method: "POST", body: openBody },
  },
] as const;

describe.each(apis)("$alias client", (api) => {
  it("sends the key in x-api-key and no Authorization header", async () => {
    const { requests, fetch } = capturingFetch();
    await api.call(api.client("https://api.example.test", fetch) as never);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.headers.get("x-api-key")).toBe(KEY);
    expect(request.headers.get("authorization")).toBeNull();
    expect(request.url).not.toContain(KEY);
    expect(request.url).toBe(`https://api.example.test${api.raw.path}`);
  });

  it("asks a key function for the key on every request", async () => {
    const { requests, fetch } = capturingFetch();
    let n = 0;
    const client = api.client("https://api.example.test", fetch, () => `rotating-key-${++n}`);
    await api.call(client as never);
    await api.call(client as never);
    expect(requests.map((r) => r.headers.get("x-api-key"))).toEqual(["rotating-key-1", "rotating-key-2"]);
  });

  it("refuses to be created without a key, naming the header", () => {
    expect(() => api.factory({ baseUrl: "https://api.example.test" })).toThrow(/missing option "apiKey".*x-api-key/);
    expect(() => api.client("https://api.example.test", undefined, "")).toThrow(/apiKey/);
  });
});

describe("the mock checks x-api-key", () => {
  const mocks = new Map<string, MockServer>();
  beforeAll(async () => {
    for (const api of apis) mocks.set(api.alias, await startMock(api.alias, { port: 0 }));
  });
  afterAll(async () => {
    await closeMocks([...mocks.values()]);
  });

  it.each(apis)("$alias: 401 without the header, 200 through the client with it", async (api) => {
    const url = mocks.get(api.alias)!.url;
    const without = await fetch(url + api.raw.path, {
      method: api.raw.method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(api.raw.body),
    });
    expect(without.status).toBe(401);

    const wrongHeader = await fetch(url + api.raw.path, {
      method: api.raw.method,
      headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
      body: JSON.stringify(api.raw.body),
    });
    expect(wrongHeader.status).toBe(401);

    const { response, error } = await api.call(api.client(url) as never);
    expect(response.status, JSON.stringify(error)).toBe(200);
  });
});
