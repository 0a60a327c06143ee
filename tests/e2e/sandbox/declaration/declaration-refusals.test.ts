/**
 * A sandbox declaration the check refuses (src/sandbox/declaration.ts): each rule of the format
 * src/sandbox/README.md ("A declaration") describes, broken once, is refused with a DeclarationError
 * whose problem names the file, the line and the member (`file:line:col member: message`); the
 * neighbouring declarations the same rules allow load. On the fixture API shop@1.0.0
 * (tests/fixtures/mock, tests/fixtures/sandbox/shop.sandbox.yaml), whose Order has the statuses
 * CREATED, Created and PAID and whose one webhook is orderPaid.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { bytesHash } from "../../../../src/sandbox/declaration-file.js";
import { DeclarationError, loadDeclaration, trustDeclaration } from "../../../../src/sandbox/declaration.js";
import { declarations, edit, fixture, lineOf, shopDoc } from "./declarations.js";

const { write, load, refusal, expectProblem } = declarations("declaration-refusals");

describe("the file's format", () => {
  it("an empty file is refused at its first line and column, as the root", () => {
    const { message, shown } = refusal("");
    expect(message).toBe(`${shown}: invalid sandbox declaration:\n  ${shown}:1:1 (root): must be object`);
  });

  it("an operation's kind outside the seven kinds is refused listing them", () => {
    const text = edit(fixture, ["kind: read", "kind: fetch"]);
    expectProblem(text, "kind: fetch", "operations.getOrder.kind", "must be one of create, read, list, update, delete, action, answer");
  });

  it("a template broken at its root is refused at the member itself", () => {
    const text = edit(fixture, [
      "    record:\n      merchant_id: $request.merchant_id\n      amount: $request.amount\n      created: $now\n",
      "    record: $requets\n",
    ]);
    expectProblem(text, "record: $requets", "operations.createOrder.record", "unknown reference $requets");
  });
});

describe("several problems", () => {
  it("every problem the schema finds is listed, each on a line of its own", () => {
    const text = edit(
      fixture,
      ["sandbox: 1\n", "sandbox: 1\ncolour: red\n"],
      ['source: "Pay Service Interface, line 10"', "source: the docs"],
    );
    const { message, shown } = refusal(text);
    expect(message.split("\n")).toEqual([
      `${shown}: invalid sandbox declaration:`,
      `  ${shown}:3:1 colour: is not a member of a sandbox declaration (see src/sandbox/README.md)`,
      expect.stringMatching(
        new RegExp(
          `^  ${shown.replaceAll(".", "\\.")}:${lineOf(text, "source: the docs")}:\\d+ operations\\.createOrder\\.source: must match pattern`,
        ),
      ),
    ]);
  });

  it("a member inside a template whose name holds dots is placed at the deepest member that exists", () => {
    // A record's member named "total.amt" beside a member "total", and "items.5" beside a list of one.
    const text = edit(fixture, [
      "      created: $now\n",
      '      created: $now\n      total: "1.00"\n      "total.amt": $bad.amount\n      items: [one]\n      "items.5": $bad.item\n',
    ]);
    expectProblem(text, '      total: "1.00"', "operations.createOrder.record.total.amt", "unknown reference $bad");
    expectProblem(text, "      items: [one]", "operations.createOrder.record.items.5", "unknown reference $bad");
  });
});

describe("a resource", () => {
  it("an id without prefix makes bare ids, and digits only when asked", () => {
    const declaration = load(edit(fixture, ["{ field: order_id, prefix: o-, digits: true }", "{ field: order_id }"]));
    expect(declaration.resources.order.id).toEqual({ field: "order_id", prefix: "", digits: false });
    expect(load(fixture).resources.order.id).toEqual({ field: "order_id", prefix: "o-", digits: true });
  });

  it("a singleton with an expiry rule, a create and a delete is refused on each", () => {
    const text = edit(fixture, [
      '    schema: "#/components/schemas/Order"\n',
      '    schema: "#/components/schemas/Order"\n    singleton: true\n',
    ]);
    expectProblem(text, "    expiry:", "resources.order.expiry", "a singleton does not expire");
    expectProblem(text, "kind: create", "operations.createOrder.kind", "order is a singleton: it always exists, use kind update");
    expectProblem(text, "kind: delete", "operations.deleteOrder.kind", "order is a singleton and cannot be deleted");
  });

  it("a status member the schema does not have is refused at status.field", () => {
    const text = edit(fixture, ["field: status", "field: state"]);
    expectProblem(text, "field: state", "resources.order.status.field", '#/components/schemas/Order has no member "state"');
  });

  it("declared status values: every status named must be one of them", () => {
    const text = edit(fixture, ["      final: [PAID, Created]\n", "      values: [CREATED, PAID]\n      final: [PAID, Created]\n"]);
    expectProblem(
      text,
      "final: [PAID, Created]",
      "resources.order.status.final.1",
      '"Created" is not one of status.values (CREATED, PAID)',
    );
    expectProblem(text, "expire: {", "resources.order.status.moves.expire.to", '"Created" is not one of status.values (CREATED, PAID)');
    expectProblem(text, "      to: Created", "resources.order.expiry.to", '"Created" is not one of status.values (CREATED, PAID)');
  });

  it("an update's status.from outside the declared status values is refused", () => {
    const text = edit(
      fixture,
      ["      final: [PAID, Created]\n", "      values: [CREATED, Created, PAID]\n      final: [PAID, Created]\n"],
      ["      value: $request.status\n", "      value: $request.status\n      from: [CREATED, SHIPPED]\n"],
    );
    expectProblem(text, "from: [CREATED, SHIPPED]", "operations.updateOrder.status.from.1", '"SHIPPED" is not a status of order');
    expect(refusal(text).message).not.toContain("status.from.0");
  });

  it("a move that leaves a final status is refused", () => {
    const text = edit(fixture, ["pay: { from: [CREATED]", "pay: { from: [CREATED, PAID]"]);
    expectProblem(text, "pay: {", "resources.order.status.moves.pay.from", "a final status is left by no move");
  });
});

describe("a resource's expiry rule", () => {
  it("a status it expires from that no move leaves for its target is refused", () => {
    const text = edit(fixture, ['        expire: { from: [CREATED], to: Created, source: "Pay Service Interface, line 6" }\n', ""]);
    expectProblem(text, "      from: [CREATED]", "resources.order.expiry.from", "no move of status.moves goes from CREATED to Created");
  });

  it('a move from "*" leaves every status that is not final, and only those', () => {
    const star = edit(fixture, ["expire: { from: [CREATED]", 'expire: { from: "*"']);
    expect(load(star).resources.order.status?.moves?.expire.from).toBe("*");
    const fromFinal = edit(star, ["      from: [CREATED]\n", "      from: [CREATED, PAID]\n"]);
    expectProblem(
      fromFinal,
      "      from: [CREATED, PAID]",
      "resources.order.expiry.from",
      "no move of status.moves goes from PAID to Created",
    );
    expect(refusal(fromFinal).message).not.toContain("from CREATED");
  });

  it('a move from "*" on a lifecycle without final statuses leaves every status', () => {
    const text = edit(fixture, ["      final: [PAID, Created]\n", ""], ["expire: { from: [CREATED]", 'expire: { from: "*"']);
    expect(load(text).resources.order.expiry?.from).toEqual(["CREATED"]);
  });
});

describe("a resource's test values", () => {
  it("a test value without an outcome is refused", () => {
    const text = edit(fixture, ["        value: m-paid\n        move: pay\n", "        value: m-paid\n"]);
    expectProblem(
      text,
      "- name: paid_at_once",
      "resources.order.testValues.0",
      "a test value has one outcome: move (and after), status, or refuse (and detail); got none",
    );
  });

  it("a move the lifecycle does not have is refused", () => {
    const text = edit(fixture, ["        move: pay\n", "        move: ship\n"]);
    expectProblem(text, "move: ship", "resources.order.testValues.0.move", '"ship" is not a move of status.moves');
  });

  it("`after` without a move is refused", () => {
    const text = edit(fixture, ["        move: pay\n        after: 5\n", "        status: PAID\n        after: 5\n"]);
    expectProblem(text, "after: 5", "resources.order.testValues.1.after", "only a move waits `after` seconds");
  });

  it("a refusal without its detail, or a detail without a refusal, is refused naming the one missing", () => {
    const noDetail = edit(fixture, ["        value: m-paid\n        move: pay\n", "        value: m-paid\n        refuse: 400\n"]);
    expectProblem(
      noDetail,
      "- name: paid_at_once",
      "resources.order.testValues.0.detail",
      "a refusing test value gives both `refuse` and `detail`",
    );
    const noRefuse = edit(fixture, [
      "        value: m-paid\n        move: pay\n",
      "        value: m-paid\n        move: pay\n        detail: Declined.\n",
    ]);
    expectProblem(
      noRefuse,
      "- name: paid_at_once",
      "resources.order.testValues.0.refuse",
      "a refusing test value gives both `refuse` and `detail`",
    );
    expect(refusal(noRefuse).message).not.toContain("testValues.0.detail");
  });

  it("a refusal read from an item is refused: it answers the whole request", () => {
    const text = edit(
      fixture,
      ["    kind: create\n", "    kind: create\n    each: $request.child_amounts\n"],
      [
        "        member: $request.merchant_id\n        value: m-paid\n        move: pay\n",
        "        member: $item.cur\n        value: XXX\n        refuse: 400\n        detail: No.\n",
      ],
    );
    expectProblem(
      text,
      "member: $item.cur",
      "resources.order.testValues.0.member",
      "a refusal answers the whole request: read its value from $request",
    );
  });
});

/** A second resource, `ledger` (shaped by Amount), with no status and none of the shop's operations. */
const LEDGER = `  ledger:
    source: "Pay Service Interface, line 20"
    schema: "#/components/schemas/Amount"
    id: { field: cur }
`;
const withLedger = (extra: string) => edit(fixture, ["operations:\n", `${LEDGER}${extra}operations:\n`]);

