/**
 * Compile-time proof that the generated Payment Initiation 1.0.0 client rejects wrong paths,
 * methods, query parameters, bodies, enum values and property types. Checked by `npm run typecheck`
 * (tsc): a failing expectTypeOf, or a `@ts-expect-error` line that stops erroring, fails the build.
 * Each rejected call has an accepted twin that differs only in the mistake.
 */
import { expectTypeOf } from "vitest";
import { unwrap } from "../../../src/client/index.js";
import {
  auth,
  createPaymentInitiationClient,
  createPaymentInitiationV100Client,
  servers,
  type components,
  type PaymentInitiationClient,
  type PaymentInitiationClientOptions,
  type PaymentInitiationV100Client,
  type webhooks,
} from "../../../generated/payment-initiation/1.0.0/client.js";

type Schemas = components["schemas"];

declare const client: PaymentInitiationClient;

export async function paths() {
  await client.GET("/v1/transaction");
  // @ts-expect-error: no such path (the source's paths are singular)
  await client.GET("/v1/transactions");
  // @ts-expect-error: the settle operation is not modelled (its request is not defined by the source)
  await client.POST("/v1/checkout/settle", { body: {} });
}

export async function methods() {
  await client.POST("/v1/checkout", { body: {} });
  // @ts-expect-error: /v1/checkout has only POST
  await client.GET("/v1/checkout");
  // @ts-expect-error: /v1/transfer has only GET
  await client.POST("/v1/transfer", { body: {} });
}

export async function queryParameters() {
  await client.GET("/v1/transaction", { params: { query: { transaction_id: "txn_1" } } });
  await client.GET("/v1/transfer", { params: { query: { transfer_id: "trf_1" } } });
  // @ts-expect-error: transaction_id belongs to /v1/transaction, not /v1/transfer
  await client.GET("/v1/transfer", { params: { query: { transaction_id: "txn_1" } } });
  // @ts-expect-error: the id is a string
  await client.GET("/v1/transaction", { params: { query: { transaction_id: 42 } } });
}

export async function checkoutBodies() {
  await client.POST("/v1/checkout", {
    body: {
      amount: { cur: "IDR", num: "15000000" },
      from: { type: "BANK", bank_code: "BCA_PERSONAL", country: "ID" },
      payment_channel: "PH_PAYNAMICS",
      unique_amount: "ADD",
      expiry_date_time: { seconds: 1767312000, nanos: 0 },
      client: { short_redirect_uri: true, deep_link: false },
    },
  });
  // from.bank_code is optional.
  await client.POST("/v1/checkout", { body: { from: { type: "BANK", country: "PH" } } });
  // @ts-expect-error: POST /v1/checkout needs its body
  await client.POST("/v1/checkout");
  // @ts-expect-error: Amount.num is a string of minor units, not a number
  await client.POST("/v1/checkout", { body: { amount: { cur: "IDR", num: 15000000 } } });
  // @ts-expect-error: "RUPIAH" is not a CurrencyISO4217 code
  await client.POST("/v1/checkout", { body: { amount: { cur: "RUPIAH", num: "1" } } });
  // @ts-expect-error: BCA_CORPORATE occurs only in records; a checkout takes the 14 CheckoutBankCode values
  await client.POST("/v1/checkout", { body: { from: { bank_code: "BCA_CORPORATE" } } });
  // @ts-expect-error: a destination bank code is not a source bank code
  await client.POST("/v1/checkout", { body: { from: { bank_code: "ID_BCA" } } });
  // @ts-expect-error: "MY" is not a CountryISO3166 value of the source
  await client.POST("/v1/checkout", { body: { from: { country: "MY" } } });
  // @ts-expect-error: "ROUND" is not a UniqueAmountType
  await client.POST("/v1/checkout", { body: { unique_amount: "ROUND" } });
  // @ts-expect-error: Timestamp.seconds is an int64 number, not a string
  await client.POST("/v1/checkout", { body: { expiry_date_time: { seconds: "1767312000" } } });
  // @ts-expect-error: client.short_redirect_uri is a boolean in the request
  await client.POST("/v1/checkout", { body: { client: { short_redirect_uri: "yes" } } });
}

export async function tfaBodies() {
  await client.POST("/v1/tfa", {
    body: { purpose: "FundTransferAuthentication", transfer_id: "trf_1", multiple: [{ type: "OPTION_SMS", code: "1" }] },
  });
  // @ts-expect-error: "Login" is not a TFAPurpose
  await client.POST("/v1/tfa", { body: { purpose: "Login" } });
  // @ts-expect-error: the option values carry the OPTION_ prefix
  await client.POST("/v1/tfa", { body: { option: "SMS" } });
  // @ts-expect-error: each code of multiple is a string
  await client.POST("/v1/tfa", { body: { multiple: [{ type: "OPTION_SMS", code: 123456 }] } });
}

