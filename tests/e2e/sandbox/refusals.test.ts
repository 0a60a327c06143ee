/**
 * Every refusal of an API request in the sandbox explains itself to the partner who made it. Where
 * the contract gives the refusal's status a body (the account inquiry's 400 `{code, message}`), the
 * reason is in that body; where the status declares none (the 400s of Pay 1.3.0, Statement
 * retrieval and Payment initiation: "The shape of the error body ... not shown"), the body stays
 * empty and the reason travels as an `sl-violations` entry of its own kind, code `sandbox-refusal`,
 * whose message states the rule and names where it comes from: the provider's document by its
 * title, and "convention" where the rule is the sandbox's own. A refused request stores nothing.
 *
 * Disbursement's rules concern single disbursements: "In disbursement bodies, errors appear as
 * `result.error`" (Disbursement and Account Opening Interface, "Errors", line 158), so an item that
 * breaks one (a `reference_id` the merchant used already or repeats in the order, line 162; a
 * Philippine destination without `address`, line 31) gets its `result.error` in a 200 answer, in
 * its place, and the valid items of the order are created.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { type SandboxControl, sandboxControl } from "../../../src/testing/index.js";
import type { Answer } from "../../helpers/sandbox.js";
import { send } from "./cases.js";

const PAY = "Pay Service Interface";
const DIRECT = "Payment Initiation, Statement Retrieval and Balance Retrieval Interface";

const mocks = new Map<string, Promise<MockServer>>();
const mockOf = (alias: string) => {
  if (!mocks.has(alias)) mocks.set(alias, startMock(findApi(alias), { port: 0, sandbox: true }));
  return mocks.get(alias)!;
};
afterAll(async () => {
  for (const mock of mocks.values()) await (await mock).close();
});

interface Partner {
  control: SandboxControl;
  call: (
    operationId: string,
    options?: { body?: unknown; path?: Record<string, string>; query?: Record<string, string> },
  ) => Promise<Answer>;
}
const partner = async (alias: string): Promise<Partner> => {
  const mock = await mockOf(alias);
  const credential = `refusal-${randomUUID()}`;
  return {
    control: sandboxControl(mock.url, credential),
    call: (operationId, options = {}) => send(mock.url, alias, operationId, { credential, ...options }),
  };
};

/** A refusal whose status declares no body: what the partner does to get it, and what its reason must say. */
interface HeaderCase {
  name: string;
  alias: string;
  status: number;
  /** Calls made first (their answers are not checked); what they return is given to `refuse`. */
  setup?: (p: Partner) => Promise<string>;
  /** The refused request. */
  refuse: (p: Partner, id: string) => Promise<Answer>;
  /** What the reason states (the rule). */
  says: RegExp[];
  /** The provider's document the rule (or the operation it concerns) comes from, by title. */
  document: string;
  /** The rule, or its status, is the sandbox's choice: the reason says so. */
  convention: boolean;
}

const retrieval = (bankCode: string, identifier = "user@example.com") => ({
  bank_code: bankCode,
  credential: { identifier, secret: "<password>" },
  start_date: "2026-01-01",
  end_date: "2026-01-31",
});
const checkout = (extra: Record<string, unknown> = {}) => ({
  reference_id: "order-1",
  amount: { cur: "IDR", num: "10000" },
  destination_account_id: "dst-1",
  customer: { fname: "Budi", email: "budi@example.com" },
  ...extra,
});
const signup = async (p: Partner) =>
  (await p.call("createSubMerchantSignup", { body: { platform_merchant_id: "mer_1", name: "Warung Sari" } })).body.request_id as string;