describe("a resource without a status", () => {
  const text = withLedger(`    on:
      PAID: { set: { amt: "1.00" }, source: "Pay Service Interface, line 21" }
    expiry: { hours: 2, to: PAID, from: [CREATED], source: "Pay Service Interface, line 22" }
    callbacks:
      - { webhook: orderPaid, when: "*", url: $callbackUrl, payload: $view, source: "Pay Service Interface, line 23" }
`);

  it("takes no status rules, expiry rule or callbacks", () => {
    expectProblem(text, "    on:", "resources.ledger.on", "status rules need a status");
    expectProblem(
      text,
      "expiry: { hours: 2",
      "resources.ledger.expiry",
      "an expiry rule needs a status (the status it moves the record to)",
    );
    expectProblem(
      text,
      "- { webhook: orderPaid, when",
      "resources.ledger.callbacks.0",
      "callbacks fire on status changes: the resource needs a status",
    );
  });

  it("an update of it that moves a status is refused", () => {
    const text = edit(withLedger(""), ["    resource: order\n    kind: update\n", "    resource: ledger\n    kind: update\n"]);
    expectProblem(text, ["  updateOrder:", "    status:"], "operations.updateOrder.status", "ledger has no status");
  });

  it("an operation of a resource the declaration does not have is refused listing those it has", () => {
    const text = edit(withLedger(""), ["    resource: order\n    kind: list\n", "    resource: parcel\n    kind: list\n"]);
    expectProblem(
      text,
      "resource: parcel",
      "operations.listOrders.resource",
      '"parcel" is not a resource of this declaration (order, ledger)',
    );
  });

  it("a list of it that advances its records is refused: it has no lifecycle", () => {
    const text = edit(withLedger(""), [
      "    resource: order\n    kind: list\n",
      "    resource: ledger\n    kind: list\n    advance: pay\n",
    ]);
    expectProblem(
      text,
      "advance: pay",
      "operations.listOrders.advance",
      "ledger has no lifecycle (status.moves): a list advances its records by a named move",
    );
  });

  it("a test value of it names an operation of it, and says when it has none", () => {
    const text = withLedger(`    testValues:
      - { name: no_cur, operation: createOrder, member: $request.merchant_id, value: m-x, refuse: 400, detail: No., description: x, convention: fixture }
`);
    expectProblem(
      text,
      "operation: createOrder, member",
      "resources.ledger.testValues.0.operation",
      '"createOrder" is not an operation of ledger in this declaration (none)',
    );
  });
});

