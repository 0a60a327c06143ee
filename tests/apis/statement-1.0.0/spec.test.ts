/**
 * Statement retrieval 1.0.0 against the Payment Initiation, Statement Retrieval and Balance Retrieval Interface (the statement
 * retrieval parts): every operation, field type, enumeration, status meaning, rule, callback and
 * recorded gap that the source states. The source names no release; 1.0.0 is this package's label.
 */
import { describe, expect, it } from "vitest";
import { endpointKeys, fields, type Schema, specUnderTest } from "../../helpers/spec.js";

/** The source's type notation: string, int32, bool, date, Name, []Name; a type list as `a|b`; an enum of strings is `string`. */
const { doc, schemas, valid, deref, propertiesOf, typesOf, jsonSchemaOf, operationKeys } = specUnderTest("statement@1.0.0", {
  stringFormats: { date: "date" },
});

/**
 * Every statement endpoint of the source: method, path, operationId, request fields (null: no body),
 * response fields (null: checked separately). `date` is the source's YYYY-MM-DD string; the status
 * is StatementStatus, the source's `status string` with its listed values.
 */
const endpoints: Array<[string, string, string, string | null, string | null]> = [
  [
    "post",
    "/v1/statement-init",
    "initStatement",
    `country string; organization_display_name string; app_redirect_uri string; app_redirect_error_uri string;
     app_redirect_duration integer|string; corporate bool; remember_me bool; external_id string; bank_codes []BankCode`,
    "statement_id string; redirect_uri string",
  ],
  [
    "post",
    "/v1/statement-retrieval",
    "retrieveStatement",
    "bank_code BankCode; credential Credential; external_id string; start_date date; end_date date",
    "statement_id string; status StatementStatus; site_response string",
  ],
  ["get", "/v1/statements", "listStatements", null, null],
  ["post", "/v1/tfa", "submitStatementTfa", "purpose TFAPurpose; purpose_id string; token string", null],
];

