/**
 * Sandbox declarations (src/sandbox/declaration.ts): the registry's own load against their bundled
 * documents, and a broken declaration is refused with the file, line and member of each problem.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { declarationOf, declarationPath, loadDeclaration } from "../../../../src/sandbox/declaration.js";

const registry = loadRegistry();
const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const shopDoc = loadDocument(shop.bundlePath);
const fixture = readFileSync(join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"), "utf8");
const dir = mkdtempSync(join(repoRoot, ".tmp", "declaration-"));
/** A source as a declaration cites it: one of the provider's documents by title, and a line. */
const TITLED =
  /^(Pay Service Interface|Payment Initiation, Statement Retrieval and Balance Retrieval Interface|Disbursement and Account Opening Interface), line \d+$/;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every API of the registry with a declaration, by hand: the seven of this package. */
const DECLARED = [
  "pay@1.3.0",
  "pay@1.2.0",
  "payment-initiation@1.0.0",
  "statement@1.0.0",
  "balance@1.0.0",
  "disbursement@1.0.0",
  "account-opening@1.0.0",
];

describe("the registry's declarations", () => {
  it("every API of the registry has one, beside its root spec", () => {
    expect(registry.map((e) => e.alias)).toEqual(DECLARED);
    for (const entry of registry) expect(declarationPath(entry)).toBe(join(repoRoot, entry.root.replace(/openapi\.yaml$/, "sandbox.yaml")));
  });

  it.each(registry.map((e) => [e.alias, e] as const))(
    "%s loads against its bundled document, each entry naming its source line",
    (_, entry) => {
      const declaration = declarationOf(entry, loadDocument(entry.bundlePath))!;
      expect(declaration).toBeDefined();
      const sources = [
        ...Object.values(declaration.resources).flatMap((r) => [
          r.source,
          r.status?.source,
          r.expiry?.source,
          ...r.callbacks.map((c) => c.source),
        ]),
        ...Object.values(declaration.operations).map((o) => o.source),
      ].filter((s) => s !== undefined);
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) expect(source).toMatch(TITLED);
    },
  );
});

describe("a broken declaration", () => {
  const broken = (name: string, text: string) => {
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, text);
    return () => loadDeclaration(path, shopDoc);
  };
  const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
  const cases: Array<[string, string, string, string]> = [
    [
      "an unknown member",
      fixture.replace("sandbox: 1\n", "sandbox: 1\ncolour: red\n"),
      "colour: red",
      "colour: is not a member of a sandbox declaration",
    ],
    [
      "a missing source",
      fixture.replace('    source: "Pay Service Interface, line 1"\n', ""),
      "  order:",
      "resources.order.source: is required",
    ],
    [
      "a source without a line",
      fixture.replace('source: "Pay Service Interface, line 10"', "source: the docs"),
      "source: the docs",
      "operations.createOrder.source: must match pattern",
    ],
    [
      "a source naming a file instead of the document's title",
      fixture.replace('source: "Pay Service Interface, line 10"', "source: pay.txt:10"),
      "source: pay.txt:10",
      "operations.createOrder.source: must match pattern",
    ],
    [
      "an unknown operationId",
      fixture.replace("  listOrders:", "  shipOrders:"),
      "shipOrders:",
      'operations.shipOrders: "shipOrders" is not an operationId of the API\'s paths',
    ],
    [
      "a status the schema does not allow",
      fixture.replace("initial: CREATED", "initial: SHIPPED"),
      "initial: SHIPPED",
      'resources.order.status.initial: "SHIPPED" is not a status #/components/schemas/Order allows',
    ],
    [
      "an unknown webhook",
      fixture.replace("webhook: orderPaid", "webhook: orderShipped"),
      "webhook: orderShipped",
      'resources.order.callbacks.0.webhook: "orderShipped" is not a webhook of the API (orderPaid)',
    ],
    [
      "an unknown reference",
      fixture.replace("merchant_id: $request.merchant_id", "merchant_id: $requets.merchant_id"),
      "$requets",
      "operations.createOrder.record.merchant_id: unknown reference $requets",
    ],
    [
      "a read without id",
      fixture.replace("    id: $params.order_id\n", ""),
      "  getOrder:",
      "operations.getOrder: a read of order needs `id`",
    ],
    [
      "an unknown resource",
      fixture.replace("    resource: order\n    kind: list", "    resource: parcel\n    kind: list"),
      "resource: parcel",
      'operations.listOrders.resource: "parcel" is not a resource of this declaration (order)',
    ],
    [
      "a schema that does not exist",
      fixture.replace("#/components/schemas/Order", "#/components/schemas/Parcel"),
      "Parcel",
      "resources.order.schema: #/components/schemas/Parcel is not a schema of the API's document",
    ],
    [
      "a test value with two outcomes",
      fixture.replace(
        '        move: pay\n        description: "`merchant_id: m-paid`',
        '        move: pay\n        status: PAID\n        description: "`merchant_id: m-paid`',
      ),
      "- name: paid_at_once",
      "resources.order.testValues.0: a test value has one outcome: move (and after), status, or refuse (and detail); got move, status",
    ],
    [
      "a test value's status the resource does not have",
      fixture.replace(
        '        move: pay\n        description: "`merchant_id: m-paid`',
        '        status: SHIPPED\n        description: "`merchant_id: m-paid`',
      ),
      "status: SHIPPED",
      'resources.order.testValues.0.status: "SHIPPED" is not a status #/components/schemas/Order allows',
    ],
    [
      "a test value of an operation the declaration does not have",
      fixture.replace("operation: createOrder", "operation: shipOrder"),
      "operation: shipOrder",
      'resources.order.testValues.0.operation: "shipOrder" is not an operation of order in this declaration (createOrder, listOrders, getOrder, updateOrder, deleteOrder)',
    ],
    [
      "a test value whose move is on an operation that creates nothing",
      fixture.replace("operation: createOrder", "operation: listOrders"),
      "- name: paid_at_once",
      "resources.order.testValues.0: listOrders is a list: only a create's new record takes a move or a status",
    ],
    [
      "a test value read from an item of a create without each",
      fixture.replace("member: $request.merchant_id", "member: $item.merchant_id"),
      "$item.merchant_id",
      "resources.order.testValues.0.member: createOrder has no `each`: read the value from $request",
    ],
    [
      "a reject rule on a create without each",
      fixture.replace(
        "    kind: create\n",
        "    kind: create\n    reject:\n      - { when: true, code: TAKEN, detail: taken, convention: fixture }\n",
      ),
      "reject:",
      "operations.createOrder.reject: only a create with `each` rejects single items",
    ],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(17));
  it.each(cases)("%s is refused with file:line and member", (name, text, needle, message) => {
    const load = broken(name.replaceAll(" ", "-"), text);
    let error: Error | undefined;
    try {
      load();
    } catch (e) {
      error = e as Error;
    }
    expect(error?.name).toBe("DeclarationError");
    const line = lineOf(text, needle);
    expect(error!.message).toContain(`${name.replaceAll(" ", "-")}.yaml:${line}:`);
    expect(error!.message).toContain(message);
  });

  it("not YAML is refused naming the file", () => {
    const load = broken("not-yaml", "sandbox: [1\n");
    expect(load).toThrow(/not-yaml\.yaml: not valid YAML/);
  });
});
