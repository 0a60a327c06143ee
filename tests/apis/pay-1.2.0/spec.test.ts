/**
 * Pay 1.2.0 against the Pay Service Interface: the 8 operations of release
 * 1.2.0, its resources with the source's field types, the deprecated and unused members, the gaps
 * recorded as x-unspecified, and each inconsistency of the release encoded so that every form it
 * documents validates (Ajv 2020 over the bundled spec, then through the running mock) while a wrong
 * type is still rejected.
 */
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findApi } from "../../../src/registry.js";
import { startMock, type MockServer } from "../../../src/mock/index.js";
import { specValidator } from "../../helpers/ajv.js";
import { endpointKeys, fields, type Schema, specUnderTest } from "../../helpers/spec.js";

/**
 * The source's notation for a property's type: string, integer, bool, timestamp (the ISO 8601 string
 * of release 1.2.0), Name, []Name, map<Name> (an object keyed by id), a const as its JSON value, and
 * a|b for a union.
 */
const { entry, doc, schemas, valid, deref, propertiesOf, typesOf, jsonSchemaOf, operationKeys } = specUnderTest("pay@1.2.0", {
  refs: { PayTimestamp: "timestamp" },
  constValues: true,
});

/** The release 1.2.0 resources of the source, in its own notation (union members in schema order). */
const resources: Record<string, Record<string, string>> = {
  Merchant: fields(`business_name string; active_url_count integer; accounts []PayAccount; summary PayValueSummary;
    merchant_id string; default_account_id string; destination_accounts map<PayAccount>; country string;
    business_email string; mobile_country_code string; mobile_number string; url_expiry integer|string`),
  PayAccount: fields("id string; bank string; account_number string; biller_id string; first_name string; last_name string"),
  PayAmount: fields("cur string; amt string"),
  PayValueSummary: fields("year []PayAmount; prev_year []PayAmount; month []PayAmount"),
  PayURLStatus: fields(`invoice_id string; url string; status PayPaymentStatus|"Created"; amount string|PayAmount;
    item_id string; description string; remarks string; created timestamp; paid_date timestamp; customer_name string`),
  InvoiceList: fields("start timestamp; end timestamp; next string; urls []PayURLStatus"),
};

const depositAccount = `bank_code integer; account_number string; account_first_name string; account_middle_name string;
  account_last_name string; set_default bool; biller_id string`;

/**
 * Every 1.2.0 endpoint of the source: method, path, operationId, query parameters, request fields,
 * response fields ("" when the source does not show the response body).
 */
const endpoints: Array<[string, string, string, string[], string | null, string]> = [
  ["get", "/v1/merchant", "getMerchant", ["merchant_id"], null, "Merchant"],
  [
    "post",
    "/v1/merchant",
    "createMerchant",
    [],
    `name string; address_line1 string; address_line2 string; city string;
    state_province string; country string; email_address string; mobile_country_code string; mobile_number string;
    url_expiry integer`,
    "",
  ],
  [
    "put",
    "/v1/merchant/{merchant_id}",
    "updateMerchant",
    [],
    `url_expiry integer; merchant_id string; name string;
    email string; mobile_country_code string; mobile_number string`,
    "",
  ],
  [
    "post",
    "/v1/invoice",
    "createInvoice",
    [],
    `merchant_id string; account_id string; amount PayAmount; item_id string;
    description string; remarks string; customer_name string; expiry integer`,
    "url string; expiry timestamp; message string; invoice_id string",
  ],
  ["get", "/v1/invoice", "listInvoices", ["merchant_id", "start", "end", "limit"], null, "InvoiceList"],
  ["post", "/v1/deposit-account", "createDepositAccount", [], depositAccount, "account_id string"],
  ["put", "/v1/deposit-account/{account_id}", "updateDepositAccount", [], `${depositAccount}; account_id string`, ""],
  ["get", "/v1/supported-banks", "listSupportedBanks", [], null, "banks map<string>"],
];

