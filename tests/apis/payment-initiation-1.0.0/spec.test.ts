/**
 * Payment initiation 1.0.0 against the Payment Initiation, Statement Retrieval and Balance Retrieval Interface (the payment
 * initiation parts): every operation, resource, field type, enumeration (full value lists),
 * deprecation, quirk and recorded gap that the source states.
 */
import { describe, expect, it } from "vitest";
import { endpointKeys, fields, refName, type Schema, specUnderTest, values } from "../../helpers/spec.js";

/**
 * The source's type notation for a property: string, int32, int64, bool, Name, []Name. A property
 * that narrows a referenced schema (`allOf: [{$ref}, {...}]`) has the referenced schema's type.
 * `TimestampOrString` is written `Timestamp|string` (a Timestamp that may render as an ISO string).
 */
const { doc, schemas, valid, deref, propertiesOf, seedType, typesOf, jsonOf, jsonSchemaOf, operationKeys } = specUnderTest(
  "payment-initiation@1.0.0",
  {
    refs: { TimestampOrString: "Timestamp|string" },
    narrowing: true,
  },
);

// The source names the transfer enumeration `Status` and the TFA one `TFA Status`; the spec calls
// them TransferStatus and TFAStatus. Everything else keeps the source's names.

/** Field tables of the source, in its own notation. */
const resources: Record<string, Record<string, string>> = {
  Customer: fields(`fname string; lname string; mname string; email string; mobile string; phone string;
    customer_id string; address Address`),
  Address: fields("line1 string; line2 string; city string; province string; zip_code string; country string"),
  Amount: fields("cur CurrencyISO4217; num string"),
  AccountInfo: fields("type AccountInfoType; bank_code BankCode; country CountryISO3166"),
  Client: fields(`display_name string; logo_url string; return_url string; fail_url string; deep_link bool;
    short_redirect_uri bool`),
  Timestamp: fields("seconds int64; nanos int32"),
  DestinationAccountInfo: fields(`type AccountInfoType; bank_code DestinationBankCode; account_number string;
    identifier string; holder_name string; holder_first_name string; holder_middle_name string; holder_last_name string;
    email_address string; mobile_country_code string; mobile_number string; address_line1 string; address_line2 string;
    city string; state string; country string`),
  AdditionalDetails: fields(`qr_code string; account_alias_id string; to_address_line1 string; to_address_line2 string;
    to_city string; to_state string; to_country string; terms_of_use_version string; privacy_policy_version string;
    user_id_hash string; user_access_hash string; user_account_hash string; via Via; bank_fee Amount;
    settlement_identifier string; settlement_identifier_alias string`),
  Transaction: fields(`transaction_id string; org_id string; destination_account_id string; business_info_id string;
    from AccountInfo; to DestinationAccountInfo; amount Amount; customer Customer; consent_granted bool;
    additional_details AdditionalDetails; payment_channel PaymentChannelType; settlement_id string; reference_id string;
    user_memo string; bank_memo string; attempts int32; error string; status FundTransferTaskStatus; status_desc string;
    status_code string; finish Timestamp; created Timestamp; updated Timestamp`),
  Transfer: fields(`transfer_id string; status TransferStatus; from AccountInfo; to DestinationAccountInfo; amount Amount;
    orig_amount Amount; user_memo string; bank_memo string; created Timestamp|string; completed Timestamp|string;
    updated Timestamp|string; expiry_date_time Timestamp|string; payment_channel string; customer Customer;
    reference_id string; org_id string; consent_granted bool; additional_details AdditionalDetails; status_code string;
    status_desc string; settlement Settlement; bank_ref_code string`),
  Settlement: fields(`settlement_id string; settlement_response_id string; num string; settlement_status string;
    settlement_timestamp string`),
  MultipleCode: fields("type OptionalChallengeType; code string"),
};

