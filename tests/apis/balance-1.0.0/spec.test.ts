/**
 * Balance retrieval 1.0.0 against the Payment Initiation, Statement Retrieval and Balance Retrieval Interface (the balance
 * retrieval parts): every operation, type (with the API's spelling, `peridic_balance_range`),
 * enumeration (full value lists), listed status code, the unnamed map of bank-specific fields and
 * every recorded gap.
 */
import { describe, expect, it } from "vitest";
import { endpointKeys, fields, type Schema, values as list, specUnderTest } from "../../helpers/spec.js";

/** The source's type notation: string, int32, int64, bytes, bool, date, Name, []Name (an enum of strings is `string`). */
const { doc, schemas, valid, propertiesOf, typesOf, jsonSchemaOf, operationKeys } = specUnderTest("balance@1.0.0", {
  refs: { Bytes: "bytes" },
  stringFormats: { date: "date" },
});

/** Type tables of the source, in its notation (`date` is the source's YYYY-MM-DD string). */
const resources: Record<string, Record<string, string>> = {
  Credential: fields("credential_type CredentialType; identifier string; secret string"),
  APICredential: fields("corporate_id string; identifier string; secret string"),
  Challenge: fields("type ChallengeType; data bytes"),
  Amount: fields("cur CurrencyISO4217; num string"),
  Timestamp: fields("seconds int64; nanos int32"),
  BalanceResponse: fields(`status Status; request_id string; created_at Timestamp; bank_code BankCode;
    accounts []BalanceListData; error string; update Timestamp; site_response string`),
  BalanceListData: fields("account BalanceListDataAccount; balance BalanceListDataBalance"),
  BalanceListDataAccount: fields("type AccountType; account_number string; holder_name string"),
  BalanceListDataBalance: fields("current Amount; periodic_balance []PeriodicBalance; peridic_balance_range PeriodicBalanceRange"),
  PeriodicBalance: fields("month string; year string; start_balance Amount; end_balance Amount; average_monthly_balance Amount"),
  PeriodicBalanceRange: fields("total_months int32; range string"),
};

/** Every balance endpoint: method, path, operationId, request fields (null: no body), response fields. */
const endpoints: Array<[string, string, string, string | null, string]> = [
  [
    "post",
    "/v1/balance-init",
    "initBalance",
    `country string; bank_codes []BankCode; external_id string; app_redirect_uri string; organization_display_name string;
     app_redirect_error_uri string; app_redirect_duration string; remember_me bool; link_id string; auto_consent bool`,
    "balance_id string; redirect_uri string",
  ],
  [
    "post",
    "/v1/balance",
    "retrieveBalance",
    `bank_code BankCode; credential Credential; period_days int32; start_date date; end_date date; account_number string;
     api_credential APICredential; external_id string; channel string; client_key_id string`,
    "request_id string; status Status; site_response string; challenge Challenge",
  ],
  [
    "get",
    "/v1/get_balance",
    "listBalances",
    null,
    "balances []BalanceResponse; next_page_token string; message string; total_count int32; previous_page_token string",
  ],
];

const currencies = list(`UNKNOWN_CURRENCY, AFN, EUR, ALL, DZD, USD, AOA, XCD, ARS, AMD, AWG, AUD, AZN, BSD, BHD, BDT, BYR, BZD,
  XOF, BMD, BTN, BOV, BAM, BWP, NOK, BRL, SGD, BGN, BIF, KHR, XAF, CAD, CVE, KYD, CLP, CNY, COP, KMF, CDF, NZD, CRC, HRK, CUC,
  CZK, DKK, DJF, DOP, EGP, ERN, ETB, FKP, FJD, XPF, GMD, GEL, GHS, GIP, GTQ, GBP, GNF, GYD, HNL, HKD, HUF, ISK, INR, IDR, IRR,
  IQD, IMP, ILS, JMD, JPY, JEP, JOD, KZT, KES, KPW, KRW, KWD, KGS, LAK, LBP, LSL, LRD, LYD, CHF, MKD, MGA, MWK, MYR, MVR, MRO,
  MUR, MXN, MDL, MNT, MAD, MZN, MMK, NAD, NPR, ANG, NIO, NGN, OMR, PKR, PGK, PYG, PEN, PHP, PLN, QAR, RON, RUB, RWF, WST, STD,
  SAR, RSD, SCR, SLL, SBD, SOS, ZAR, SSP, LKR, SHP, SDG, SRD, SZL, SEK, SYP, TWD, TJS, TZS, THB, TOP, TTD, TND, TRY, TMT, UGX,
  UAH, ARE, UYU, UZS, VUV, VEF, VND, YER, ZRN, ZMW`);

