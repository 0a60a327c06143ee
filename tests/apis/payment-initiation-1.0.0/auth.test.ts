/**
 * Payment initiation authenticates with the `x-api-key` header: the generated
 * `createPaymentInitiationClient` sends the key on every operation (checked with an injected fetch,
 * nothing global patched), and the mock answers 401 when the key is missing or sent another way.
 */
import { describe, expect, it } from "vitest";
import { createPaymentInitiationClient, type PaymentInitiationClient } from "../../../generated/payment-initiation/1.0.0/client.js";
import { mockForSuite, type Raw, recordingFetch } from "../../helpers/auth.js";

const KEY = "pi-test-key-7c1e";

/** One call per operation of the API, with a valid minimal request. */
const calls: Array<[string, (client: PaymentInitiationClient) => Promise<{ response: Response }>]> = [
  ["POST /v1/checkout", (c) => c.POST("/v1/checkout", { body: { reference_id: "INV-1", amount: { cur: "IDR", num: "10000" } } })],
  ["GET /v1/transaction", (c) => c.GET("/v1/transaction", { params: { query: { transaction_id: "txn_1" } } })],
  ["GET /v1/transfer", (c) => c.GET("/v1/transfer")],
  ["POST /v1/tfa", (c) => c.POST("/v1/tfa", { body: { purpose: "FundTransferAuthentication", token: "123456", transfer_id: "trf_1" } })],
];

describe("createPaymentInitiationClient sends the x-api-key header", () => {
  it.each(calls)("%s", async (_, call) => {
    const { fetch, requests } = recordingFetch();
    await call(createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:9", apiKey: KEY, fetch }));
    expect(requests).toHaveLength(1);
    expect(requests[0].headers.get("x-api-key")).toBe(KEY);
    expect(requests[0].headers.get("authorization")).toBeNull();
    expect(requests[0].url).not.toContain(KEY);
  });

  it("asks a key function on every request", async () => {
    const { fetch, requests } = recordingFetch();
    const keys = ["first-key", "second-key"];
    const client = createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:9", apiKey: async () => keys.shift()!, fetch });
    await client.GET("/v1/transfer");
    await client.GET("/v1/transfer");
    expect(requests.map((r) => r.headers.get("x-api-key"))).toEqual(["first-key", "second-key"]);
  });

  it("builds the sandbox and live URLs from {direct_url}", async () => {
    const { fetch, requests } = recordingFetch();
    await createPaymentInitiationClient({
      environment: "sandbox",
      variables: { direct_domain: "direct.example.org" },
      apiKey: KEY,
      fetch,
    }).GET("/v1/transfer");
    await createPaymentInitiationClient({
      environment: "live",
      variables: { direct_domain: "direct.example.org" },
      apiKey: KEY,
      fetch,
    }).GET("/v1/transfer");
    expect(requests.map((r) => r.url)).toEqual([
      "https://sandbox.direct.example.org/v1/transfer",
      "https://direct.example.org/v1/transfer",
    ]);
  });

  it("refuses to be created without a key", () => {
    expect(() => createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:9" } as never)).toThrow(
      /createPaymentInitiationClient: missing option "apiKey" \(the API key, sent as x-api-key/,
    );
    expect(() => createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:9", apiKey: "" })).toThrow(TypeError);
  });
});

describe("the payment-initiation mock checks the key", () => {
  const suite = mockForSuite("payment-initiation@1.0.0");
  const send = suite.send;

  it("reports x-api-key as its credential", () => {
    expect(suite.mock.auth).toEqual(["x-api-key (header)"]);
  });

  it.each(calls)("%s with the key -> 200", async (_, call) => {
    const { response } = await call(createPaymentInitiationClient({ baseUrl: suite.mock.url, apiKey: KEY }));
    expect(response.status).toBe(200);
  });

  const raw: Raw[] = [
    ["POST", "/v1/checkout", JSON.stringify({ reference_id: "INV-1" })],
    ["GET", "/v1/transaction", undefined],
    ["GET", "/v1/transfer", undefined],
    ["POST", "/v1/tfa", JSON.stringify({ token: "123456" })],
  ];

  it.each(raw)("%s %s without the key -> 401", async (method, path, body) => {
    expect((await send(method, path, body)).status).toBe(401);
  });

  it.each(raw)("%s %s with a bearer token instead of the key -> 401", async (method, path, body) => {
    expect((await send(method, path, body, { authorization: `Bearer ${KEY}` })).status).toBe(401);
  });

  it("does not take the key from the query string", async () => {
    expect((await send("GET", `/v1/transfer?x-api-key=${KEY}`, undefined)).status).toBe(401);
  });

  it.each(raw)("%s %s with the key in a raw request -> 200", async (method, path, body) => {
    expect((await send(method, path, body, { "x-api-key": KEY })).status).toBe(200);
  });
});