describe("an operation", () => {
  it("an answer without `answer` is refused", () => {
    const text = edit(fixture, ["kind: read", "kind: answer"]);
    expectProblem(text, "  getOrder:", "operations.getOrder", "an answer needs `answer` (built from the request)");
  });

  it("a create without `record` is refused", () => {
    const text = edit(fixture, [
      "    record:\n      merchant_id: $request.merchant_id\n      amount: $request.amount\n      created: $now\n",
      "",
    ]);
    expectProblem(text, "  createOrder:", "operations.createOrder", "a create needs `record`");
  });

  it("`each` on anything but a create is refused", () => {
    const text = edit(fixture, ["    kind: list\n", "    kind: list\n    each: $request.items\n"]);
    expectProblem(text, "each: $request.items", "operations.listOrders.each", "only a create makes one record per item");
  });

  it("`reject` on anything but a create is refused, with `each` or without", () => {
    const text = edit(fixture, [
      "    kind: list\n",
      "    kind: list\n    each: $request.items\n    reject:\n      - { when: true, code: TAKEN, detail: taken, convention: fixture }\n",
    ]);
    expectProblem(
      text,
      "    reject:",
      "operations.listOrders.reject",
      "only a create with `each` rejects single items (`refuse` refuses a whole request)",
    );
  });

  it("`advance` on anything but a list is refused", () => {
    const text = edit(fixture, ["    kind: read\n", "    kind: read\n    advance: pay\n"]);
    expectProblem(text, "advance: pay", "operations.getOrder.advance", "only a list advances the records it lists");
  });

  it("`status` on anything but an update is refused", () => {
    const text = edit(fixture, ["    kind: read\n", "    kind: read\n    status: { value: PAID }\n"]);
    expectProblem(text, "status: { value: PAID }", "operations.getOrder.status", "only an update moves a status");
  });

  it("an effect on a resource that is not a singleton is refused", () => {
    const text = edit(fixture, [
      "      created: $now\n",
      "      created: $now\n    effects:\n      - { resource: order, set: { notes: x } }\n",
    ]);
    expectProblem(
      text,
      "- { resource: order",
      "operations.createOrder.effects.0.resource",
      '"order" is not a singleton resource of this declaration',
    );
  });
});