/** Every endpoint of the source: method, path, operationId, query parameters, request fields, response fields. */
const endpoints: Array<[string, string, string, string[], string | null, string]> = [
  [
    "post",
    "/v1/checkout",
    "createCheckout",
    [],
    `customer Customer; reference_id string; amount Amount; from AccountInfo; payment_channel PaymentChannelType;
    memo string; destination_account_id string; client Client; expiry_date_time Timestamp; unique_amount UniqueAmountType`,
    "transaction_id string; redirect_uri string; short_redirect_uri string",
  ],
  [
    "get",
    "/v1/transaction",
    "listTransactions",
    ["transaction_id"],
    null,
    "transactions []Transaction; next_page int32; total_count int32",
  ],
  ["get", "/v1/transfer", "listTransfers", ["transfer_id"], null, "transfers []Transfer; next_page int32; total_count int32"],
  [
    "post",
    "/v1/tfa",
    "submitTfaToken",
    [],
    `purpose TFAPurpose; purpose_id string; token string; transfer_id string; option OptionalChallengeType;
    multiple []MultipleCode`,
    "status TFAStatus; auth_status AuthStatus; status_msg string",
  ],
];

const CHECKOUT_BANKS = values(`DUMMY_BANK_PERSONAL, MANDIRI_PERSONAL, BCA_PERSONAL, BNI_PERSONAL, BRI_PERSONAL,
  CIMB_PERSONAL, BDO_PERSONAL, BPI_PERSONAL, PNB_PERSONAL, UNIONBANK_PERSONAL, METROBANK_PERSONAL, RCBC_PERSONAL,
  SCB_PERSONAL, KASIKORNBANK_PERSONAL`);
const RECORD_ONLY_BANKS = values(`UNKNOWN_BANK, DUMMY_BANK_BCA_PERSONAL, BCA_CORPORATE, UNIONBANK_CORPORATE,
  CLRB_PERSONAL, KOMO_PERSONAL, EASTWEST_PERSONAL`);

