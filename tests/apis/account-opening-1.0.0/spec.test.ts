/**
 * Account opening 1.0.0 against the Disbursement and Account Opening Interface ("Account
 * opening"): the three operations, the Bank, BankProduct and UserDetail types, the BankCode,
 * BankProductCode and application Status enumerations with their meanings, and the recorded gaps.
 */
import { describe, expect, it } from "vitest";
import { endpointKeys, fields, type Schema, specUnderTest } from "../../helpers/spec.js";

const { doc, schemas, valid, typesOf, jsonSchemaOf, operationKeys } = specUnderTest("account-opening@1.0.0");

const resources: Record<string, Record<string, string>> = {
  Bank: fields("code string; name string; logo_url string; products []BankProduct"),
  BankProduct: fields(
    "code string; name string; description string; interest string; facilities []string; requirements []string; costs []string",
  ),
  UserDetail: fields("user_name string; user_phone_number string; user_email string"),
};

const endpoints: Array<[string, string, string, string | null, string]> = [
  ["get", "/v1/product-list", "listBankProducts", null, "banks []Bank"],
  [
    "post",
    "/v1/open-account",
    "openAccount",
    "reference_id string; bank_code BankCode; product_code BankProductCode; user_detail UserDetail",
    "application_id string; application_url string; reference_id string",
  ],
  ["post", "/v1/status-inquiry", "inquireApplicationStatus", "application_id string", "status ApplicationStatus; reference_id string"],
];

const statuses: Record<string, string> = {
  UNKNOWN_STATUS: "Unknown or invalid",
  PENDING: "In queue, will be processed",
  SENT: "Application data submitted",
  PROCESSING: "Being processed by the bank",
  CREATED: "Account created",
  REJECTED: "Application rejected",
};

describe("account-opening@1.0.0 operations", () => {
  it("has exactly the three operations of the source", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)("%s %s (%s): x-api-key, the listed statuses, the source's fields", (method, path, _id, request, response) => {
    const op = doc.paths[path][method];
    expect(op.security).toEqual([{ apiKeyAuth: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "404", "500"]);
    if (request === null) expect(op.requestBody).toBeUndefined();
    else expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));
    expect(typesOf(jsonSchemaOf(op.responses["200"]))).toEqual(fields(response));
  });

  it("requires no open-account field: the source marks reference_id optional and names no required field", () => {
    expect(schemas.OpenAccountRequest.required).toBeUndefined();
    expect(schemas.OpenAccountRequest["x-unspecified"]).toMatch(/^Which request fields are required is not shown/);
    // Bodies the source allows: any subset of its four fields.
    for (const body of [
      {},
      { reference_id: "ref-1" },
      { bank_code: "DUMMY_BANK", product_code: "DUMMY_PRODUCT" },
      { user_detail: { user_name: "A" } },
      { reference_id: "ref-1", bank_code: "MANDIRI", product_code: "MANDIRI_NOW", user_detail: { user_name: "A" } },
    ]) {
      expect(valid("OpenAccountRequest", body), JSON.stringify(body)).toBe(true);
    }
    expect(valid("OpenAccountRequest", { bank_code: "BCA" })).toBe(false);
  });
});

describe("account-opening@1.0.0 types", () => {
  it.each(Object.entries(resources))("%s has every field of the source with its type and a description", (name, expected) => {
    expect(typesOf(schemas[name])).toEqual(expected);
    for (const [field, prop] of Object.entries<Schema>(schemas[name].properties)) expect(prop.description, `${name}.${field}`).toBeTruthy();
  });

  it("lists the bank codes, the product codes and the application statuses", () => {
    expect(schemas.BankCode.enum).toEqual(["UNKNOWN_BANK", "DUMMY_BANK", "MANDIRI"]);
    expect(schemas.BankProductCode.enum).toEqual(["UNKNOWN_PRODUCT", "DUMMY_PRODUCT", "MANDIRI_NOW"]);
    expect(schemas.ApplicationStatus.enum).toEqual(Object.keys(statuses));
  });

  it.each(Object.entries(statuses))("documents the meaning of %s", (status, meaning) => {
    expect(schemas.ApplicationStatus["x-enumDescriptions"][status].replace(/\.$/, "")).toBe(meaning);
    expect(schemas.ApplicationStatus.description.toLowerCase()).toContain(`\`${status.toLowerCase()}\`: ${meaning.toLowerCase()}`);
  });
});

describe("account-opening@1.0.0 servers, auth and gaps", () => {
  it("has a sandbox and a live server, the live one without the sandbox. label", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://sandbox.{account_opening_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{account_opening_domain}" });
    expect(sandbox.variables.account_opening_domain.default).toMatch(/\.example\.com$/);
  });

  it("authenticates with an x-api-key header and is release 1.0.0", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
    });
    expect(doc.security).toEqual([{ apiKeyAuth: [] }]);
    expect(doc.info.version).toBe("1.0.0");
    expect(Object.keys(doc.paths).every((p) => p.startsWith("/v1/"))).toBe(true);
  });

  const gaps: Array<[string, RegExp, () => Schema]> = [
    ["status transitions", /transitions/, () => schemas.ApplicationStatus],
    ["bank code meanings", /meaning/, () => schemas.BankCode],
    ["product code meanings", /meaning/, () => schemas.BankProductCode],
    ["error body", /error body/, () => doc.components.responses.BadRequest],
    ["events and rate limits", /events/, () => doc.info],
    ["required status-inquiry fields", /required/, () => schemas.InquireApplicationStatusRequest],
    ["required open-account fields", /required/, () => schemas.OpenAccountRequest],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, pattern, at) => {
    expect(at()["x-unspecified"]).toMatch(pattern);
  });
});
