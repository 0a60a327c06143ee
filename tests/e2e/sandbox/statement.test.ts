/**
 * Statement retrieval (Payment Initiation, Statement Retrieval and Balance Retrieval Interface) in
 * the sandbox, with the requests a partner makes: only DUMMY_BANK_PERSONAL in `bank_codes`, a token
 * submission moving a TFA_AWAIT session to LOGIN, LOGIN_ERROR carrying the bank's `site_response`,
 * polling by `statement_ids` returning the latest status, and a callback per status change.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { startReceiver } from "../../helpers/sandbox.js";
import { send } from "./cases.js";

const alias = "statement@1.0.0";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(findApi(alias), { port: 0, sandbox: { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } } });
});
afterAll(() => mock.close());

const partner = () => {
  const credential = `st-${randomUUID()}`;
  return {
    control: sandboxControl(mock.url, credential),
    call: (operationId: string, options: { body?: unknown; query?: Record<string, string> } = {}) =>
      send(mock.url, alias, operationId, { credential, ...options }),
  };
};
const retrieval = (identifier: string) => ({
  bank_code: "DUMMY_BANK_PERSONAL",
  credential: { identifier, secret: "secret" },
  start_date: "2026-01-01",
  end_date: "2026-01-31",
});

describe(alias, () => {
  it("in sandbox only DUMMY_BANK_PERSONAL is valid in bank_codes", async () => {
    const { control, call } = partner();
    const dummy = await call("initStatement", { body: { country: "ID", bank_codes: ["DUMMY_BANK_PERSONAL"] } });
    expect(dummy.status).toBe(200);
    const other = await call("initStatement", { body: { country: "ID", bank_codes: ["DUMMY_BANK_PERSONAL", "BCA_PERSONAL"] } });
    expect(other.status).toBe(400);
    // The 400 declares no body: none is sent (a body, even the refusal's reason, would break the
    // contract); the reason travels as the one sl-violations entry, of the sandbox's own code.
    expect(other.body).toBeUndefined();
    expect(other.violations).toEqual([
      { location: ["request"], severity: "Information", code: "sandbox-refusal", message: expect.stringMatching(/DUMMY_BANK_PERSONAL/) },
    ]);
    expect((await control.state()).resources.statement).toHaveLength(1);
    expect((await call("initStatement", { body: { country: "ID" } })).status).toBe(200);
  });

  it("a token submission moves a TFA_AWAIT session to LOGIN; polling returns the latest status; a session waiting for none refuses it", async () => {
    const { call } = partner();
    const started = await call("retrieveStatement", { body: retrieval("tfa@sandbox.example") });
    expect(started.body.status).toBe("TFA_AWAIT");
    const id = started.body.statement_id;
    const submitted = await call("submitStatementTfa", { body: { purpose: "BankCredentialLogin", purpose_id: id, token: "123456" } });
    expect(submitted.status).toBe(200);
    expect(submitted.violations).toEqual([]);
    const polled = await call("listStatements", { query: { statement_ids: id } });
    expect(polled.body).toEqual([expect.objectContaining({ statement_id: id, status: "LOGIN" })]);
    const again = await call("submitStatementTfa", { body: { purpose: "BankCredentialLogin", purpose_id: id, token: "123456" } });
    expect(again.status).toBe(400);
  });

  it("LOGIN_ERROR carries the bank's site_response, and is final", async () => {
    const { control, call } = partner();
    const failed = await call("retrieveStatement", { body: retrieval("login_error@sandbox.example") });
    expect(failed.status).toBe(200);
    expect(failed.violations).toEqual([]);
    expect(failed.body).toMatchObject({ status: "LOGIN_ERROR", site_response: expect.any(String) });
    expect(await control.act("statement", failed.body.statement_id, "login").catch((e) => e.status)).toBe(409);
  });

  it("sends a callback for each status change, each its own event and key", async () => {
    const { control, call } = partner();
    const receiver = await startReceiver(alias, "statementStatusChanged");
    try {
      await control.registerCallback("statementStatusChanged", receiver.url);
      const id = (await call("retrieveStatement", { body: retrieval("user@example.com") })).body.statement_id;
      for (const action of ["login", "receive", "records_available", "complete"]) await control.act("statement", id, action);
      const events = await receiver.eventCount(4);
      expect(events.map((e) => (e.payload as { status: string }).status)).toEqual(["LOGIN", "RECEIVED", "RECORDS_AVAILABLE", "COMPLETED"]);
      const keys = new Set((await receiver.deliveryCount(4)).map((d) => d.key));
      expect(keys).toEqual(new Set((await control.events({ resourceId: id })).map((e) => e.idempotency_key)));
      expect(keys.size).toBe(4);
      expect((await control.events({ resourceId: id })).map((e) => e.type)).toEqual([
        "statement.login",
        "statement.receive",
        "statement.records_available",
        "statement.complete",
      ]);
    } finally {
      await receiver.close();
    }
  });
});