const HEADER_CASES: HeaderCase[] = [
  {
    name: "a status update of a Pay 1.3.0 invoice that is not Flagged",
    alias: "pay@1.3.0",
    status: 400,
    setup: async (p) => (await p.call("createInvoice", { body: { amount: { cur: "IDR", amt: "1000" } } })).body.invoice_id,
    refuse: (p, id) => p.call("updateInvoiceStatus", { path: { invoice_id: id }, body: { invoice_id: id, status: "Success" } }),
    says: [/Flagged/, /Created/],
    document: PAY,
    convention: false,
  },
  {
    name: "a second approval of a signup request",
    alias: "pay@1.3.0",
    status: 400,
    setup: async (p) => {
      const id = await signup(p);
      await p.call("approveSignupRequest", { body: { request_id: id } });
      return id;
    },
    refuse: (p, id) => p.call("approveSignupRequest", { body: { request_id: id } }),
    says: [/PENDING/, /APPROVED/],
    document: PAY,
    convention: true,
  },
  {
    name: "a denial of a signup request already approved",
    alias: "pay@1.3.0",
    status: 400,
    setup: async (p) => {
      const id = await signup(p);
      await p.call("approveSignupRequest", { body: { request_id: id } });
      return id;
    },
    refuse: (p, id) => p.call("denySignupRequest", { body: { request_id: id, note: "late" } }),
    says: [/PENDING/, /APPROVED/],
    document: PAY,
    convention: true,
  },
  {
    name: "an unlink of a sub-merchant before its approval",
    alias: "pay@1.3.0",
    status: 400,
    setup: signup,
    refuse: (p, id) => p.call("unlinkSubMerchant", { body: { sub_merchant_id: id } }),
    says: [/APPROVED/, /PENDING/],
    document: PAY,
    convention: true,
  },
  {
    name: "a statement session started with a bank other than DUMMY_BANK_PERSONAL",
    alias: "statement@1.0.0",
    status: 400,
    refuse: (p) => p.call("initStatement", { body: { country: "ID", bank_codes: ["DUMMY_BANK_PERSONAL", "BCA_PERSONAL"] } }),
    says: [/DUMMY_BANK_PERSONAL/, /bank_codes/],
    document: DIRECT,
    convention: false,
  },
  {
    name: "a statement retrieval from a bank other than DUMMY_BANK_PERSONAL",
    alias: "statement@1.0.0",
    status: 400,
    refuse: (p) => p.call("retrieveStatement", { body: retrieval("BCA_PERSONAL") }),
    says: [/DUMMY_BANK_PERSONAL/, /bank_code/],
    document: DIRECT,
    convention: true,
  },
  {
    name: "a statement token submission for a session that waits for none",
    alias: "statement@1.0.0",
    status: 400,
    setup: async (p) => (await p.call("retrieveStatement", { body: retrieval("DUMMY_BANK_PERSONAL") })).body.statement_id,
    refuse: (p, id) => p.call("submitStatementTfa", { body: { purpose: "BankCredentialLogin", purpose_id: id, token: "123456" } }),
    says: [/TFA_AWAIT/, /PENDING/],
    document: DIRECT,
    convention: false,
  },
  {
    name: "a payment-initiation token submission for a transfer that waits for none",
    alias: "payment-initiation@1.0.0",
    status: 400,
    setup: async (p) => (await p.call("createCheckout", { body: checkout() })).body.transaction_id,
    refuse: (p, id) => p.call("submitTfaToken", { body: { purpose: "FundTransferAuthentication", transfer_id: id, token: "123456" } }),
    says: [/TFA_AWAIT/, /INVOICE_CREATED/],
    document: DIRECT,
    convention: true,
  },
  {
    name: "a checkout whose expiry_date_time has passed",
    alias: "payment-initiation@1.0.0",
    status: 400,
    refuse: (p) =>
      p.call("createCheckout", { body: checkout({ expiry_date_time: { seconds: Math.floor(Date.now() / 1000) - 3600, nanos: 0 } }) }),
    says: [/expiry_date_time/],
    document: DIRECT,
    convention: true,
  },
];

