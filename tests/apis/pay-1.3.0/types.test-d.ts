/**
 * Compile-time proof that the generated Pay 1.3.0 client rejects wrong paths, methods, parameters,
 * bodies, enum values and property types. Checked by `npm run typecheck` (tsc): a failing
 * expectTypeOf, or a `@ts-expect-error` line that stops erroring, fails the build. Each rejected
 * call has an accepted twin that differs only in the mistake, so the expected error is the one meant.
 */
import { expectTypeOf } from "vitest";
import { unwrap } from "../../../src/client/index.js";
import {
  createPayClient,
  createPayV130Client,
  servers,
  type components,
  type PayClient,
  type PayClientOptions,
  type PayV130Client,
} from "../../../generated/pay/1.3.0/client.js";

type Schemas = components["schemas"];

declare const client: PayClient;

export async function paths() {
  await client.GET("/v1/merchant");
  // @ts-expect-error: no such path
  await client.GET("/v1/nope");
  // @ts-expect-error: the path template is the key, not a filled-in URL
  await client.GET("/v1/merchant/m_1");
}

export async function methods() {
  await client.DELETE("/v1/deposit-account/{account_id}", { params: { path: { account_id: "acc_1" } } });
  // @ts-expect-error: /v1/deposit-account/{account_id} has PUT and DELETE, no GET
  await client.GET("/v1/deposit-account/{account_id}", { params: { path: { account_id: "acc_1" } } });
  // @ts-expect-error: /v1/merchant has no PATCH
  await client.PATCH("/v1/merchant", { body: {} });
}

export async function requiredFields() {
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { account_id: "acc_1" } }, body: { account_number: "123" } });
  // @ts-expect-error: the path parameter account_id is required
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: {} }, body: { account_number: "123" } });
  // @ts-expect-error: params.path is required
  await client.PUT("/v1/deposit-account/{account_id}", { body: { account_number: "123" } });
  // @ts-expect-error: the request body is required
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { account_id: "acc_1" } } });
  // @ts-expect-error: POST /v1/invoice needs its init argument (the body)
  await client.POST("/v1/invoice");
}

export async function enumsAndPropertyTypes() {
  await client.POST("/v1/invoice", { body: { payment_method: "ShopeePay", expiry: 24, amount: { cur: "IDR", amt: "1000" } } });
  // @ts-expect-error: "Cash" is not a PaymentMethod
  await client.POST("/v1/invoice", { body: { payment_method: "Cash" } });
  // @ts-expect-error: expiry is an int32 hours count, not a string
  await client.POST("/v1/invoice", { body: { expiry: "24" } });
  // @ts-expect-error: Amount.amt is a string ("1000"), not a number
  await client.POST("/v1/invoice", { body: { amount: { cur: "IDR", amt: 1000 } } });
  // @ts-expect-error: the path parameter is a string
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { account_id: 42 } }, body: {} });
}

export function enumTypes() {
  expectTypeOf<Schemas["PaymentMethod"]>().toEqualTypeOf<"UnknownPaymentMethod" | "Native" | "ShopeePay">();
  expectTypeOf<Schemas["PaymentStatus"]>().toEqualTypeOf<"Created" | "Failed" | "Success" | "Expired" | "Flagged">();
}

export async function responseData() {
  const merchant = await client.GET("/v1/merchant");
  if (merchant.data) {
    expectTypeOf(merchant.data).toEqualTypeOf<Schemas["Merchant"]>();
    expectTypeOf(merchant.data.business_name).toEqualTypeOf<string | undefined>();
    expectTypeOf(merchant.data).toHaveProperty("business_name");
  }
  // unwrap gives the success type, without undefined.
  const data = unwrap(await client.GET("/v1/merchant"));
  expectTypeOf(data).toEqualTypeOf<Schemas["Merchant"]>();

  const invoice = unwrap(await client.POST("/v1/invoice", { body: { payment_method: "Native" } }));
  expectTypeOf(invoice).toEqualTypeOf<Schemas["CreateInvoiceResponse"]>();
  expectTypeOf(invoice.url).toEqualTypeOf<string | undefined>();
}

export function factories() {
  // The latest and the versioned factory are the same API.
  expectTypeOf(createPayClient).parameter(0).toEqualTypeOf<PayClientOptions>();
  expectTypeOf(createPayClient).returns.toEqualTypeOf<PayV130Client>();
  expectTypeOf(createPayV130Client).returns.toEqualTypeOf<PayClient>();

  createPayClient({ baseUrl: "https://pay.example.com", accessToken: "t" });
  createPayClient({ environment: "sandbox", variables: { pay_domain: "pay.example.org" }, accessToken: async () => "t" });
  // @ts-expect-error: Pay authenticates with a bearer token, not an API key
  createPayClient({ baseUrl: "https://pay.example.com", apiKey: "k" });
  // @ts-expect-error: accessToken is required
  createPayClient({ baseUrl: "https://pay.example.com" });
  // @ts-expect-error: Pay has no "staging" server
  createPayClient({ environment: "staging", accessToken: "t" });
  // @ts-expect-error: pay_domain is the only server variable
  createPayClient({ environment: "live", variables: { region: "eu" }, accessToken: "t" });

  expectTypeOf(servers[0].environment).toEqualTypeOf<"sandbox">();
  expectTypeOf(servers[1].url).toEqualTypeOf<"https://{pay_domain}">();
}
