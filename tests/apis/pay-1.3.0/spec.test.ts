/**
 * Pay 1.3.0 against the Pay Service Interface: every operation, resource,
 * field type, enum, deprecation and recorded gap that the source states for release 1.3.0.
 */
import { describe, expect, it } from "vitest";
import { endpointKeys, fields, type Schema, specUnderTest } from "../../helpers/spec.js";

/** The seed's type notation for a property: string, int32, int64, float, bytes, bool, Name, []Name. */
const { doc, schemas, valid, deref, propertiesOf, typesOf, jsonSchemaOf, operationKeys } = specUnderTest("pay@1.3.0", {
  refs: { Bytes: "bytes" },
  stringFormats: { byte: "bytes" },
});

/** Field tables of the source, written in its own notation. */
const resources: Record<string, Record<string, string>> = {
  Amount: fields("cur string; amt string"),
  Timestamp: fields("seconds int64; nanos int32"),
  Merchant: fields(`business_name string; active_url_count int32; accounts []Account; summary ValueSummary;
    merchant_id string; default_account_id string; country string; business_email string; mobile_country_code string;
    mobile_number string; url_expiry int32; logo_url string; qr string; status string; plan string; webhook_url string;
    short_code string; short_url string; merchant_type string; merchant_fee Fee; invitation_url string`),
  Account: fields(`id string; bank string; account_number string; biller_id string; first_name string; last_name string;
    bank_code int32; settlement_id string; settlement_alias_id string`),
  ValueSummary: fields("year []Amount; prev_year []Amount; month []Amount"),
  Fee: fields("fee_type string; fee_val float"),
  Invoice: fields(`invoice_id string; url string; status PaymentStatus; amount Amount; item_id string; description string;
    remarks string; created Timestamp; paid_date Timestamp; customer_name string; destination_account_id string;
    reference_no string; transaction_id string; raw_qr_data string; attachments string; payment_method PaymentMethod;
    children []Child; user_note_1 string; user_note_2 string; actual_amount Amount; fee_amount Amount; sub_merchant_id string`),
  Child: fields(`invoice_id string; url string; status PaymentStatus; amount Amount; created Timestamp; paid_date Timestamp;
    reference_no string; transaction_id string; expiry Timestamp; user_note_1 string; user_note_2 string;
    actual_amount Amount; fee_amount Amount; sub_merchant_id string`),
  Template: fields(`template_id string; template_name string; customer_name string; description string; remarks string;
    destination_account_id string; amount Amount`),
  SignupRequest: fields(`request_id string; name string; email_address string; mobile_country_code string;
    mobile_number string; status string; note string; reason string`),
  SubMerchant: fields(`id string; name string; paid_count int32; volume Amount; email string; mobile_number string;
    mobile_country_code string; created Timestamp`),
  CsvFile: fields("filename string; data bytes; size int32"),
};

const depositAccount = `bank_code int32; account_number string; account_first_name string; account_middle_name string;
  account_last_name string; set_default bool; biller_id string; settlement_id string; settlement_alias_id string`;
const templateFields = `template_name string; customer_name string; description string; remarks string;
  destination_account_id string; amount Amount`;

