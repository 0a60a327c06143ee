/**
 * Compile-time proof that the generated statement 1.0.0 client rejects wrong paths, methods, bodies,
 * enum values and property types, and that its types say what the spec says (open statement status,
 * unspecified tfa answer, a list or one record from /v1/statements). Checked by `npm run typecheck`.
 * Each rejected call has an accepted twin that differs only in the mistake.
 */
import { expectTypeOf } from "vitest";
import { unwrap } from "../../../src/client/index.js";
import {
  createStatementClient,
  createStatementV100Client,
  servers,
  type components,
  type StatementClient,
  type StatementClientOptions,
  type StatementV100Client,
  type webhooks,
} from "../../../generated/statement/1.0.0/client.js";

type Schemas = components["schemas"];

declare const client: StatementClient;

const credential = { credential_type: "EMAIL", identifier: "u@example.com", secret: "p" };

export async function paths() {
  await client.GET("/v1/statements");
  // @ts-expect-error: no such path
  await client.GET("/v1/statement");
  // @ts-expect-error: /v1/statements has no POST
  await client.POST("/v1/statements", { body: {} });
  // @ts-expect-error: /v1/statement-init has no GET
  await client.GET("/v1/statement-init");
}

export async function bodies() {
  await client.POST("/v1/statement-retrieval", { body: { bank_code: "BCA_PERSONAL", credential } });
  // @ts-expect-error: credential is required
  await client.POST("/v1/statement-retrieval", { body: { bank_code: "BCA_PERSONAL" } });
  // @ts-expect-error: bank_code is required
  await client.POST("/v1/statement-retrieval", { body: { credential } });
  // The statement part lists no bank codes: any string types (the source names only DUMMY_BANK_PERSONAL).
  await client.POST("/v1/statement-retrieval", { body: { bank_code: "ANY_BANK_CODE", credential } });
  // @ts-expect-error: a bank code is a string
  await client.POST("/v1/statement-retrieval", { body: { bank_code: 14, credential } });
  // @ts-expect-error: the request body is required
  await client.POST("/v1/statement-retrieval");

  await client.POST("/v1/statement-init", { body: { country: "TH", corporate: true, app_redirect_duration: 60 } });
  await client.POST("/v1/statement-init", { body: { country: "TH", app_redirect_duration: "60" } });
  // Fields with a default stay optional (generate.ts: defaultNonNullable false).
  await client.POST("/v1/statement-init", { body: { country: "TH" } });
  await client.POST("/v1/statement-retrieval", {
    body: { bank_code: "DUMMY_BANK_PERSONAL", credential: { identifier: "u", secret: "p" } },
  });
  // @ts-expect-error: country is ID, PH or TH
  await client.POST("/v1/statement-init", { body: { country: "SG", app_redirect_duration: 60 } });
  // @ts-expect-error: corporate is a boolean
  await client.POST("/v1/statement-init", { body: { corporate: "yes", app_redirect_duration: 60 } });
  // @ts-expect-error: bank_codes is a list
  await client.POST("/v1/statement-init", { body: { bank_codes: "DUMMY_BANK_PERSONAL", app_redirect_duration: 60 } });

  await client.POST("/v1/tfa", { body: { purpose: "BankCredentialLogin", purpose_id: "st_1", token: "123456" } });
  // @ts-expect-error: "Login" is not a TFAPurpose
  await client.POST("/v1/tfa", { body: { purpose: "Login", purpose_id: "st_1", token: "123456" } });
  // @ts-expect-error: statement retrieval sends BankCredentialLogin, the one purpose its source gives
  await client.POST("/v1/tfa", { body: { purpose: "FundTransferAuthentication", purpose_id: "st_1", token: "123456" } });
  // No field is required (not shown by the source).
  await client.POST("/v1/tfa", { body: {} });
  // @ts-expect-error: the token is a string, even when it is all digits
  await client.POST("/v1/tfa", { body: { purpose: "BankCredentialLogin", purpose_id: "st_1", token: 123456 } });

  await client.GET("/v1/statements", { params: { query: { statement_ids: "st_1" } } });
  // @ts-expect-error: statement_ids is one string (the several-id format is not shown)
  await client.GET("/v1/statements", { params: { query: { statement_ids: ["st_1", "st_2"] } } });
}

