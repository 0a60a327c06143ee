/**
 * Which statuses a resource may take (src/sandbox/engine/lifecycle.ts `allowsStatus`, `statusValues`)
 * at their edges, on hand-written resources: a resource without a status takes none, declared values
 * are the only ones taken, and a status schema that is another document's `$ref` (which the sandbox
 * does not follow) names no statuses rather than failing.
 */
import { describe, expect, it } from "vitest";
import type { ResourceDeclaration } from "../../../../../src/sandbox/declaration.js";
import type { EngineContext } from "../../../../../src/sandbox/engine/context.js";
import { allowsStatus, statusValues } from "../../../../../src/sandbox/engine/lifecycle.js";

const account: ResourceDeclaration = {
  name: "account",
  source: "test",
  schema: "#/components/schemas/Account",
  singleton: false,
  id: { field: "account_id", prefix: "acc_", digits: false },
  callbacks: [],
  testValues: [],
  status: { field: "state", initial: "OPEN", source: "test", values: ["OPEN", "CLOSED"] },
};
const statusless: ResourceDeclaration = { ...account, name: "note", status: undefined };

/** An engine whose document has `schemas` and whose schema check must not be asked. */
const engine = (schemas: Record<string, unknown>) =>
  ({
    doc: { components: { schemas } },
    statusChecks: {
      test: () => {
        throw new Error("the schema is not asked when the declaration decides");
      },
    },
  }) as unknown as EngineContext;

describe("allowsStatus", () => {
  it("a resource without a status takes no status at all", () => {
    const doc = engine({ Account: { properties: { state: { type: "string" } } } });
    for (const status of ["OPEN", "CLOSED", "", "anything"]) expect(allowsStatus(doc, statusless, status), status).toBe(false);
  });

  it("declared values: those only, compared exactly", () => {
    const doc = engine({ Account: { properties: { state: { enum: ["OPEN", "CLOSED", "FROZEN"] } } } });
    expect(["OPEN", "CLOSED", "FROZEN", "open", ""].map((s) => allowsStatus(doc, account, s))).toEqual([true, true, false, false, false]);
  });
});

describe("statusValues", () => {
  it("a status schema that is another document's $ref names no statuses (the sandbox follows local $refs only)", () => {
    const free = { ...account, status: { ...account.status!, values: undefined } };
    const doc = engine({ Account: { properties: { state: { $ref: "common.yaml#/components/schemas/State" } } } });
    expect(statusValues(doc, free)).toBeUndefined();
    const viaLocal = engine({
      Account: { properties: { state: { $ref: "#/components/schemas/State" } } },
      State: { anyOf: [{ $ref: "other.yaml#/State" }, { enum: ["OPEN"] }] },
    });
    expect(statusValues(viaLocal, free)).toEqual(["OPEN"]);
  });
});
