/**
 * Where a sandbox declaration's problems are placed, member by member (src/sandbox/declaration.ts):
 * a broken template under each member of an operation, a status rule, a move, an expiry rule or a
 * callback is refused at the path inside it; a status named anywhere is checked against the API's
 * schema; and what the rules of src/sandbox/README.md ("A declaration") allow loads: `"*"` for any
 * status, ids an operation of a singleton does without, a lifecycle without moves. On the fixture
 * API shop@1.0.0 (tests/fixtures/mock, tests/fixtures/sandbox/shop.sandbox.yaml).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDeclaration, trustDeclaration } from "../../../../src/sandbox/declaration.js";
import { bytesHash } from "../../../../src/sandbox/declaration-file.js";
import { declarations, edit, fixture, linesBetween, shopDoc } from "./declarations.js";

const { write, load, refusal, expectProblem } = declarations("declaration-members");

const ALLOWS = "is not a status #/components/schemas/Order allows";

describe("a template's problems, at the path inside the member that holds it", () => {
  it("under each member of an operation", () => {
    const text = edit(fixture, [
      "    kind: create\n    record:\n",
      `    kind: create
    id: $bad.id
    each: $bad.each
    shared: { s: $bad.shared }
    status: { value: $bad.status }
    filter: [{ field: merchant_id, value: $bad.filter }]
    limit: $bad.limit
    effects: [{ resource: order, set: { e: $bad.effects } }]
    refuse: [{ when: $bad.refuse, status: 400, detail: No., convention: fixture }]
    reject: [{ when: $bad.reject, code: NO, detail: No., convention: fixture }]
    advance: $bad.advance
    answer: { a: $bad.answer }
    record:
`,
    ]);
    const where: Array<[string, string]> = [
      ["id: $bad.id", "id"],
      ["each: $bad.each", "each"],
      ["shared: {", "shared.s"],
      ["    status: { value: $bad", "status.value"],
      ["filter: [", "filter.0.value"],
      ["limit: $bad.limit", "limit"],
      ["effects: [", "effects.0.set.e"],
      ["refuse: [", "refuse.0.when"],
      ["reject: [", "reject.0.when"],
      ["advance: $bad.advance", "advance"],
      ["answer: { a: $bad", "answer.a"],
    ];
    expect(where).toHaveLength(11);
    for (const [needle, member] of where) expectProblem(text, needle, `operations.createOrder.${member}`, "unknown reference $bad");
  });

  it("under a status rule, a move, an expiry rule, a record's initial members and a callback", () => {
    const text = edit(
      fixture,
      [
        'pay: { from: [CREATED], to: PAID, source: "Pay Service Interface, line 5" }',
        'pay: { from: [CREATED], to: PAID, set: { m: $bad.move }, source: "Pay Service Interface, line 5" }',
      ],
      ["      hours: { $first: [$request.expiry_hours, 2] }\n", "      hours: $bad.hours\n      at: $bad.at\n"],
      ["        url: $callbackUrl\n        payload: $view\n", "        url: $bad.url\n        payload: { p: $bad.payload }\n"],
      [
        "    callbacks:\n",
        '    initial: { i: $bad.initial }\n    on:\n      PAID: { set: { o: $bad.on }, source: "Pay Service Interface, line 7" }\n    callbacks:\n',
      ],
    );
    const where: Array<[string, string]> = [
      ["pay: {", "status.moves.pay.set.m"],
      ["hours: $bad.hours", "expiry.hours"],
      ["at: $bad.at", "expiry.at"],
      ["url: $bad.url", "callbacks.0.url"],
      ["payload: { p", "callbacks.0.payload.p"],
      ["initial: { i", "initial.i"],
      ["PAID: { set", "on.PAID.set.o"],
    ];
    for (const [needle, member] of where) expectProblem(text, needle, `resources.order.${member}`, "unknown reference $bad");
  });
});

describe("a status named anywhere is one the API's schema allows", () => {
  it("in final, a move's from, the expiry rule's from, a status rule and a callback's when", () => {
    const text = edit(
      fixture,
      ["final: [PAID, Created]", "final: [PAID, Created, SHIPPED]"],
      ["pay: { from: [CREATED]", "pay: { from: [CREATED, HELD]"],
      ["      from: [CREATED]\n", "      from: [CREATED, LOST]\n"],
      ["        when: [PAID]\n", "        when: [PAID, SENT]\n"],
      ["    callbacks:\n", '    on:\n      GONE: { set: {}, source: "Pay Service Interface, line 7" }\n    callbacks:\n'],
    );
    expectProblem(text, "final: [", "resources.order.status.final.2", `"SHIPPED" ${ALLOWS}`);
    expectProblem(text, "pay: {", "resources.order.status.moves.pay.from.1", `"HELD" ${ALLOWS}`);
    expectProblem(text, "      from: [CREATED, LOST]", "resources.order.expiry.from.1", `"LOST" ${ALLOWS}`);
    expectProblem(text, "when: [PAID, SENT]", "resources.order.callbacks.0.when.1", `"SENT" ${ALLOWS}`);
    expectProblem(text, "GONE: {", "resources.order.on.GONE", `"GONE" ${ALLOWS}`);
    const { message } = refusal(text);
    for (const member of ["final.0", "final.1", "pay.from.0", "expiry.from.0", "when.0"]) expect(message).not.toContain(`${member}:`);
  });

  it('"*" stands for any status in a status rule and a callback\'s when', () => {
    const text = edit(
      fixture,
      ["        when: [PAID]\n", '        when: "*"\n'],
      ["    callbacks:\n", '    on:\n      "*": { set: { notes: changed }, source: "Pay Service Interface, line 7" }\n    callbacks:\n'],
    );
    const order = load(text).resources.order;
    expect(order.callbacks[0].when).toBe("*");
    expect(Object.keys(order.on ?? {})).toEqual(["*"]);
  });
});

describe("test values", () => {
  it("a move on a resource without a status, or without a lifecycle, is not one of its moves", () => {
    const noMoves = edit(fixture, [linesBetween(fixture, "      moves:\n", "    testValues:"), ""]);
    expect(noMoves).not.toContain("moves:");
    expectProblem(noMoves, "move: pay", "resources.order.testValues.0.move", '"pay" is not a move of status.moves');
    const noStatus = edit(noMoves, [linesBetween(noMoves, "    status:\n", "    testValues:"), ""]);
    expectProblem(noStatus, "move: pay", "resources.order.testValues.0.move", '"pay" is not a move of status.moves');
  });

  it("a status on an operation that creates nothing is refused; on a create it is one the schema allows", () => {
    const text = edit(
      fixture,
      ["        move: pay\n        description", "        status: PAID\n        description"],
      ["operation: createOrder", "operation: listOrders"],
    );
    expectProblem(
      text,
      "- name: paid_at_once",
      "resources.order.testValues.0",
      "listOrders is a list: only a create's new record takes a move or a status",
    );
  });

  it("each goes to the operation it names, matched by member and value without regard to case", () => {
    const declaration = load(fixture);
    expect(declaration.operations.createOrder.testValues?.map((v) => v.name)).toEqual(["paid_at_once", "paid_later"]);
    expect(declaration.operations.createOrder.testValues?.[0].when).toEqual({ $eq: ["$request.merchant_id", "m-paid"], ci: true });
    expect(declaration.operations.listOrders.testValues).toBeUndefined();
  });
});

describe("an operation", () => {
  it("an operationId of a webhook is not one of the API's paths", () => {
    const text = edit(fixture, ["  deleteOrder:\n", "  orderPaid:\n"]);
    expectProblem(text, "  orderPaid:", "operations.orderPaid", '"orderPaid" is not an operationId of the API\'s paths');
  });

  it("an update, a delete and an action say where the id comes from", () => {
    for (const kind of ["update", "delete", "action"]) {
      const text = edit(fixture, ["    kind: read\n    id: $params.order_id\n", `    kind: ${kind}\n`]);
      expectProblem(text, "  getOrder:", "operations.getOrder", `a ${kind} of order needs \`id\` (where the id comes from)`);
    }
  });

  it("an operation of a singleton needs no id", () => {
    const singleton = edit(
      fixture,
      ['    schema: "#/components/schemas/Order"\n', '    schema: "#/components/schemas/Order"\n    singleton: true\n'],
      [linesBetween(fixture, "    expiry:\n", "    callbacks:\n"), ""],
      ["    kind: read\n    id: $params.order_id\n", "    kind: read\n"],
    );
    const { message } = refusal(singleton); // its create and delete are refused, its read is not
    expect(message).toContain("operations.createOrder.kind");
    expect(message).not.toContain("getOrder");
  });

  it("an effect on a resource the declaration does not have is refused", () => {
    const text = edit(fixture, [
      "      created: $now\n",
      "      created: $now\n    effects:\n      - { resource: parcel, set: { notes: x } }\n",
    ]);
    expectProblem(
      text,
      "- { resource: parcel",
      "operations.createOrder.effects.0.resource",
      '"parcel" is not a singleton resource of this declaration',
    );
  });

  it("an update's status.from is checked only against declared status values", () => {
    const text = edit(fixture, ["      value: $request.status\n", "      value: $request.status\n      from: [CREATED]\n"]);
    expect(load(text).operations.updateOrder.status?.from).toEqual(["CREATED"]);
  });
});

describe("a lifecycle without moves", () => {
  it("lets an expiry rule move a record freely, and its test values set a status", () => {
    const text = edit(
      fixture,
      [linesBetween(fixture, "      moves:\n", "    testValues:"), ""],
      ["        move: pay\n        description", "        status: PAID\n        description"],
      ["        move: pay\n        after: 5\n", "        status: PAID\n"],
    );
    const order = load(text).resources.order;
    expect(order.status?.moves).toBeUndefined();
    expect(order.expiry?.to).toBe("Created");
  });
});

describe("the file a problem names", () => {
  it("a declaration outside the package is named by its absolute path", () => {
    const path = join(tmpdir(), `declaration-members-${process.pid}.yaml`);
    writeFileSync(path, "");
    expect(() => loadDeclaration(path, shopDoc)).toThrow(`${path}: invalid sandbox declaration:\n  ${path}:1:1 (root): must be object`);
  });

  it("trusts each declaration of a document by its own path and bytes", () => {
    const broken = edit(fixture, ["initial: CREATED", "initial: SHIPPED"]);
    const first = write(broken).path;
    const second = write(broken).path;
    const doc = structuredClone(shopDoc);
    trustDeclaration(doc, first, bytesHash(readFileSync(first)));
    trustDeclaration(doc, second, bytesHash(readFileSync(second)));
    expect(loadDeclaration(first, doc).resources.order.status?.initial).toBe("SHIPPED");
    expect(loadDeclaration(second, doc).resources.order.status?.initial).toBe("SHIPPED");
  });
});