describe("pay@1.2.0 operations", () => {
  it("has exactly the 8 operations of release 1.2.0", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)(
    "%s %s (%s): bearer auth, 200 and the Authentication section's 401 and 403, the source's parameters and fields",
    (method, path, _id, query, request, response) => {
      const op = doc.paths[path][method];
      expect(op.security).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(op.responses)).toEqual(["200", "401", "403"]);
      const params = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(deref);
      expect(params.filter((p) => p.in === "query").map((p) => p.name)).toEqual(query);
      if (request === null) expect(op.requestBody).toBeUndefined();
      else expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));

      const ok = deref(op.responses["200"]);
      if (response === "") {
        expect(ok.content, "the source does not show this body").toBeUndefined();
        expect(ok["x-unspecified"]).toMatch(/body of the response is not shown/);
      } else if (/^[A-Z]\w+$/.test(response)) expect(jsonSchemaOf(ok).$ref).toBe(`#/components/schemas/${response}`);
      else expect(typesOf(jsonSchemaOf(ok))).toEqual(fields(response));
    },
  );

  it("keys supported banks by integer bank code", () => {
    const banks = propertiesOf(jsonSchemaOf(doc.paths["/v1/supported-banks"].get.responses["200"])).banks;
    expect(banks.propertyNames.pattern).toBe("^-?[0-9]+$");
    expect(banks.patternProperties).toEqual({ "^-?[0-9]+$": expect.objectContaining({ type: "string" }) });
  });

  it("records that the 1.2.0 samples of read calls omit the Authorization header", () => {
    for (const [method, path] of [
      ["get", "/v1/merchant"],
      ["get", "/v1/invoice"],
      ["get", "/v1/supported-banks"],
    ]) {
      expect(doc.paths[path][method].description, `${method} ${path}`).toMatch(/without the `Authorization` header/);
    }
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/read\s+calls omit the header/);
  });
});

describe("pay@1.2.0 resources", () => {
  it.each(Object.entries(resources))("%s has every field of the source with its type", (name, expected) => {
    expect(typesOf(schemas[name])).toEqual(expected);
    for (const [field, prop] of Object.entries(propertiesOf(schemas[name]))) expect(prop.description, `${name}.${field}`).toBeTruthy();
  });

  it("lists PayPaymentStatus as the source's enumeration gives it", () => {
    expect(schemas.PayPaymentStatus.enum).toEqual(["CREATED", "FAILED", "SUCCESS", "EXPIRED"]);
  });

  it("marks accounts deprecated (no replacement named: the source names none) and active_url_count unused", () => {
    const props = propertiesOf(schemas.Merchant);
    const deprecated = Object.entries(props)
      .filter(([, p]) => p.deprecated)
      .map(([k]) => k);
    expect(deprecated).toEqual(["accounts"]);
    expect(props.accounts.description).toMatch(/names no replacement/);
    expect(props.accounts.description).not.toMatch(/destination_accounts/);
    expect(props.active_url_count["x-unused"]).toMatch(/currently unused/);
    expect(props.active_url_count.description).toMatch(/unused/);
  });

  it("writes timestamps as ISO 8601 UTC strings with milliseconds", () => {
    const validate = specValidator(doc).validate;
    const at = "/components/schemas/PayTimestamp";
    expect(validate(at, "2025-11-21T10:00:00.000Z").valid).toBe(true);
    for (const wrong of ["2025-11-21T10:00:00Z", "2025-11-21T17:00:00.000+07:00", "2025-11-21", 1763719200, { seconds: 1, nanos: 0 }]) {
      expect(validate(at, wrong).valid, JSON.stringify(wrong)).toBe(false);
    }
  });
});