describe("balance@1.0.0 operations", () => {
  it("has exactly the three balance operations of the source", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)("%s %s (%s): bearer auth, only 200 and 404, the source's fields", (method, path, _id, request, response) => {
    const op = doc.paths[path][method];
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(["200", "404"]);
    if (request === null) expect(op.requestBody).toBeUndefined();
    else expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));
    expect(typesOf(jsonSchemaOf(op.responses["200"]))).toEqual(fields(response));
    const described = {
      ...(request === null ? {} : propertiesOf(jsonSchemaOf(op.requestBody))),
      ...propertiesOf(jsonSchemaOf(op.responses["200"])),
    };
    for (const [field, prop] of Object.entries(described)) expect(prop.description, `${path} ${field}`).toBeTruthy();
  });

  it("balance-init: country ID, PH or TH; app_redirect_duration a string of seconds; auto_consent off by default", () => {
    const props = propertiesOf(schemas.InitBalanceRequest);
    expect(props.country.enum).toEqual(["ID", "PH", "TH"]);
    expect(props.app_redirect_duration).toMatchObject({ type: "string" });
    expect(valid("InitBalanceRequest", { app_redirect_duration: 30 })).toBe(false);
    expect(props.auto_consent.default).toBe(false);
    expect(props.auto_consent.description).toMatch(/skips the consent/);
    expect(props.link_id.description).toMatch(/stored in the browser/);
  });

  it("balance: channel WEB or MOBILE; client_key_id empty means plain text, a value means encrypted", () => {
    const props = propertiesOf(schemas.RetrieveBalanceRequest);
    expect(props.channel.enum).toEqual(["WEB", "MOBILE"]);
    expect(props.client_key_id.description).toMatch(
      /empty means the credentials are sent in\s+plain text, a value means they are encrypted/,
    );
    expect(props.period_days.description).toMatch(/depends on the bank's site/);
    expect(valid("RetrieveBalanceRequest", { start_date: "2024-01-01", end_date: "2024-06-30" })).toBe(true);
    expect(valid("RetrieveBalanceRequest", { start_date: "2024-1-1" })).toBe(false);
  });

  it("list: page tokens, an empty next_page_token meaning no more pages; query parameters unspecified", () => {
    const op = doc.paths["/v1/get_balance"].get;
    expect(op.parameters).toBeUndefined();
    expect(op["x-unspecified"]).toMatch(/query parameters/);
    expect(propertiesOf(schemas.ListBalancesResponse).next_page_token.description).toMatch(/empty when there are no more pages/);
  });

  it("lists only 404 besides 200, with no 401, 400 or 403 responses declared anywhere", () => {
    expect(Object.keys(doc.components.responses)).toEqual(["NotFound"]);
    expect(doc.components.responses.NotFound.description).toMatch(/only non-200 status/);
  });
});

describe("balance@1.0.0 the unnamed map of bank-specific fields", () => {
  const base = { bank_code: "BCA_PERSONAL", credential: { credential_type: "EMAIL", identifier: "u", secret: "p" } };

  it("accepts an unlisted member holding a map from string to string", () => {
    expect(valid("RetrieveBalanceRequest", { ...base, bank_fields: { branch_code: "0123", otp_device: "A1" } })).toBe(true);
  });

  it("accepts an unlisted member that is one string field", () => {
    expect(valid("RetrieveBalanceRequest", { ...base, branch_code: "0123" })).toBe(true);
  });

  it("rejects non-string values in that map, and unlisted members of other types", () => {
    expect(valid("RetrieveBalanceRequest", { ...base, bank_fields: { branch_code: 123 } })).toBe(false);
    expect(valid("RetrieveBalanceRequest", { ...base, stray: 5 })).toBe(false);
    expect(valid("RetrieveBalanceRequest", { ...base, stray: [] })).toBe(false);
  });

  it("records the member's missing name as x-unspecified", () => {
    expect(schemas.RetrieveBalanceRequest["x-unspecified"]).toMatch(/name of the member.*not shown/);
    expect(schemas.RetrieveBalanceRequest.unevaluatedProperties).toBeDefined();
  });
});