export function enumTypes() {
  expectTypeOf<Schemas["TFAPurpose"]>().toEqualTypeOf<"UnknownPurpose" | "BankCredentialLogin" | "FundTransferAuthentication">();
  expectTypeOf<Schemas["BankCode"]>().toEqualTypeOf<string>();
  // The status list is not complete: the named values are kept, any string is accepted.
  expectTypeOf<"COMPLETED">().toMatchTypeOf<Schemas["StatementStatus"]>();
  expectTypeOf<Schemas["StatementStatus"]>().toEqualTypeOf<string>();
}

export async function responseData() {
  const started = unwrap(await client.POST("/v1/statement-init", { body: { country: "ID", app_redirect_duration: 60 } }));
  expectTypeOf(started).toEqualTypeOf<Schemas["InitStatementResponse"]>();
  expectTypeOf(started.redirect_uri).toEqualTypeOf<string | undefined>();

  const session = unwrap(await client.POST("/v1/statement-retrieval", { body: { bank_code: "BCA_PERSONAL", credential } }));
  expectTypeOf(session.site_response).toEqualTypeOf<string | undefined>();
  expectTypeOf(session.statement_id).toEqualTypeOf<string | undefined>();

  const statements = unwrap(await client.GET("/v1/statements"));
  // openapi-fetch maps the response type (records carry an index signature), so the check is
  // assignability both ways rather than identity.
  expectTypeOf(statements).toMatchTypeOf<Schemas["ListStatementsResponse"]>();
  expectTypeOf<Schemas["ListStatementsResponse"]>().toMatchTypeOf<typeof statements>();
  // A list of records or one object (the envelope is not shown): code must handle both.
  if (Array.isArray(statements)) expectTypeOf(statements[0].statement_id).toEqualTypeOf<string | undefined>();
  else expectTypeOf(statements.statement_id).toEqualTypeOf<string | undefined>();
  // @ts-expect-error: the answer may be a single object, so it cannot be mapped over unchecked
  statements.map((record) => record.status);

  // The tfa answer is not shown: nothing is promised about it.
  const tfa = unwrap(await client.POST("/v1/tfa", { body: { purpose: "BankCredentialLogin", purpose_id: "st_1", token: "1" } }));
  expectTypeOf(tfa).toBeUnknown();
}

export function callback() {
  type Hook = webhooks["statementStatusChanged"]["post"];
  expectTypeOf<NonNullable<Hook["parameters"]["header"]>>().toHaveProperty("Idempotency-Key");
}

export function factories() {
  expectTypeOf(createStatementClient).parameter(0).toEqualTypeOf<StatementClientOptions>();
  expectTypeOf(createStatementV100Client).returns.toEqualTypeOf<StatementClient>();
  expectTypeOf(createStatementClient).returns.toEqualTypeOf<StatementV100Client>();

  createStatementClient({ baseUrl: "https://statement.example.com", apiKey: "k" });
  createStatementClient({ environment: "sandbox", variables: { statement_domain: "statement.example.org" }, apiKey: async () => "k" });
  // @ts-expect-error: statement retrieval authenticates with an API key, not a bearer token
  createStatementClient({ baseUrl: "https://statement.example.com", accessToken: "t" });
  // @ts-expect-error: apiKey is required
  createStatementClient({ baseUrl: "https://statement.example.com" });
  // @ts-expect-error: there is no "staging" server
  createStatementClient({ environment: "staging", apiKey: "k" });

  expectTypeOf(servers[0].url).toEqualTypeOf<"https://sandbox.{statement_domain}">();
  expectTypeOf(servers[1].environment).toEqualTypeOf<"live">();
}