/** Every 1.3.0 endpoint of the source: method, path, operationId, request fields, response fields. */
const endpoints: Array<[string, string, string, string | null, string | null]> = [
  ["post", "/v1/deposit-account", "createDepositAccount", depositAccount, "account_id string"],
  ["put", "/v1/deposit-account/{account_id}", "updateDepositAccount", `${depositAccount}; account_id string`, ""],
  ["delete", "/v1/deposit-account/{account_id}", "deleteDepositAccount", null, ""],
  ["get", "/v1/supported-banks", "listSupportedBanks", null, null],
  [
    "post",
    "/v1/merchant",
    "createMerchant",
    `name string; address_line1 string; address_line2 string; city string;
    state_province string; country string; email_address string; mobile_country_code string; mobile_number string;
    url_expiry int32; logo bytes; qr string; webhook_url string; notification string`,
    "",
  ],
  [
    "put",
    "/v1/merchant/{merchant_id}",
    "updateMerchant",
    `url_expiry int32; merchant_id string; name string; email string;
    mobile_country_code string; mobile_number string; logo bytes; qr string; webhook_url string; remove_logo bool;
    notification string; merchant_fee Fee`,
    "",
  ],
  ["get", "/v1/merchant", "getMerchant", null, null],
  ["post", "/v1/template", "createTemplate", templateFields, "template_id string"],
  ["get", "/v1/template", "listTemplates", null, "template []Template"],
  ["put", "/v1/template/{template_id}", "updateTemplate", `template_id string; ${templateFields}`, ""],
  [
    "post",
    "/v1/invoice",
    "createInvoice",
    `merchant_id string; account_id string; amount Amount; item_id string;
    description string; remarks string; customer_name string; expiry int32; attachments bytes;
    payment_method PaymentMethod; child_amounts []Amount; sub_merchant_id string`,
    "url string; expiry Timestamp; message string; invoice_id string; transaction_id string; children []Child",
  ],
  ["get", "/v1/invoice", "listInvoices", null, "start Timestamp; end Timestamp; next string; urls []Invoice; file CsvFile"],
  [
    "put",
    "/v1/invoice/{invoice_id}",
    "updateInvoiceStatus",
    "invoice_id string; status PaymentStatus; notes string; attachments bytes",
    "invoice Invoice",
  ],
  [
    "put",
    "/v1/invoice/{invoice_id}/report",
    "reportInvoice",
    "invoice_id string; attachments bytes; description string; status string",
    "",
  ],
  ["put", "/v1/platform-merchant/approve", "approveSignupRequest", "request_id string", ""],
  ["put", "/v1/platform-merchant/deny", "denySignupRequest", "request_id string; note string", ""],
  ["get", "/v1/platform-merchant/request", "listSignupRequests", null, "signup_requests []SignupRequest; total int32"],
  [
    "get",
    "/v1/platform-merchant/sub-list",
    "listSubMerchants",
    null,
    "merchant_list []SubMerchant; total_merchant int32; total_paid int32; total_volume Amount",
  ],
  ["put", "/v1/platform-merchant/unlink", "unlinkSubMerchant", "sub_merchant_id string", ""],
  [
    "post",
    "/v1/sub-merchant",
    "createSubMerchantSignup",
    "platform_merchant_id string; name string; email_address string; mobile_number string",
    "request_id string",
  ],
];

describe("pay@1.3.0 operations", () => {
  it("has exactly the 20 operations of release 1.3.0", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)("%s %s (%s): bearer auth, the listed statuses, the source's fields", (method, path, _id, request, response) => {
    const op = doc.paths[path][method];
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "404", "500"]);
    if (request === null) expect(op.requestBody).toBeUndefined();
    else expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));
    const ok = jsonSchemaOf(op.responses["200"]);
    if (response === "") expect(deref(ok)).toMatchObject({ type: "object", additionalProperties: false });
    else if (response !== null) expect(typesOf(ok)).toEqual(fields(response));
  });

  it("answers GET /v1/merchant with Merchant and GET /v1/supported-banks with a code-to-name map", () => {
    expect(jsonSchemaOf(doc.paths["/v1/merchant"].get.responses["200"]).$ref).toBe("#/components/schemas/Merchant");
    const banks = deref(jsonSchemaOf(doc.paths["/v1/supported-banks"].get.responses["200"]));
    expect(banks.patternProperties).toEqual({ "^-?[0-9]+$": expect.objectContaining({ type: "string" }) });
    expect(banks.propertyNames.pattern).toBe("^-?[0-9]+$");
    expect(valid("SupportedBanks", { "14": "Example Bank", "-1": "Other" })).toBe(true);
    expect(valid("SupportedBanks", { BCA: "Example Bank" })).toBe(false);
    expect(valid("SupportedBanks", { "14": 14 })).toBe(false);
  });
});