describe("statement@1.0.0 operations", () => {
  it("has exactly the four statement operations of the source", () => {
    expect(operationKeys()).toEqual(endpointKeys(endpoints));
  });

  it.each(endpoints)("%s %s (%s): x-api-key auth, the listed statuses, the source's fields", (method, path, _id, request, response) => {
    const op = doc.paths[path][method];
    expect(op.security).toEqual([{ apiKeyAuth: [] }]);
    // 200 on success; 400 (payment initiation and statement), 401, 403, 404, 500 from the errors table.
    expect(Object.keys(op.responses).sort()).toEqual(["200", "400", "401", "403", "404", "500"]);
    if (request === null) expect(op.requestBody).toBeUndefined();
    else expect(typesOf(jsonSchemaOf(op.requestBody))).toEqual(fields(request));
    if (response !== null) expect(typesOf(jsonSchemaOf(op.responses["200"]))).toEqual(fields(response));
    for (const [field, prop] of Object.entries(request === null ? {} : propertiesOf(jsonSchemaOf(op.requestBody)))) {
      expect(prop.description, `${path} ${field}`).toBeTruthy();
    }
  });

  it("statement-init: country is ID, PH or TH; app_redirect_duration defaults to 60 seconds", () => {
    const props = propertiesOf(schemas.InitStatementRequest);
    expect(props.country.enum).toEqual(["ID", "PH", "TH"]);
    expect(props.app_redirect_duration.default).toBe(60);
    expect(props.app_redirect_duration.description).toMatch(/60/);
    expect(props.app_redirect_error_uri.description).toMatch(/failure/);
    expect(props.app_redirect_uri.description).toMatch(/app_redirect_error_uri/);
    expect(valid("InitStatementRequest", { country: "ID", app_redirect_duration: 60 })).toBe(true);
    expect(valid("InitStatementRequest", { country: "ID", app_redirect_duration: "60" })).toBe(true);
    expect(valid("InitStatementRequest", { country: "SG" })).toBe(false);
  });

  it("documents the sandbox rule: only DUMMY_BANK_PERSONAL in bank_codes", () => {
    const bankCodes = propertiesOf(schemas.InitStatementRequest).bank_codes;
    expect(bankCodes.description).toMatch(/sandbox only `DUMMY_BANK_PERSONAL` is valid/i);
    expect(schemas.BankCode.description).toMatch(/`DUMMY_BANK_PERSONAL`, the only one valid in statement-init's `bank_codes` in sandbox/);
    expect(doc.info.description).toMatch(/in sandbox only `DUMMY_BANK_PERSONAL` is valid in `bank_codes`/);
    const op = doc.paths["/v1/statement-init"].post;
    expect(op.description).toMatch(/DUMMY_BANK_PERSONAL/);
    expect(op.requestBody.content["application/json"].examples.sandbox.value.bank_codes).toEqual(["DUMMY_BANK_PERSONAL"]);
  });

  it("statement-retrieval: bank_code and credential are required, dates are YYYY-MM-DD", () => {
    const body = deref(schemas.RetrieveStatementRequest);
    expect(body.required).toEqual(["bank_code", "credential"]);
    const ok = {
      bank_code: "BCA_PERSONAL",
      credential: { identifier: "u", secret: "p" },
      start_date: "2024-01-01",
      end_date: "2024-03-31",
    };
    expect(valid("RetrieveStatementRequest", ok)).toBe(true);
    expect(valid("RetrieveStatementRequest", { ...ok, start_date: "01/01/2024" })).toBe(false);
    expect(valid("RetrieveStatementRequest", { credential: ok.credential })).toBe(false);
    expect(valid("RetrieveStatementRequest", { bank_code: "BCA_PERSONAL" })).toBe(false);
    expect(propertiesOf(body).start_date.description).toMatch(/zero records/);
  });

  it("statement-retrieval answers site_response and accepts other stage-dependent data", () => {
    const response = "RetrieveStatementResponse";
    expect(valid(response, { statement_id: "s", status: "LOGIN_ERROR", site_response: "Invalid password" })).toBe(true);
    expect(valid(response, { statement_id: "s", status: "RECEIVED", accounts: [{ any: "thing" }] })).toBe(true);
    expect(valid(response, { statement_id: 42 })).toBe(false);
  });

  it("statements: statement_ids is one optional query parameter, its several-id format unspecified", () => {
    const params = doc.paths["/v1/statements"].get.parameters;
    expect(params).toHaveLength(1);
    expect(params[0]).toMatchObject({ name: "statement_ids", in: "query", required: false, schema: { type: "string" } });
    expect(params[0]["x-unspecified"]).toMatch(/several statement ids/);
    expect(doc.paths["/v1/statements"].get.description).toMatch(/polling/i);
  });

  it("statements: records carry statement_id and status; other members and the envelope are open", () => {
    const response = "ListStatementsResponse";
    expect(valid(response, [{ statement_id: "s1", status: "COMPLETED", transactions: [] }])).toBe(true);
    expect(valid(response, { statement_id: "s1", status: "RECORDS_AVAILABLE" })).toBe(true);
    expect(valid(response, [{ statement_id: 1 }])).toBe(false);
    expect(valid(response, "COMPLETED")).toBe(false);
    expect(typesOf(schemas.StatementRecord)).toEqual(fields("statement_id string; status StatementStatus"));
  });

  it("tfa: purpose is BankCredentialLogin and purpose_id the statement_id; the response body is unspecified", () => {
    const op = doc.paths["/v1/tfa"].post;
    for (const example of Object.values<any>(op.requestBody.content["application/json"].examples)) {
      expect(example.value.purpose).toBe("BankCredentialLogin");
    }
    expect(propertiesOf(schemas.SubmitStatementTfaRequest).purpose_id.description).toMatch(/statement_id/);
    expect(propertiesOf(schemas.SubmitStatementTfaRequest).token.description).toMatch(/6 digits.*captcha/);
    const ok = op.responses["200"].content["application/json"];
    expect(deref(ok.schema)["x-unspecified"]).toMatch(/response body/);
    expect(deref(ok.schema).type).toBeUndefined();
    expect(ok.examples.placeholder.summary).toMatch(/^Placeholder/);
  });
});

describe("statement@1.0.0 types and enumerations", () => {
  it("Credential: credential_type (default EMAIL), identifier, secret", () => {
    expect(typesOf(schemas.Credential)).toEqual(fields("credential_type string; identifier string; secret string"));
    expect(schemas.Credential.properties.credential_type.default).toBe("EMAIL");
    expect(schemas.Credential.properties.credential_type.description).toMatch(/omitted/);
  });

  it("Statement session: statement_id and status", () => {
    expect(typesOf(schemas.StatementSession)).toEqual(fields("statement_id string; status StatementStatus"));
  });

  const statuses: Record<string, RegExp> = {
    INITIATED: /wait for the COMPLETED callback/,
    PENDING: /still connecting/,
    LOGIN_ERROR: /credentials are most likely wrong.*site_response/,
    TFA_AWAIT: /two-factor token must be submitted/,
    LOGIN: /Login succeeded/,
    RECEIVED: /Retrieval is starting/,
    RECORDS_AVAILABLE: /At least one statement/,
    COMPLETED: /finished and the data is available/,
  };

  it("StatementStatus names the eight statuses with their meanings and stays open to others", () => {
    const [known, other] = schemas.StatementStatus.anyOf;
    expect(known.enum).toEqual(Object.keys(statuses));
    for (const [status, meaning] of Object.entries(statuses)) expect(known["x-enumDescriptions"][status], status).toMatch(meaning);
    expect(other).toMatchObject({ type: "string" });
    expect(valid("StatementStatus", "COMPLETED")).toBe(true);
    expect(valid("StatementStatus", "SOME_FUTURE_STATUS")).toBe(true);
    expect(valid("StatementStatus", 3)).toBe(false);
    expect(schemas.StatementStatus["x-unspecified"]).toMatch(/complete list.*transitions/);
  });

  it("BankCode: no list of its own in the source, so any string; DUMMY_BANK_PERSONAL the one value named", () => {
    expect(schemas.BankCode.type).toBe("string");
    expect(schemas.BankCode.enum).toBeUndefined();
    expect(schemas.BankCode["x-enumDeprecated"]).toBeUndefined();
    expect(schemas.BankCode["x-unspecified"]).toMatch(/does not list its BankCode values.*any string is accepted/);
    // Codes the source does not rule out: the sandbox bank, payment initiation's codes, and others.
    for (const code of ["DUMMY_BANK_PERSONAL", "BCA_PERSONAL", "KASIKORNBANK_PERSONAL", "SOME_OTHER_BANK"]) {
      expect(valid("BankCode", code), code).toBe(true);
    }
    expect(valid("RetrieveStatementRequest", { bank_code: "SOME_OTHER_BANK", credential: { identifier: "u", secret: "p" } })).toBe(true);
    expect(valid("InitStatementRequest", { bank_codes: ["SOME_OTHER_BANK"] })).toBe(true);
    expect(valid("BankCode", 14)).toBe(false);
  });

  it("TFAPurpose: UnknownPurpose, BankCredentialLogin, FundTransferAuthentication", () => {
    expect(schemas.TFAPurpose.enum).toEqual(["UnknownPurpose", "BankCredentialLogin", "FundTransferAuthentication"]);
  });
});

describe("statement@1.0.0 servers, auth, release and events", () => {
  it("has a sandbox and a live server, the live one without the sandbox. label", () => {
    const [sandbox, live] = doc.servers;
    expect(sandbox).toMatchObject({ "x-environment": "sandbox", url: "https://sandbox.{statement_domain}" });
    expect(live).toMatchObject({ "x-environment": "live", url: "https://{statement_domain}" });
    expect(sandbox.variables.statement_domain.default).toMatch(/\.example\.com$/);
    expect(doc.servers).toHaveLength(2);
  });

  it("authenticates with the x-api-key header on every operation", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
    });
    expect(doc.security).toEqual([{ apiKeyAuth: [] }]);
  });

  it("says in info that the source states no release", () => {
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.description).toMatch(/states no release number/);
    expect(doc.info["x-unspecified"]).toMatch(/release of the statement retrieval description/i);
  });

  it("declares the status callback as a webhook with the Idempotency-Key header and a flagged placeholder payload", () => {
    const hook = doc.webhooks.statementStatusChanged.post;
    expect(hook.operationId).toBe("notifyStatementStatus");
    expect(hook.parameters).toEqual([expect.objectContaining({ name: "Idempotency-Key", in: "header" })]);
    const media = hook.requestBody.content["application/json"];
    expect(media.schema["x-unspecified"]).toMatch(/payload/);
    expect(media.schema.type).toBeUndefined();
    const examples = Object.values<any>(media.examples);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(`${example.summary} ${example.description}`).toMatch(/placeholder/i);
    expect(hook.description).toMatch(/COMPLETED/);
  });
});

