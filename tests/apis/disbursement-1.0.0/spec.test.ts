/**
 * Disbursement 1.0.0 against the Disbursement and Account Opening Interface ("Disbursement"):
 * every operation, field, required flag and rule, the result envelope, the credentials object, the
 * recorded gaps, and the rules the mock enforces (reference_id length, Philippine address).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { responseViolations } from "../../../src/client/index.js";
import { endpointKeys, fields, type Schema, specUnderTest } from "../../helpers/spec.js";
import { isHttpMethod } from "../../../src/document/index.js";

/** The source's type notation: string, bool, int32, Name, []Name; a type list as `integer|string`; `const: true` is `bool`. */
const { entry, doc, schemas, valid, deref, propertiesOf, seedType, typesOf, jsonSchemaOf, operationKeys } =
  specUnderTest("disbursement@1.0.0");

const record = `corporate_id string; reference_id string; type DisbursementType; source_account SourceAccount;
  destination_account DestinationAccountRecord; source_amount SourceAmount; destination_amount DestinationAmountRecord;
  description string; fees Fees; disbursement_id string; external ExternalInfo; status DisbursementStatus;
  created GmtTimestamp; updated string; processed string; batch_id string`;

/** Field tables of the source, in its own notation. */
const resources: Record<string, Record<string, string>> = {
  DisbursementItem: fields(`corporate_id string; reference_id string; type DisbursementType; source_account SourceAccount;
    source_amount SourceAmount; destination_account DestinationAccount; description string; destination_amount DestinationAmount`),
  SourceAccount: fields("bank SourceBank; number string; holder_name string"),
  DestinationAccount: fields("bank DestinationBank; number string; holder_name string; address Address"),
  DestinationAccountRecord: fields("bank DestinationBank; number string; holder_name string; address Address"),
  Address: fields("line1 string; line2 string; city string; province string; zip_code string; country string"),
  SourceAmount: fields("cur string"),
  DestinationAmount: fields("num string; cur string"),
  DestinationAmountRecord: fields("num string; cur string"),
  Disbursement: fields(record),
  Fee: fields("name string; amount string; cur string"),
  ExternalInfo: fields("reference_id string"),
  ErrorDetail: fields("code string; message string"),
  ItemSuccess: fields("success bool; message string"),
  ItemFailure: fields("error []ErrorDetail"),
  DisbursementOutcome: fields("disbursement Disbursement; result ItemResult"),
  CredentialEntry: fields("identifier string; secret string; corporate_id string"),
  BankAccount: fields("bank DestinationBank; number string; holder_name string"),
  InquiryResult: fields("success bool"),
  AccountInquiryError: fields("code string; message string"),
};

/** The four endpoints: method, path, operationId, request fields, 200 response fields. */
const endpoints: Array<[string, string, string, string | null, string]> = [
  [
    "post",
    "/v1/disbursements",
    "createDisbursements",
    "credentials Credentials; disbursements []DisbursementItem",
    "result []DisbursementOutcome",
  ],
  ["get", "/v1/disbursements", "listDisbursements", null, "disbursements []Disbursement; total_record integer|string"],
  [
    "post",
    "/v1/disbursements/external-status-updates",
    "refreshDisbursementStatuses",
    "credentials StatusRefreshCredentials; disbursement_request_id string; disbursement_ids []string",
    "result []DisbursementOutcome",
  ],
  [
    "post",
    "/v1/disbursements/account-inquiry",
    "inquireBankAccount",
    "bank_account BankAccount",
    "result InquiryResult; bank_account BankAccount",
  ],
];

