/**
 * The lifecycle's rules alone (src/sandbox/engine/lifecycle.ts), on a hand-written lifecycle shaped
 * like Pay's invoice (src/sandbox/README.md, "A declaration"): `pay` from Created or Flagged, `flag`
 * from Created, `fail` from "*" (every status that is not final), Success, Failed and Expired final.
 * The moves from each status, the move an action or a target status finds, the refusal's moves and
 * message, a resource without a lifecycle (any status, no named action), and the statuses a resource
 * names (declared values, else its schema's enum, through $ref, anyOf/oneOf and const, bounded).
 */
import { describe, expect, it } from "vitest";
import type { ResourceDeclaration } from "../../../../../src/sandbox/declaration.js";
import type { EngineContext } from "../../../../../src/sandbox/engine/context.js";
import { findMove, isFinal, MoveRefused, movesFrom, statusValues } from "../../../../../src/sandbox/engine/lifecycle.js";

const invoice: ResourceDeclaration = {
  name: "invoice",
  source: "test",
  schema: "#/components/schemas/Invoice",
  singleton: false,
  id: { field: "invoice_id", prefix: "inv_", digits: false },
  callbacks: [],
  testValues: [],
  status: {
    field: "status",
    initial: "Created",
    source: "test",
    final: ["Success", "Failed", "Expired"],
    moves: {
      pay: { name: "pay", from: ["Created", "Flagged"], to: "Success" },
      flag: { name: "flag", from: ["Created"], to: "Flagged" },
      fail: { name: "fail", from: "*", to: "Failed" },
    },
  },
};
const free: ResourceDeclaration = { ...invoice, name: "note", status: { field: "status", initial: "open", source: "test" } };

const names = (from: string | undefined) => movesFrom(invoice, from).map((m) => m.name);
const refusal = (from: string | undefined, wanted: { action: string } | { to: string }, resource = invoice) => {
  try {
    findMove(resource, from, wanted);
  } catch (error) {
    if (error instanceof MoveRefused) return error;
    throw error;
  }
  throw new Error("not refused");
};

describe("the moves from a status", () => {
  it("are the moves that list it, and the * moves unless it is final", () => {
    expect(names("Created")).toEqual(["pay", "flag", "fail"]);
    expect(names("Flagged")).toEqual(["pay", "fail"]);
    expect(names("Pending")).toEqual(["fail"]); // not listed anywhere, not final: only "*" leaves it
    for (const final of ["Success", "Failed", "Expired"]) expect(names(final), final).toEqual([]);
    expect(names(undefined)).toEqual([]);
  });

  it("final is what the declaration says, and nothing for no status", () => {
    expect(isFinal(invoice, "Success")).toBe(true);
    expect(isFinal(invoice, "Created")).toBe(false);
    expect(isFinal(invoice, undefined)).toBe(false);
    expect(isFinal(free, "open")).toBe(false);
  });
});