describe("statement@1.0.0 gaps of the source", () => {
  const gaps: Array<[string, (d: any) => Schema]> = [
    ["statement record fields", () => schemas.StatementRecord],
    ["shape of the statements response", () => schemas.ListStatementsResponse],
    ["several-id format of statement_ids", (d) => d.paths["/v1/statements"].get.parameters[0]],
    ["tfa response body", () => schemas.SubmitStatementTfaResponse],
    ["stage-dependent retrieval data", () => schemas.RetrieveStatementResponse],
    ["complete status list and transitions", () => schemas.StatementStatus],
    ["callback payload", (d) => d.webhooks.statementStatusChanged.post.requestBody.content["application/json"].schema],
    ["callback answer and retries", (d) => d.webhooks.statementStatusChanged.post.responses["200"]],
    ["credential_type values", () => schemas.Credential.properties.credential_type],
    ["type of app_redirect_duration", () => schemas.InitStatementRequest.properties.app_redirect_duration],
    ["type of the retrieval's bank_code", () => schemas.RetrieveStatementRequest.properties.bank_code],
    ["statement BankCode values", () => schemas.BankCode],
    ["error body", (d) => d.components.responses.BadRequest],
    ["real host of {statement_url}", (d) => d.servers[1]],
    ["release, limits and static-link creation", (d) => d.info],
  ];
  it.each(gaps)("records the %s as x-unspecified", (_what, at) => {
    const node = at(doc);
    expect(typeof node["x-unspecified"]).toBe("string");
    expect(node["x-unspecified"].length).toBeGreaterThan(10);
  });
});

