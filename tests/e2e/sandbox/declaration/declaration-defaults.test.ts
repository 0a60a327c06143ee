/**
 * What a sandbox declaration holds for the members it leaves out (src/sandbox/declaration.ts, the
 * format in src/sandbox/README.md "A declaration"): no callbacks, no test values, not a singleton;
 * an update's status move without `from` (from any status), an effect on a singleton resource; and a schema that is not a reference into the API's document is refused even in a declaration
 * read without the format's check (trusted bytes). On the fixture API shop@1.0.0.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bytesHash } from "../../../../src/sandbox/declaration-file.js";
import { DeclarationError, loadDeclaration, trustDeclaration } from "../../../../src/sandbox/declaration.js";
import { declarations, edit, fixture, linesBetween, shopDoc } from "./declarations.js";

const { write, load, expectProblem } = declarations("declaration-defaults");

describe("a resource that leaves members out", () => {
  it("has no callbacks, no test values, and is not a singleton", () => {
    const text = edit(
      fixture,
      [linesBetween(fixture, "    testValues:\n", "    expiry:\n"), ""],
      [linesBetween(fixture, "    callbacks:\n", "operations:\n"), ""],
    );
    const order = load(text).resources.order;
    expect(order.callbacks).toEqual([]);
    expect(order.testValues).toEqual([]);
    expect(order.singleton).toBe(false);
  });
});

describe("an operation", () => {
  it("an update's status move without `from` loads beside declared status values", () => {
    const text = edit(fixture, [
      "      final: [PAID, Created]\n",
      "      values: [CREATED, Created, PAID]\n      final: [PAID, Created]\n",
    ]);
    expect(load(text).operations.updateOrder.status?.from).toBeUndefined();
  });

  it("an update's status.from on a resource without a status is refused for the status alone", () => {
    const text = edit(
      fixture,
      [
        "operations:\n",
        '  ledger:\n    source: "Pay Service Interface, line 20"\n    schema: "#/components/schemas/Amount"\n    id: { field: cur }\noperations:\n',
      ],
      ["    resource: order\n    kind: update\n", "    resource: ledger\n    kind: update\n"],
      ["      value: $request.status\n", "      value: $request.status\n      from: [CREATED]\n"],
    );
    expectProblem(text, ["  updateOrder:", "    status:"], "operations.updateOrder.status", "ledger has no status");
  });

  it("an effect on a singleton resource loads", () => {
    const text = edit(
      fixture,
      [
        "operations:\n",
        '  merchant:\n    source: "Pay Service Interface, line 20"\n    schema: "#/components/schemas/Amount"\n    id: { field: cur }\n    singleton: true\n    initial: { cur: PHP, amt: "0.00" }\noperations:\n',
      ],
      ["      created: $now\n", '      created: $now\n    effects:\n      - { resource: merchant, set: { amt: "1.00" } }\n'],
    );
    expect(load(text).operations.createOrder.effects).toEqual([{ resource: "merchant", set: { amt: "1.00" } }]);
  });
});

describe("a trusted declaration", () => {
  it("whose schema is not a reference into the document is still refused, naming the member", () => {
    const { path, shown } = write(edit(fixture, ['schema: "#/components/schemas/Order"', "schema: components/schemas/Order"]));
    const doc = structuredClone(shopDoc);
    trustDeclaration(doc, path, bytesHash(readFileSync(path)));
    let error: unknown;
    try {
      loadDeclaration(path, doc);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeclarationError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${shown.replaceAll(".", "\\.")}: invalid sandbox declaration:\n {2}${shown.replaceAll(".", "\\.")}:6:\\d+ resources\\.order\\.schema: components/schemas/Order is not a schema of the API's document$`,
      ),
    );
  });
});