describe("a callback", () => {
  const codes = (value: string) => edit(fixture, ["        payload: $view\n", `        payload: $view\n        codes: { ${value} }\n`]);
  /** The shop's document with `x-status-codes` on orderPaid, as the provider's documents list them. */
  const coded: Doc = structuredClone(shopDoc);
  coded.webhooks.orderPaid.post["x-status-codes"] = [
    { code: 2, status: "PAID", meaning: "Paid." },
    { code: 11, status: "EXPIRED", meaning: "Expired." },
  ];

  it("to a webhook the API does not declare is refused listing those it declares", () => {
    const two: Doc = structuredClone(shopDoc);
    two.webhooks.orderRefunded = structuredClone(two.webhooks.orderPaid);
    const text = edit(fixture, ["webhook: orderPaid", "webhook: orderShipped"]);
    expectProblem(
      text,
      "webhook: orderShipped",
      "resources.order.callbacks.0.webhook",
      '"orderShipped" is not a webhook of the API (orderPaid, orderRefunded)',
      two,
    );
  });

  it("to an API that declares no webhook is refused saying so", () => {
    const bare: Doc = structuredClone(shopDoc);
    delete bare.webhooks;
    expectProblem(
      fixture,
      "webhook: orderPaid",
      "resources.order.callbacks.0.webhook",
      '"orderPaid" is not a webhook of the API (it declares none)',
      bare,
    );
  });

  it("its codes are the webhook's x-status-codes, as numbers or text", () => {
    expect(load(codes("PAID: 2"), coded).resources.order.callbacks[0].codes).toEqual({ PAID: 2 });
    expect(load(codes('PAID: "11"'), coded).resources.order.callbacks[0].codes).toEqual({ PAID: "11" });
    expectProblem(
      codes("PAID: 7"),
      "codes: { PAID: 7 }",
      "resources.order.callbacks.0.codes.PAID",
      "7 is not one of the webhook's x-status-codes",
      coded,
    );
    expectProblem(
      codes("PAID: 2"),
      "codes: { PAID: 2 }",
      "resources.order.callbacks.0.codes.PAID",
      "2 is not one of the webhook's x-status-codes",
    );
  });

  it("its codes name statuses of the resource", () => {
    expectProblem(
      codes("SHIPPED: 2"),
      "codes: { SHIPPED: 2 }",
      "resources.order.callbacks.0.codes.SHIPPED",
      '"SHIPPED" is not a status #/components/schemas/Order allows',
      coded,
    );
  });
});

describe("a trusted declaration", () => {
  const unchecked = edit(fixture, ["initial: CREATED", "initial: SHIPPED"], ["sandbox: 1\n", "sandbox: 1\ncolour: red\n"]);

  it("is read without the checks while its bytes are those that passed, and checked again once they change", () => {
    const { path } = write(unchecked);
    const doc: Doc = structuredClone(shopDoc);
    trustDeclaration(doc, path, bytesHash(readFileSync(path)));
    expect(loadDeclaration(path, doc).resources.order.status?.initial).toBe("SHIPPED");
    // The same file against another document was never trusted.
    expect(() => loadDeclaration(path, shopDoc)).toThrow(DeclarationError);
    writeFileSync(path, `${unchecked}\n`);
    expect(() => loadDeclaration(path, doc)).toThrow(/:3:1 colour: is not a member of a sandbox declaration/);
  });
});