describe("statement@1.0.0 says no more than the source", () => {
  it("POST /v1/tfa: 200 is success with a body not shown, not 'accepted for processing'", () => {
    const ok = doc.paths["/v1/tfa"].post.responses["200"];
    expect(ok.description).not.toMatch(/accepted|processing/i);
    expect(ok.description).toMatch(/not shown/);
  });

  it.each(["InitStatementRequest", "SubmitStatementTfaRequest"])("%s: requires nothing and says requiredness is not shown", (name) => {
    expect(schemas[name].required).toBeUndefined();
    expect(schemas[name]["x-unspecified"]).toBe("Which request fields are required is not shown; every field is optional here.");
    expect(valid(name, {})).toBe(true);
  });

  it("tfa purpose: BankCredentialLogin, the value the source gives; narrowing marked", () => {
    // Source: "POST | /v1/tfa | purpose (BankCredentialLogin), purpose_id (the statement_id), token string".
    const purpose = schemas.SubmitStatementTfaRequest.properties.purpose;
    expect(purpose.const).toBe("BankCredentialLogin");
    expect(purpose["x-unspecified"]).toMatch(/other TFAPurpose values/);
    expect(valid("SubmitStatementTfaRequest", { purpose: "BankCredentialLogin", purpose_id: "st_1", token: "123456" })).toBe(true);
    expect(valid("SubmitStatementTfaRequest", { purpose: "FundTransferAuthentication", purpose_id: "st_1", token: "1" })).toBe(false);
  });
});
