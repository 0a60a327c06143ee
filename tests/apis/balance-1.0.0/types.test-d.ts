/**
 * Compile-time proof that the generated balance 1.0.0 client rejects wrong paths, methods, bodies,
 * enum values and property types, keeps the API's spelling (`peridic_balance_range`) and
 * authenticates with a bearer token. Checked by `npm run typecheck`. Each rejected call has an
 * accepted twin that differs only in the mistake.
 */
import { expectTypeOf } from "vitest";
import { unwrap } from "../../../src/client/index.js";
import {
  createBalanceClient,
  createBalanceV100Client,
  servers,
  type BalanceClient,
  type BalanceClientOptions,
  type BalanceV100Client,
  type components,
} from "../../../generated/balance/1.0.0/client.js";

type Schemas = components["schemas"];

declare const client: BalanceClient;

export async function paths() {
  await client.GET("/v1/get_balance");
  // @ts-expect-error: the list path is /v1/get_balance
  await client.GET("/v1/balances");
  // @ts-expect-error: /v1/balance has POST only
  await client.GET("/v1/balance");
  // @ts-expect-error: /v1/get_balance has GET only
  await client.POST("/v1/get_balance", { body: {} });
}

export async function bodies() {
  await client.POST("/v1/balance", { body: { bank_code: "BPI_PERSONAL", period_days: 90, channel: "MOBILE" } });
  // @ts-expect-error: CIMB_PERSONAL is a payment-initiation bank code, not a balance BankCode
  await client.POST("/v1/balance", { body: { bank_code: "CIMB_PERSONAL" } });
  // @ts-expect-error: period_days is an int32, not a string
  await client.POST("/v1/balance", { body: { period_days: "90" } });
  // @ts-expect-error: channel is WEB or MOBILE
  await client.POST("/v1/balance", { body: { channel: "APP" } });
  // @ts-expect-error: "PASSWORD" is not a CredentialType
  await client.POST("/v1/balance", { body: { credential: { credential_type: "PASSWORD", identifier: "u" } } });
  // @ts-expect-error: the request body is required
  await client.POST("/v1/balance");

  await client.POST("/v1/balance-init", { body: { country: "ID", app_redirect_duration: "30", auto_consent: true } });
  // @ts-expect-error: app_redirect_duration is a string of seconds here
  await client.POST("/v1/balance-init", { body: { country: "ID", app_redirect_duration: 30, auto_consent: true } });
  // @ts-expect-error: auto_consent is a boolean
  await client.POST("/v1/balance-init", { body: { country: "ID", auto_consent: "yes" } });
}

export function enumTypes() {
  expectTypeOf<Schemas["CredentialType"]>().toEqualTypeOf<"EMAIL" | "Type_MSISDN" | "TOKEN" | "CLIENT_CREDENTIAL">();
  expectTypeOf<Schemas["ChallengeType"]>().toEqualTypeOf<"TEXT" | "IMAGE" | "IN_APP" | "SMS" | "MGENCODE" | "HYBRID" | "PIN">();
  expectTypeOf<Schemas["AccountType"]>().toEqualTypeOf<"UNKNOWN_AccountType" | "CHECKING" | "SAVINGS">();
  expectTypeOf<Schemas["Status"]>().toEqualTypeOf<
    | "UNKNOWN_Status"
    | "INITIATED"
    | "CONSENT_GRANTED"
    | "AUTH_IN_PROGRESS"
    | "AWAITING_TFA"
    | "TFA_IN_PROGRESS"
    | "RETRIEVAL_IN_PROGRESS"
    | "AUTH_FAILED"
    | "FAILED"
    | "SUCCESS"
    | "CANCELLED"
    | "INACTIVATED"
    | "PURGED"
  >();
  expectTypeOf<"ZRN">().toMatchTypeOf<Schemas["CurrencyISO4217"]>();
}

export async function responseData() {
  const submitted = unwrap(await client.POST("/v1/balance", { body: { bank_code: "DUMMY_BANK_PERSONAL" } }));
  expectTypeOf(submitted).toEqualTypeOf<Schemas["RetrieveBalanceResponse"]>();
  expectTypeOf(submitted.challenge).toEqualTypeOf<Schemas["Challenge"] | undefined>();

  const page = unwrap(await client.GET("/v1/get_balance"));
  expectTypeOf(page.next_page_token).toEqualTypeOf<string | undefined>();
  expectTypeOf(page.total_count).toEqualTypeOf<number | undefined>();
  const balance = page.balances?.[0]?.accounts?.[0]?.balance;
  if (balance) {
    expectTypeOf(balance.peridic_balance_range).toEqualTypeOf<Schemas["PeriodicBalanceRange"] | undefined>();
    // @ts-expect-error: the API spells it peridic_balance_range
    void balance.periodic_balance_range;
    expectTypeOf(balance.current?.num).toEqualTypeOf<string | undefined>();
  }
}

export function factories() {
  expectTypeOf(createBalanceClient).parameter(0).toEqualTypeOf<BalanceClientOptions>();
  expectTypeOf(createBalanceV100Client).returns.toEqualTypeOf<BalanceClient>();
  expectTypeOf(createBalanceClient).returns.toEqualTypeOf<BalanceV100Client>();

  createBalanceClient({ baseUrl: "https://balance.example.com", accessToken: "t" });
  createBalanceClient({ environment: "live", variables: { balance_domain: "balance.example.org" }, accessToken: async () => "t" });
  // @ts-expect-error: balance retrieval authenticates with a bearer token, not an API key
  createBalanceClient({ baseUrl: "https://balance.example.com", apiKey: "k" });
  // @ts-expect-error: accessToken is required
  createBalanceClient({ baseUrl: "https://balance.example.com" });

  expectTypeOf(servers[0].environment).toEqualTypeOf<"sandbox">();
  expectTypeOf(servers[1].url).toEqualTypeOf<"https://{balance_domain}">();
}
