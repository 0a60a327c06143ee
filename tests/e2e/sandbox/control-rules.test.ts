/**
 * What the sandbox's control API offers a partner's tests, beyond the provider's documents:
 *
 * - a resent event goes to the callback URL registered now: an event whose callback was skipped
 *   (the invoice was paid before the merchant set `webhook_url`) is delivered once the URL is there,
 *   and a URL registered again since the first delivery gets the resend; resend takes the actions'
 *   body (`{}`, `deliver_twice`);
 * - the test values, one rule for all (compared without regard to case), every one listed by
 *   `GET /_sandbox` (the 27 of the sandbox guide, written out below by hand);
 * - a forced dropped connection before the request is processed (nothing stored) or after (stored,
 *   the answer lost: the case that makes a POST retry unsafe);
 * - a local sandbox (bound to loopback) delivers the callbacks of 30 invoices paid at once, none
 *   dropped by the queue's bound.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { type Answer, call, startReceiver } from "../../helpers/sandbox.js";
import { api, exampleBody, future, send } from "./cases.js";

const mocks = new Map<string, Promise<MockServer>>();
const mockOf = (alias: string) => {
  if (!mocks.has(alias)) mocks.set(alias, startMock(findApi(alias), { port: 0, sandbox: true }));
  return mocks.get(alias)!;
};
afterAll(async () => {
  for (const mock of mocks.values()) await (await mock).close();
});

const partner = async (alias: string) => {
  const mock = await mockOf(alias);
  const credential = `control-${randomUUID()}`;
  return {
    mock,
    credential,
    control: sandboxControl(mock.url, credential),
    /** A control call with a JSON body (or none), as the control document describes it. */
    raw: (method: string, path: string, body?: unknown) =>
      call(mock.url, method, path, { headers: { authorization: `Bearer ${credential}` }, body }),
    call: (operationId: string, options: { body?: unknown; path?: Record<string, string> } = {}): Promise<Answer> =>
      send(mock.url, alias, operationId, { credential, ...options }),
  };
};
const invoice = { amount: { cur: "IDR", amt: "150000" }, item_id: "SKU-1" };

