/**
 * Balance retrieval (Payment Initiation, Statement Retrieval and Balance Retrieval Interface) in
 * the sandbox, with the requests a partner makes: `balance-init` opening a new session each time,
 * a retrieval's lifecycle, the dummy data set after SUCCESS, AUTH_FAILED and FAILED with their
 * `error` text, and no callback (the source shows no events).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { send } from "./cases.js";

const alias = "balance@1.0.0";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(findApi(alias), { port: 0, sandbox: true });
});
afterAll(() => mock.close());

const partner = () => {
  const credential = `bal-${randomUUID()}`;
  return {
    control: sandboxControl(mock.url, credential),
    call: (operationId: string, body?: unknown) => send(mock.url, alias, operationId, { credential, body }),
  };
};
const retrieval = (identifier: string) => ({
  bank_code: "DUMMY_BANK_PERSONAL",
  credential: { credential_type: "EMAIL", identifier, secret: "s" },
});
const listed = async (call: ReturnType<typeof partner>["call"], id: string) =>
  (await call("listBalances")).body.balances.find((b: { request_id: string }) => b.request_id === id);

describe(alias, () => {
  it("balance-init opens a new session, a new balance_id each time", async () => {
    const { call } = partner();
    const body = { country: "ID", bank_codes: ["DUMMY_BANK_PERSONAL"] };
    const [a, b] = [await call("initBalance", body), await call("initBalance", body)];
    expect(a.status).toBe(200);
    expect(a.violations).toEqual([]);
    expect(a.body.balance_id).not.toBe(b.body.balance_id);
    expect(a.body.redirect_uri).toContain(a.body.balance_id);
  });

  it("after SUCCESS the record carries the dummy data set, shaped as the source shows", async () => {
    const { control, call } = partner();
    const id = (await call("retrieveBalance", retrieval("user@example.com"))).body.request_id;
    expect((await listed(call, id)).status).toBe("INITIATED");
    for (const action of ["authenticate", "retrieve", "succeed"]) await control.act("balanceRequest", id, action);
    const list = await call("listBalances");
    expect(list.violations).toEqual([]);
    const record = await listed(call, id);
    expect(record.status).toBe("SUCCESS");
    expect(record.accounts[0]).toMatchObject({
      account: { type: expect.any(String), account_number: expect.any(String), holder_name: expect.any(String) },
      balance: { current: { cur: expect.any(String), num: expect.stringMatching(/^\d+$/) }, periodic_balance: [expect.any(Object)] },
    });
    expect(record.accounts[0].balance.peridic_balance_range.total_months).toBe(1);
    expect(await control.deliveries()).toEqual([]);
  });

  it("AUTH_FAILED and FAILED carry their error text and are final", async () => {
    const { control, call } = partner();
    for (const [identifier, status] of [
      ["auth_failed@sandbox.example", "AUTH_FAILED"],
      ["failed@sandbox.example", "FAILED"],
    ]) {
      const answer = await call("retrieveBalance", retrieval(identifier));
      expect(answer.body.status).toBe(status);
      const record = await listed(call, answer.body.request_id);
      expect(record).toMatchObject({ status, error: expect.any(String) });
      expect(await control.act("balanceRequest", answer.body.request_id, "succeed").catch((e) => e.status)).toBe(409);
    }
  });
});