describe("balance@1.0.0 types", () => {
  it.each(Object.entries(resources))("%s has every field of the source with its type", (name, expected) => {
    expect(typesOf(schemas[name])).toEqual(expected);
    for (const [field, prop] of Object.entries(propertiesOf(schemas[name]))) expect(prop.description, `${name}.${field}`).toBeTruthy();
  });

  it("keeps the API's spelling of peridic_balance_range", () => {
    const props = propertiesOf(schemas.BalanceListDataBalance);
    expect(Object.keys(props)).toContain("peridic_balance_range");
    expect(Object.keys(props)).not.toContain("periodic_balance_range");
  });

  it("carries amounts in minor units as strings and secrets that may be empty for TOKEN", () => {
    expect(valid("Amount", { cur: "IDR", num: "10000" })).toBe(true);
    expect(valid("Amount", { cur: "IDR", num: 10000 })).toBe(false);
    expect(schemas.Amount.properties.num.description).toMatch(/minor currency units/);
    expect(schemas.Credential.properties.secret.description).toMatch(/empty when `credential_type` is `TOKEN`/);
    expect(schemas.APICredential.properties.corporate_id.description).toMatch(/partner id/);
  });

  it("types Challenge.data as bytes (base64)", () => {
    expect(schemas.Bytes).toMatchObject({ type: "string", format: "byte", contentEncoding: "base64" });
  });
});

describe("balance@1.0.0 enumerations", () => {
  it("BankCode (balance): its 15 values", () => {
    expect(schemas.BankCode.enum).toEqual(
      list(`UNKNOWN_BANK, MANDIRI_PERSONAL, BCA_PERSONAL, BNI_PERSONAL, BRI_PERSONAL,
      BCA_CORPORATE, DUMMY_BANK_PERSONAL, BDO_PERSONAL, BPI_PERSONAL, KASIKORNBANK_PERSONAL, PNB_PERSONAL, UNIONBANK_PERSONAL,
      UNIONBANK_CORPORATE, METROBANK_PERSONAL, RCBC_PERSONAL`),
    );
    expect(schemas.BankCode["x-enumDescriptions"].DUMMY_BANK_PERSONAL).toMatch(/sandbox/);
  });

  it("CredentialType, ChallengeType, Status, AccountType", () => {
    expect(schemas.CredentialType.enum).toEqual(["EMAIL", "Type_MSISDN", "TOKEN", "CLIENT_CREDENTIAL"]);
    expect(schemas.ChallengeType.enum).toEqual(["TEXT", "IMAGE", "IN_APP", "SMS", "MGENCODE", "HYBRID", "PIN"]);
    expect(schemas.Status.enum).toEqual(
      list(`UNKNOWN_Status, INITIATED, CONSENT_GRANTED, AUTH_IN_PROGRESS, AWAITING_TFA,
      TFA_IN_PROGRESS, RETRIEVAL_IN_PROGRESS, AUTH_FAILED, FAILED, SUCCESS, CANCELLED, INACTIVATED, PURGED`),
    );
    expect(schemas.AccountType.enum).toEqual(["UNKNOWN_AccountType", "CHECKING", "SAVINGS"]);
  });

  it("gives the meanings the source states", () => {
    // The source's Balance Status row gives two meanings; its error section names AUTH_FAILED and
    // FAILED among the "other error conditions as statuses". Nothing else has a meaning.
    expect(schemas.Status["x-enumDescriptions"]).toEqual({
      AUTH_FAILED: "An error condition reported as a status (the source's error section).",
      FAILED: "An error condition reported as a status (the source's error section).",
      INACTIVATED: "Waiting for user input.",
      PURGED: "The balance data was purged.",
    });
    expect(schemas.ChallengeType["x-enumDescriptions"].IN_APP).toMatch(/Asynchronous.*outside the service's control/);
    expect(schemas.ChallengeType["x-enumDescriptions"].MGENCODE).toMatch(/bank app/);
    expect(schemas.ChallengeType["x-enumDescriptions"].HYBRID).toMatch(/bank-specific mix/);
  });

  it(`CurrencyISO4217: all ${currencies.length} codes, as the source spells them`, () => {
    expect(currencies).toHaveLength(153);
    expect(schemas.CurrencyISO4217.enum).toEqual(currencies);
  });
});

describe("balance@1.0.0 servers and auth", () => {
  it("has a sandbox and a live server, each host a variable", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://{balance_sandbox_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{balance_domain}" });
    expect(sandbox["x-unspecified"]).toMatch(/sandbox form/);
  });

  it("authenticates with a bearer token on every operation", () => {
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }) });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it("declares no webhooks: balance events are not shown", () => {
    expect(doc.webhooks).toBeUndefined();
    expect(doc.info["x-unspecified"]).toMatch(/Events/);
  });
});

