/**
 * Pay (Pay Service Interface) in the sandbox, with the requests a partner makes: an invoice's
 * lifecycle (single-use payment URL: paid, failed and expired are final), the manual update of a
 * Flagged invoice only, expiry from `Created` only (a Flagged invoice waits; set back to Created it
 * still expires), expiry hours of any size answered with a valid timestamp, and a request that
 * fails storing nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { send } from "./cases.js";

const mocks: Record<string, MockServer> = {};
beforeAll(async () => {
  for (const alias of ["pay@1.3.0", "pay@1.2.0"]) mocks[alias] = await startMock(findApi(alias), { port: 0, sandbox: true });
});
afterAll(async () => {
  for (const mock of Object.values(mocks)) await mock.close();
});

const partner = (alias: string) => {
  const credential = `pay-${randomUUID()}`;
  const mock = mocks[alias];
  return {
    control: sandboxControl(mock.url, credential),
    call: (operationId: string, options: { body?: unknown; path?: Record<string, string> } = {}) =>
      send(mock.url, alias, operationId, { credential, ...options }),
  };
};
const invoiceBody = (extra: Record<string, unknown> = {}) => ({ amount: { cur: "IDR", amt: "150000" }, item_id: "SKU-1", ...extra });

describe("pay@1.3.0", () => {
  it("a payment URL is single-use: a paid, failed or expired invoice takes no other move", async () => {
    const { control, call } = partner("pay@1.3.0");
    for (const [action, status] of [
      ["pay", "Success"],
      ["fail", "Failed"],
      ["expire", "Expired"],
    ] as const) {
      const id = (await call("createInvoice", { body: invoiceBody() })).body.invoice_id;
      expect((await control.act("invoice", id, action)).to).toBe(status);
      for (const again of ["pay", "fail", "expire", "flag"]) {
        const refused = await control.act("invoice", id, again).catch((e) => e);
        expect(refused).toMatchObject({ status: 409 });
        expect(refused.message).toMatch(new RegExp(`${status} is final`));
      }
      expect((await control.setStatus("invoice", id, "Created").catch((e) => e)).status).toBe(409);
      const listed = (await call("listInvoices")).body.urls.find((u: { invoice_id: string }) => u.invoice_id === id);
      expect(listed.status).toBe(status);
      expect(await control.events({ resourceId: id })).toHaveLength(1);
    }
  });

  it("only a Flagged invoice takes a status update (PUT /v1/invoice/{invoice_id}); the update moves it along the lifecycle", async () => {
    const { control, call } = partner("pay@1.3.0");
    const id = (await call("createInvoice", { body: invoiceBody() })).body.invoice_id;
    const notFlagged = await call("updateInvoiceStatus", { path: { invoice_id: id }, body: { invoice_id: id, status: "Success" } });
    expect(notFlagged.status).toBe(400);
    expect((await control.record("invoice", id)).status).toBe("Created");

    await control.act("invoice", id, "flag");
    const updated = await call("updateInvoiceStatus", { path: { invoice_id: id }, body: { invoice_id: id, status: "Success" } });
    expect(updated.status).toBe(200);
    expect(updated.violations).toEqual([]);
    expect(updated.body.invoice).toMatchObject({ invoice_id: id, status: "Success", paid_date: expect.any(Object) });
    const again = await call("updateInvoiceStatus", { path: { invoice_id: id }, body: { invoice_id: id, status: "Failed" } });
    expect(again.status).toBe(400);
    expect((await control.record("invoice", id)).status).toBe("Success");
  });

  it("expiry respects `from`: a Flagged invoice does not expire; set back to Created it still expires", async () => {
    const { control, call } = partner("pay@1.3.0");
    const id = (await call("createInvoice", { body: invoiceBody({ expiry: 2 }) })).body.invoice_id;
    await control.act("invoice", id, "flag");
    // The lifecycle allows Flagged -> Expired (by hand): only the `from` of the expiry rule keeps the clock off it.
    expect((await control.advanceClock(3 * 3600)).expired).toEqual([]);
    expect((await control.record("invoice", id)).status).toBe("Flagged");
    const reopened = await call("updateInvoiceStatus", { path: { invoice_id: id }, body: { invoice_id: id, status: "Created" } });
    expect(reopened.status).toBe(200);
    // Its URL's expiry has passed: the next call finds it Expired.
    expect((await control.record("invoice", id)).status).toBe("Expired");

    const later = (await call("createInvoice", { body: invoiceBody({ expiry: 10 }) })).body.invoice_id;
    await control.act("invoice", later, "flag");
    await call("updateInvoiceStatus", { path: { invoice_id: later }, body: { invoice_id: later, status: "Created" } });
    expect((await control.advanceClock(9 * 3600)).expired).toEqual([]);
    const due = await control.advanceClock(2 * 3600);
    expect(due.expired).toEqual([expect.objectContaining({ id: later, from: "Created", to: "Expired" })]);
  });
});

describe("pay@1.3.0 merchants and sub-merchants", () => {
  it("an approved sub-merchant appears in the sub-merchant list; unlinked, it leaves it; a decided request takes no other decision", async () => {
    const { call } = partner("pay@1.3.0");
    const signup = await call("createSubMerchantSignup", {
      body: { platform_merchant_id: "mer_1", name: "Warung Sari", email_address: "sari@example.com" },
    });
    const requestId = signup.body.request_id;
    expect((await call("listSubMerchants")).body.merchant_list ?? []).toEqual([]);
    expect((await call("approveSignupRequest", { body: { request_id: requestId } })).status).toBe(200);
    const listed = await call("listSubMerchants");
    expect(listed.violations).toEqual([]);
    expect(listed.body).toMatchObject({
      merchant_list: [{ id: requestId, name: "Warung Sari", email: "sari@example.com" }],
      total_merchant: 1,
    });
    expect((await call("denySignupRequest", { body: { request_id: requestId, note: "late" } })).status).toBe(400);
    expect((await call("unlinkSubMerchant", { body: { sub_merchant_id: requestId } })).status).toBe(200);
    expect((await call("listSubMerchants")).body.merchant_list ?? []).toEqual([]);
  });

  it("deleting the default destination account leaves no dangling default_account_id", async () => {
    const { call } = partner("pay@1.3.0");
    const account = { bank_code: 1, account_number: "123", account_first_name: "A", account_last_name: "B", set_default: true };
    const id = (await call("createDepositAccount", { body: account })).body.account_id;
    expect((await call("getMerchant")).body.default_account_id).toBe(id);
    expect((await call("deleteDepositAccount", { path: { account_id: id } })).status).toBe(200);
    const merchant = (await call("getMerchant")).body;
    expect(merchant.default_account_id).toBeUndefined();
    expect(merchant.destination_accounts ?? {}).toEqual({});
  });

  it("child invoices of a split invoice follow their parent's status and paid_date", async () => {
    const { control, call } = partner("pay@1.3.0");
    const children = [
      { cur: "IDR", amt: "1000" },
      { cur: "IDR", amt: "2000" },
    ];
    const created = await call("createInvoice", { body: invoiceBody({ child_amounts: children, expiry: 5 }) });
    expect(created.body.children).toHaveLength(2);
    expect(created.body.children[0]).toMatchObject({ status: "Created", expiry: expect.any(Object) });
    await control.act("invoice", created.body.invoice_id, "pay");
    const listed = (await call("listInvoices")).body.urls[0];
    expect(listed.children.map((c: { status: string }) => c.status)).toEqual(["Success", "Success"]);
    expect(listed.children[0].paid_date).toEqual(listed.paid_date);
  });
});

describe("pay@1.2.0", () => {
  it.each([100_000_000, 10_000_000_000, 2_147_483_647])("expiry %d hours: a valid timestamp, at most 10 years ahead", async (hours) => {
    const { control, call } = partner("pay@1.2.0");
    const created = await call("createInvoice", { body: invoiceBody({ expiry: hours }) });
    expect(created.status).toBe(200);
    expect(created.violations).toEqual([]);
    expect(created.body.expiry).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const ahead = Date.parse(created.body.expiry) - Date.now();
    expect(ahead).toBeGreaterThan(9 * 365 * 24 * 3600 * 1000);
    expect(ahead).toBeLessThanOrEqual(10 * 366 * 24 * 3600 * 1000 + 60_000);
    expect((await control.state()).resources.invoice).toHaveLength(1);
  });

  it("a paid invoice is final: SUCCESS, FAILED and EXPIRED take no other move", async () => {
    const { control, call } = partner("pay@1.2.0");
    const id = (await call("createInvoice", { body: invoiceBody() })).body.invoice_id;
    await control.act("invoice", id, "pay");
    const refused = await control.act("invoice", id, "expire").catch((e) => e);
    expect(refused).toMatchObject({ status: 409 });
  });
});
