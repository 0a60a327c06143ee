/**
 * Compile-time proof that the generated Pay 1.2.0 client shows the release's inconsistencies as
 * union types (url_expiry, invoice amount, invoice status) and rejects wrong paths, methods, bodies
 * and values. Checked by `npm run typecheck` (tsc): a failing expectTypeOf, or a `@ts-expect-error`
 * line that stops erroring, fails the build. Each rejected call has an accepted twin that differs
 * only in the mistake, so the expected error is the one meant.
 */
import { expectTypeOf } from "vitest";
import { unwrap } from "../../../src/client/index.js";
import {
  api,
  createPayV120Client,
  servers,
  type components,
  type PayV120Client,
  type PayV120ClientOptions,
} from "../../../generated/pay/1.2.0/client.js";
import * as pay120 from "../../../generated/pay/1.2.0/client.js";
import { createPayClient, type PayClient } from "../../../generated/pay/1.3.0/client.js";

type Schemas = components["schemas"];

declare const client: PayV120Client;

export function quirkUnions() {
  // url_expiry: typed string or integer by release 1.2.0, so both are in the type.
  expectTypeOf<Schemas["Merchant"]["url_expiry"]>().toEqualTypeOf<number | string | undefined>();
  // An invoice's amount: a bare string or a PayAmount object.
  expectTypeOf<Schemas["PayURLStatus"]["amount"]>().toEqualTypeOf<string | Schemas["PayAmount"] | undefined>();
  // The enumeration as listed, plus the payload sample's `Created`.
  expectTypeOf<Schemas["PayPaymentStatus"]>().toEqualTypeOf<"CREATED" | "FAILED" | "SUCCESS" | "EXPIRED">();
  expectTypeOf<Schemas["PayURLStatus"]["status"]>().toEqualTypeOf<"CREATED" | "FAILED" | "SUCCESS" | "EXPIRED" | "Created" | undefined>();
  // Timestamps are ISO 8601 strings in 1.2.0.
  expectTypeOf<Schemas["InvoiceList"]["start"]>().toEqualTypeOf<string | undefined>();
  // Requests send url_expiry as the integer the request tables give.
  expectTypeOf<Schemas["UpdateMerchantRequest"]["url_expiry"]>().toEqualTypeOf<number | undefined>();
}

export async function readingTheUnions() {
  const merchant = unwrap(await client.GET("/v1/merchant", { params: { query: { merchant_id: "mer_1" } } }));
  const hours: number = typeof merchant.url_expiry === "string" ? Number(merchant.url_expiry) : (merchant.url_expiry ?? 0);
  // @ts-expect-error: url_expiry may be a string, so it is not assignable to number without narrowing
  const unchecked: number | undefined = merchant.url_expiry;

  const list = unwrap(await client.GET("/v1/invoice", { params: { query: { merchant_id: "mer_1", limit: 10 } } }));
  for (const invoice of list.urls ?? []) {
    const value: string | undefined = typeof invoice.amount === "string" ? invoice.amount : invoice.amount?.amt;
    // @ts-expect-error: amount may be a bare string, which has no `amt`
    const amt = invoice.amount?.amt;
    const created: boolean = invoice.status === "CREATED" || invoice.status === "Created";
    // @ts-expect-error: "Flagged" is a 1.3.0 status; 1.2.0 has no such value
    const flagged: boolean = invoice.status === "Flagged";
    void [value, amt, created, flagged];
  }
  void [hours, unchecked];
}