describe("balance@1.0.0 gaps of the source", () => {
  const gaps: Array<[string, (d: any) => Schema]> = [
    ["list query parameters", (d) => d.paths["/v1/get_balance"].get],
    ["token issuance and the missing-credential status", (d) => d.components.securitySchemes.bearerAuth],
    ["events, transitions and limits", (d) => d.info],
    ["status transitions", () => schemas.Status],
    ["name of the bank-specific map member", () => schemas.RetrieveBalanceRequest],
    ["bank-specific field names", () => schemas.BankSpecificFields],
    ["encryption scheme", () => schemas.RetrieveBalanceRequest.properties.client_key_id],
    ["app_redirect_duration default", () => schemas.InitBalanceRequest.properties.app_redirect_duration],
    ["challenge data per type", () => schemas.Challenge.properties.data],
    ["bytes encoding", () => schemas.Bytes],
    ["month format", () => schemas.PeriodicBalance.properties.month],
    ["range format", () => schemas.PeriodicBalanceRange.properties.range],
    ["error body", (d) => d.components.responses.NotFound],
    ["sandbox form of {balance_url}", (d) => d.servers[0]],
    ["real host of {balance_url}", (d) => d.servers[1]],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, at) => {
    const node = at(doc);
    expect(typeof node["x-unspecified"]).toBe("string");
    expect(node["x-unspecified"].length).toBeGreaterThan(10);
  });
});

describe("balance@1.0.0 says no more than the source", () => {
  it("Status: no meaning for the values the source only names", () => {
    const description: string = schemas.Status.description;
    for (const invented of [/under way/i, /succeeded/i, /was cancelled/i, /is not known/i]) expect(description).not.toMatch(invented);
    expect(description).toContain("`INACTIVATED`: waiting for user input");
    expect(description).toContain("`PURGED`: the balance data was purged");
    expect(schemas.Status["x-unspecified"]).toMatch(/meanings of the statuses other than INACTIVATED and PURGED/);
  });

  it.each(["InitBalanceRequest", "RetrieveBalanceRequest"])("%s: requires nothing and says requiredness is not shown", (name) => {
    expect(schemas[name].required).toBeUndefined();
    expect(schemas[name]["x-unspecified"]).toMatch(/^Which request fields are required is not shown; every field is optional here\./);
    expect(valid(name, {})).toBe(true);
  });

  it("Amount.num: minor units without separator, a sign marked as a choice", () => {
    // Source: "num string (minor units without separator, e.g. 10000 for 100.00)".
    for (const num of ["10000", "0", "15000000"]) expect(valid("Amount", { cur: "IDR", num }), num).toBe(true);
    for (const num of ["100.00", "1,000", "10 000", "", "1e4"]) expect(valid("Amount", { cur: "IDR", num }), num).toBe(false);
    expect(valid("Amount", { cur: "IDR", num: "-500" })).toBe(true);
    expect(schemas.Amount.properties.num["x-unspecified"]).toMatch(/negative is not shown/);
  });

  it("Timestamp.seconds: int64 bounds, so 2^63 and 1e19 are rejected", () => {
    const at = (seconds: number) => valid("Timestamp", { seconds, nanos: 0 });
    expect(at(1717200000)).toBe(true);
    expect(at(-(2 ** 63))).toBe(true);
    expect(at(2 ** 63 - 1024)).toBe(true); // the largest double below 2^63
    expect(at(2 ** 63)).toBe(false);
    expect(at(1e19)).toBe(false);
    expect(at(-(2 ** 63) - 2048)).toBe(false);
    expect(valid("Timestamp", { seconds: 0, nanos: 2 ** 31 })).toBe(false); // int32 already bounded
  });
});
