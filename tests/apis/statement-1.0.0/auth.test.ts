/**
 * Statement retrieval authenticates with the `x-api-key` header. The generated `createStatementClient`
 * sends its key, and only that, on every operation (checked with an injected fetch, nothing global
 * patched); the mock answers 401 when the key is missing or sent as a bearer token.
 */
import { describe, expect, it } from "vitest";
import { createStatementClient, type StatementClient } from "../../../generated/statement/1.0.0/client.js";
import { mockForSuite, type Raw, recordingFetch } from "../../helpers/auth.js";

const KEY = "statement-test-key-3b9d";
const NOWHERE = "http://127.0.0.1:9";

/** One call per statement operation, with a valid request. */
const statementCalls: Array<[string, (client: StatementClient) => Promise<{ response: Response }>]> = [
  [
    "POST /v1/statement-init",
    (c) => c.POST("/v1/statement-init", { body: { country: "ID", bank_codes: ["DUMMY_BANK_PERSONAL"], app_redirect_duration: 60 } }),
  ],
  [
    "POST /v1/statement-retrieval",
    (c) =>
      c.POST("/v1/statement-retrieval", {
        body: { bank_code: "DUMMY_BANK_PERSONAL", credential: { credential_type: "EMAIL", identifier: "u@example.com", secret: "p" } },
      }),
  ],
  ["GET /v1/statements", (c) => c.GET("/v1/statements", { params: { query: { statement_ids: "st_1" } } })],
  ["POST /v1/tfa", (c) => c.POST("/v1/tfa", { body: { purpose: "BankCredentialLogin", purpose_id: "st_1", token: "123456" } })],
];

describe("createStatementClient sends the x-api-key header", () => {
  it.each(statementCalls)("%s", async (_, call) => {
    const { fetch, requests } = recordingFetch();
    await call(createStatementClient({ baseUrl: NOWHERE, apiKey: KEY, fetch }));
    expect(requests).toHaveLength(1);
    expect(requests[0].headers.get("x-api-key")).toBe(KEY);
    expect(requests[0].headers.get("authorization")).toBeNull();
    expect(requests[0].url).not.toContain(KEY);
  });

  it("builds the sandbox and live URLs from {statement_url}", async () => {
    const { fetch, requests } = recordingFetch();
    const variables = { statement_domain: "statement.example.org" };
    await createStatementClient({ environment: "sandbox", variables, apiKey: KEY, fetch }).GET("/v1/statements");
    await createStatementClient({ environment: "live", variables, apiKey: KEY, fetch }).GET("/v1/statements");
    expect(requests.map((r) => r.url)).toEqual([
      "https://sandbox.statement.example.org/v1/statements",
      "https://statement.example.org/v1/statements",
    ]);
  });

  it("refuses to be created without a key", () => {
    expect(() => createStatementClient({ baseUrl: NOWHERE } as never)).toThrow(
      /createStatementClient: missing option "apiKey" \(the API key, sent as x-api-key/,
    );
  });
});

describe("the statement mock checks the key", () => {
  const suite = mockForSuite("statement@1.0.0");
  const send = suite.send;
  /** Raw requests, one per operation, for the cases the typed client cannot express. */
  const raw: Raw[] = [
    ["POST", "/v1/statement-init", JSON.stringify({ country: "ID" })],
    ["POST", "/v1/statement-retrieval", JSON.stringify({ bank_code: "BCA_PERSONAL", credential: { identifier: "u", secret: "p" } })],
    ["GET", "/v1/statements", undefined],
    ["POST", "/v1/tfa", JSON.stringify({ purpose: "BankCredentialLogin", purpose_id: "st_1", token: "123456" })],
  ];

  it("reports x-api-key as its credential", () => {
    expect(suite.mock.auth).toEqual(["x-api-key (header)"]);
  });

  it.each(statementCalls)("%s through the client with the key -> 200", async (_, call) => {
    expect((await call(createStatementClient({ baseUrl: suite.mock.url, apiKey: KEY }))).response.status).toBe(200);
  });

  it.each(raw)("%s %s without the key -> 401", async (method, path, body) => {
    expect((await send(method, path, body)).status).toBe(401);
  });

  it.each(raw)("%s %s with a bearer token instead of the key -> 401", async (method, path, body) => {
    expect((await send(method, path, body, { authorization: `Bearer ${KEY}` })).status).toBe(401);
  });

  it.each(raw)("%s %s with the key -> 200", async (method, path, body) => {
    expect((await send(method, path, body, { "x-api-key": KEY })).status).toBe(200);
  });
});