/** Every enumeration of the source with its complete value list, in the source's order. */
const enumerations: Record<string, string[]> = {
  PaymentChannelType: values("PH_PAYNAMICS, ID_BANK_MEGA_IPG, ID_SHOPEE"),
  UniqueAmountType: values("NONE, ADD, SUBTRACT"),
  AccountInfoType: values("AccountInfoTypeUNKNOWN, ACCOUNT, PROFILE, BANK, MSISDN"),
  CountryISO3166: values("ID, PH, TH"),
  Via: values("UNKNOWN_Via, INTRABANK, IDONLINE, IDLLG, IDRTGS, PHINSTAPAY, PHPESONET"),
  FundTransferTaskStatus: values(`TransferStatus_CREATED, TransferStatus_TFA_AWAIT, TransferStatus_COMPLETED,
    TransferStatus_ERROR, TransferStatus_LOGIN_ERROR, TransferStatus_INVOICE_CREATED, TransferStatus_AWAITING_LOGIN,
    TransferStatus_AWAITING_LOGIN_TFA, TransferStatus_AWAITING_ACCOUNT_SELECT, TransferStatus_AWAITING_TRANSFER_TFA,
    TransferStatus_IN_PROGRESS, TransferStatus_EXPIRED, TransferStatus_FLAGGED, TransferStatus_CANCELLED,
    TransferStatus_DENIED, TransferStatus_FAILED`),
  TransferStatus: values(`PENDING, AWAITING_TFA, SUCCESS, ERROR, LOGIN_ERROR, INVOICE_CREATED, AWAITING_LOGIN,
    AWAITING_LOGIN_TFA, AWAITING_ACCOUNT_SELECT, AWAITING_TRANSFER_TFA, IN_PROGRESS, EXPIRED, FLAGGED, CANCELLED,
    DENIED, FAILED`),
  TFAPurpose: values("UnknownPurpose, BankCredentialLogin, FundTransferAuthentication"),
  OptionalChallengeType: values("OPTION_UNKNOWN, OPTION_SMS, OPTION_MGENCODE, OPTION_PIN"),
  TFAStatus: values("UNKNOWN_Status, ERROR, SUCCESS"),
  AuthStatus: values("UNKNOWN_AuthStatus, INCOMPLETE, COMPLETE"),
  BankCode: [...CHECKOUT_BANKS, ...RECORD_ONLY_BANKS],
  CheckoutBankCode: CHECKOUT_BANKS,
  DestinationBankCode: values(`DUMMY_BANK_DESTINATION, ID_BCA, ID_BCA_SYR, ID_BNI, ID_BNI_SYR, ID_BRI, ID_BRI_SYR,
    ID_MANDIRI, ID_MANDIRI_SYR, ID_BTN, ID_BTN_SYR, ID_PERMATA, ID_PERMATA_SYR, ID_DNMN, ID_DNMN_SYR, ID_BTPN,
    ID_BTPN_SYR, ID_OCBC, ID_OCBC_SYR, ID_MAYBANK, ID_MAYBANK_SYR, ID_CIMB, ID_CIMB_SYR, ID_PAN, ID_PAN_SYR, ID_MEGA,
    ID_MEGA_SYR, ID_BKP, ID_BKP_SYR, ID_DKI, ID_DKI_SYR, ID_BJB, ID_BJB_SYR, ID_JATIM, ID_JATIM_SYR, ID_HSBC, ID_DBS,
    ID_STAN, ID_UOB, ID_CITI, PH_BDO, PH_BPI, PH_BPIF, PH_METRO, PH_PNB, PH_PNBS, PH_RCBC, PH_RCBCS, PH_SB, PH_SBS,
    PH_UB, PH_CLRB, PH_GXI, PH_GBY, PH_LBP, PH_PMP, PH_PSB, PH_RSB, PH_CB, PH_CBS, TH_KBANK, PH_ALLBANK, PH_SUNSB,
    PH_STERLING, PH_MBSMB, PH_AUB, PH_BOC, PH_MAYBANK, PH_PBCOM, PH_CTBC, PH_EWB, PH_EQB, PH_OMNIPAY, PH_UCPB,
    PH_PHILTRUST, PH_WDB, PH_DUNGGANUN, PH_UCPBSB, PH_ISLA, PH_PRBC, PH_PBB, PH_PVB, PH_YSBP, PH_MABUHAY, PH_CTBCPH,
    PH_ING, PH_QCRB, PH_BDONB, PH_EWBRB, TH_SCB, PH_STAN, PH_HSBC, PH_CITI, PH_BOA, PH_UOB, PH_TOKYO, PH_MICB, PH_DBP,
    PH_ANZ, PH_KEB_HANA, PH_CHASE, PH_FCB, PH_MIZUHO, PH_DBS, PH_BBL, PH_CHINA, PH_SUMITOMO_MITSUI, PH_SHINHAN, PH_IBK,
    PH_STARPAY, PH_QUEENBANK, PH_INNOVATIVE_BANK, PH_AAIIB, PH_PRODUCERSSBC, PH_BPI_BANKO, PH_CIMB, PH_BANKFLORIDAPH,
    PH_GUINOBATAN, PH_HSBCSB, PH_CAMALIG, PH_COUNTRY_BUILDERS, PH_RANGAY_BANK, PH_COINSPH, PH_CARDBANK`),
  CurrencyISO4217: values(`UNKNOWN_CURRENCY, AFN, EUR, ALL, DZD, USD, AOA, XCD, ARS, AMD, AWG, AUD, AZN, BSD, BHD, BDT,
    BYR, BZD, XOF, BMD, BTN, BOV, BAM, BWP, NOK, BRL, SGD, BGN, BIF, KHR, XAF, CAD, CVE, KYD, CLP, CNY, COP, KMF, CDF,
    NZD, CRC, HRK, CUC, CZK, DKK, DJF, DOP, EGP, ERN, ETB, FKP, FJD, XPF, GMD, GEL, GHS, GIP, GTQ, GBP, GNF, GYD, HNL,
    HKD, HUF, ISK, INR, IDR, IRR, IQD, IMP, ILS, JMD, JPY, JEP, JOD, KZT, KES, KPW, KRW, KWD, KGS, LAK, LBP, LSL, LRD,
    LYD, CHF, MKD, MGA, MWK, MYR, MVR, MRO, MUR, MXN, MDL, MNT, MAD, MZN, MMK, NAD, NPR, ANG, NIO, NGN, OMR, PKR, PGK,
    PYG, PEN, PHP, PLN, QAR, RON, RUB, RWF, WST, STD, SAR, RSD, SCR, SLL, SBD, SOS, ZAR, SSP, LKR, SHP, SDG, SRD, SZL,
    SEK, SYP, TWD, TJS, TZS, THB, TOP, TTD, TND, TRY, TMT, UGX, UAH, ARE, UYU, UZS, VUV, VEF, VND, YER, ZRN, ZMW`),
};

