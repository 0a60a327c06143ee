/**
 * Balance retrieval authenticates with `Authorization: Bearer`. The generated `createBalanceClient`
 * sends its token, and only that, on every operation (checked with an injected fetch, nothing global
 * patched); the mock answers 401 when the token is missing or sent as an x-api-key. Balance
 * retrieval declares no 401 response (the source lists only 404 besides 200): the mock still
 * refuses the request, with Prism's own 401 problem document.
 */
import { describe, expect, it } from "vitest";
import { createBalanceClient, type BalanceClient } from "../../../generated/balance/1.0.0/client.js";
import { mockForSuite, type Raw, recordingFetch } from "../../helpers/auth.js";

const TOKEN = "balance-test-token-5e2a";
const NOWHERE = "http://127.0.0.1:9";

/** One call per balance operation, with a valid request. */
const balanceCalls: Array<[string, (client: BalanceClient) => Promise<{ response: Response }>]> = [
  [
    "POST /v1/balance-init",
    (c) => c.POST("/v1/balance-init", { body: { country: "PH", bank_codes: ["BDO_PERSONAL"], auto_consent: false } }),
  ],
  [
    "POST /v1/balance",
    (c) =>
      c.POST("/v1/balance", {
        body: { bank_code: "DUMMY_BANK_PERSONAL", credential: { credential_type: "TOKEN", identifier: "tok_1", secret: "" } },
      }),
  ],
  ["GET /v1/get_balance", (c) => c.GET("/v1/get_balance")],
];

describe("createBalanceClient sends Authorization: Bearer", () => {
  it.each(balanceCalls)("%s", async (_, call) => {
    const { fetch, requests } = recordingFetch();
    await call(createBalanceClient({ baseUrl: NOWHERE, accessToken: TOKEN, fetch }));
    expect(requests).toHaveLength(1);
    expect(requests[0].headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(requests[0].headers.get("x-api-key")).toBeNull();
    expect(requests[0].url).not.toContain(TOKEN);
  });

  it("asks a token function on every request", async () => {
    const { fetch, requests } = recordingFetch();
    const tokens = ["first-token", "second-token"];
    const client = createBalanceClient({ baseUrl: NOWHERE, accessToken: async () => tokens.shift()!, fetch });
    await client.GET("/v1/get_balance");
    await client.GET("/v1/get_balance");
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer first-token", "Bearer second-token"]);
  });

  it("builds the sandbox and live URLs from their own host variables", async () => {
    const { fetch, requests } = recordingFetch();
    await createBalanceClient({
      environment: "sandbox",
      variables: { balance_sandbox_domain: "sb.balance.example.org" },
      accessToken: TOKEN,
      fetch,
    }).GET("/v1/get_balance");
    await createBalanceClient({ environment: "live", variables: { balance_domain: "balance.example.org" }, accessToken: TOKEN, fetch }).GET(
      "/v1/get_balance",
    );
    expect(requests.map((r) => r.url)).toEqual([
      "https://sb.balance.example.org/v1/get_balance",
      "https://balance.example.org/v1/get_balance",
    ]);
    expect(() =>
      createBalanceClient({ environment: "live", variables: { balance_sandbox_domain: "x.example.org" }, accessToken: TOKEN }),
    ).toThrow(/unknown server variable "balance_sandbox_domain" for environment "live"/);
  });

  it("refuses to be created without a token", () => {
    expect(() => createBalanceClient({ baseUrl: NOWHERE } as never)).toThrow(
      /createBalanceClient: missing option "accessToken" \(the bearer access token/,
    );
  });
});

describe("the balance mock checks the bearer token", () => {
  const suite = mockForSuite("balance@1.0.0");
  const send = suite.send;
  /** Raw requests, one per operation, for the cases the typed client cannot express. */
  const raw: Raw[] = [
    ["POST", "/v1/balance-init", JSON.stringify({ country: "ID" })],
    ["POST", "/v1/balance", JSON.stringify({ bank_code: "BCA_PERSONAL" })],
    ["GET", "/v1/get_balance", undefined],
  ];

  it("reports Authorization: Bearer as its credential", () => {
    expect(suite.mock.auth).toEqual(["Authorization: Bearer"]);
  });

  it.each(balanceCalls)("%s through the client with the token -> 200", async (_, call) => {
    expect((await call(createBalanceClient({ baseUrl: suite.mock.url, accessToken: TOKEN }))).response.status).toBe(200);
  });

  it.each(raw)("%s %s without the token -> 401, though the spec declares no 401", async (method, path, body) => {
    const response = await send(method, path, body);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/problem\+json/);
  });

  it.each(raw)("%s %s with an x-api-key instead of the token -> 401", async (method, path, body) => {
    expect((await send(method, path, body, { "x-api-key": TOKEN })).status).toBe(401);
  });

  it.each(raw)("%s %s with the token -> 200", async (method, path, body) => {
    expect((await send(method, path, body, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });
});