describe("disbursement@1.0.0 operations", () => {
  it("has exactly the four operations of the source", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)("%s %s (%s): x-api-key, the listed statuses, the source's fields", (method, path, _id, request, response) => {
    const op = doc.paths[path][method];
    expect(op.security).toEqual([{ apiKeyAuth: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "404", "500"]);
    if (request === null) expect(op.requestBody).toBeUndefined();
    else expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));
    expect(typesOf(jsonSchemaOf(op.responses["200"]))).toEqual(fields(response));
    for (const [name, example] of Object.entries<any>(op.responses["200"].content["application/json"].examples)) {
      expect(example.summary, `${path} ${name}`).toBeTruthy();
    }
  });

  it("lists with the batch id, the disbursement ids and the dotted date parts with their ranges", () => {
    const params = Object.fromEntries(doc.paths["/v1/disbursements"].get.parameters.map((p: Schema) => [p.name, p]));
    expect(Object.keys(params)).toEqual([
      "disbursement_request_id",
      "disbursement_ids",
      "start_date.year",
      "start_date.month",
      "start_date.day",
      "end_date.year",
      "end_date.month",
      "end_date.day",
    ]);
    for (const p of Object.values<Schema>(params)) {
      expect(p.in).toBe("query");
      expect(p.required ?? false).toBe(false);
      expect(p.description).toBeTruthy();
    }
    expect(params.disbursement_ids.schema).toMatchObject({ type: "array", items: { type: "string" } });
    for (const side of ["start_date", "end_date"]) {
      expect(params[`${side}.month`].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 12 });
      expect(params[`${side}.day`].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 31 });
      expect(params[`${side}.year`].schema.type).toBe("integer");
      expect(params[`${side}.year`]["x-unspecified"]).toMatch(/range/);
    }
  });

  it("limits the status refresh to the Philippine Union-bank family and says so", () => {
    const op = doc.paths["/v1/disbursements/external-status-updates"].post;
    expect(op.summary).toMatch(/Philippine Union-bank family only/);
    expect(op.description).toMatch(/UNIONBANK_CORPORATE/);
    expect(deref(schemas.StatusRefreshCredentials).description).toMatch(/only\s+the two Philippine family keys apply/);
  });

  it("declares the account inquiry as POST (not the sample's PUT), Indonesia only, with a {code, message} error body", () => {
    const item = doc.paths["/v1/disbursements/account-inquiry"];
    expect(Object.keys(item).filter((k) => isHttpMethod(k))).toEqual(["post"]);
    expect(item.post.summary).toMatch(/Indonesia only/);
    expect(item.post.description).toMatch(/sample uses PUT/);
    expect(typesOf(jsonSchemaOf(item.post.responses["400"]))).toEqual(fields("code string; message string"));
    // The source gives the {code, message} body no status: binding it to 400 is a marked choice.
    expect(deref(item.post.responses["400"])["x-unspecified"]).toMatch(/not with which status; it is declared on 400/);
    expect(schemas.BankAccount.properties.holder_name).toMatchObject({ readOnly: true });
  });
});

