/**
 * Disbursement (Disbursement and Account Opening Interface) in the sandbox,
 * with the requests a partner makes: `reference_id` unique per merchant, the Philippine address
 * rule, a create that answers a non-final status which the status refresh moves (only for the
 * source banks the refresh serves), `updated` and `processed` changing with the status, per-item
 * errors, the account inquiry answering about the account asked and refusing what it does not
 * serve, and a request that fails storing nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { send } from "./cases.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(findApi("disbursement@1.0.0"), { port: 0, sandbox: true });
});
afterAll(() => mock.close());

const partner = () => {
  const credential = `dsb-${randomUUID()}`;
  return {
    control: sandboxControl(mock.url, credential),
    call: (operationId: string, body?: unknown, query?: Record<string, string | string[]>) =>
      send(mock.url, "disbursement@1.0.0", operationId, { credential, body, query }),
  };
};

const item = (reference: string, extra: Record<string, unknown> = {}) => ({
  corporate_id: "EXAMPLE_MERCHANT",
  reference_id: reference,
  type: "ON_DEMAND",
  source_account: { bank: "DUMMY_BANK_CORPORATE", number: "1111111111", holder_name: "Sandbox Corporation" },
  source_amount: { cur: "PHP" },
  destination_account: { bank: "DUMMY_DESTINATION_BANK", number: "2222222222", holder_name: "Sandbox Beneficiary" },
  destination_amount: { num: "10000", cur: "PHP" },
  ...extra,
});
const credentials = { UBP_CLIENT: { identifier: "client", secret: "secret" } };

describe("disbursement@1.0.0", () => {
  it("keeps reference_id unique per merchant: a reference used before is that item's error, another merchant may use it", async () => {
    const { control, call } = partner();
    expect((await call("createDisbursements", { credentials, disbursements: [item("ref-1")] })).status).toBe(200);
    const duplicate = await call("createDisbursements", { credentials, disbursements: [item("ref-2"), item("ref-1")] });
    expect(duplicate.status).toBe(200);
    expect(duplicate.body.result.map((r: { result: Record<string, unknown> }) => Object.keys(r.result))).toEqual([["success"], ["error"]]);
    expect((await control.state()).resources.disbursement).toHaveLength(2);
    // Another merchant (credential) may use the same reference.
    const other = await partner().call("createDisbursements", { credentials, disbursements: [item("ref-1")] });
    expect(other.status).toBe(200);
    expect(other.body.result[0].result).toEqual({ success: true });
  });

  it("a Philippine destination needs its address: without it the item errors, with it the item is created", async () => {
    const { call } = partner();
    const philippine = item("ref-ph", { destination_account: { bank: "PH_UB", number: "3333", holder_name: "Juan" } });
    const refused = await call("createDisbursements", { credentials, disbursements: [philippine] });
    expect(refused.status).toBe(200);
    expect(refused.body.result[0].result.error).toEqual([{ code: expect.any(String), message: expect.stringMatching(/address/) }]);
    const address = { line1: "1 Ayala Ave", city: "Makati", province: "Metro Manila", zip_code: "1226", country: "PH" };
    const withAddress = item("ref-ph", { destination_account: { bank: "PH_UB", number: "3333", holder_name: "Juan", address } });
    const created = await call("createDisbursements", { credentials, disbursements: [withAddress] });
    expect(created.status).toBe(200);
    expect(created.body.result[0].result).toEqual({ success: true });
    expect(created.body.result[0].disbursement.destination_account.address).toMatchObject({ city: "Makati" });
  });

  it("a create answers PENDING; the status refresh moves it (SUCCESS or FAILED), with updated and processed set", async () => {
    const { call } = partner();
    const created = await call("createDisbursements", {
      credentials,
      disbursements: [
        item("ref-a", { description: "sandbox_pending" }),
        item("ref-b", { description: "sandbox_pending_failed" }),
        item("ref-c", { description: "sandbox_pending", source_account: { bank: "BCA_CORPORATE", number: "1", holder_name: "x" } }),
      ],
    });
    expect(created.status).toBe(200);
    const [a, b, c] = created.body.result.map((r: { disbursement: { disbursement_id: string } }) => r.disbursement);
    expect([a.status, b.status, c.status]).toEqual(["PENDING", "PENDING", "PENDING"]);
    expect(a.processed).toBeUndefined();
    const batch = a.batch_id;
    const refreshed = await call("refreshDisbursementStatuses", { credentials, disbursement_request_id: batch });
    expect(refreshed.status).toBe(200);
    expect(refreshed.violations).toEqual([]);
    const byId = new Map(
      refreshed.body.result.map((r: { disbursement: { disbursement_id: string } }) => [r.disbursement.disbursement_id, r]),
    );
    expect(byId.size).toBe(3); // the whole batch
    const refreshedA = (byId.get(a.disbursement_id) as { disbursement: Record<string, string> }).disbursement;
    expect(refreshedA.status).toBe("SUCCESS");
    expect(refreshedA.processed).toEqual(expect.any(String));
    expect(Date.parse(refreshedA.updated)).toBeGreaterThanOrEqual(Date.parse(a.updated));
    expect((byId.get(b.disbursement_id) as { disbursement: { status: string } }).disbursement.status).toBe("FAILED");
    // BCA_CORPORATE is not a source bank the refresh serves: it stays PENDING.
    expect((byId.get(c.disbursement_id) as { disbursement: { status: string } }).disbursement.status).toBe("PENDING");
    const listed = await call("listDisbursements", undefined, { disbursement_ids: [a.disbursement_id] });
    expect(listed.body.disbursements[0].status).toBe("SUCCESS");
  });

  it("lists by creation-date range (start_date.* to end_date.*, whole days)", async () => {
    const { call } = partner();
    const id = (await call("createDisbursements", { credentials, disbursements: [item("dated-1")] })).body.result[0].disbursement
      .disbursement_id;
    const day = (offset: number, prefix: string) => {
      const date = new Date(Date.now() + offset * 86_400_000);
      return {
        [`${prefix}.year`]: String(date.getUTCFullYear()),
        [`${prefix}.month`]: String(date.getUTCMonth() + 1),
        [`${prefix}.day`]: String(date.getUTCDate()),
      };
    };
    const ids = async (query: Record<string, string>) =>
      (await call("listDisbursements", undefined, query)).body.disbursements.map((d: { disbursement_id: string }) => d.disbursement_id);
    expect(await ids({ ...day(0, "start_date"), ...day(0, "end_date") })).toEqual([id]);
    expect(await ids(day(1, "start_date"))).toEqual([]);
    expect(await ids(day(-1, "end_date"))).toEqual([]);
    expect(await ids(day(-1, "start_date"))).toEqual([id]);
  });

  it("an item that errors carries result.error, in its place among the others", async () => {
    const { call } = partner();
    const created = await call("createDisbursements", {
      credentials,
      disbursements: [item("ok-1"), item("err-1", { description: "sandbox_error" })],
    });
    expect(created.status).toBe(200);
    expect(created.violations).toEqual([]);
    expect(created.body.result[0].result).toEqual({ success: true });
    expect(created.body.result[1].result.error).toEqual([{ code: expect.any(String), message: expect.any(String) }]);
    expect(created.body.result[1].disbursement.status).toBe("FAILED");
  });

  it("a request that fails after its first item stores nothing (507 at the record bound)", async () => {
    const { control, call } = partner();
    const huge = item("big-2", { description: "x".repeat(300 * 1024) });
    const failed = await call("createDisbursements", { credentials, disbursements: [item("small-1"), huge] });
    expect(failed.status).toBe(507);
    expect((await control.state()).resources.disbursement).toBeUndefined();
    // Nothing of it is kept: the same reference is free.
    expect((await call("createDisbursements", { credentials, disbursements: [item("small-1")] })).status).toBe(200);
  });

  it("the account inquiry answers about the account asked, and refuses a non-Indonesian bank", async () => {
    const { call } = partner();
    const asked = await call("inquireBankAccount", { bank_account: { bank: "ID_BNI", number: "987654321" } });
    expect(asked.status).toBe(200);
    expect(asked.violations).toEqual([]);
    expect(asked.body).toMatchObject({ result: { success: true }, bank_account: { bank: "ID_BNI", number: "987654321" } });
    expect(asked.body.bank_account.holder_name).toEqual(expect.any(String));
    const philippine = await call("inquireBankAccount", { bank_account: { bank: "PH_UB", number: "987654321" } });
    expect(philippine.status).toBe(400);
    // The declared error schema {code, message} carries the refusal's reason, not the example's text.
    expect(philippine.body).toEqual({ code: expect.any(String), message: "Account inquiry serves Indonesian destination banks only." });
    expect(philippine.violations).toEqual([]);
  });
});
