/**
 * Compile-time proof that the generated Account Opening 1.0.0 client types the source's enums and
 * required fields and takes an API key. Checked by `npm run typecheck` (tsc).
 */
import { expectTypeOf } from "vitest";
import { unwrap } from "../../../src/client/index.js";
import {
  createAccountOpeningClient,
  createAccountOpeningV100Client,
  type AccountOpeningClient,
  type AccountOpeningV100Client,
  type components,
} from "../../../generated/account-opening/1.0.0/client.js";

type Schemas = components["schemas"];

declare const client: AccountOpeningClient;

const user_detail = { user_name: "Siti Rahma", user_phone_number: "+620000000001", user_email: "siti@example.com" };

export function enums() {
  expectTypeOf<Schemas["BankCode"]>().toEqualTypeOf<"UNKNOWN_BANK" | "DUMMY_BANK" | "MANDIRI">();
  expectTypeOf<Schemas["BankProductCode"]>().toEqualTypeOf<"UNKNOWN_PRODUCT" | "DUMMY_PRODUCT" | "MANDIRI_NOW">();
  expectTypeOf<Schemas["ApplicationStatus"]>().toEqualTypeOf<
    "UNKNOWN_STATUS" | "PENDING" | "SENT" | "PROCESSING" | "CREATED" | "REJECTED"
  >();
}

export async function openAccount() {
  await client.POST("/v1/open-account", { body: { bank_code: "DUMMY_BANK", product_code: "DUMMY_PRODUCT", user_detail } });
  await client.POST("/v1/open-account", {
    body: { reference_id: "ref-1", bank_code: "MANDIRI", product_code: "MANDIRI_NOW", user_detail },
  });
  // @ts-expect-error: "BCA" is not a BankCode
  await client.POST("/v1/open-account", { body: { bank_code: "BCA", product_code: "DUMMY_PRODUCT", user_detail } });
  // @ts-expect-error: "SAVINGS" is not a BankProductCode
  await client.POST("/v1/open-account", { body: { bank_code: "DUMMY_BANK", product_code: "SAVINGS", user_detail } });
  // No field is required (the source names none): a body without user_detail, or an empty one, types.
  await client.POST("/v1/open-account", { body: { bank_code: "DUMMY_BANK", product_code: "DUMMY_PRODUCT" } });
  await client.POST("/v1/open-account", { body: {} });
  expectTypeOf<Schemas["OpenAccountRequest"]>().toEqualTypeOf<{
    reference_id?: string;
    bank_code?: Schemas["BankCode"];
    product_code?: Schemas["BankProductCode"];
    user_detail?: Schemas["UserDetail"];
  }>();

  const opened = unwrap(
    await client.POST("/v1/open-account", { body: { bank_code: "DUMMY_BANK", product_code: "DUMMY_PRODUCT", user_detail } }),
  );
  expectTypeOf(opened.application_url).toEqualTypeOf<string | undefined>();
}

export async function statusAndProducts() {
  const status = unwrap(await client.POST("/v1/status-inquiry", { body: { application_id: "app_1" } }));
  expectTypeOf(status.status).toEqualTypeOf<Schemas["ApplicationStatus"] | undefined>();
  if (status.status === "CREATED") expectTypeOf(status.status).toEqualTypeOf<"CREATED">();
  // @ts-expect-error: "DONE" is not an application status
  if (status.status === "DONE") return;
  // @ts-expect-error: the status inquiry is POST
  await client.GET("/v1/status-inquiry");

  const products = unwrap(await client.GET("/v1/product-list"));
  expectTypeOf(products.banks).toEqualTypeOf<Schemas["Bank"][] | undefined>();
  expectTypeOf<NonNullable<Schemas["BankProduct"]["facilities"]>>().toEqualTypeOf<string[]>();
}

export function factories() {
  expectTypeOf(createAccountOpeningClient).returns.toEqualTypeOf<AccountOpeningV100Client>();
  expectTypeOf(createAccountOpeningV100Client).returns.toEqualTypeOf<AccountOpeningClient>();
  createAccountOpeningClient({ environment: "sandbox", apiKey: "k" });
  // @ts-expect-error: account opening takes an API key, not a bearer token
  createAccountOpeningClient({ environment: "sandbox", accessToken: "t" });
  // @ts-expect-error: account_opening_domain is the only server variable
  createAccountOpeningClient({ environment: "live", variables: { disburse_domain: "x" }, apiKey: "k" });
}