describe("disbursement@1.0.0 resources", () => {
  it.each(Object.entries(resources))("%s has every field of the source with its type and a description", (name, expected) => {
    expect(typesOf(schemas[name])).toEqual(expected);
    for (const [field, prop] of Object.entries(propertiesOf(schemas[name]))) expect(prop.description, `${name}.${field}`).toBeTruthy();
  });

  it("marks the required fields of the source", () => {
    expect(schemas.DisbursementItem.required.sort()).toEqual(
      ["corporate_id", "reference_id", "type", "source_account", "source_amount", "destination_account", "destination_amount"].sort(),
    );
    expect(schemas.SourceAccount.required).toEqual(["bank", "number", "holder_name"]);
    expect(schemas.DestinationAccount.required).toEqual(["bank", "number", "holder_name"]);
    expect(schemas.CreateDisbursementsRequest.required).toEqual(["credentials", "disbursements"]);
    expect(schemas.RefreshDisbursementStatusesRequest.required).toEqual(["credentials"]);
  });

  it("types ON_DEMAND and FUTURE, GMT ISO 8601 timestamps and masked record account numbers", () => {
    expect(schemas.DisbursementType.enum).toEqual(["ON_DEMAND", "FUTURE"]);
    expect(schemas.GmtTimestamp).toMatchObject({ type: "string", format: "date-time" });
    expect(schemas.GmtTimestamp.description).toMatch(/GMT.*ISO 8601/);
    expect(valid("GmtTimestamp", "2024-05-02T08:15:30Z")).toBe(true);
    expect(valid("GmtTimestamp", "02/05/2024 08:15")).toBe(false);
    // Only `created` is stated as ISO 8601; updated and processed are "GMT" strings of unstated format.
    expect(seedType(schemas.Disbursement.properties.created)).toBe("GmtTimestamp");
    for (const field of ["updated", "processed"]) {
      const prop = schemas.Disbursement.properties[field];
      expect(prop, field).toMatchObject({ type: "string" });
      expect(prop.format, field).toBeUndefined();
      expect(prop["x-unspecified"], field).toMatch(/format .* not shown/);
    }
    expect(valid("Disbursement", { updated: "2024-05-02 08:45:00 GMT", processed: "02/05/2024 08:15" })).toBe(true);
    expect(schemas.DestinationAccountRecord.properties.number.description).toMatch(/masked except its last\s+digits/);
    expect(schemas.DestinationAccountRecord.properties.number["x-unspecified"]).toMatch(/masking format/);
  });

  it("takes amounts in minor units: an integer string in requests, also a decimal form in records (all three operations: marked)", () => {
    expect(schemas.DestinationAmount.description).toMatch(/minor units/);
    expect(valid("DestinationAmount", { num: "150000", cur: "PHP" })).toBe(true);
    expect(valid("DestinationAmount", { num: "1500.00", cur: "PHP" })).toBe(false);
    expect(valid("DestinationAmount", { num: 150000, cur: "PHP" })).toBe(false);
    expect(valid("DestinationAmountRecord", { num: "1500.00", cur: "PHP" })).toBe(true);
    expect(valid("DestinationAmountRecord", { num: "15,00", cur: "PHP" })).toBe(false);
    expect(schemas.DestinationAmountRecord["x-unspecified"]).toMatch(/shared by create, list and status refresh/);
  });

  it("keeps fees as an object of {name, amount, cur} entries, empty when none", () => {
    expect(valid("Fees", {})).toBe(true);
    expect(valid("Fees", { transfer: { name: "Transfer fee", amount: "1000", cur: "PHP" } })).toBe(true);
    expect(valid("Fees", { transfer: { name: "Transfer fee", amount: 1000 } })).toBe(false);
  });

  it("records SUCCESS as a status value without inventing the others", () => {
    expect(schemas.DisbursementStatus.enum).toBeUndefined();
    expect(schemas.DisbursementStatus.examples).toEqual(["SUCCESS"]);
  });
});

describe("disbursement@1.0.0 reference_id and the Philippine address (schema)", () => {
  const item = deref(doc.paths["/v1/disbursements"].post.requestBody.content["application/json"].examples.philippines).value
    .disbursements[0];
  const withItem = (change: (i: any) => void) => {
    const copy = structuredClone(item);
    change(copy);
    return copy;
  };

  it("accepts a reference_id of 40 characters and rejects one of 41", () => {
    expect(schemas.DisbursementItem.properties.reference_id.maxLength).toBe(40);
    expect(
      valid(
        "DisbursementItem",
        withItem((i) => (i.reference_id = "r".repeat(40))),
      ),
    ).toBe(true);
    expect(
      valid(
        "DisbursementItem",
        withItem((i) => (i.reference_id = "r".repeat(41))),
      ),
    ).toBe(false);
  });

  it("states the Philippine address rule without enforcing it on a guessed key (the bank-id prefix)", () => {
    expect(valid("DisbursementItem", item)).toBe(true);
    // The source keys the rule on the market, which no field carries: a PH_ bank without an address is not rejected.
    expect(item.destination_account.bank).toBe("PH_UB");
    expect(
      valid(
        "DisbursementItem",
        withItem((i) => delete i.destination_account.address),
      ),
    ).toBe(true);
    expect(schemas.DestinationAccount.if).toBeUndefined();
    expect(schemas.DestinationAccount.description).toMatch(/`address` is required in the Philippines/);
    expect(schemas.DestinationAccount["x-unspecified"]).toMatch(/in the Philippines .* not shown/);
  });

  it("rejects the other type values", () => {
    expect(
      valid(
        "DisbursementItem",
        withItem((i) => (i.type = "SCHEDULED")),
      ),
    ).toBe(false);
  });
});