/** Meanings the source gives for enumeration values, as fragments of the spec's x-enumDescriptions. */
const meanings: Record<string, Record<string, RegExp>> = {
  PaymentChannelType: {
    PH_PAYNAMICS: /inter-bank transfer via a settlement partner/i,
    ID_BANK_MEGA_IPG: /inter-bank transfer via a bank's payment gateway/i,
    ID_SHOPEE: /intra- or inter-bank transfer via a QR payment acquirer/i,
  },
  UniqueAmountType: { NONE: /no change/i, ADD: /adds centavos/i, SUBTRACT: /deducts centavos/i },
  TransferStatus: {
    PENDING: /pending operation/i,
    AWAITING_TFA: /awaiting two-factor authentication/i,
    SUCCESS: /successful operation/i,
    ERROR: /error during operation/i,
    LOGIN_ERROR: /login error/i,
    INVOICE_CREATED: /checkout invoice created/i,
    AWAITING_LOGIN: /login in progress/i,
    AWAITING_LOGIN_TFA: /awaiting login two-factor/i,
    AWAITING_ACCOUNT_SELECT: /awaiting account selection/i,
    AWAITING_TRANSFER_TFA: /awaiting transfer two-factor/i,
    IN_PROGRESS: /transfer in progress/i,
    EXPIRED: /expired.*24 hours/i,
    FLAGGED: /neither success nor failed.*verify and settle manually/i,
    CANCELLED: /sender cancelled.*Cancel/i,
    DENIED: /denied consent.*Deny/i,
    FAILED: /not able to receive the funds.*settle operation/i,
  },
  TFAPurpose: { BankCredentialLogin: /log in to a bank account/i, FundTransferAuthentication: /login for a fund transfer/i },
  BankCode: { DUMMY_BANK_PERSONAL: /sandbox test bank/i, DUMMY_BANK_BCA_PERSONAL: /deprecated/i },
  CheckoutBankCode: { DUMMY_BANK_PERSONAL: /sandbox test bank/i },
};

