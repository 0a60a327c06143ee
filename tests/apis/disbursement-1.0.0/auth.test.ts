/**
 * The disbursement client authenticates with `x-api-key`: the generated factory puts the key in that header
 * (captured by an injected fetch, no global patching), and the mock answers 401 to a request
 * without it and 200 with it.
 */
import { describe, expect, it } from "vitest";
import { createDisbursementClient } from "../../../generated/disbursement/1.0.0/client.js";
import { findApi } from "../../../src/registry.js";
import { mockForSuite, recordingFetch } from "../../helpers/auth.js";
import { loadDocument } from "../../../src/document/index.js";

const KEY = "test-api-key-123";

const disbursementDoc = loadDocument(findApi("disbursement@1.0.0").bundlePath);
const createBody = disbursementDoc.paths["/v1/disbursements"].post.requestBody.content["application/json"].examples.philippines.value;

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
] as const;

describe.each(apis)("$alias client", (api) => {
  it("sends the key in x-api-key and no Authorization header", async () => {
    const { requests, fetch } = recordingFetch();
    await api.call(api.client("https://api.example.test", fetch) as never);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request.headers.get("x-api-key")).toBe(KEY);
    expect(request.headers.get("authorization")).toBeNull();
    expect(request.url).not.toContain(KEY);
    expect(request.url).toBe(`https://api.example.test${api.raw.path}`);
  });

  it("asks a key function for the key on every request", async () => {
    const { requests, fetch } = recordingFetch();
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
  const mocks = new Map(apis.map((api) => [api.alias, mockForSuite(api.alias)]));

  it.each(apis)("$alias: 401 without the header, 200 through the client with it", async (api) => {
    const { mock, send } = mocks.get(api.alias)!;
    const without = await send(api.raw.method, api.raw.path, JSON.stringify(api.raw.body));
    expect(without.status).toBe(401);

    const wrongHeader = await send(api.raw.method, api.raw.path, JSON.stringify(api.raw.body), { authorization: `Bearer ${KEY}` });
    expect(wrongHeader.status).toBe(401);

    const { response, error } = await api.call(api.client(mock.url) as never);
    expect(response.status, JSON.stringify(error)).toBe(200);
  });
});