describe("pay@1.2.0 servers and auth", () => {
  it("has a sandbox and a live server for {pay_v120_url}, the live one without the sandbox. label", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://sandbox.{pay_v120_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{pay_v120_domain}" });
    expect(sandbox.description).toContain("{pay_v120_url}");
    expect(sandbox.variables.pay_v120_domain.default).toMatch(/\.example\.com$/);
  });

  it("authenticates every request with a bearer token", () => {
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }) });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it("is the second registry entry (default mock port 4011) and generates only createPayV120Client", async () => {
    expect(entry.index).toBe(1);
    expect(entry.latest).toBe(false);
    const client = (await import(pathToFileURL(entry.clientPath).href)) as Record<string, unknown>;
    expect(Object.keys(client).filter((k) => k.startsWith("create"))).toEqual(["createPayV120Client"]);
    const newest = (await import(pathToFileURL(findApi("pay@1.3.0").clientPath).href)) as Record<string, any>;
    expect(newest.api.release).toBe("1.3.0");
    expect(typeof newest.createPayClient).toBe("function");
  });
});

describe("pay@1.2.0 gaps of the source", () => {
  const gaps: Array<[string, () => Schema]> = [
    ["createMerchant response body", () => deref(doc.paths["/v1/merchant"].post.responses["200"])],
    ["updateMerchant response body", () => deref(doc.paths["/v1/merchant/{merchant_id}"].put.responses["200"])],
    ["updateDepositAccount response body", () => deref(doc.paths["/v1/deposit-account/{account_id}"].put.responses["200"])],
    ["error statuses and error body", () => doc.info],
    ["token issuance", () => doc.components.securitySchemes.bearerAuth],
    ["real host of {pay_v120_url}", () => doc.servers[1]],
    ["merchant_id kinds by merchant type", () => deref(doc.paths["/v1/merchant"].get.parameters[0])],
    ["limit default and maximum", () => deref(doc.paths["/v1/invoice"].get.parameters.find((p: Schema) => deref(p).name === "limit"))],
    ["required invoice list parameters", () => doc.paths["/v1/invoice"].get],
    ["url_expiry default", () => schemas.Merchant.properties.url_expiry],
    ["other capitalised statuses", () => schemas.PayURLStatus.properties.status],
    ["types of the untyped PayURLStatus fields", () => schemas.PayURLStatus],
    ["member types of PayValueSummary", () => schemas.PayValueSummary],
    ["required request fields", () => schemas.CreateInvoiceRequest],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, at) => {
    const node = at();
    expect(typeof node["x-unspecified"]).toBe("string");
    expect(node["x-unspecified"].length).toBeGreaterThan(10);
  });
});

describe("pay@1.2.0 quirks, each documented", () => {
  it("url_expiry: typed string or integer", () => {
    expect(schemas.Merchant.properties.url_expiry.description).toMatch(/string.*integer.*both forms are accepted/s);
  });
  it("PayURLStatus amount: typed string or PayAmount", () => {
    expect(schemas.PayURLStatus.properties.amount.description).toMatch(/string.*PayAmount.*both forms are accepted/s);
  });
  it("status: CREATED listed, Created in the payload", () => {
    expect(schemas.PayURLStatus.properties.status.description).toMatch(/CREATED.*`Created`/s);
    expect(schemas.PayPaymentStatus.description).toMatch(/`Created`/);
  });
  it("holder names: account_ prefix of the sample, the field table's account_number_ spelling recorded", () => {
    const props = propertiesOf(schemas.DepositAccountFields);
    expect(props.account_first_name["x-field-table-name"]).toBe("account_number_first_name");
    expect(props.account_middle_name["x-field-table-name"]).toBe("account_number_middle_name");
    expect(props.account_last_name["x-field-table-name"]).toBeUndefined();
    expect(Object.keys(props).filter((k) => k.startsWith("account_number_"))).toEqual([]);
    expect(schemas.DepositAccountFields.description).toMatch(/account_number_first_name/);
  });
  it("merchant update: mobile_number from the request sample", () => {
    expect(schemas.UpdateMerchantRequest.properties.mobile_number["x-source"]).toMatch(/request sample only/);
  });
  it("invoice create: POST, although a sample shows PUT", () => {
    expect(Object.keys(doc.paths["/v1/invoice"]).sort()).toEqual(["get", "post"]);
    expect(doc.paths["/v1/invoice"].post.description).toMatch(/uses PUT.*POST applies/s);
  });
});

