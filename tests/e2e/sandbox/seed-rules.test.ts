/**
 * The last rules of the provider's documents in the sandbox, and what the sandbox does where they
 * are silent, said as its own:
 *
 * - the disbursement status refresh with a batch and ids: the batch "acts independently of the ids
 *   parameter" (Disbursement and Account Opening Interface, "Endpoints", line 122), so each selects
 *   on its own and the answer holds both;
 * - "Sandbox uses dummy banks" (same document, "What the service does", line 14): a disbursement to
 *   a bank code the document does not list is simulated, and the sandbox's description says so; a
 *   statement retrieval, like a statement session (Payment Initiation, Statement Retrieval and
 *   Balance Retrieval Interface, "Limits", line 276), takes only DUMMY_BANK_PERSONAL;
 * - a checkout whose `expiry_date_time` has passed is refused, not created already expired;
 * - a balance retrieval's `update` moves when its status does;
 * - every callback payload the sandbox builds is described as the sandbox's own, never as the
 *   spec's (the transaction callback's payload shape is not shown, line 251).
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { type SandboxControl, sandboxControl } from "../../../src/testing/index.js";
import type { Answer } from "../../helpers/sandbox.js";
import { send } from "./cases.js";

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
  const credential = `seed-${randomUUID()}`;
  return {
    control: sandboxControl(mock.url, credential) as SandboxControl,
    call: (operationId: string, options: { body?: unknown; query?: Record<string, string | string[]> } = {}): Promise<Answer> =>
      send(mock.url, alias, operationId, { credential, ...options }),
  };
};

describe("disbursement@1.0.0", () => {
  const credentials = { UBP_CLIENT: { identifier: "<client-id>", secret: "<client-secret>" } };
  const item = (reference: string, extra: Record<string, unknown> = {}) => ({
    corporate_id: "EXAMPLE_MERCHANT",
    reference_id: reference,
    type: "ON_DEMAND",
    source_account: { bank: "UNIONBANK_CORPORATE", number: "1111111111", holder_name: "Example Corporation" },
    source_amount: { cur: "PHP" },
    destination_account: { bank: "DUMMY_DESTINATION_BANK", number: "2222222222", holder_name: "Sandbox Beneficiary" },
    destination_amount: { num: "10000", cur: "PHP" },
    ...extra,
  });
  const idsOf = (answer: Answer) =>
    (answer.body.result as Array<{ disbursement: { disbursement_id: string } }>).map((r) => r.disbursement.disbursement_id).sort();

  it("the status refresh with a batch and ids returns the whole batch and the ids besides: each parameter acts on its own", async () => {
    const { call } = await partner("disbursement@1.0.0");
    const batchA = (await call("createDisbursements", { body: { credentials, disbursements: [item("a-1"), item("a-2")] } })).body.result;
    const batchB = (await call("createDisbursements", { body: { credentials, disbursements: [item("b-1"), item("b-2")] } })).body.result;
    const [a1, a2] = batchA.map((r: { disbursement: { disbursement_id: string } }) => r.disbursement.disbursement_id);
    const [b1] = batchB.map((r: { disbursement: { disbursement_id: string } }) => r.disbursement.disbursement_id);
    const batch = batchA[0].disbursement.batch_id;

    const both = await call("refreshDisbursementStatuses", {
      body: { credentials, disbursement_request_id: batch, disbursement_ids: [b1] },
    });
    expect(both.status).toBe(200);
    expect(both.violations).toEqual([]);
    expect(idsOf(both)).toEqual([a1, a2, b1].sort());
    // An id of the batch itself comes once.
    const overlapping = await call("refreshDisbursementStatuses", {
      body: { credentials, disbursement_request_id: batch, disbursement_ids: [a1] },
    });
    expect(idsOf(overlapping)).toEqual([a1, a2].sort());
    // Each alone, as before.
    expect(idsOf(await call("refreshDisbursementStatuses", { body: { credentials, disbursement_request_id: batch } }))).toEqual(
      [a1, a2].sort(),
    );
    expect(idsOf(await call("refreshDisbursementStatuses", { body: { credentials, disbursement_ids: [b1] } }))).toEqual([b1]);
  });

  it("a transfer to a bank the document does not list (PH_BDO) is simulated, and GET /_sandbox says the sandbox accepts any bank code", async () => {
    const { control, call } = await partner("disbursement@1.0.0");
    const address = { line1: "1 Ayala Ave", city: "Makati", province: "Metro Manila", zip_code: "1226", country: "PH" };
    const bdo = item("bdo-1", { destination_account: { bank: "PH_BDO", number: "3333333333", holder_name: "Juan Dela Cruz", address } });
    const created = await call("createDisbursements", { body: { credentials, disbursements: [bdo] } });
    expect(created.status).toBe(200);
    expect(created.body.result[0].result).toEqual({ success: true });
    const resource = (await control.describe()).resources.find((r) => r.name === "disbursement");
    // The sandbox's choice, marked as its own where partners read the sandbox's description.
    expect(resource?.convention).toMatch(/dummy banks/i);
    expect(resource?.convention).toMatch(/any bank code/i);
    expect(resource?.convention).toMatch(/simulated/i);
  });
});

describe("statement@1.0.0", () => {
  it("a retrieval from a bank other than DUMMY_BANK_PERSONAL is refused (400) and stores nothing, as a session's bank_codes are", async () => {
    const { control, call } = await partner("statement@1.0.0");
    const body = (bank_code: string) => ({
      bank_code,
      credential: { identifier: "user@example.com", secret: "<password>" },
      start_date: "2026-01-01",
      end_date: "2026-01-31",
    });
    const other = await call("retrieveStatement", { body: body("BCA_PERSONAL") });
    expect(other.status).toBe(400);
    expect(other.body).toBeUndefined();
    expect((await control.state()).resources.statement ?? []).toEqual([]);
    const dummy = await call("retrieveStatement", { body: body("DUMMY_BANK_PERSONAL") });
    expect(dummy.status).toBe(200);
    expect((await control.state()).resources.statement).toHaveLength(1);
  });
});

describe("payment-initiation@1.0.0", () => {
  it("a checkout whose expiry_date_time has passed (on the sandbox clock) is refused (400): no transaction, no event", async () => {
    const { control, call } = await partner("payment-initiation@1.0.0");
    const checkout = (seconds: number) => ({
      reference_id: "order-1",
      amount: { cur: "IDR", num: "10000" },
      destination_account_id: "dst-1",
      customer: { fname: "Budi", email: "budi@example.com" },
      expiry_date_time: { seconds, nanos: 0 },
    });
    const now = Math.floor(Date.parse((await control.clock()).now) / 1000);
    const passed = await call("createCheckout", { body: checkout(now - 60) });
    expect(passed.status).toBe(400);
    expect(passed.body).toBeUndefined();
    expect((await control.state()).resources.transaction ?? []).toEqual([]);
    expect(await control.events()).toEqual([]);
    // On the sandbox clock: an hour ahead of real time is past once the clock has moved two hours.
    await control.advanceClock(2 * 3600);
    expect((await call("createCheckout", { body: checkout(now + 3600) })).status).toBe(400);
    const ahead = await call("createCheckout", { body: checkout(now + 3 * 3600) });
    expect(ahead.status).toBe(200);
    expect((await control.record("transaction", ahead.body.transaction_id)).status).toBe("TransferStatus_INVOICE_CREATED");
  });
});

describe("balance@1.0.0", () => {
  it("a retrieval's `update` is the time of its last status change", async () => {
    const { control, call } = await partner("balance@1.0.0");
    const started = await call("retrieveBalance", {
      body: {
        bank_code: "DUMMY_BANK_PERSONAL",
        credential: { credential_type: "EMAIL", identifier: "user@example.com", secret: "<password>" },
      },
    });
    const id = started.body.request_id;
    const read = async () =>
      (
        (await call("listBalances")).body.balances as Array<{
          request_id: string;
          created_at: { seconds: number };
          update: { seconds: number };
        }>
      ).find((b) => b.request_id === id)!;
    const first = await read();
    expect(first.update.seconds).toBe(first.created_at.seconds);
    await control.advanceClock(600);
    await control.act("balanceRequest", id, "authenticate");
    const moved = await read();
    expect(moved.created_at).toEqual(first.created_at);
    expect(moved.update.seconds).toBeGreaterThanOrEqual(first.created_at.seconds + 600);
  });
});

describe("callback payloads", () => {
  it.each(["pay@1.3.0", "payment-initiation@1.0.0", "statement@1.0.0"])(
    "%s: GET /_sandbox describes each callback's payload as the sandbox's own choice",
    async (alias) => {
      const { control } = await partner(alias);
      const callbacks = (await control.describe()).resources.flatMap((r) => r.callbacks ?? []) as Array<{
        webhook: string;
        convention?: string;
      }>;
      expect(callbacks.length).toBeGreaterThan(0);
      for (const callback of callbacks) {
        expect(callback.convention, `${callback.webhook}: its convention`).toMatch(/payload/i);
        expect(callback.convention).toMatch(/sandbox/i);
        // The specs' examples are placeholders, not the provider's format: the sandbox's payload is not "the spec's".
        expect(callback.convention).not.toMatch(/spec's placeholder/i);
      }
    },
  );
});