describe("a refusal whose status declares no body carries its reason in sl-violations", () => {
  it.each(HEADER_CASES.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const p = await partner(c.alias);
    const id = (await c.setup?.(p)) ?? "";
    const before = (await p.control.state()).resources;
    const refused = await c.refuse(p, id);
    expect(refused.status).toBe(c.status);
    // The contract declares no body for this status: none is sent.
    expect(refused.body).toBeUndefined();
    // The answer keeps the contract: the reason is the only entry.
    expect(refused.violations.filter((v) => v.code !== "sandbox-refusal")).toEqual([]);
    const reasons = refused.violations.filter((v) => v.code === "sandbox-refusal");
    expect(reasons, "one sl-violations entry of code sandbox-refusal").toHaveLength(1);
    const [reason] = reasons;
    for (const phrase of c.says) expect(reason.message).toMatch(phrase);
    expect(reason.message).toContain(c.document);
    expect(reason.message).not.toMatch(/\d{3}_[0-9a-f]{16}\.txt/);
    if (c.convention) expect(reason.message).toMatch(/convention/);
    // The refused request changed nothing.
    expect((await p.control.state()).resources).toEqual(before);
  });
});

describe("a refusal whose status declares a body carries its reason in it", () => {
  it("the account inquiry of a non-Indonesian bank, or of the test value for no such account, answers 400 {code, message} with the reason", async () => {
    const p = await partner("disbursement@1.0.0");
    const philippine = await p.call("inquireBankAccount", { body: { bank_account: { bank: "PH_UB", number: "987654321" } } });
    expect(philippine.status).toBe(400);
    expect(philippine.body).toEqual({ code: expect.any(String), message: expect.stringMatching(/Indonesian/) });
    expect(philippine.violations).toEqual([]);
    const missing = await p.call("inquireBankAccount", { body: { bank_account: { bank: "ID_BNI", number: "0000000000" } } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: expect.any(String), message: expect.stringMatching(/no such account/i) });
    expect(missing.violations).toEqual([]);
  });
});

describe("disbursement: an item that breaks a rule gets result.error in a 200 answer; the valid items are created", () => {
  const credentials = { UBP_CLIENT: { identifier: "<client-id>", secret: "<client-secret>" } };
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
  const noAddress = { destination_account: { bank: "PH_UB", number: "3333333333", holder_name: "Juan Dela Cruz" } };
  type Outcome = { disbursement: Record<string, any>; result: { success?: boolean; error?: Array<{ code: string; message: string }> } };

  it("a reference_id used before or repeated in the order, and a Philippine destination without address, error item by item", async () => {
    const { control, call } = await partner("disbursement@1.0.0");
    expect((await call("createDisbursements", { body: { credentials, disbursements: [item("ref-used")] } })).status).toBe(200);
    const order = [item("ref-new-1"), item("ref-used"), item("ref-ph", noAddress), item("ref-new-2"), item("ref-new-1")];
    const answer = await call("createDisbursements", { body: { credentials, disbursements: order } });
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    const result = answer.body.result as Outcome[];
    expect(result.map((r) => r.disbursement.reference_id)).toEqual(["ref-new-1", "ref-used", "ref-ph", "ref-new-2", "ref-new-1"]);

    // The valid items: created, one batch, a success envelope.
    for (const created of [result[0], result[3]]) {
      expect(created.result).toEqual({ success: true });
      expect(created.disbursement).toMatchObject({ disbursement_id: expect.any(String), status: "SUCCESS" });
    }
    expect(result[0].disbursement.batch_id).toBe(result[3].disbursement.batch_id);

    // The items that break a rule: no record, an error naming the rule, each rule its own code.
    const errors = [result[1], result[2], result[4]].map((r) => {
      expect(r.result.success).not.toBe(true);
      expect(r.disbursement.disbursement_id).toBeUndefined();
      expect(r.result.error).toEqual([{ code: expect.stringMatching(/\S/), message: expect.any(String) }]);
      return r.result.error![0];
    });
    expect(errors[0].message).toMatch(/reference_id/);
    expect(errors[0].message).toMatch(/unique/);
    expect(errors[2].message).toMatch(/reference_id/);
    expect(errors[2].code).toBe(errors[0].code);
    expect(errors[1].message).toMatch(/address/);
    expect(errors[1].code).not.toBe(errors[0].code);

    const stored = (await control.state()).resources.disbursement ?? [];
    expect(stored.map((r) => (r.data as { reference_id: string }).reference_id).sort()).toEqual(["ref-new-1", "ref-new-2", "ref-used"]);
    const listed = await call("listDisbursements");
    expect(listed.body.total_record).toBe(3);
  });

  it("an order whose every item errors answers 200 with each error and creates nothing", async () => {
    const { control, call } = await partner("disbursement@1.0.0");
    const answer = await call("createDisbursements", {
      body: { credentials, disbursements: [item("ref-a", noAddress), item("ref-b", noAddress)] },
    });
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    expect((answer.body.result as Outcome[]).map((r) => r.result.error?.[0]?.message)).toEqual([
      expect.stringMatching(/address/),
      expect.stringMatching(/address/),
    ]);
    expect((await control.state()).resources.disbursement ?? []).toEqual([]);
  });
});

