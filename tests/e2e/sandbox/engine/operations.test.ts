/**
 * The apply stage alone (src/sandbox/engine/apply.ts `apply`): each kind of declared operation run
 * on an in-memory credential state, with a hand-written declaration shaped like Pay's
 * (src/sandbox/README.md, "A declaration"): invoices with a lifecycle (`pay` from Created or Flagged,
 * `flag` from Created, Paid final; entering Paid copies the invoice's note into `paid_note`), the
 * same expiring `$request.expiry` hours after creation, memos without a lifecycle, and a merchant
 * singleton that effects write to. No document, no HTTP: the engine's context is the part of it the
 * stage reads (the declaration's resources, no deferred events), so each case takes milliseconds.
 *
 * What is asserted is the declaration format's rules as the README and declaration-schema.ts state
 * them, and the sandbox's conventions where they say nothing: a refusal names its rule's source, else
 * the operation's; a list's filters (an absent, null or empty value filters nothing; a period leaves
 * out a record without a time), its `advance` (a move the lifecycle refuses leaves the record, no
 * action leaves it too, a bound reached is not swallowed), `limit` (a positive whole number pages,
 * `$next` the first record left out; any other pages nothing); an update's status (none asked: no
 * move; `status.from` refused with `status.refuse`, else 409), its merge (the id member is the
 * record's); a delete's answer; a create's `each` (no list: no record), `$records` and `$outcomes`,
 * its expiry (hours that are not a positive number: none); effects, their `when`, and `unset`.
 */