export function enumTypes() {
  expectTypeOf<Schemas["TransferStatus"]>().toEqualTypeOf<
    | "PENDING"
    | "AWAITING_TFA"
    | "SUCCESS"
    | "ERROR"
    | "LOGIN_ERROR"
    | "INVOICE_CREATED"
    | "AWAITING_LOGIN"
    | "AWAITING_LOGIN_TFA"
    | "AWAITING_ACCOUNT_SELECT"
    | "AWAITING_TRANSFER_TFA"
    | "IN_PROGRESS"
    | "EXPIRED"
    | "FLAGGED"
    | "CANCELLED"
    | "DENIED"
    | "FAILED"
  >();
  expectTypeOf<Schemas["TFAStatus"]>().toEqualTypeOf<"UNKNOWN_Status" | "ERROR" | "SUCCESS">();
  expectTypeOf<Schemas["AuthStatus"]>().toEqualTypeOf<"UNKNOWN_AuthStatus" | "INCOMPLETE" | "COMPLETE">();
  expectTypeOf<Schemas["PaymentChannelType"]>().toEqualTypeOf<"PH_PAYNAMICS" | "ID_BANK_MEGA_IPG" | "ID_SHOPEE">();
  expectTypeOf<Schemas["CountryISO3166"]>().toEqualTypeOf<"ID" | "PH" | "TH">();
  // Every checkout bank is a source bank; the records add seven more.
  expectTypeOf<Schemas["CheckoutBankCode"]>().toExtend<Schemas["BankCode"]>();
  expectTypeOf<Exclude<Schemas["BankCode"], Schemas["CheckoutBankCode"]>>().toEqualTypeOf<
    | "UNKNOWN_BANK"
    | "DUMMY_BANK_BCA_PERSONAL"
    | "BCA_CORPORATE"
    | "UNIONBANK_CORPORATE"
    | "CLRB_PERSONAL"
    | "KOMO_PERSONAL"
    | "EASTWEST_PERSONAL"
  >();
}

export async function responseData() {
  const checkout = unwrap(await client.POST("/v1/checkout", { body: {} }));
  expectTypeOf(checkout).toEqualTypeOf<Schemas["CreateCheckoutResponse"]>();
  expectTypeOf(checkout.redirect_uri).toEqualTypeOf<string | undefined>();
  expectTypeOf(checkout.short_redirect_uri).toEqualTypeOf<string | undefined>();

  const transactions = unwrap(await client.GET("/v1/transaction"));
  expectTypeOf(transactions.next_page).toEqualTypeOf<number | undefined>();
  expectTypeOf(transactions.transactions).toEqualTypeOf<Schemas["Transaction"][] | undefined>();
  expectTypeOf<NonNullable<Schemas["Transaction"]["created"]>>().toEqualTypeOf<Schemas["Timestamp"]>();
  expectTypeOf<NonNullable<Schemas["Transaction"]["status"]>>().toEqualTypeOf<Schemas["FundTransferTaskStatus"]>();

  const transfers = unwrap(await client.GET("/v1/transfer"));
  expectTypeOf(transfers.total_count).toEqualTypeOf<number | undefined>();
  // Transfer timestamps may render as ISO 8601 strings.
  expectTypeOf<NonNullable<Schemas["Transfer"]["created"]>>().toEqualTypeOf<Schemas["Timestamp"] | string>();
  expectTypeOf<NonNullable<Schemas["Transfer"]["settlement"]>["settlement_id"]>().toEqualTypeOf<string | undefined>();

  const tfa = unwrap(await client.POST("/v1/tfa", { body: { token: "123456" } }));
  expectTypeOf(tfa.auth_status).toEqualTypeOf<Schemas["AuthStatus"] | undefined>();
}

export function callback() {
  type Callback = webhooks["transactionCompleted"]["post"];
  expectTypeOf<Callback["parameters"]["header"]["Idempotency-Key"]>().toEqualTypeOf<string>();
}

export function factories() {
  expectTypeOf(createPaymentInitiationClient).parameter(0).toEqualTypeOf<PaymentInitiationClientOptions>();
  expectTypeOf(createPaymentInitiationClient).returns.toEqualTypeOf<PaymentInitiationV100Client>();
  expectTypeOf(createPaymentInitiationV100Client).returns.toEqualTypeOf<PaymentInitiationClient>();
  expectTypeOf(auth.header).toEqualTypeOf<"x-api-key">();

  createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:4012", apiKey: "k" });
  createPaymentInitiationClient({ environment: "live", variables: { direct_domain: "direct.example.org" }, apiKey: async () => "k" });
  // @ts-expect-error: payment initiation authenticates with an API key, not a bearer token
  createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:4012", accessToken: "t" });
  // @ts-expect-error: apiKey is required
  createPaymentInitiationClient({ baseUrl: "http://127.0.0.1:4012" });
  // @ts-expect-error: direct_domain is the only server variable
  createPaymentInitiationClient({ environment: "sandbox", variables: { pay_domain: "x" }, apiKey: "k" });

  expectTypeOf(servers[0].url).toEqualTypeOf<"https://sandbox.{direct_domain}">();
  expectTypeOf(servers[1].environment).toEqualTypeOf<"live">();
}