describe("pay@1.3.0 resources", () => {
  it.each(Object.entries(resources))("%s has every field of the source with its type", (name, expected) => {
    expect(typesOf(schemas[name])).toEqual(expected);
    const props = propertiesOf(schemas[name]);
    for (const [field, prop] of Object.entries(props)) expect(prop.description, `${name}.${field}`).toBeTruthy();
  });

  it("marks the deprecated fields", () => {
    const deprecated = (name: string) =>
      Object.entries(propertiesOf(schemas[name]))
        .filter(([, p]) => p.deprecated)
        .map(([k]) => k)
        .sort();
    expect(deprecated("Merchant")).toEqual(["accounts", "active_url_count", "short_code", "summary"]);
    expect(deprecated("CreateInvoiceResponse")).toEqual(["message"]);
    for (const name of ["Merchant", "Invoice", "Child", "Account"]) expect(deprecated(name).length, name).toBe(name === "Merchant" ? 4 : 0);
  });

  it("lists the enumerations of the source", () => {
    expect(schemas.PaymentStatus.enum).toEqual(["Created", "Failed", "Success", "Expired", "Flagged"]);
    expect(schemas.PaymentMethod.enum).toEqual(["UnknownPaymentMethod", "Native", "ShopeePay"]);
    expect(schemas.Fee.properties.fee_type.enum).toEqual(["Fixed", "Percentage"]);
  });
});

describe("pay@1.3.0 servers, auth and events", () => {
  it("has a sandbox and a live server, the live one without the sandbox. label", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://sandbox.{pay_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{pay_domain}" });
    expect(sandbox.variables.pay_domain.default).toMatch(/\.example\.com$/);
  });

  it("authenticates with a bearer token", () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it("declares the invoice-paid notification as a webhook with an unspecified payload", () => {
    const hook = doc.webhooks.invoicePaid.post;
    expect(hook.operationId).toBe("notifyInvoicePaid");
    expect(jsonSchemaOf(hook.requestBody)["x-unspecified"]).toMatch(/payload/);
  });
});

describe("pay@1.3.0 gaps of the source", () => {
  const gaps: Array<[string, (d: any) => unknown]> = [
    ["merchant status values", () => schemas.Merchant.properties.status],
    ["merchant plan values", () => schemas.Merchant.properties.plan],
    ["merchant type values", () => schemas.Merchant.properties.merchant_type],
    ["notification values", () => schemas.CreateMerchantRequest.properties.notification],
    ["name of the account-map member", () => schemas.Merchant],
    ["invoice list query parameters", (d) => d.paths["/v1/invoice"].get],
    ["signup request filters", (d) => d.paths["/v1/platform-merchant/request"].get],
    ["sub-merchant list filters", (d) => d.paths["/v1/platform-merchant/sub-list"].get],
    ["error body", (d) => d.components.responses.BadRequest],
    ["webhook payload", (d) => jsonSchemaOf(d.webhooks.invoicePaid.post.requestBody)],
    ["token issuance", (d) => d.components.securitySchemes.bearerAuth],
    ["platform-merchant roles", (d) => d.tags.find((t: any) => t.name === "Platform merchants")],
    ["flagged meaning and other transitions", () => schemas.PaymentStatus],
    ["attachment size limits", () => schemas.CreateInvoiceRequest.properties.attachments],
    ["logo size limits and url_expiry default", () => schemas.CreateMerchantRequest.properties.logo],
    ["rate limits and deprecation policy", (d) => d.info],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, at) => {
    const node = at(doc) as Schema;
    expect(typeof node["x-unspecified"]).toBe("string");
    expect(node["x-unspecified"].length).toBeGreaterThan(10);
  });
});

