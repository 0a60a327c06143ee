/**
 * The definitions src/sandbox/engine/apply.ts and resolve.ts make when they load (arrows bound to a
 * name), each module loaded as a new instance by the test (tests/helpers/fresh-module.ts) and its
 * exports called, on the engine of the fixture API shop@1.0.0 (tests/fixtures/mock,
 * tests/fixtures/sandbox/shop.sandbox.yaml: an order is created CREATED, `merchant_id: m-paid` pays
 * it at once, PAID is final; updateOrder moves the status to `$request.status`).
 *
 * - An update whose status move the lifecycle refuses is refused 409 (src/sandbox/README.md: the
 *   update gets `status.refuse`, else 409 naming the moves), citing the operation's source, and
 *   nothing else: the new instance tells its refusal from a body (`isRefusal`).
 * - A `status.from` rule is stated "<operation> moves a|an <resource> only from <statuses>", the
 *   article as English writes it before the resource's name (hand-written table).
 * - A credential carried in a header given twice counts by its first value, as Node's http keeps
 *   the first of a repeated Authorization (Node's documentation of `message.headers`), for an API
 *   request (`credentialOf`) and a control call (`controlCredential`, x-api-key included).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocument, type Operation } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type { OperationDeclaration } from "../../../../src/sandbox/declaration.js";
import type * as ApplyModule from "../../../../src/sandbox/engine/apply.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import type * as ResolveModule from "../../../../src/sandbox/engine/resolve.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
let engine: EngineContext;
beforeAll(() => {
  engine = createEngine(shop, loadDocument(shop.bundlePath), {
    declarationPath: join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"),
    registry: registryPath,
  });
});
afterAll(() => engine?.close());

/** The operation `id` of the fixture and what its declaration says of it. */
const operation = (id: string): { op: Operation; declared: OperationDeclaration } => {
  const op = engine.operation(id);
  const declared = engine.declaration?.operations[id];
  if (!op || !declared) throw new Error(`no declared operation ${id} in the fixture`);
  return { op, declared };
};

describe("an update whose status move the lifecycle refuses", () => {
  it("is refused 409 citing the operation's source, the record left as it was", async () => {
    const applying = await freshModule<typeof ApplyModule>("src/sandbox/engine/apply.ts");
    const create = operation("createOrder");
    const update = operation("updateOrder");
    const outcome = await engine.store.run(credentialKey("apply-definitions"), (state: CredentialState) => {
      const order = applying.apply(engine, state, create.op, create.declared, { merchant_id: "m-paid", amount: "1.00" }, {});
      const refused = applying.apply(engine, state, update.op, update.declared, { status: "CREATED" }, { order_id: order.order_id });
      return { order, refused, kept: state.get("order", order.order_id)?.data.status };
    });
    expect(outcome.order.status).toBe("PAID");
    expect(applying.isRefusal(outcome.refused)).toBe(true);
    expect(outcome.refused).toMatchObject({ status: 409, source: "Pay Service Interface, line 13", convention: undefined });
    expect(outcome.refused.detail).toMatch(/PAID/);
    expect(outcome.refused.detail).toMatch(/CREATED/);
    expect(outcome.kept).toBe("PAID");
    expect(applying.isRefusal(outcome.order)).toBe(false);
  });
});

describe("a status.from rule as its refusal states it", () => {
  // [resource, statuses, the rule], as English writes the article.
  const rules: Array<[string, string[], string]> = [
    ["order", ["CREATED"], "updateThing moves an order only from CREATED"],
    ["invoice", ["Flagged", "Created"], "updateThing moves an invoice only from Flagged, Created"],
    ["Account", ["OPEN"], "updateThing moves an Account only from OPEN"],
    ["payment", ["PENDING"], "updateThing moves a payment only from PENDING"],
    ["session", ["TFA_AWAIT"], "updateThing moves a session only from TFA_AWAIT"],
  ];

  it("puts an before a vowel, a before a consonant", async () => {
    const { movesOnlyFrom } = await freshModule<typeof ApplyModule>("src/sandbox/engine/apply.ts");
    const stated = rules.map(([resource, from]) => movesOnlyFrom({ operationId: "updateThing", resource } as OperationDeclaration, from));
    expect(stated).toHaveLength(5);
    expect(stated).toEqual(rules.map(([, , rule]) => rule));
  });
});

describe("a credential in a header given twice", () => {
  it("counts by its first value, in an API request and in a control call", async () => {
    const { credentialOf, controlCredential } = await freshModule<typeof ResolveModule>("src/sandbox/engine/resolve.ts");
    const { op } = operation("getOrder");
    expect(credentialOf(engine, op, { authorization: ["Bearer first-token", "Bearer second-token"] })).toBe("first-token");
    expect(credentialOf(engine, op, { authorization: "Bearer only-token" })).toBe("only-token");
    expect(controlCredential(engine, { authorization: ["Bearer first-token", "Bearer second-token"] })).toBe("first-token");
    expect(controlCredential(engine, { "x-api-key": ["first-key", "second-key"] })).toBe("first-key");
  });
});