export async function requests() {
  await client.PUT("/v1/merchant/{merchant_id}", {
    params: { path: { merchant_id: "mer_1" } },
    body: { merchant_id: "mer_1", url_expiry: 48, mobile_country_code: "+62", mobile_number: "81200000000" },
  });
  await client.PUT("/v1/merchant/{merchant_id}", {
    params: { path: { merchant_id: "mer_1" } },
    // @ts-expect-error: a request sends url_expiry as an integer
    body: { url_expiry: "48" },
  });
  await client.POST("/v1/deposit-account", { body: { bank_code: 14, account_first_name: "Siti", account_middle_name: "Nur" } });
  // The holder name fields carry the request sample's account_ prefix, not the field table's account_number_.
  expectTypeOf<Schemas["DepositAccountFields"]>().toHaveProperty("account_first_name");
  expectTypeOf<Schemas["DepositAccountFields"]>().not.toHaveProperty("account_number_first_name");
  expectTypeOf<Schemas["DepositAccountFields"]>().not.toHaveProperty("account_number_middle_name");
  // @ts-expect-error: bank_code is an integer
  await client.POST("/v1/deposit-account", { body: { bank_code: "14" } });
  await client.POST("/v1/invoice", { body: { amount: { cur: "IDR", amt: "1000" }, expiry: 24 } });
  // A request's amount is a PayAmount; only responses (PayURLStatus) carry the bare-string form.
  expectTypeOf<Schemas["CreateInvoiceRequest"]["amount"]>().toEqualTypeOf<Schemas["PayAmount"] | undefined>();
  // @ts-expect-error: PayAmount.amt is a string ("1000"), not a number
  await client.POST("/v1/invoice", { body: { amount: { cur: "IDR", amt: 1000 } } });
  // @ts-expect-error: invoice creation is POST; the PUT of one sample is not the method
  await client.PUT("/v1/invoice", { body: { amount: { cur: "IDR", amt: "1000" } } });
  await client.GET("/v1/invoice", { params: { query: { start: "2025-11-01T00:00:00.000Z", limit: 2 } } });
  // @ts-expect-error: limit is an integer
  await client.GET("/v1/invoice", { params: { query: { limit: "2" } } });
  await client.GET("/v1/supported-banks");
  // @ts-expect-error: templates are release 1.3.0; 1.2.0 has no such path
  await client.GET("/v1/template");
  // @ts-expect-error: deleting a destination account is release 1.3.0
  await client.DELETE("/v1/deposit-account/{account_id}", { params: { path: { account_id: "acc_1" } } });
}

export async function responses() {
  const banks = unwrap(await client.GET("/v1/supported-banks"));
  expectTypeOf(banks.banks).toEqualTypeOf<{ [key: string]: string } | undefined>();
  const created = unwrap(await client.POST("/v1/invoice", { body: {} }));
  expectTypeOf(created).toEqualTypeOf<Schemas["CreateInvoiceResponse"]>();
  expectTypeOf(created.expiry).toEqualTypeOf<string | undefined>();
  const account = unwrap(await client.POST("/v1/deposit-account", { body: {} }));
  expectTypeOf(account.account_id).toEqualTypeOf<string | undefined>();
}

export function authFailures() {
  // 1.2.0 lists only 200 per endpoint; the Authentication section (both releases) adds 401 and 403.
  type Statuses<Id extends keyof pay120.operations> = keyof pay120.operations[Id]["responses"];
  expectTypeOf<Statuses<"listInvoices">>().toEqualTypeOf<200 | 401 | 403>();
  expectTypeOf<Statuses<"createMerchant">>().toEqualTypeOf<200 | 401 | 403>();
  expectTypeOf<Statuses<"updateDepositAccount">>().toEqualTypeOf<200 | 401 | 403>();
  expectTypeOf<keyof components["responses"]>().toEqualTypeOf<"Unauthorized" | "Forbidden">();
}

export function factories() {
  // Only the versioned factory: the plain createPayClient is the newest release's (1.3.0).
  expectTypeOf(api.release).toEqualTypeOf<"1.2.0">();
  expectTypeOf(createPayV120Client).parameter(0).toEqualTypeOf<PayV120ClientOptions>();
  // @ts-expect-error: 1.2.0 has no unversioned factory
  void pay120.createPayClient;
  expectTypeOf(createPayClient).returns.toEqualTypeOf<PayClient>();
  expectTypeOf<PayClient>().not.toEqualTypeOf<PayV120Client>();

  createPayV120Client({ baseUrl: "http://127.0.0.1:4011", accessToken: "t" });
  createPayV120Client({ environment: "live", variables: { pay_v120_domain: "pay.your-provider.test" }, accessToken: () => "t" });
  // @ts-expect-error: accessToken is required (every 1.2.0 request carries the bearer token)
  createPayV120Client({ baseUrl: "http://127.0.0.1:4011" });
  // @ts-expect-error: the 1.2.0 server variable is pay_v120_domain, not 1.3.0's pay_domain
  createPayV120Client({ environment: "sandbox", variables: { pay_domain: "pay.example.org" }, accessToken: "t" });

  expectTypeOf(servers[0].url).toEqualTypeOf<"https://sandbox.{pay_v120_domain}">();
  expectTypeOf(servers[1].environment).toEqualTypeOf<"live">();
}
