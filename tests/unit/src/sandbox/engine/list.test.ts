/**
 * The list stage (src/sandbox/engine/apply.ts `list`) through a sandbox mock of Pay 1.2.0, whose
 * declaration lists invoices oldest first, filtered by creation time between `start` and `end`,
 * with `limit` and `next` (the Pay Service Interface's `GET /v1/invoice`: "start", "end", "limit",
 * and `next`, the id of the first invoice left out, as the declaration's convention says). Both
 * bounds of the period are inclusive: an invoice created exactly at `start` or exactly at `end` is in
 * the period. Invoices are created at least an hour apart on the credential's clock, so each bound can be
 * placed exactly on one of them, and one millisecond either side.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../../src/mock/index.js";
import { findApi } from "../../../../../src/registry.js";
import { sandboxControl } from "../../../../../src/testing/index.js";
import { call } from "../../../../helpers/sandbox.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(findApi("pay@1.2.0"), { port: 0, sandbox: true });
});
afterAll(() => mock.close());

interface Invoice {
  id: string;
  created: string;
}

/** A fresh credential with three invoices created an hour apart, oldest first. */
async function threeInvoices() {
  const credential = `list-${randomUUID()}`;
  const headers = { authorization: `Bearer ${credential}` };
  const control = sandboxControl(mock.url, credential);
  const invoices: Invoice[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await control.advanceClock(3600);
    const created = await call(mock.url, "POST", "/v1/invoice", {
      headers,
      body: { amount: { cur: "IDR", amt: "150000" }, item_id: `SKU-${i}`, expiry: 48 },
    });
    expect(created.status).toBe(200);
    const id = created.body.invoice_id as string;
    // Pay 1.2.0 has no read of one invoice: its creation time comes from the control API's record.
    const record = await control.record("invoice", id);
    invoices.push({ id, created: (record.data as { created: string }).created });
  }
  const list = async (query: Record<string, string>) => {
    const answer = await call(mock.url, "GET", `/v1/invoice?${new URLSearchParams(query)}`, { headers });
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    return answer.body as { start?: string; end?: string; next?: string; urls: Array<{ invoice_id: string }> };
  };
  return { invoices, list };
}

const ids = (body: { urls: Array<{ invoice_id: string }> }) => body.urls.map((u) => u.invoice_id);
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe("a list filtered by a period", () => {
  it("keeps a record created exactly at either bound, and leaves out one a millisecond outside", async () => {
    const { invoices, list } = await threeInvoices();
    const [a, b, c] = invoices;
    expect(Date.parse(b.created) - Date.parse(a.created)).toBeGreaterThanOrEqual(3600_000);

    expect(ids(await list({ start: a.created, end: b.created }))).toEqual([a.id, b.id]);
    expect(ids(await list({ start: b.created, end: b.created }))).toEqual([b.id]);
    expect(ids(await list({ start: b.created, end: c.created }))).toEqual([b.id, c.id]);
    expect(ids(await list({ start: shift(a.created, 1), end: shift(c.created, -1) }))).toEqual([b.id]);
    expect(ids(await list({ start: shift(b.created, 1), end: shift(c.created, -1) }))).toEqual([]);
    // One bound alone: from it on, or up to it.
    expect(ids(await list({ start: b.created }))).toEqual([b.id, c.id]);
    expect(ids(await list({ end: b.created }))).toEqual([a.id, b.id]);
    expect(ids(await list({ end: shift(a.created, -1) }))).toEqual([]);
    // The period is echoed as asked.
    expect(await list({ start: a.created, end: c.created })).toMatchObject({ start: a.created, end: c.created });
  });
});

describe("a paged list", () => {
  it("answers at most `limit` records, oldest first, and `next` names the first record left out", async () => {
    const { invoices, list } = await threeInvoices();
    const [a, b, c] = invoices;
    const one = await list({ limit: "1" });
    expect(ids(one)).toEqual([a.id]);
    expect(one.next).toBe(b.id);
    const two = await list({ limit: "2" });
    expect(ids(two)).toEqual([a.id, b.id]);
    expect(two.next).toBe(c.id);
    // Every record fits: no next page.
    for (const limit of ["3", "4"]) {
      const all = await list({ limit });
      expect(ids(all)).toEqual([a.id, b.id, c.id]);
      expect(all.next).toBeUndefined();
    }
    const none = await list({});
    expect(ids(none)).toEqual([a.id, b.id, c.id]);
    expect(none.next).toBeUndefined();
  });

  it("pages within the period: next is the first record of the period left out", async () => {
    const { invoices, list } = await threeInvoices();
    const [, b, c] = invoices;
    const page = await list({ start: b.created, limit: "1" });
    expect(ids(page)).toEqual([b.id]);
    expect(page.next).toBe(c.id);
  });
});
