/**
 * Compile-time proof that the generated Disbursement 1.0.0 client types the source's rules: the
 * per-item result envelope is a union that narrows to its success or error form, required fields
 * and enum values are enforced, the query's dotted date parts are typed, and the client takes an
 * API key. Checked by `npm run typecheck` (tsc); each rejected call has an accepted twin.
 */
import { expectTypeOf } from "vitest";
import { ApiError, unwrap } from "../../../src/client/index.js";
import {
  createDisbursementClient,
  createDisbursementV100Client,
  servers,
  type components,
  type DisbursementClient,
  type DisbursementV100Client,
} from "../../../generated/disbursement/1.0.0/client.js";

type Schemas = components["schemas"];
type ItemResult = Schemas["ItemResult"];

declare const client: DisbursementClient;

const credentials = {
  UBP_CLIENT: { identifier: "<your-client-id>", secret: "<your-client-secret>" },
  UBP_PARTNER_ACCOUNT: {
    identifier: "<your-partner-account-id>",
    secret: "<your-partner-account-password>",
    corporate_id: "<your-partner-id>",
  },
};
const item: Schemas["DisbursementItem"] = {
  corporate_id: "EXAMPLE_MERCHANT",
  reference_id: "payout-1",
  type: "ON_DEMAND",
  source_account: { bank: "UNIONBANK_CORPORATE", number: "1", holder_name: "Example Corporation" },
  source_amount: { cur: "PHP" },
  destination_account: { bank: "PH_UB", number: "2", holder_name: "Juan Dela Cruz", address: { city: "Makati" } },
  destination_amount: { num: "150000", cur: "PHP" },
};

export function resultEnvelope(result: ItemResult) {
  expectTypeOf<ItemResult>().toEqualTypeOf<Schemas["ItemSuccess"] | Schemas["ItemFailure"]>();
  // success is the source's bool (it shows it true in the success form).
  expectTypeOf<Schemas["ItemSuccess"]>().toEqualTypeOf<{ success: boolean; message?: string }>();
  expectTypeOf<Schemas["ItemFailure"]["error"]>().toEqualTypeOf<Array<{ code: string; message: string }>>();

  if ("error" in result) {
    expectTypeOf(result).toEqualTypeOf<Schemas["ItemFailure"]>();
    expectTypeOf(result.error[0].code).toEqualTypeOf<string>();
    // @ts-expect-error: the error form has no success flag
    result.success;
  } else {
    expectTypeOf(result).toEqualTypeOf<Schemas["ItemSuccess"]>();
    expectTypeOf(result.success).toEqualTypeOf<boolean>();
    expectTypeOf(result.message).toEqualTypeOf<string | undefined>();
    // @ts-expect-error: the success form has no error array
    result.error;
  }

  const ok: ItemResult[] = [
    { success: true },
    { success: true, message: "sent" },
    { error: [{ code: "E1", message: "bad" }] },
    // Not ruled out by the source: the error form with a false success flag beside it.
    { success: false, error: [{ code: "E1", message: "bad" }] },
  ];
  // @ts-expect-error: neither form
  const neither: ItemResult = {};
  // @ts-expect-error: an error entry needs code and message
  const partial: ItemResult = { error: [{ code: "E1" }] };
  return [ok, neither, partial];
}

export async function createDisbursements() {
  await client.POST("/v1/disbursements", { body: { credentials, disbursements: [item] } });
  // @ts-expect-error: credentials are required
  await client.POST("/v1/disbursements", { body: { disbursements: [item] } });
  // @ts-expect-error: type is ON_DEMAND or FUTURE
  await client.POST("/v1/disbursements", { body: { credentials, disbursements: [{ ...item, type: "SCHEDULED" }] } });
  // @ts-expect-error: destination_amount.num is a string of minor units, not a number
  await client.POST("/v1/disbursements", { body: { credentials, disbursements: [{ ...item, destination_amount: { num: 150000 } }] } });
  const { reference_id: _omitted, ...withoutReference } = item;
  // @ts-expect-error: reference_id is required
  await client.POST("/v1/disbursements", { body: { credentials, disbursements: [withoutReference] } });
  await client.POST("/v1/disbursements", {
    // @ts-expect-error: the Philippine partner credential needs its corporate_id
    body: { credentials: { UBP_PARTNER_ACCOUNT: { identifier: "<id>", secret: "<secret>" } }, disbursements: [item] },
  });

  const data = unwrap(await client.POST("/v1/disbursements", { body: { credentials, disbursements: [item] } }));
  expectTypeOf(data).toEqualTypeOf<Schemas["CreateDisbursementsResponse"]>();
  const first = data.result?.[0];
  if (first?.result && "error" in first.result) expectTypeOf(first.result.error).toEqualTypeOf<Schemas["ErrorDetail"][]>();
}