describe("payment-initiation@1.0.0 operations", () => {
  it("has exactly the four operations of the source", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)(
    "%s %s (%s): x-api-key auth, every listed status, the source's fields, named examples",
    (method, path, _id, query, request, response) => {
      const op = doc.paths[path][method];
      expect(op.security).toEqual([{ apiKeyAuth: [] }]);
      expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "404", "500"]);
      expect(op.summary && op.description && op.tags?.length).toBeTruthy();

      const params = (op.parameters ?? []).map(deref);
      expect(params.map((p: Schema) => `${p.in} ${p.name} ${p.required === true} ${p.schema.type}`)).toEqual(
        query.map((name) => `query ${name} false string`),
      );

      if (request === null) expect(op.requestBody).toBeUndefined();
      else {
        expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));
        expect(Object.keys(jsonOf(op.requestBody).examples ?? {}).length).toBeGreaterThan(0);
      }
      expect(typesOf(jsonSchemaOf(op.responses["200"]))).toEqual(fields(response));
      expect(Object.keys(jsonOf(op.responses["200"]).examples ?? {}).length).toBeGreaterThan(0);
    },
  );

  it("checkout: from.bank_code is optional and takes only the 14 checkout banks", () => {
    const checkout = (from: unknown) => valid("CreateCheckoutRequest", { from });
    expect(checkout({ type: "BANK", country: "ID" })).toBe(true);
    expect(checkout({ type: "BANK", bank_code: "BCA_PERSONAL", country: "ID" })).toBe(true);
    for (const bank of RECORD_ONLY_BANKS) expect(checkout({ type: "BANK", bank_code: bank }), bank).toBe(false);
    // Records accept every source bank.
    for (const bank of [...CHECKOUT_BANKS, ...RECORD_ONLY_BANKS]) expect(valid("AccountInfo", { bank_code: bank }), bank).toBe(true);
  });

  it("checkout: payment_channel is optional, expiry_date_time defaults to 24 hours, the response has both redirect URIs", () => {
    const props = propertiesOf(schemas.CreateCheckoutRequest);
    expect(schemas.CreateCheckoutRequest.required).toBeUndefined();
    expect(props.payment_channel.description).toMatch(/optional/i);
    expect(props.from.description).toMatch(/bank_code` is optional/);
    expect(props.expiry_date_time.description).toMatch(/24 hours/);
    expect(props.expiry_date_time.description).toMatch(/UTC/);
    expect(doc.paths["/v1/checkout"].post.description).toMatch(/appends its own `redirect_uri` query parameter/);
    expect(valid("CreateCheckoutRequest", { customer: { fname: "A" }, amount: { cur: "IDR", num: "10000" } })).toBe(true);
    const res = propertiesOf(schemas.CreateCheckoutResponse);
    expect(res.redirect_uri.description).toMatch(/redirect the end user/i);
    expect(res.short_redirect_uri.description).toMatch(/shortened/i);
  });

  it.each([
    ["ListTransactionsResponse", "/v1/transaction", "transaction_id"],
    ["ListTransfersResponse", "/v1/transfer", "transfer_id"],
  ])("%s: the id is optional, next_page 0 means no more pages, total_count, most recent first", (name, path, id) => {
    const props = propertiesOf(schemas[name]);
    expect(props.next_page.description).toMatch(/0 means there are no more pages/);
    expect(props.total_count.description).toBeTruthy();
    const op = doc.paths[path].get;
    expect(op.description).toMatch(/most recent first/);
    expect(op.description).toContain(`\`${id}\``);
    const examples = Object.values(jsonOf(op.responses["200"]).examples) as Schema[];
    expect(examples.map((e) => e.value.next_page)).toContain(0);
    expect(examples.some((e) => e.value.next_page > 0)).toBe(true);
  });

  it("2FA: multiple codes, the TFA status and the auth status", () => {
    const req = propertiesOf(schemas.SubmitTfaTokenRequest);
    expect(seedType(req.multiple)).toBe("[]MultipleCode");
    expect(
      valid("SubmitTfaTokenRequest", {
        multiple: [
          { type: "OPTION_SMS", code: "1" },
          { type: "OPTION_PIN", code: "2" },
        ],
      }),
    ).toBe(true);
    expect(valid("SubmitTfaTokenRequest", { multiple: [{ type: "SMS", code: "1" }] })).toBe(false);
    expect(req.purpose_id.description).toMatch(/bank credential id when `purpose` is `BankCredentialLogin`/);
    const res = propertiesOf(schemas.SubmitTfaTokenResponse);
    expect(res.status.description).toMatch(/reached the bank/);
    expect(res.auth_status.description).toMatch(/challenge succeeded/);
    expect(res.status_msg.description).toMatch(/reason of a failed challenge/);
  });
});