describe("finding a move", () => {
  it("by action or by target status, among the moves from here only", () => {
    expect(findMove(invoice, "Created", { action: "pay" })?.name).toBe("pay");
    expect(findMove(invoice, "Flagged", { to: "Success" })?.name).toBe("pay");
    expect(findMove(invoice, "Flagged", { to: "Failed" })?.name).toBe("fail");
    expect(findMove(invoice, "Created", { to: "Flagged" })?.name).toBe("flag");
  });

  it("refuses a move not allowed from here, naming the moves that are", () => {
    const refused = refusal("Flagged", { action: "flag" });
    expect(refused).toMatchObject({
      resource: "invoice",
      from: "Flagged",
      wanted: "by flag",
      final: false,
      allowed: [
        { action: "pay", to: "Success" },
        { action: "fail", to: "Failed" },
      ],
    });
    expect(refused.message).toBe(
      "invoice cannot go from Flagged by flag: the moves allowed from Flagged are pay (to Success), fail (to Failed)",
    );
    expect(refusal("Flagged", { to: "Created" }).message).toBe(
      "invoice cannot go from Flagged to Created: the moves allowed from Flagged are pay (to Success), fail (to Failed)",
    );
  });

  it("refuses every move from a final status, saying it is final", () => {
    for (const wanted of [{ action: "pay" }, { action: "fail" }, { to: "Created" }, { to: "Failed" }]) {
      const refused = refusal("Success", wanted);
      expect(refused.final).toBe(true);
      expect(refused.allowed).toEqual([]);
      expect(refused.message).toMatch(/^invoice cannot go from Success (by|to) \w+: Success is final, no move leaves it$/);
    }
  });

  it("refuses an unknown action, and a status no move reaches", () => {
    expect(refusal("Created", { action: "refund" }).wanted).toBe("by refund");
    expect(refusal("Created", { to: "Expired" }).allowed.map((m) => m.action)).toEqual(["pay", "flag", "fail"]);
  });

  it("a resource without a lifecycle takes any status, but no named action", () => {
    expect(findMove(free, "open", { to: "closed" })).toBeUndefined();
    expect(findMove(free, undefined, { to: "anything" })).toBeUndefined();
    const refused = refusal("open", { action: "close" }, free);
    expect(refused).toMatchObject({ from: "open", wanted: "by close", allowed: [], final: false });
    expect(refused.message).toBe("note cannot go from open by close: no move leaves open");
    expect(refusal(undefined, { action: "close" }, free).message).toMatch(/^note cannot go from \(no status\) by close: /);
  });
});

describe("the statuses a resource names", () => {
  const engine = (schemas: Record<string, unknown>) => ({ doc: { components: { schemas } } }) as unknown as EngineContext;
  const withStatus = (status: unknown) => engine({ Invoice: { type: "object", properties: { status } } });

  it("are its declared values first", () => {
    const declared = { ...invoice, status: { ...invoice.status!, values: ["A", "B"] } };
    expect(statusValues(withStatus({ enum: ["X"] }), declared)).toEqual(["A", "B"]);
  });

  it("else the schema's enum or const, through $ref, anyOf and oneOf, each status once", () => {
    expect(statusValues(withStatus({ enum: ["Created", "Success"] }), invoice)).toEqual(["Created", "Success"]);
    expect(statusValues(withStatus({ const: "Only" }), invoice)).toEqual(["Only"]);
    expect(statusValues(withStatus({ enum: [1, true] }), invoice)).toEqual(["1", "true"]);
    const viaRef = engine({
      Invoice: { properties: { status: { $ref: "#/components/schemas/Status" } } },
      Status: {
        anyOf: [{ enum: ["Created", "Success"] }, { const: "Created" }, { type: "string" }, { $ref: "#/components/schemas/More" }],
      },
      More: { oneOf: [{ enum: ["Expired"] }] },
    });
    expect(statusValues(viaRef, invoice)).toEqual(["Created", "Success", "Expired"]);
  });

  it("none where the schema names none, a $ref loop included; none without a status", () => {
    expect(statusValues(withStatus({ type: "string" }), invoice)).toBeUndefined();
    expect(statusValues(withStatus({ anyOf: [{ type: "string" }, { type: "null" }] }), invoice)).toBeUndefined();
    const loop = engine({
      Invoice: { properties: { status: { $ref: "#/components/schemas/Loop" } } },
      Loop: { $ref: "#/components/schemas/Loop" },
    });
    expect(statusValues(loop, invoice)).toBeUndefined();
    expect(statusValues(withStatus({ enum: ["X"] }), { ...invoice, status: undefined })).toBeUndefined();
  });

  it("follow a chain of $refs up to eight deep, and no deeper", () => {
    const chain = (length: number) => {
      const schemas: Record<string, unknown> = { Invoice: { properties: { status: { $ref: "#/components/schemas/S1" } } } };
      for (let i = 1; i < length; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
      schemas[`S${length}`] = { enum: ["End"] };
      return engine(schemas);
    };
    expect(statusValues(chain(8), invoice)).toEqual(["End"]);
    expect(statusValues(chain(9), invoice)).toBeUndefined();
  });
});