describe("resending an event", () => {
  it("delivers a callback that was skipped (no webhook_url yet) to the URL the merchant set since", async () => {
    const { control, raw, call } = await partner("pay@1.3.0");
    const receiver = await startReceiver("pay@1.3.0", "invoicePaid");
    try {
      const id = (await call("createInvoice", { body: invoice })).body.invoice_id;
      const paid = await control.act("invoice", id, "pay");
      expect(paid.deliveries.map((d) => d.state)).toEqual(["skipped"]);
      expect((await call("createMerchant", { body: { name: "Sandbox Shop", webhook_url: receiver.url } })).status).toBe(200);

      const resent = await raw("POST", `/_sandbox/events/${paid.event!.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body.deliveries).toHaveLength(1);
      expect(resent.body.deliveries[0]).toMatchObject({ url: receiver.url });
      expect(resent.body.deliveries[0].state).not.toBe("skipped");
      const key = paid.event!.idempotency_key;
      const deliveries = await receiver.deliveriesThrough(key);
      expect(deliveries).toEqual([{ key, status: 200 }]);
      expect(receiver.events[0].payload).toMatchObject({ invoice_id: id, status: "Success" });
    } finally {
      await receiver.close();
    }
  });

  it("sends to the callback URL registered now, not the one the first delivery went to", async () => {
    const alias = "payment-initiation@1.0.0";
    const { control, raw, call } = await partner(alias);
    const before = await startReceiver(alias, "transactionCompleted");
    const now = await startReceiver(alias, "transactionCompleted");
    try {
      await control.registerCallback("transactionCompleted", before.url);
      const body = {
        reference_id: "order-1",
        amount: { cur: "IDR", num: "10000" },
        destination_account_id: "dst-1",
        customer: { email: "budi@example.com" },
      };
      const id = (await call("createCheckout", { body })).body.transaction_id;
      const completed = await control.act("transaction", id, "complete");
      const key = completed.event!.idempotency_key;
      expect(await before.deliveriesThrough(key)).toEqual([{ key, status: 200 }]);

      await control.registerCallback("transactionCompleted", now.url);
      const resent = await raw("POST", `/_sandbox/events/${completed.event!.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body.deliveries.map((d: { url?: string }) => d.url)).toEqual([now.url]);
      expect(await now.deliveriesThrough(key)).toEqual([{ key, status: 200 }]);
    } finally {
      await before.close();
      await now.close();
    }
  });

  it("takes the body the actions take: {} and deliver_twice", async () => {
    const { control, raw, call } = await partner("pay@1.3.0");
    const id = (await call("createInvoice", { body: invoice })).body.invoice_id;
    const event = (await control.act("invoice", id, "pay")).event!;
    const empty = await raw("POST", `/_sandbox/events/${event.id}/resend`, {});
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    const twice = await raw("POST", `/_sandbox/events/${event.id}/resend`, { deliver_twice: true });
    expect(twice.status, JSON.stringify(twice.body)).toBe(200);
    expect(twice.body.deliveries.map((d: { times: number }) => d.times)).toEqual([2]);
  });
});

/** The test values of the sandbox guide, by hand: API, operation, request member (`[]`: every element), value, outcome, delay. */
const TEST_VALUES: Array<[alias: string, operationId: string, member: string, value: string, outcome: string, seconds: number]> = [
  ["pay@1.3.0", "createInvoice", "item_id", "sandbox_paid", "Success", 5],
  ["pay@1.3.0", "createInvoice", "item_id", "sandbox_failed", "Failed", 5],
  ["pay@1.3.0", "createInvoice", "item_id", "sandbox_expired", "Expired", 0],
  ["pay@1.3.0", "createInvoice", "item_id", "sandbox_flagged", "Flagged", 0],
  ["pay@1.2.0", "createInvoice", "item_id", "sandbox_paid", "SUCCESS", 5],
  ["pay@1.2.0", "createInvoice", "item_id", "sandbox_failed", "FAILED", 5],
  ["pay@1.2.0", "createInvoice", "item_id", "sandbox_expired", "EXPIRED", 0],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "tfa@sandbox.example", "TransferStatus_TFA_AWAIT", 0],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "completed@sandbox.example", "TransferStatus_COMPLETED", 5],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "error@sandbox.example", "TransferStatus_ERROR", 5],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "expired@sandbox.example", "TransferStatus_EXPIRED", 0],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "flagged@sandbox.example", "TransferStatus_FLAGGED", 5],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "cancelled@sandbox.example", "TransferStatus_CANCELLED", 5],
  ["payment-initiation@1.0.0", "createCheckout", "customer.email", "denied@sandbox.example", "TransferStatus_DENIED", 5],
  ["statement@1.0.0", "retrieveStatement", "credential.identifier", "login_error@sandbox.example", "LOGIN_ERROR", 0],
  ["statement@1.0.0", "retrieveStatement", "credential.identifier", "tfa@sandbox.example", "TFA_AWAIT", 0],
  ["statement@1.0.0", "retrieveStatement", "credential.identifier", "completed@sandbox.example", "COMPLETED", 5],
  ["balance@1.0.0", "retrieveBalance", "credential.identifier", "auth_failed@sandbox.example", "AUTH_FAILED", 0],
  ["balance@1.0.0", "retrieveBalance", "credential.identifier", "failed@sandbox.example", "FAILED", 0],
  ["balance@1.0.0", "retrieveBalance", "credential.identifier", "tfa@sandbox.example", "AUTH_IN_PROGRESS", 0],
  ["balance@1.0.0", "retrieveBalance", "credential.identifier", "success@sandbox.example", "SUCCESS", 5],
  ["disbursement@1.0.0", "createDisbursements", "disbursements[].description", "sandbox_pending", "PENDING", 0],
  ["disbursement@1.0.0", "createDisbursements", "disbursements[].description", "sandbox_pending_failed", "PENDING", 0],
  ["disbursement@1.0.0", "createDisbursements", "disbursements[].description", "sandbox_error", "FAILED", 0],
  ["disbursement@1.0.0", "inquireBankAccount", "bank_account.number", "0000000000", "400", 0],
  ["account-opening@1.0.0", "openAccount", "user_detail.user_email", "approved@sandbox.example", "CREATED", 5],
  ["account-opening@1.0.0", "openAccount", "user_detail.user_email", "rejected@sandbox.example", "REJECTED", 5],
];