describe("pay@1.2.0 quirks validate in every documented form (Ajv over the bundled spec)", () => {
  const { validate } = specValidator(doc);
  const merchant = (url_expiry: unknown) => validate("/components/schemas/Merchant", { merchant_id: "mer_1", url_expiry });
  const invoice = (fields: Schema) => validate("/components/schemas/PayURLStatus", { invoice_id: "inv_1", ...fields });

  it("url_expiry accepts an integer and a string, rejects other types", () => {
    expect(merchant(24).valid).toBe(true);
    expect(merchant("24").valid).toBe(true);
    for (const wrong of [24.5, true, null, ["24"], { hours: 24 }]) expect(merchant(wrong).valid, JSON.stringify(wrong)).toBe(false);
  });

  it("amount accepts a string and a PayAmount, rejects other types", () => {
    expect(invoice({ amount: "150000" }).valid).toBe(true);
    expect(invoice({ amount: { cur: "IDR", amt: "150000" } }).valid).toBe(true);
    for (const wrong of [150000, true, { cur: "IDR", amt: 150000 }, ["150000"]]) {
      expect(invoice({ amount: wrong }).valid, JSON.stringify(wrong)).toBe(false);
    }
  });

  it("status accepts the four listed values and the payload's Created, nothing else", () => {
    for (const status of ["CREATED", "FAILED", "SUCCESS", "EXPIRED", "Created"]) expect(invoice({ status }).valid, status).toBe(true);
    for (const wrong of ["created", "Failed", "Flagged", "FLAGGED", 1]) expect(invoice({ status: wrong }).valid, String(wrong)).toBe(false);
  });

  it("the invoice list's timestamps and the create response's expiry are strings, not 1.3.0 objects", () => {
    expect(validate("/components/schemas/InvoiceList", { start: "2025-11-01T00:00:00.000Z", urls: [] }).valid).toBe(true);
    expect(validate("/components/schemas/InvoiceList", { start: { seconds: 1761955200, nanos: 0 } }).valid).toBe(false);
    expect(validate("/components/schemas/CreateInvoiceResponse", { expiry: { seconds: 1, nanos: 0 } }).valid).toBe(false);
  });

  it("request bodies: the sample's holder names and the update's mobile_number validate, wrong types do not", () => {
    const account = {
      bank_code: 14,
      account_first_name: "Siti",
      account_middle_name: "Nur",
      account_last_name: "Rahma",
      set_default: true,
    };
    expect(validate("/components/schemas/CreateDepositAccountRequest", account).valid).toBe(true);
    expect(validate("/components/schemas/CreateDepositAccountRequest", { ...account, bank_code: "14" }).valid).toBe(false);
    const update = { merchant_id: "mer_1", url_expiry: 48, mobile_country_code: "+62", mobile_number: "81200000000" };
    expect(validate("/components/schemas/UpdateMerchantRequest", update).valid).toBe(true);
    expect(validate("/components/schemas/UpdateMerchantRequest", { ...update, mobile_number: 81200000000 }).valid).toBe(false);
    // Requests send url_expiry as the integer the request tables give; only the response is inconsistent.
    expect(validate("/components/schemas/UpdateMerchantRequest", { ...update, url_expiry: "48" }).valid).toBe(false);
  });
});