export async function listDisbursements() {
  await client.GET("/v1/disbursements", {
    params: {
      query: {
        disbursement_request_id: "batch_1",
        disbursement_ids: ["d1", "d2"],
        "start_date.year": 2024,
        "start_date.month": 5,
        "end_date.day": 31,
      },
    },
  });
  // @ts-expect-error: the date parts are numbers
  await client.GET("/v1/disbursements", { params: { query: { "start_date.month": "5" } } });
  // @ts-expect-error: the date filter is dotted, not nested
  await client.GET("/v1/disbursements", { params: { query: { start_date: { month: 5 } } } });
  // @ts-expect-error: disbursement_ids is an array
  await client.GET("/v1/disbursements", { params: { query: { disbursement_ids: "d1" } } });

  const list = unwrap(await client.GET("/v1/disbursements"));
  expectTypeOf(list.total_record).toEqualTypeOf<number | string | undefined>();
  expectTypeOf(list.disbursements).toEqualTypeOf<Schemas["Disbursement"][] | undefined>();
  // Only created is stated as ISO 8601 (GmtTimestamp); updated and processed are plain strings.
  expectTypeOf<Schemas["Disbursement"]["updated"]>().toEqualTypeOf<string | undefined>();
  expectTypeOf<Schemas["Disbursement"]["processed"]>().toEqualTypeOf<string | undefined>();
}

export async function refreshAndInquiry() {
  await client.POST("/v1/disbursements/external-status-updates", { body: { credentials, disbursement_request_id: "batch_1" } });
  // @ts-expect-error: the refresh takes disbursement_ids (an array), not the parameter table's disbursement_id
  await client.POST("/v1/disbursements/external-status-updates", { body: { credentials, disbursement_ids: "d1" } });
  await client.POST("/v1/disbursements/external-status-updates", {
    // @ts-expect-error: on status refresh a BNI entry needs corporate_id
    body: { credentials: { BNI_CLIENT: { identifier: "<id>", secret: "<secret>" } } },
  });
  // @ts-expect-error: only the Philippine family keys apply to status refresh (BCA is not one)
  const bca: Schemas["StatusRefreshCredentials"] = { BCA_CLIENT: { identifier: "<id>", secret: "<secret>" } };
  await client.POST("/v1/disbursements/external-status-updates", { body: { credentials: bca } });
  await client.POST("/v1/disbursements/external-status-updates", {
    body: { credentials: { UBP_CLIENT: credentials.UBP_CLIENT, UBP_PARTNER: credentials.UBP_PARTNER_ACCOUNT } },
  });

  await client.POST("/v1/disbursements/account-inquiry", { body: { bank_account: { bank: "ID_BCA", number: "1" } } });
  // @ts-expect-error: the account inquiry is POST; the source's PUT sample is not an operation
  await client.PUT("/v1/disbursements/account-inquiry", { body: { bank_account: { bank: "ID_BCA", number: "1" } } });
  const inquiry = await client.POST("/v1/disbursements/account-inquiry", { body: { bank_account: { bank: "ID_BCA", number: "1" } } });
  // An answer without a body gives an ApiError as error; a body is typed as declared.
  if (inquiry.error instanceof ApiError) expectTypeOf(inquiry.error.status).toEqualTypeOf<number>();
  else if (inquiry.error) expectTypeOf(inquiry.error).toEqualTypeOf<Schemas["AccountInquiryError"]>();
  if (inquiry.data) expectTypeOf(inquiry.data.bank_account?.holder_name).toEqualTypeOf<string | undefined>();
}

export function factories() {
  expectTypeOf(createDisbursementClient).returns.toEqualTypeOf<DisbursementV100Client>();
  expectTypeOf(createDisbursementV100Client).returns.toEqualTypeOf<DisbursementClient>();
  createDisbursementClient({ baseUrl: "http://127.0.0.1:4015", apiKey: "k" });
  createDisbursementClient({ environment: "live", variables: { disburse_domain: "disburse.example.org" }, apiKey: () => "k" });
  // @ts-expect-error: the disbursement API takes an API key, not a bearer token
  createDisbursementClient({ baseUrl: "http://127.0.0.1:4015", accessToken: "t" });
  // @ts-expect-error: apiKey is required
  createDisbursementClient({ baseUrl: "http://127.0.0.1:4015" });
  // @ts-expect-error: disburse_domain is the only server variable
  createDisbursementClient({ environment: "sandbox", variables: { pay_domain: "x" }, apiKey: "k" });
  expectTypeOf(servers[0].url).toEqualTypeOf<"https://sandbox.{disburse_domain}">();
}