import { describe, expect, it } from "vitest";
import type { Operation } from "../../../../src/document/index.js";
import type { OperationDeclaration, ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import { apply, isRefusal, movesOnlyFrom, NOT_FOUND, Refusal } from "../../../../src/sandbox/engine/apply.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { singleton } from "../../../../src/sandbox/engine/records.js";
import { LimitError } from "../../../../src/sandbox/store/limits.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { Instant, type Json } from "../../../../src/sandbox/values.js";

const invoice: ResourceDeclaration = {
  name: "invoice",
  source: "Pay Service Interface, line 76",
  schema: "#/components/schemas/Invoice",
  singleton: false,
  id: { field: "invoice_id", prefix: "inv_", digits: false },
  callbacks: [],
  testValues: [],
  status: {
    field: "status",
    initial: "Created",
    source: "Pay Service Interface, line 80",
    final: ["Paid"],
    moves: {
      pay: { name: "pay", from: ["Created", "Flagged"], to: "Paid" },
      flag: { name: "flag", from: ["Created"], to: "Flagged" },
    },
  },
  on: { Paid: { set: { paid_note: "$record.note" } } },
};
const merchant: ResourceDeclaration = {
  name: "merchant",
  source: "Pay Service Interface, line 90",
  schema: "#/components/schemas/Merchant",
  singleton: true,
  id: { field: "merchant_id", prefix: "m_", digits: false },
  initial: { name: "Sandbox merchant" },
  callbacks: [],
  testValues: [],
};
/** A resource without a lifecycle: no status member, nothing to advance. */
const memo: ResourceDeclaration = { ...merchant, name: "memo", singleton: false, id: { field: "memo_id", prefix: "memo_", digits: false } };
/** Invoices that expire `$request.expiry` hours after their creation, as Pay's do (its sandbox.yaml). */
const expiring: ResourceDeclaration = {
  ...invoice,
  name: "expiring",
  expiry: { hours: "$request.expiry", to: "Expired", from: ["Created"], source: "Pay Service Interface, line 254" },
};
const resources: Record<string, ResourceDeclaration> = { invoice, merchant, memo, expiring };

/** The part of the engine's context the apply stage reads: the declaration's resources; events kept at once. */
const engine = {
  declaration: { resources, operations: {} },
  resource: (name: string) => resources[name],
  deferred: undefined,
} as unknown as EngineContext;

const SOURCE = "Pay Service Interface, line 200";
const declare = (fields: Partial<OperationDeclaration> & Pick<OperationDeclaration, "kind">): OperationDeclaration => ({
  operationId: `${fields.kind}Invoice`,
  source: SOURCE,
  resource: "invoice",
  ...fields,
});
const run = (state: CredentialState, declared: OperationDeclaration, request: Json = {}, params: Record<string, unknown> = {}) =>
  apply(engine, state, { operationId: declared.operationId } as Operation, declared, request, params);

/** A fresh credential with invoices of these members (status Created unless given), in creation order. */
function stateWith(...members: Array<Record<string, Json>>) {
  const state = new CredentialState("operations");
  const ids = members.map((data, i) => {
    const id = `inv_${i}`;
    state.add("invoice", id, { invoice_id: id, status: "Created", ...data });
    return id;
  });
  return { state, ids };
}
const statusOf = (state: CredentialState, id: string) => state.get("invoice", id)?.data.status;

describe("refusals name where their rule comes from", () => {
  const always = { $eq: [1, 1] };
  it("a refuse rule's own source, else the operation's; its status, detail and convention", () => {
    const { state } = stateWith();
    const own = run(
      state,
      declare({
        kind: "answer",
        answer: {},
        refuse: [{ when: always, status: 400, detail: "No.", source: "Limits, line 9", convention: "c" }],
      }),
    );
    expect(own).toEqual(new Refusal(400, "No.", "Limits, line 9", "c"));
    const inherited = run(state, declare({ kind: "answer", answer: {}, refuse: [{ when: always, status: 422, detail: "Never." }] }));
    expect(inherited).toEqual(new Refusal(422, "Never.", SOURCE, undefined));
  });

  it("a refuse test value's own source, else the operation's", () => {
    const { state } = stateWith();
    const value = { name: "no_account", operation: "answerInvoice", member: "$request.number", value: "0", description: "d", when: always };
    const own = run(
      state,
      declare({
        kind: "answer",
        answer: {},
        testValues: [{ ...value, refuse: 400, detail: "No such account.", source: "Errors, line 3" }],
      }),
    );
    expect(own).toEqual(new Refusal(400, "No such account.", "Errors, line 3", undefined));
    const inherited = run(
      state,
      declare({ kind: "answer", answer: {}, testValues: [{ ...value, refuse: 404, detail: "Gone.", convention: "A test value." }] }),
    );
    expect(inherited).toEqual(new Refusal(404, "Gone.", SOURCE, "A test value."));
  });
});

describe("a list", () => {
  const byMerchant = declare({ kind: "list", filter: [{ field: "merchant_id", value: "$params.merchant_id" }] });

  it("answers its records' data without an answer template", () => {
    const { state } = stateWith({ merchant_id: "a" }, { merchant_id: "b" });
    expect(run(state, declare({ kind: "list" }))).toEqual([
      { invoice_id: "inv_0", status: "Created", merchant_id: "a" },
      { invoice_id: "inv_1", status: "Created", merchant_id: "b" },
    ]);
  });

  it("filters by a value, and not at all when the value is absent, null or empty (`?merchant_id=`)", () => {
    const { state, ids } = stateWith({ merchant_id: "a" }, { merchant_id: "b" }, { merchant_id: "a" });
    const listed = (params: Record<string, unknown>) =>
      (run(state, byMerchant, {}, params) as Array<{ invoice_id: string }>).map((r) => r.invoice_id);
    expect(listed({ merchant_id: "a" })).toEqual([ids[0], ids[2]]);
    expect(listed({ merchant_id: ["b", "a"] })).toEqual(ids);
    expect(listed({ merchant_id: "c" })).toEqual([]);
    for (const none of [{}, { merchant_id: undefined }, { merchant_id: null }, { merchant_id: "" }])
      expect(listed(none), JSON.stringify(none)).toEqual(ids);
  });

  it("filtered by a period, leaves out a record that has no time in the field", () => {
    const { state, ids } = stateWith(
      { created: "2026-03-01T10:00:00.000Z" },
      {},
      { created: "not a time" },
      { created: "2026-03-02T10:00:00.000Z" },
    );
    const period = declare({ kind: "list", filter: [{ field: "created", from: "$params.start", to: "$params.end" }] });
    const listed = (params: Record<string, unknown>) =>
      (run(state, period, {}, params) as Array<{ invoice_id: string }>).map((r) => r.invoice_id);
    expect(listed({ start: "2026-03-01T00:00:00.000Z" })).toEqual([ids[0], ids[3]]);
    expect(listed({ end: "2026-03-01T10:00:00.000Z" })).toEqual([ids[0]]);
    expect(listed({ start: "2026-03-01T10:00:00.001Z", end: "2026-03-03T00:00:00.000Z" })).toEqual([ids[3]]);
  });

  describe("with a limit", () => {
    const paged = declare({
      kind: "list",
      limit: "$params.limit",
      answer: { ids: { $each: "$records", as: "$item.invoice_id" }, next: "$next" },
    });
    it("answers at most `limit` records, `$next` the first left out", () => {
      const { state, ids } = stateWith({}, {}, {});
      expect(run(state, paged, {}, { limit: 2 })).toEqual({ ids: ids.slice(0, 2), next: ids[2] });
      expect(run(state, paged, {}, { limit: "1" })).toEqual({ ids: ids.slice(0, 1), next: ids[1] });
      expect(run(state, paged, {}, { limit: 3 })).toEqual({ ids });
    });

    it("pages nothing when the limit is not a positive whole number", () => {
      const { state, ids } = stateWith({}, {}, {});
      for (const limit of [0, -1, 1.5, "abc", undefined]) expect(run(state, paged, {}, { limit }), String(limit)).toEqual({ ids });
    });
  });

  describe("with advance", () => {
    const advancing = declare({
      kind: "list",
      operationId: "listInvoices",
      advance: "pay",
      answer: { ids: { $each: "$records", as: "$item.invoice_id" } },
    });

    it("moves each record its lifecycle allows, the event's cause the list, and leaves the others", () => {
      const { state, ids } = stateWith({ note: "n0" }, { status: "Paid" }, { status: "Flagged", note: "n2" });
      expect(run(state, advancing)).toEqual({ ids });
      expect(ids.map((id) => statusOf(state, id))).toEqual(["Paid", "Paid", "Paid"]);
      expect(state.get("invoice", ids[0])?.data.paid_note).toBe("n0");
      expect(state.events.map((e) => [e.event.resourceId, e.event.from, e.event.to, e.event.cause])).toEqual([
        [ids[0], "Created", "Paid", "listInvoices"],
        [ids[2], "Flagged", "Paid", "listInvoices"],
      ]);
    });

    it("takes no action where the template gives none, on a resource without a lifecycle too", () => {
      const { state, ids } = stateWith({ urgent: false }, { urgent: true });
      const some = declare({
        kind: "list",
        advance: { $if: "$item.urgent", value: "flag" },
        answer: { ids: { $each: "$records", as: "$item.invoice_id" } },
      });
      expect(run(state, some)).toEqual({ ids });
      expect(ids.map((id) => statusOf(state, id))).toEqual(["Created", "Flagged"]);
      // The declaration check refuses an advance on a resource without a lifecycle; the stage does not
      // depend on it: where the template gives no action, nothing is moved.
      state.add("memo", "memo_1", { memo_id: "memo_1", text: "t" });
      const memos = declare({ kind: "list", resource: "memo", advance: { $if: "$item.urgent", value: "flag" } });
      expect(run(state, memos)).toEqual([{ memo_id: "memo_1", text: "t" }]);
    });

    it("a record the move would take past the bound of one record's size is not skipped: the bound is reached", () => {
      // Entering Paid copies the note: 150 KiB twice is over the 256 KiB a record may take.
      const { state } = stateWith({ note: "x".repeat(150 * 1024) });
      expect(() => run(state, advancing)).toThrow(LimitError);
    });
  });
});

describe("an update", () => {
  const updating = (fields: Partial<OperationDeclaration> = {}) =>
    declare({ kind: "update", operationId: "updateInvoiceStatus", id: "$params.invoice_id", record: { note: "$request.note" }, ...fields });
  const byStatus = { value: "$request.status" };

  it("without a status rule merges the request and keeps the status; without an answer answers the record", () => {
    const { state, ids } = stateWith({ note: "old", amount: 5 });
    expect(run(state, updating(), { note: "new" }, { invoice_id: ids[0] })).toEqual({
      invoice_id: ids[0],
      status: "Created",
      note: "new",
      amount: 5,
    });
    expect(state.get("invoice", ids[0])?.data).toEqual({ invoice_id: ids[0], status: "Created", note: "new", amount: 5 });
  });

  it("moves the status the request asks, and none when it asks none (absent or null)", () => {
    const { state, ids } = stateWith({}, {}, {});
    expect(run(state, updating({ status: byStatus }), { status: "Flagged" }, { invoice_id: ids[0] })).toMatchObject({ status: "Flagged" });
    expect(run(state, updating({ status: byStatus }), { note: "n" }, { invoice_id: ids[1] })).toMatchObject({
      status: "Created",
      note: "n",
    });
    expect(run(state, updating({ status: byStatus }), { status: null, note: "m" }, { invoice_id: ids[2] })).toMatchObject({
      status: "Created",
      note: "m",
    });
    expect(state.events.map((e) => e.event.to)).toEqual(["Flagged"]);
  });

  it("keeps the record's id whatever the merged members say", () => {
    const { state, ids } = stateWith({});
    const renaming = updating({ record: { invoice_id: "$request.other", note: "$request.note" } });
    expect(run(state, renaming, { other: "inv_other", note: "n" }, { invoice_id: ids[0] })).toMatchObject({
      invoice_id: ids[0],
      note: "n",
    });
    expect(state.get("invoice", ids[0])?.data.invoice_id).toBe(ids[0]);
    expect(state.get("invoice", "inv_other")).toBeUndefined();
  });

  it("refused by status.from: status.refuse with the rule as its detail, the rule's source and convention", () => {
    const { state, ids } = stateWith({});
    const only = updating({
      status: {
        ...byStatus,
        from: ["Flagged"],
        refuse: 400,
        source: "Pay Service Interface, line 157",
        convention: "the sandbox answers 400.",
      },
    });
    expect(run(state, only, { status: "Paid" }, { invoice_id: ids[0] })).toEqual(
      new Refusal(
        400,
        "updateInvoiceStatus moves an invoice only from Flagged; this one is Created",
        "Pay Service Interface, line 157",
        "the sandbox answers 400.",
      ),
    );
    expect(statusOf(state, ids[0])).toBe("Created");
  });

  it("refused by the lifecycle: 409 where status.refuse is not given, the operation's source", () => {
    const { state, ids } = stateWith({ status: "Paid" });
    const refused = run(state, updating({ status: byStatus }), { status: "Flagged" }, { invoice_id: ids[0] });
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ status: 409, source: SOURCE, convention: undefined, detail: expect.stringContaining("Paid is final") });
  });

  it("a move past the bound of one record's size is the bound reached, not a refusal", () => {
    const { state, ids } = stateWith({ note: "x".repeat(150 * 1024) });
    expect(() => run(state, updating({ status: byStatus, record: {} }), { status: "Paid" }, { invoice_id: ids[0] })).toThrow(LimitError);
  });

  it("its effects read the record as merged", () => {
    const { state, ids } = stateWith({ note: "old" });
    const noting = updating({ effects: [{ resource: "merchant", set: { last_note: "$record.note", last_invoice: "$id" } }] });
    run(state, noting, { note: "new" }, { invoice_id: ids[0] });
    expect(singleton(engine, state, "merchant").data).toMatchObject({ name: "Sandbox merchant", last_note: "new", last_invoice: ids[0] });
  });
});

