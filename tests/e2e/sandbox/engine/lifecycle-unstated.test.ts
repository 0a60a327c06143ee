/**
 * The lifecycle (src/sandbox/engine/lifecycle.ts) of resources that leave parts of it unsaid, on
 * hand-written declarations:
 * - a resource with no status at all (a singleton such as a merchant's profile): no move leaves
 *   it, a change to a status goes through ("A resource without `moves` moves freely"), and a named
 *   action is refused, none being declared;
 * - a resource whose status declares no `final`: no status is final, whatever its text (spaces,
 *   case, or the text StrykerJS fills a list with), so a `"*"` move leaves every one of them.
 */
import { describe, expect, it } from "vitest";
import type { ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import { findMove, isFinal, MoveRefused, movesFrom } from "../../../../src/sandbox/engine/lifecycle.js";

const profile: ResourceDeclaration = {
  name: "profile",
  source: "test",
  schema: "#/components/schemas/Profile",
  singleton: true,
  id: { field: "profile_id", prefix: "", digits: false },
  callbacks: [],
  testValues: [],
};

const ticket: ResourceDeclaration = {
  ...profile,
  name: "ticket",
  singleton: false,
  status: {
    field: "state",
    initial: "open",
    source: "test",
    moves: { close: { name: "close", from: "*", to: "closed" } },
  },
};

/** Statuses of any text: none is final where the declaration names no final status. */
const TEXTS = ["open", "closed", "On hold", "ÉTÉ", "Stryker was here", ""];

describe("a resource without a status", () => {
  it("has no moves from any status, or from none", () => {
    expect(movesFrom(profile, undefined)).toEqual([]);
    expect(movesFrom(profile, "open")).toEqual([]);
  });

  it("moves freely to a status: no declared move, no refusal", () => {
    expect(findMove(profile, undefined, { to: "active" })).toBeUndefined();
  });

  it("refuses a named action, naming it and no allowed move", () => {
    let refused: unknown;
    try {
      findMove(profile, undefined, { action: "close" });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(MoveRefused);
    expect(refused).toMatchObject({ resource: "profile", wanted: "by close", allowed: [], final: false });
    expect((refused as Error).message).toContain("profile cannot go from (no status) by close");
  });
});

describe("a resource whose status names no final status", () => {
  it("has the expected number of statuses to try", () => expect(TEXTS).toHaveLength(6));

  it.each(TEXTS)("%j is not final, and the * move leaves it", (status) => {
    expect(isFinal(ticket, status)).toBe(false);
    expect(movesFrom(ticket, status).map((move) => move.name)).toEqual(["close"]);
    expect(findMove(ticket, status, { action: "close" })?.to).toBe("closed");
  });
});