describe("disbursement@1.0.0 result envelope", () => {
  it("is the success form or the error form (anyOf), both open, with the choice marked", () => {
    expect(schemas.ItemResult.anyOf).toEqual([{ $ref: "#/components/schemas/ItemSuccess" }, { $ref: "#/components/schemas/ItemFailure" }]);
    expect(schemas.ItemSuccess.additionalProperties).toBeUndefined();
    expect(schemas.ItemFailure.additionalProperties).toBeUndefined();
    expect(schemas.ItemSuccess.properties.success).toMatchObject({ type: "boolean" });
    expect(schemas.ItemResult["x-unspecified"]).toMatch(/success: false, error/);
  });

  // Source: "`result` is an object with either `success` bool (true) and optionally `message` string,
  // or `error`, an array of objects with `code` and `message`".
  it.each([
    ["success", { success: true }],
    ["success with a message", { success: true, message: "sent" }],
    ["an error array", { error: [{ code: "E1", message: "bad account" }] }],
    ["an empty error array", { error: [] }],
    ["an error array with success false beside it", { success: false, error: [{ code: "E1", message: "bad account" }] }],
    ["an error array with a message beside it", { error: [], message: "failed" }],
    ["success with a member the source does not list", { success: true, trace_id: "abc" }],
    ["an error whose entry carries more than code and message", { error: [{ code: "E1", message: "bad", field: "number" }] }],
  ])("accepts %s", (_, value) => {
    expect(valid("ItemResult", value)).toBe(true);
  });

  it.each([
    ["neither form", {}],
    ["a message alone", { message: "sent" }],
    ["a success flag that is not a bool", { success: "true" }],
    ["an error without code and message", { error: [{}] }],
    ["an error that is not an array", { error: { code: "E1", message: "bad account" } }],
  ])("rejects %s", (_, value) => {
    expect(valid("ItemResult", value)).toBe(false);
  });
});