describe("pay@1.2.0 quirks through the running mock", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock(entry, { port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const call = async (method: string, path: string, init: { example?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { authorization: "Bearer test-token" };
    if (init.example) headers.prefer = `example=${init.example}`;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(mock.url + path, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, violations: response.headers.get("sl-violations"), data: text ? JSON.parse(text) : undefined };
  };

  it("serves url_expiry as an integer and as a string, both valid to Prism", async () => {
    const integer = await call("GET", "/v1/merchant", { example: "merchant" });
    const string = await call("GET", "/v1/merchant", { example: "urlExpiryAsString" });
    expect([integer.status, integer.violations, integer.data.url_expiry]).toEqual([200, null, 24]);
    expect([string.status, string.violations, string.data.url_expiry]).toEqual([200, null, "24"]);
  });

  it("serves an invoice list with a PayAmount and a string amount, SUCCESS and Created, valid to Prism", async () => {
    const { status, violations, data } = await call("GET", "/v1/invoice?limit=2", { example: "twoInvoices" });
    expect([status, violations]).toEqual([200, null]);
    expect(data.urls.map((u: Schema) => [u.status, typeof u.amount])).toEqual([
      ["SUCCESS", "object"],
      ["Created", "string"],
    ]);
  });

  it("accepts the update sample's mobile_number and rejects a wrong-typed url_expiry", async () => {
    const body = { url_expiry: 48, merchant_id: "mer_1", mobile_country_code: "+62", mobile_number: "81200000000" };
    const ok = await call("PUT", "/v1/merchant/mer_1", { body });
    expect([ok.status, ok.violations]).toEqual([200, null]);
    const wrong = await call("PUT", "/v1/merchant/mer_1", { body: { ...body, url_expiry: true } });
    // No 4xx is declared for 1.2.0, so Prism answers with its own problem+json naming the field.
    expect(wrong.status).toBe(422);
    expect(wrong.data.validation).toContainEqual(expect.objectContaining({ location: ["body", "url_expiry"], code: "type" }));
  });

  it("creates invoices with POST only (the PUT of one sample is not the method)", async () => {
    const body = { merchant_id: "mer_1", amount: { cur: "IDR", amt: "1000" }, expiry: 24 };
    expect((await call("POST", "/v1/invoice", { body })).status).toBe(200);
    expect((await call("PUT", "/v1/invoice", { body })).status).toBe(405);
  });
});

describe("pay@1.2.0 says no more than the source", () => {
  it("auth failures: 401 and 403 declared from the Authentication section (written for both releases), marked", () => {
    // Source: "A request without valid credentials is answered 401; a request from a caller without
    // permission is answered 403" (Authentication); "Release 1.2.0 lists only 200 per endpoint" (Errors).
    for (const [name, status] of [
      ["Unauthorized", "401"],
      ["Forbidden", "403"],
    ]) {
      const response = doc.components.responses[name];
      expect(response["x-unspecified"], name).toMatch(
        new RegExp(`lists only the status 200; ${status} is declared because .*Authentication section`),
      );
      expect(response.content, `${name}: the error body is not shown`).toBeUndefined();
    }
    expect(doc.info["x-unspecified"]).toMatch(/other than 401 and 403 \(400, 404, 500\)/);
    const statuses = new Set(
      Object.values<Schema>(doc.paths).flatMap((item) =>
        ["get", "put", "post"].filter((m) => item[m]).flatMap((m) => Object.keys(item[m].responses)),
      ),
    );
    expect([...statuses].sort()).toEqual(["200", "401", "403"]);
  });

  it("deposit account: the field table's holder-name spelling is recorded and a body using it is accepted", () => {
    expect(schemas.DepositAccountFields["x-unspecified"]).toMatch(/Which spelling .* is not shown/);
    const tableSpelling = { bank_code: 14, account_number: "1", account_number_first_name: "Siti", account_number_middle_name: "Nur" };
    expect(valid("CreateDepositAccountRequest", tableSpelling)).toBe(true);
    expect(valid("UpdateDepositAccountRequest", { account_id: "acc_1", ...tableSpelling })).toBe(true);
  });

  it("supported banks: integer codes as keys, bank names as values", () => {
    expect(valid("SupportedBanks", { banks: { "14": "Example Bank" } })).toBe(true);
    expect(valid("SupportedBanks", { banks: { BCA: "Example Bank" } })).toBe(false);
    expect(valid("SupportedBanks", { banks: { "14": 14 } })).toBe(false);
  });
});