describe("movesOnlyFrom words the rule of status.from", () => {
  it.each([
    ["invoice", ["Flagged"], "updateInvoiceStatus moves an invoice only from Flagged"],
    ["Order", ["CREATED", "PENDING"], "updateInvoiceStatus moves an Order only from CREATED, PENDING"],
    ["payment", ["Flagged"], "updateInvoiceStatus moves a payment only from Flagged"],
    ["statement", ["TFA_AWAIT"], "updateInvoiceStatus moves a statement only from TFA_AWAIT"],
  ])("%s", (resource, from, text) => {
    expect(movesOnlyFrom(declare({ kind: "update", operationId: "updateInvoiceStatus", resource }), from)).toBe(text);
  });
});

describe("a delete", () => {
  it("of an unknown id is not found and removes nothing", () => {
    const { state, ids } = stateWith({});
    expect(run(state, declare({ kind: "delete", id: "$params.invoice_id" }), {}, { invoice_id: "inv_unknown" })).toBe(NOT_FOUND);
    expect(state.get("invoice", ids[0])).toBeDefined();
  });

  it("answers {} without an answer template, else the template on the removed record", () => {
    const { state, ids } = stateWith({ note: "a" }, { note: "b" });
    expect(run(state, declare({ kind: "delete", id: "$params.invoice_id" }), {}, { invoice_id: ids[0] })).toEqual({});
    const answering = declare({ kind: "delete", id: "$params.invoice_id", answer: { deleted: "$id", note: "$record.note" } });
    expect(run(state, answering, {}, { invoice_id: ids[1] })).toEqual({ deleted: ids[1], note: "b" });
    expect(state.list("invoice")).toEqual([]);
  });
});