describe("disbursement@1.0.0 credentials", () => {
  const keys = ["UBP_CLIENT", "UBP_PARTNER_ACCOUNT", "UBP_PARTNER", "BCA_CLIENT", "BCA_API", "BNI_CLIENT", "PERMATA_CLIENT", "PERMATA_API"];
  const entry = { identifier: "<your-client-id>", secret: "<your-client-secret>" };

  it("documents the keys of every bank family, with the pair-form inconsistency recorded", () => {
    expect(Object.keys(schemas.Credentials.properties)).toEqual(keys);
    for (const key of keys) expect(seedType(schemas.Credentials.properties[key]), key).toBe("CredentialEntry");
    expect(schemas.Credentials["x-name-exception"]).toBeTruthy();
    expect(schemas.Credentials.description).toMatch(/UBP_CLIENT`\/`UBP_PARTNER`/);
    expect(schemas.Credentials.description).toMatch(/UBP_PARTNER_ACCOUNT/);
    expect(schemas.Credentials["x-unspecified"]).toMatch(/sandbox test credential keys/);
    expect(schemas.Credentials["x-unspecified"]).toMatch(/UBP_PARTNER and UBP_PARTNER_ACCOUNT/);
  });

  it("requires corporate_id in the Philippine partner entry, in both spellings", () => {
    for (const key of ["UBP_PARTNER_ACCOUNT", "UBP_PARTNER"]) {
      expect(valid("Credentials", { UBP_CLIENT: entry, [key]: { ...entry, corporate_id: "<your-partner-id>" } })).toBe(true);
      expect(valid("Credentials", { UBP_CLIENT: entry, [key]: entry })).toBe(false);
    }
  });

  it("accepts other keys with a credential entry (the sandbox keys the source omits)", () => {
    expect(valid("Credentials", { EXAMPLE_SANDBOX_CLIENT: entry })).toBe(true);
    expect(valid("Credentials", { EXAMPLE_SANDBOX_CLIENT: { identifier: 42 } })).toBe(false);
    expect(valid("Credentials", { BNI_CLIENT: entry })).toBe(true);
  });

  it("requires corporate_id for the BNI and Permata families on status refresh, and records the contradiction", () => {
    for (const key of ["BNI_CLIENT", "PERMATA_CLIENT", "PERMATA_API"]) {
      expect(valid("StatusRefreshCredentials", { [key]: entry }), key).toBe(false);
      expect(valid("StatusRefreshCredentials", { [key]: { ...entry, corporate_id: "<your-corporate-id>" } }), key).toBe(true);
    }
    expect(valid("StatusRefreshCredentials", { UBP_PARTNER_ACCOUNT: entry })).toBe(false);
    expect(schemas.StatusRefreshCredentials["x-unspecified"]).toMatch(/BNI and Permata/);
  });

  it("status refresh takes the Philippine family keys, not {} or any key", () => {
    // Source: "credentials (required; only the two Philippine family keys apply)".
    const partner = { ...entry, corporate_id: "<your-partner-id>" };
    expect(valid("StatusRefreshCredentials", { UBP_CLIENT: entry, UBP_PARTNER_ACCOUNT: partner })).toBe(true);
    expect(valid("StatusRefreshCredentials", { UBP_CLIENT: entry, UBP_PARTNER: partner })).toBe(true);
    expect(valid("StatusRefreshCredentials", {})).toBe(false);
    for (const key of ["BCA_CLIENT", "BCA_API", "EXAMPLE_SANDBOX_CLIENT"]) {
      expect(valid("StatusRefreshCredentials", { UBP_CLIENT: entry, [key]: partner }), key).toBe(false);
    }
    expect(schemas.StatusRefreshCredentials["x-unspecified"]).toMatch(/at least one entry is required/);
    expect(valid("RefreshDisbursementStatusesRequest", { credentials: {}, disbursement_request_id: "b" })).toBe(false);
  });

  it("uses obvious placeholders for every credential value in every example", () => {
    const found: string[] = [];
    const walk = (node: unknown, inCredentials: boolean): void => {
      if (Array.isArray(node)) node.forEach((n) => walk(n, inCredentials));
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (inCredentials && typeof value === "string") found.push(value);
          walk(value, inCredentials || key === "credentials");
        }
      }
    };
    walk(doc.paths, false);
    expect(found.length).toBeGreaterThanOrEqual(20);
    for (const value of found) expect(value).toMatch(/^<your-[a-z-]+>$/);
  });
});

describe("disbursement@1.0.0 servers, auth and release", () => {
  it("has a sandbox and a live server, the live one without the sandbox. label", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://sandbox.{disburse_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{disburse_domain}" });
    expect(sandbox.variables.disburse_domain.default).toMatch(/\.example\.com$/);
  });

  it("authenticates with an x-api-key header", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
    });
    expect(doc.security).toEqual([{ apiKeyAuth: [] }]);
  });

  it("says in info that the source states no release", () => {
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.description).toMatch(/states no release/);
    expect(doc.info["x-unspecified"]).toMatch(/release of the disbursement description/);
  });
});

describe("disbursement@1.0.0 gaps of the source", () => {
  const gaps: Array<[string, RegExp, () => Schema]> = [
    ["statuses beyond SUCCESS", /statuses/, () => schemas.DisbursementStatus],
    ["source bank list", /source bank names/, () => schemas.SourceBank],
    ["destination bank list", /destination bank names/, () => schemas.DestinationBank],
    ["disbursement error code values", /error codes/, () => schemas.ErrorDetail.properties.code],
    ["account-inquiry error code values", /error codes/, () => schemas.AccountInquiryError.properties.code],
    ["error body of the HTTP errors", /error body/, () => doc.components.responses.Unauthorized],
    ["maximum disbursements per order", /maximum number/, () => schemas.CreateDisbursementsRequest.properties.disbursements],
    ["rate limits, events and release", /Rate limits|rate limits/, () => doc.info],
    ["meaning of ON_DEMAND and FUTURE", /FUTURE/, () => schemas.DisbursementType],
    ["the fee entry keys", /keys/, () => schemas.Fees],
    ["the type of total_record", /total_record/, () => schemas.ListDisbursementsResponse.properties.total_record],
    ["list filter semantics", /combine/, () => doc.paths["/v1/disbursements"].get],
    ["the family taking the merchant name as corporate_id", /merchant name/, () => schemas.DisbursementItem.properties.corporate_id],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, pattern, at) => {
    expect(at()["x-unspecified"]).toMatch(pattern);
  });
});

describe("disbursement@1.0.0 says no more than the source", () => {
  const refresh = doc.paths["/v1/disbursements/external-status-updates"].post;
  const created = doc.paths["/v1/disbursements"].post.responses["200"].content["application/json"].examples;

  it("status-refresh examples: a disbursement keeps the amount it was created with; the decimal form is shown apart", () => {
    const examples = refresh.responses["200"].content["application/json"].examples;
    const createdAmounts = new Map<string, string>();
    for (const example of Object.values<any>(created)) {
      for (const r of example.value.result) createdAmounts.set(r.disbursement.disbursement_id, r.disbursement.destination_amount.num);
    }
    let decimal = 0;
    for (const example of Object.values<any>(examples)) {
      for (const r of example.value.result) {
        const { disbursement_id, destination_amount } = r.disbursement;
        if (createdAmounts.has(disbursement_id)) expect(destination_amount.num, disbursement_id).toBe(createdAmounts.get(disbursement_id));
        if (destination_amount.num.includes(".")) {
          decimal++;
          expect(createdAmounts.has(disbursement_id), `${disbursement_id} also appears in a create example`).toBe(false);
        }
      }
    }
    expect(decimal).toBe(1);
  });

  it("disbursement_ids: the table's spelling disbursement_id recorded, a body in that spelling accepted", () => {
    const ids = schemas.RefreshDisbursementStatusesRequest.properties.disbursement_ids;
    expect(ids["x-field-table-name"]).toBe("disbursement_id");
    expect(schemas.RefreshDisbursementStatusesRequest["x-unspecified"]).toMatch(/spelling of the ids parameter/);
    const credentials = { UBP_CLIENT: { identifier: "i", secret: "s" } };
    expect(valid("RefreshDisbursementStatusesRequest", { credentials, disbursement_ids: ["d1"] })).toBe(true);
    expect(valid("RefreshDisbursementStatusesRequest", { credentials, disbursement_id: ["d1"] })).toBe(true);
  });
});

describe("disbursement@1.0.0 mock enforces the schema's rules", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock(entry, { port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const example = doc.paths["/v1/disbursements"].post.requestBody.content["application/json"].examples.philippines.value;
  const create = async (change: (body: any) => void, headers: Record<string, string> = { "x-api-key": "test-key" }) => {
    const body = structuredClone(example);
    change(body);
    const response = await fetch(`${mock.url}/v1/disbursements`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, violations: responseViolations(response.headers, text) };
  };
  const at = (v: { location: Array<string | number> }) => v.location.join(".");

  it("accepts the example as given", async () => {
    expect((await create(() => {})).status).toBe(200);
  });

  it("rejects a reference_id of 41 characters with 400, naming the field", async () => {
    const { status, violations } = await create((b) => (b.disbursements[0].reference_id = "r".repeat(41)));
    expect(status).toBe(400);
    expect(violations.map(at)).toContain("request.body.disbursements.0.reference_id");
  });

  it("accepts a PH_ destination without an address: the market rule is stated, not guessed from the bank id", async () => {
    const { status } = await create((b) => delete b.disbursements[1].destination_account.address);
    expect(status).toBe(200);
  });

  it("accepts a non-Philippine destination without an address", async () => {
    const { status } = await create((b) => {
      delete b.disbursements[1].destination_account.address;
      b.disbursements[1].destination_account.bank = "ID_BCA";
    });
    expect(status).toBe(200);
  });

  it("rejects dotted date parts out of range with 400", async () => {
    const get = (query: string) => fetch(`${mock.url}/v1/disbursements?${query}`, { headers: { "x-api-key": "test-key" } });
    expect((await get("start_date.year=2024&start_date.month=12&start_date.day=31")).status).toBe(200);
    expect((await get("start_date.month=13")).status).toBe(400);
    expect((await get("end_date.day=0")).status).toBe(400);
    expect((await get("end_date.day=32")).status).toBe(400);
  });
});