describe("payment-initiation@1.0.0 resources", () => {
  it.each(Object.entries(resources))("%s has every field of the source with its type and a description", (name, expected) => {
    const props = propertiesOf(schemas[name]);
    expect(typesOf(schemas[name])).toEqual(expected);
    for (const [field, prop] of Object.entries(props)) expect(prop.description, `${name}.${field}`).toBeTruthy();
  });

  it("carries amounts as strings of minor units", () => {
    expect(valid("Amount", { cur: "IDR", num: "10000" })).toBe(true);
    expect(valid("Amount", { cur: "IDR", num: "100.00" })).toBe(false);
    expect(valid("Amount", { cur: "IDR", num: 10000 })).toBe(false);
    expect(valid("Amount", { cur: "IDX", num: "1" })).toBe(false);
    expect(schemas.Amount.description).toMatch(/minor currency units/);
  });

  it("accepts both timestamp forms on transfers, only the object on transactions", () => {
    const iso = "2026-01-01T00:00:00Z";
    const object = { seconds: 1767225600, nanos: 0 };
    for (const field of ["created", "completed", "updated", "expiry_date_time"]) {
      expect(valid("Transfer", { [field]: iso }), field).toBe(true);
      expect(valid("Transfer", { [field]: object }), field).toBe(true);
      expect(valid("Transfer", { [field]: 1767225600 }), field).toBe(false);
      expect(valid("Transfer", { [field]: "yesterday" }), field).toBe(false);
    }
    expect(valid("Transaction", { created: object })).toBe(true);
    expect(valid("Transaction", { created: iso })).toBe(false);
  });

  it("has settlement and bank_ref_code on transfers, as they appear in payloads", () => {
    const props = propertiesOf(schemas.Transfer);
    expect(props.settlement.description).toMatch(/settlement channel/);
    expect(props.bank_ref_code.description).toMatch(/appears in payloads/);
  });

  it("marks holder_name deprecated, naming its replacements, and nothing else", () => {
    const holder = schemas.DestinationAccountInfo.properties.holder_name;
    expect(holder.deprecated).toBe(true);
    for (const replacement of ["holder_first_name", "holder_middle_name", "holder_last_name"])
      expect(holder.description).toContain(replacement);
    const deprecated = Object.entries(schemas).flatMap(([name, s]) =>
      Object.entries(propertiesOf(s))
        .filter(([, p]) => p.deprecated)
        .map(([k]) => `${name}.${k}`),
    );
    expect(deprecated).toEqual(["DestinationAccountInfo.holder_name"]);
  });
});