describe("a create with each", () => {
  const perItem = declare({
    kind: "create",
    each: "$request.items",
    record: { note: "$item.note" },
    answer: { created: { $each: "$records", as: "$item.note" }, outcomes: { $size: "$outcomes" } },
  });

  it("creates one record per item of the list, and none when the request has no list", () => {
    const { state } = stateWith();
    expect(run(state, perItem, { items: [{ note: "a" }, { note: "b" }] })).toEqual({ created: ["a", "b"], outcomes: 2 });
    for (const request of [{}, { items: null }, { items: "a" }, { items: { note: "a" } }])
      expect(run(state, perItem, request), JSON.stringify(request)).toEqual({ created: [], outcomes: 0 });
    expect(state.list("invoice")).toHaveLength(2);
  });
});

describe("a create's answer", () => {
  it("$records is every record made, in order; without each there are no $outcomes", () => {
    const { state } = stateWith();
    const answer = { records: "$records", outcomes: "$outcomes", id: "$id" };
    const perItem = declare({ kind: "create", each: "$request.items", record: { note: "$item.note" }, answer });
    const made = run(state, perItem, { items: [{ note: "a" }, { note: "b" }] }) as {
      records: Array<Record<string, Json>>;
      outcomes: Json[];
      id: string;
    };
    const [a, b] = state.list("invoice").map((r) => r.data);
    expect(made).toEqual({ records: [a, b], outcomes: [{ record: a }, { record: b }], id: a.invoice_id });
    const one = declare({ kind: "create", record: { note: "$request.note" }, answer });
    const single = run(state, one, { note: "c" });
    expect(single).toEqual({ records: [state.list("invoice")[2].data], id: state.list("invoice")[2].id });
  });
});