describe("GET /_sandbox lists each operation's rules before a partner meets them", () => {
  type Rule = { status?: number; code?: string; detail: string; source?: string; convention?: string };
  const rulesOf = async (alias: string, operationId: string) => {
    const { control } = await partner(alias);
    const operation = (await control.describe()).operations.find((o) => o.operation_id === operationId) as
      | { refusals?: Rule[]; item_errors?: Rule[] }
      | undefined;
    return { refusals: operation?.refusals ?? [], itemErrors: operation?.item_errors ?? [] };
  };
  const cited = (rule: Rule) => `${rule.source ?? ""} ${rule.convention ?? ""}`;

  it("a whole request's refusals: their status, reason and source by the document's title", async () => {
    const statement = await rulesOf("statement@1.0.0", "initStatement");
    expect(statement.refusals).toEqual([expect.objectContaining({ status: 400, detail: expect.stringMatching(/DUMMY_BANK_PERSONAL/) })]);
    expect(cited(statement.refusals[0])).toContain(DIRECT);
    const invoice = await rulesOf("pay@1.3.0", "updateInvoiceStatus");
    expect(invoice.refusals).toEqual([expect.objectContaining({ status: 400, detail: expect.stringMatching(/only from Flagged/) })]);
    expect(cited(invoice.refusals[0])).toContain(PAY);
    expect(invoice.refusals[0].convention).toMatch(/400/);
    const checkoutRules = await rulesOf("payment-initiation@1.0.0", "createCheckout");
    expect(checkoutRules.refusals.map((r) => [r.status, r.detail])).toEqual([[400, expect.stringMatching(/expiry_date_time/)]]);
    const inquiry = await rulesOf("disbursement@1.0.0", "inquireBankAccount");
    expect(inquiry.refusals.map((r) => [r.status, r.detail])).toEqual([
      [400, expect.stringMatching(/Indonesian/)],
      [400, expect.stringMatching(/no such account/i)],
    ]);
    for (const rule of [...statement.refusals, ...invoice.refusals, ...checkoutRules.refusals, ...inquiry.refusals])
      expect(cited(rule)).not.toMatch(/\d{3}_[0-9a-f]{16}\.txt/);
  });

  it("a create's item errors: their code and reason", async () => {
    const { refusals, itemErrors } = await rulesOf("disbursement@1.0.0", "createDisbursements");
    expect(refusals).toEqual([]);
    expect(itemErrors.map((r) => [r.code, r.detail])).toEqual([
      ["DUPLICATE_REFERENCE_ID", expect.stringMatching(/reference_id must be unique/)],
      ["ADDRESS_REQUIRED", expect.stringMatching(/address/)],
    ]);
    for (const rule of itemErrors) expect(cited(rule)).toContain("Disbursement and Account Opening Interface");
  });
});