describe("pay@1.3.0 Merchant's unnamed destination-account map", () => {
  const validate = (data: unknown) => valid("Merchant", data);

  it("accepts an unlisted member that maps account ids to accounts", () => {
    expect(validate({ business_name: "Shop", some_map: { acc_1: { id: "acc_1", bank_code: 14 } } })).toBe(true);
  });

  it("rejects an unlisted member that is not such a map", () => {
    expect(validate({ business_name: "Shop", stray: "text" })).toBe(false);
    expect(validate({ business_name: "Shop", some_map: { acc_1: { bank_code: "fourteen" } } })).toBe(false);
  });
});

describe("pay@1.3.0 says no more than the source", () => {
  const merchantExamples = doc.paths["/v1/merchant"].post.requestBody.content["application/json"].examples;

  it("createMerchant examples send no notification value (its allowed values are not shown)", () => {
    expect(Object.keys(merchantExamples).length).toBeGreaterThan(0);
    for (const [name, example] of Object.entries<Schema>(merchantExamples))
      expect(deref(example).value, name).not.toHaveProperty("notification");
  });

  it.each([
    ["UpdateMerchantRequest", "notification", /Allowed values of notification are not shown/],
    ["UpdateMerchantRequest", "logo", /size limit of the logo is not shown/],
    ["UpdateInvoiceStatusRequest", "attachments", /size limit of attachments is not shown/],
    ["ReportInvoiceRequest", "attachments", /size limit of attachments is not shown/],
    ["CreateMerchantRequest", "logo", /size limit of the logo is not shown/],
    ["CreateInvoiceRequest", "attachments", /size limit of attachments is not shown/],
  ])("%s.%s carries the marker its siblings carry", (schema, field, marker) => {
    expect(schemas[schema].properties[field]["x-unspecified"]).toMatch(marker);
  });

  it("fee_type: a percentage, of what not stated; the 2-decimal limit stated in prose, 2-decimal values accepted", () => {
    const fee = schemas.Fee.properties;
    expect(fee.fee_type.description).not.toMatch(/invoice amount/);
    expect(fee.fee_type["x-unspecified"]).toMatch(/percentage of is not shown/);
    expect(fee.fee_val.description).toMatch(/at most 2 decimal digits/);
    expect(fee.fee_val.multipleOf).toBeUndefined();
    // Values the source allows: a percentage with two decimals (1.15 is not a multiple of 0.01 in binary floats).
    for (const fee_val of [1.15, 2.5, 0.07, 10]) expect(valid("Fee", { fee_type: "Percentage", fee_val }), String(fee_val)).toBe(true);
    expect(valid("Fee", { fee_type: "Fixed", fee_val: 100 })).toBe(true);
  });

  it("deprecated accounts: no replacement named (the source names none)", () => {
    const accounts = schemas.Merchant.properties.accounts;
    expect(accounts.deprecated).toBe(true);
    expect(accounts.description).toMatch(/names no replacement/);
    expect(accounts.description).not.toMatch(/map member carries|use /);
  });

  it("next: no 1.2.0 meaning claimed for 1.3.0", () => {
    const next = schemas.InvoiceList.properties.next;
    expect(next.description).not.toMatch(/^Invoice id of the next batch/);
    expect(next["x-unspecified"]).toMatch(/meaning of next in release 1\.3\.0 is not shown/);
  });

  it("Merchant: closed to members other than the account map, the choice and its reason marked", () => {
    expect(schemas.Merchant.unevaluatedProperties).toBeDefined();
    expect(schemas.Merchant["x-unspecified"]).toMatch(/only as that map .* lists every other member/);
    expect(valid("Merchant", { merchant_id: "m", accounts_by_id: { acc_1: { id: "acc_1", bank: "Example Bank" } } })).toBe(true);
  });

  it("Timestamp.seconds: int64 bounds, so 2^63 and 1e19 are rejected", () => {
    const at = (seconds: number) => valid("Timestamp", { seconds, nanos: 0 });
    expect(at(1763719200)).toBe(true);
    expect(at(-(2 ** 63))).toBe(true);
    expect(at(2 ** 63 - 1024)).toBe(true);
    expect(at(2 ** 63)).toBe(false);
    expect(at(1e19)).toBe(false);
  });
});