describe("payment-initiation@1.0.0 enumerations", () => {
  it.each(Object.entries(enumerations))("%s has every value of the source, in order", (name, expected) => {
    expect(schemas[name].type).toBe("string");
    expect(schemas[name].enum).toEqual(expected);
    expect(schemas[name].description).toBeTruthy();
  });

  it("counts 14 checkout banks, 7 record-only banks, 124 destination banks and 153 currencies", () => {
    expect([CHECKOUT_BANKS.length, RECORD_ONLY_BANKS.length]).toEqual([14, 7]);
    expect(enumerations.DestinationBankCode).toHaveLength(124);
    expect(enumerations.CurrencyISO4217).toHaveLength(153);
  });

  it("marks DUMMY_BANK_BCA_PERSONAL, and only it, as a deprecated value", () => {
    expect(schemas.BankCode["x-enumDeprecated"]).toEqual(["DUMMY_BANK_BCA_PERSONAL"]);
    expect(schemas.BankCode.description).toMatch(/DUMMY_BANK_BCA_PERSONAL`: deprecated/);
    const others = Object.entries(schemas).filter(([name, s]) => name !== "BankCode" && s["x-enumDeprecated"]);
    expect(others).toEqual([]);
  });

  it.each(Object.entries(meanings))("%s states the source's meanings", (name, expected) => {
    const descriptions: Record<string, string> = schemas[name]["x-enumDescriptions"];
    for (const key of Object.keys(descriptions)) expect(schemas[name].enum, key).toContain(key);
    for (const [value, meaning] of Object.entries(expected)) expect(descriptions[value], `${name}.${value}`).toMatch(meaning);
  });

  it("uses the enumerations where the source does", () => {
    const checkout = propertiesOf(schemas.CreateCheckoutRequest);
    expect(refName(checkout.from.allOf[1].properties.bank_code)).toBe("CheckoutBankCode");
    expect(refName(schemas.AccountInfo.properties.bank_code)).toBe("BankCode");
    expect(refName(schemas.DestinationAccountInfo.properties.bank_code)).toBe("DestinationBankCode");
  });
});

describe("payment-initiation@1.0.0 servers, auth and the callback", () => {
  it("has a sandbox and a live server for {direct_url}, the live one without the sandbox. label", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://sandbox.{direct_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{direct_domain}" });
    expect(sandbox.variables.direct_domain.default).toMatch(/\.example\.com$/);
    expect(sandbox.description).toContain("{direct_url}");
  });

  it("authenticates every operation with the x-api-key header", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
    });
    expect(doc.security).toEqual([{ apiKeyAuth: [] }]);
  });

  const hook = doc.webhooks.transactionCompleted.post;
  const table: Array<[number, string, RegExp]> = [
    [2, "SUCCESS", /completed and settled/],
    [3, "ERROR", /bank, service or user/],
    [11, "EXPIRED", /24 hours after checkout creation/],
    [12, "FLAGGED", /neither success nor failed.*account statement/],
    [13, "CANCELLED", /chose Cancel/],
    [14, "DENIED", /chose Deny on the consent page/],
    [15, "FAILED", /by the merchant via the settle operation/],
  ];

  it("declares the transaction callback as a webhook with a required Idempotency-Key header", () => {
    expect(hook.operationId).toBe("notifyTransactionCompleted");
    const params = hook.parameters.map(deref);
    expect(params).toEqual([expect.objectContaining({ name: "Idempotency-Key", in: "header", required: true })]);
    expect(hook.description).toMatch(/not processed again/);
  });

  it("lists the callback status codes with their meanings, as data and in the description", () => {
    expect(hook["x-status-codes"].map((c: Schema) => [c.code, c.status])).toEqual(table.map(([code, status]) => [code, status]));
    for (const [i, [code, status, meaning]] of table.entries()) {
      expect(hook["x-status-codes"][i].meaning).toMatch(meaning);
      expect(hook.description).toMatch(new RegExp(`\\| ${code} \\| ${status} \\| `));
    }
  });

  it("leaves the payload shape unspecified and labels its example a placeholder", () => {
    const media = jsonOf(hook.requestBody);
    expect(media.schema["x-unspecified"]).toMatch(/payload shape/);
    expect(media.schema.type).toBeUndefined();
    const examples = Object.values(media.examples) as Schema[];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(`${example.summary} ${example.description}`).toMatch(/placeholder/i);
  });
});

describe("payment-initiation@1.0.0 gaps of the source", () => {
  const gaps: Array<[string, RegExp, (d: any) => unknown]> = [
    ["settle operation's request shape", /settle/, (d) => d.info],
    ["rate and size limits, compatibility policy", /Rate limits.*compatibility/s, (d) => d.info],
    ["transaction status_code format", /status_code/, () => schemas.Transaction.properties.status_code],
    ["transaction list pagination parameters", /pagination/, (d) => d.paths["/v1/transaction"].get],
    ["transfer list pagination parameters", /pagination/, (d) => d.paths["/v1/transfer"].get],
    ["transfer status transitions", /transitions/, () => schemas.TransferStatus],
    ["transaction status meanings and transitions", /transitions/, () => schemas.FundTransferTaskStatus],
    ["required checkout fields", /required/, () => schemas.CreateCheckoutRequest],
    ["error body", /error body/, (d) => d.components.responses.BadRequest],
    ["callback payload", /payload shape/, (d) => jsonSchemaOf(d.webhooks.transactionCompleted.post.requestBody)],
    ["real host", /host/, (d) => d.servers[1]],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, text, at) => {
    const node = at(doc) as Schema;
    expect(typeof node["x-unspecified"]).toBe("string");
    expect(node["x-unspecified"]).toMatch(text);
  });

  it("does not model the settle operation, whose request the source does not define", () => {
    expect(Object.keys(doc.paths).filter((p) => p.includes("settle"))).toEqual([]);
    expect(doc.info.description).toMatch(/v1\/checkout\/settle/);
  });
});

describe("payment-initiation@1.0.0 says no more than the source", () => {
  it("Via: values without meanings, the description claiming none", () => {
    expect(schemas.Via["x-enumDescriptions"]).toBeUndefined();
    expect(schemas.Via["x-unspecified"]).toMatch(/meaning of each Via value is not shown/);
    for (const text of [schemas.Via.description, schemas.AdditionalDetails.properties.via.description]) {
      expect(text).not.toMatch(/rail|travelled|intra-bank|inter-bank|network/i);
    }
  });

  it("OptionalChallengeType: values without meanings; the source only says option switches the generator", () => {
    expect(schemas.OptionalChallengeType["x-enumDescriptions"]).toBeUndefined();
    expect(schemas.OptionalChallengeType["x-unspecified"]).toMatch(/meaning of each value beyond its name is not shown/);
    expect(schemas.OptionalChallengeType.description).not.toMatch(/bank app|a PIN|sent by SMS/);
  });

  it("short_redirect_uri: a shortened form, its presence not tied to the request", () => {
    const prop = schemas.CreateCheckoutResponse.properties.short_redirect_uri;
    expect(prop.description).not.toMatch(/\bwhen\b|\bonly\b/);
    expect(prop["x-unspecified"]).toMatch(/Whether short_redirect_uri is present/);
    expect(doc.paths["/v1/checkout"].post.description).not.toMatch(/when `client\.short_redirect_uri` is true/);
    expect(valid("CreateCheckoutResponse", { transaction_id: "t", redirect_uri: "https://x.example/a" })).toBe(true);
  });

  it("callback placeholder: no integer status_code (the record's status_code is a string)", () => {
    const examples = Object.values<Schema>(jsonOf(doc.webhooks.transactionCompleted.post.requestBody).examples);
    expect(examples).toHaveLength(1);
    for (const example of examples) {
      const value = deref(example).value;
      if ("status_code" in value) expect(typeof value.status_code).toBe("string");
    }
    expect(seedType(schemas.Transaction.properties.status_code)).toBe("string");
  });

  it("Amount.num: minor units without a decimal separator, a sign marked as a choice", () => {
    for (const num of ["10000", "0", "15000000"]) expect(valid("Amount", { cur: "IDR", num }), num).toBe(true);
    for (const num of ["100.00", "1,000", "", "+5"]) expect(valid("Amount", { cur: "IDR", num }), num).toBe(false);
    expect(valid("Amount", { cur: "IDR", num: "-500" })).toBe(true);
    expect(schemas.Amount.properties.num["x-unspecified"]).toMatch(/negative is not shown/);
  });

  it("Timestamp.seconds: int64 bounds, so 2^63 and 1e19 are rejected", () => {
    const at = (seconds: number) => valid("Timestamp", { seconds, nanos: 0 });
    expect(at(1767225600)).toBe(true);
    expect(at(-(2 ** 63))).toBe(true);
    expect(at(2 ** 63 - 1024)).toBe(true);
    expect(at(2 ** 63)).toBe(false);
    expect(at(1e19)).toBe(false);
    expect(valid("TimestampOrString", { seconds: 2 ** 63 })).toBe(false);
  });

  it("AccountInfo: bank_code 'present when type is BANK' stated, not enforced (a checkout makes it optional)", () => {
    expect(schemas.AccountInfo.properties.bank_code.description).toMatch(/present when `type` is `BANK`/);
    expect(schemas.AccountInfo["x-unspecified"]).toMatch(/not enforced/);
    expect(valid("AccountInfo", { type: "BANK", country: "ID" })).toBe(true);
    expect(valid("CreateCheckoutRequest", { from: { type: "BANK", country: "PH" } })).toBe(true);
  });
});
