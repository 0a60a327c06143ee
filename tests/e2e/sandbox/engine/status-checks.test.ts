/**
 * Which statuses a resource may take (src/sandbox/engine/lifecycle.ts `allowsStatus`, `statusValues`,
 * `isFinal`) at their edges, on hand-written resources: a resource without a status takes none and
 * has none final, declared values are the only ones taken, and a status schema the sandbox cannot
 * follow (another document's `$ref`, a missing schema or member, a `$ref` loop through `anyOf`) names
 * no statuses rather than failing. The lifecycle's functions made as the module loads are checked on
 * a new instance of it (tests/helpers/fresh-module.ts), so a mutation tester sees these tests cover them.
 */
import { describe, expect, it } from "vitest";
import type { ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { allowsStatus, findMove, isFinal, MoveRefused, statusValues } from "../../../../src/sandbox/engine/lifecycle.js";
import { freshModule } from "../../../helpers/fresh-module.js";

type Lifecycle = typeof import("../../../../src/sandbox/engine/lifecycle.js");

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

describe("isFinal and movesFrom", () => {
  it("a resource without a status has no final status", () => {
    for (const status of ["OPEN", "CLOSED", undefined]) expect(isFinal(statusless, status), String(status)).toBe(false);
  });

  it("on a new instance of the module: final is what the declaration lists, and no move leaves a final status", async () => {
    const { isFinal: finalOf, movesFrom } = await freshModule<Lifecycle>("src/sandbox/engine/lifecycle.ts");
    const close = { name: "close", from: "*" as const, to: "CLOSED" };
    const reopen = { name: "reopen", from: ["CLOSED"], to: "OPEN" };
    const lifecycle: ResourceDeclaration = { ...account, status: { ...account.status!, final: ["ARCHIVED"], moves: { close, reopen } } };
    expect(["ARCHIVED", "OPEN", "CLOSED", undefined].map((s) => finalOf(lifecycle, s))).toEqual([true, false, false, false]);
    expect(movesFrom(lifecycle, "OPEN").map((m) => m.name)).toEqual(["close"]);
    expect(movesFrom(lifecycle, "CLOSED").map((m) => m.name)).toEqual(["close", "reopen"]);
    expect(movesFrom(lifecycle, "ARCHIVED")).toEqual([]);
    expect(movesFrom(lifecycle, undefined)).toEqual([]);
  });
});

describe("a refused move", () => {
  it("is an error named MoveRefused, as String() and the logs show it", () => {
    const lifecycle: ResourceDeclaration = { ...account, status: { ...account.status!, final: ["CLOSED"], moves: {} } };
    let refused: unknown;
    try {
      findMove(lifecycle, "CLOSED", { to: "OPEN" });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(MoveRefused);
    expect(String(refused)).toBe("MoveRefused: account cannot go from CLOSED to OPEN: CLOSED is final, no move leaves it");
  });
});

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

  it("a schema that is not there, or has no member for the status, names none", () => {
    const free = { ...account, status: { ...account.status!, values: undefined } };
    expect(statusValues(engine({}), free)).toBeUndefined();
    expect(statusValues(engine({ Account: { type: "object" } }), free)).toBeUndefined();
    const dangling = engine({ Account: { properties: { state: { $ref: "#/components/schemas/Gone/properties/state" } } } });
    expect(statusValues(dangling, free)).toBeUndefined();
  });

  it("a $ref loop through anyOf or oneOf ends: none named", () => {
    const free = { ...account, status: { ...account.status!, values: undefined } };
    const loop = engine({
      Account: { properties: { state: { $ref: "#/components/schemas/State" } } },
      State: { anyOf: [{ oneOf: [{ anyOf: [{ $ref: "#/components/schemas/State" }] }] }] },
    });
    expect(statusValues(loop, free)).toBeUndefined();
  });
});