/** `body` with `path` (dotted; `name[]` for every element of a list) set to `value`. */
function setMember(body: any, path: string, value: string): any {
  const [head, ...rest] = path.split(".");
  const out = { ...(body ?? {}) };
  if (head.endsWith("[]")) {
    const name = head.slice(0, -2);
    out[name] = (out[name] as any[]).map((item) => setMember(item, rest.join("."), value));
  } else out[head] = rest.length === 0 ? value : setMember(out[head], rest.join("."), value);
  return out;
}
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("test values", () => {
  it("GET /_sandbox lists every test value of the guide, each naming its member and value", async () => {
    expect(TEST_VALUES).toHaveLength(27);
    let listed = 0;
    for (const alias of new Set(TEST_VALUES.map(([a]) => a))) {
      const { control } = await partner(alias);
      const entries = (await control.describe()).resources.flatMap((r) => r.test_values ?? []);
      listed += entries.length;
      const used = new Set<number>();
      for (const [, operationId, member, value] of TEST_VALUES.filter(([a]) => a === alias)) {
        const name = member.split(".").at(-1)!.replace("[]", "");
        const found = entries.findIndex(
          (entry, i) => !used.has(i) && new RegExp(`\\b${escaped(value)}\\b`).test(entry.description) && entry.description.includes(name),
        );
        expect(found, `${alias} ${operationId} ${member}: ${value} is not listed by GET /_sandbox`).toBeGreaterThanOrEqual(0);
        used.add(found);
      }
    }
    expect(listed).toBe(27);
  });

  describe.each(TEST_VALUES.filter(([, , , value]) => value.toUpperCase() !== value).map((row) => [`${row[0]} ${row[3]}`, row] as const))(
    "%s",
    (_, [alias, operationId, member, value, outcome, seconds]) => {
      it(`in upper case still gives ${outcome}: one rule, every value compared without regard to case`, async () => {
        const { control, call } = await partner(alias);
        const { doc, op } = api(alias);
        const body = setMember(future(exampleBody(doc, op(operationId))), member, value.toUpperCase());
        const answer = await call(operationId, { body });
        expect(answer.status).toBe(200);
        const resource = (await control.describe()).operations.find((o) => o.operation_id === operationId)!.resource!;
        const record = (await control.state()).resources[resource]!.at(-1)!;
        if (seconds > 0) await control.advanceClock(seconds);
        expect((await control.record(resource, record.id)).status).toBe(outcome);
      });
    },
  );
});

describe("forced dropped connections", () => {
  const createInvoice = async (mock: MockServer, credential: string) =>
    fetch(`${mock.url}/v1/invoice`, {
      method: "POST",
      headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
      body: JSON.stringify(invoice),
    });

  it('drop "before": the connection closes before the request is processed, and nothing is stored', async () => {
    const { mock, credential, control, raw } = await partner("pay@1.3.0");
    const rule = await raw("POST", "/_sandbox/errors", { operation_id: "createInvoice", drop: "before" });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    expect(rule.body).toMatchObject({ operation_id: "createInvoice", drop: "before" });
    await expect(createInvoice(mock, credential)).rejects.toThrow();
    expect((await control.state()).resources.invoice ?? []).toEqual([]);
    expect((await createInvoice(mock, credential)).status).toBe(200);
  });

  it('drop "after": the request is processed and stored, then the connection closes without its answer', async () => {
    const { mock, credential, control, raw } = await partner("pay@1.3.0");
    const rule = await raw("POST", "/_sandbox/errors", { operation_id: "createInvoice", drop: "after" });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    expect(rule.body).toMatchObject({ operation_id: "createInvoice", drop: "after" });
    await expect(createInvoice(mock, credential)).rejects.toThrow();
    const stored = (await control.state()).resources.invoice ?? [];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: "Created", data: { item_id: "SKU-1" } });
    // A retry of the same POST makes a second invoice: the case a partner's retry logic must handle.
    expect((await createInvoice(mock, credential)).status).toBe(200);
    expect((await control.state()).resources.invoice).toHaveLength(2);
  });
});

describe("the callback queue of a local sandbox", () => {
  it("delivers every callback of 30 invoices paid at once: none is dropped by the queue's bound", async () => {
    const { control, call } = await partner("pay@1.3.0");
    const receiver = await startReceiver("pay@1.3.0", "invoicePaid");
    try {
      await call("createMerchant", { body: { name: "Sandbox Shop", webhook_url: receiver.url } });
      for (let i = 0; i < 30; i++)
        expect((await call("createInvoice", { body: { ...invoice, item_id: "sandbox_paid" } })).status).toBe(200);
      // The clock passes the test value's 5 seconds: the 30 invoices are paid in one step.
      expect((await control.advanceClock(5)).expired).toHaveLength(30);
      const refused = (await control.deliveries()).filter((d) => d.state === "failed").map((d) => d.note);
      expect(refused).toEqual([]);
      expect(await receiver.eventCount(30)).toHaveLength(30);
    } finally {
      await receiver.close();
    }
  });
});