describe("a create's expiry in hours", () => {
  const creating = declare({ kind: "create", resource: "expiring", record: {}, answer: { id: "$id", expiry: "$expiry" } });

  it("is that many hours ahead on the credential's clock, and no expiry at all for hours that are not a positive number", () => {
    const state = new CredentialState("expiry-hours");
    const created = (expiry: Json) => {
      const answer = run(state, creating, { expiry }) as { id: string; expiry?: Instant };
      return { answer, expiresAt: state.get("expiring", answer.id)?.expiresAt };
    };
    const before = state.now();
    const two = created(2);
    expect(two.expiresAt).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
    expect(two.expiresAt).toBeLessThanOrEqual(state.now() + 2 * 3_600_000);
    expect(two.answer.expiry).toEqual(new Instant(two.expiresAt as number));
    for (const hours of [0, -1, -0.5, "soon", null, undefined]) {
      const none = created(hours);
      expect(none.expiresAt, String(hours)).toBeUndefined();
      expect(none.answer, String(hours)).toEqual({ id: none.answer.id });
    }
  });
});

describe("effects", () => {
  it("apply where their when holds or they have none, and not where it does not", () => {
    const { state } = stateWith();
    const creating = declare({
      kind: "create",
      record: { note: "$request.note" },
      effects: [
        { resource: "merchant", set: { always: "$request.note" } },
        { when: "$request.set_default", resource: "merchant", set: { default_invoice: "$id" } },
      ],
    });
    run(state, creating, { note: "first", set_default: true });
    const first = state.list("invoice")[0].id;
    run(state, creating, { note: "second", set_default: false });
    expect(singleton(engine, state, "merchant").data).toMatchObject({ always: "second", default_invoice: first });
  });
});

describe("isRefusal", () => {
  it("tells a refusal from a body and from not found", () => {
    expect(isRefusal(new Refusal(400, "No."))).toBe(true);
    for (const other of [NOT_FOUND, {}, { status: 400, detail: "No." }, null, undefined, "refused"])
      expect(isRefusal(other as Json), String(other)).toBe(false);
  });
});

describe("an effect without unset", () => {
  it("keeps every member of the singleton, whatever its name (a request's own names, spaces and capitals included)", () => {
    const { state } = stateWith();
    const profile = { "Stryker was here": "kept", "display name": "Shop", ID: "7" };
    const saving = declare({ kind: "create", record: {}, effects: [{ resource: "merchant", set: { "...": "$request.profile" } }] });
    run(state, saving, { profile });
    run(state, declare({ kind: "create", record: {}, effects: [{ resource: "merchant", set: { touched: true } }] }));
    expect(singleton(engine, state, "merchant").data).toEqual({
      name: "Sandbox merchant",
      merchant_id: expect.any(String),
      ...profile,
      touched: true,
    });
  });
});
