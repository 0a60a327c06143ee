/**
 * Payment initiation (Payment Initiation, Statement Retrieval and Balance Retrieval Interface) in
 * the sandbox, with the requests a partner makes: the short link with the customer's first name,
 * `unique_amount`, transfers listed and read by id as transactions are (an unknown id 404), a
 * two-factor token submission moving the transfer it is about, the lifecycle's final statuses, the
 * callback's status codes with one Idempotency-Key per event, and forced 503 with Retry-After.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { startReceiver } from "../../helpers/sandbox.js";
import { send } from "./cases.js";

const alias = "payment-initiation@1.0.0";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(findApi(alias), { port: 0, sandbox: { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } } });
});
afterAll(() => mock.close());

const partner = () => {
  const credential = `pi-${randomUUID()}`;
  return {
    control: sandboxControl(mock.url, credential),
    call: (operationId: string, options: { body?: unknown; query?: Record<string, string> } = {}) =>
      send(mock.url, alias, operationId, { credential, ...options }),
  };
};
const checkout = (extra: Record<string, unknown> = {}) => ({
  reference_id: "order-1",
  amount: { cur: "IDR", num: "10000" },
  destination_account_id: "dst-1",
  customer: { fname: "Budi", email: "budi@example.com" },
  ...extra,
});

describe(alias, () => {
  it("the short link carries the customer's first name when fname is set", async () => {
    const { call } = partner();
    const named = await call("createCheckout", { body: checkout({ client: { short_redirect_uri: true } }) });
    expect(named.body.short_redirect_uri).toBe(`https://s.direct.example.com/Budi/${named.body.transaction_id}`);
    const anonymous = await call("createCheckout", { body: checkout({ customer: {}, client: { short_redirect_uri: true } }) });
    expect(anonymous.body.short_redirect_uri).toBe(`https://s.direct.example.com/${anonymous.body.transaction_id}`);
    const none = await call("createCheckout", { body: checkout() });
    expect(none.body.short_redirect_uri).toBeUndefined();
  });

  it("unique_amount ADD and SUBTRACT change the amount by centavos; NONE keeps it", async () => {
    const { call } = partner();
    const amountOf = async (unique: string) => {
      const id = (await call("createCheckout", { body: checkout({ unique_amount: unique }) })).body.transaction_id;
      return (await call("listTransactions", { query: { transaction_id: id } })).body.transactions[0].amount.num;
    };
    expect(await amountOf("NONE")).toBe("10000");
    const added = Number(await amountOf("ADD"));
    expect(added).toBeGreaterThan(10000);
    expect(added).toBeLessThan(10100);
    const deducted = Number(await amountOf("SUBTRACT"));
    expect(deducted).toBeLessThan(10000);
    expect(deducted).toBeGreaterThan(9900);
  });

  it("transfers are records: listed newest first and read by id; an unknown id is 404", async () => {
    const { call } = partner();
    const first = (await call("createCheckout", { body: checkout() })).body.transaction_id;
    const second = (await call("createCheckout", { body: checkout({ reference_id: "order-2" }) })).body.transaction_id;
    const listed = await call("listTransfers");
    expect(listed.status).toBe(200);
    expect(listed.violations).toEqual([]);
    expect(listed.body.transfers.map((t: { transfer_id: string }) => t.transfer_id)).toEqual([second, first]);
    const one = await call("listTransfers", { query: { transfer_id: first } });
    expect(one.body.transfers).toEqual([
      expect.objectContaining({ transfer_id: first, status: "INVOICE_CREATED", reference_id: "order-1" }),
    ]);
    expect((await call("listTransfers", { query: { transfer_id: "trf_unknown" } })).status).toBe(404);
  });

  it("a token submission moves the transfer it is about; a transfer waiting for none refuses it", async () => {
    const { control, call } = partner();
    const id = (await call("createCheckout", { body: checkout({ customer: { email: "tfa@sandbox.example" } }) })).body.transaction_id;
    expect((await control.record("transaction", id)).status).toBe("TransferStatus_TFA_AWAIT");
    const token = { purpose: "FundTransferAuthentication", purpose_id: id, token: "123456", transfer_id: id };
    const submitted = await call("submitTfaToken", { body: token });
    expect(submitted.status).toBe(200);
    expect(submitted.violations).toEqual([]);
    expect(submitted.body).toEqual({ status: "SUCCESS", auth_status: "COMPLETE" });
    expect((await control.record("transaction", id)).status).toBe("TransferStatus_IN_PROGRESS");
    expect((await call("submitTfaToken", { body: token })).status).toBe(400);
    expect((await call("submitTfaToken", { body: { ...token, transfer_id: "trf_unknown" } })).status).toBe(404);
  });

  it("each final status sends its callback code once per event, under one Idempotency-Key; a final status takes no other move", async () => {
    const { control, call } = partner();
    const receiver = await startReceiver(alias, "transactionCompleted");
    try {
      await control.registerCallback("transactionCompleted", receiver.url);
      const cases: Array<[string[], number]> = [
        [["complete"], 2],
        [["error"], 3],
        [["expire"], 11],
        [["flag"], 12],
        [["cancel"], 13],
        [["deny"], 14],
        [["flag", "fail"], 15],
      ];
      const sent: Array<{ id: string; code: number }> = [];
      for (const [actions, code] of cases) {
        const id = (await call("createCheckout", { body: checkout() })).body.transaction_id;
        for (const action of actions) await control.act("transaction", id, action);
        sent.push({ id, code });
      }
      const events = await receiver.eventCount(8); // flag, then fail: two events for the last one
      const codes = events.map((e) => (e.payload as { status_code: number }).status_code).sort((a, b) => a - b);
      expect(codes).toEqual([2, 3, 11, 12, 12, 13, 14, 15]);
      const keys = receiver.deliveries.map((d) => d.key);
      expect(new Set(keys).size).toBe(keys.length); // one key per event
      const completed = sent[0].id;
      expect(await control.act("transaction", completed, "cancel").catch((e) => e.status)).toBe(409);
    } finally {
      await receiver.close();
    }
  });

  it("forces an undeclared 503 with Retry-After, named in sl-violations", async () => {
    const { control, call } = partner();
    await control.force({ operation_id: "createCheckout", status: 503, retry_after: 2 });
    const forced = await call("createCheckout", { body: checkout() });
    expect(forced.status).toBe(503);
    expect(forced.headers.get("retry-after")).toBe("2");
    expect(forced.body).toMatchObject({ status: 503 });
    expect(JSON.stringify(forced.violations)).toMatch(/503/);
    expect((await control.state()).resources.transaction).toBeUndefined();
  });
});
