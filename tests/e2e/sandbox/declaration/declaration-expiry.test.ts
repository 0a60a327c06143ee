/**
 * A resource's expiry rule against its lifecycle (src/sandbox/declaration.ts, src/sandbox/README.md
 * "A declaration"): every status it expires from must be left for its target by a move, a move's
 * listed `from` counting only for the statuses it lists (`"*"` alone stands for every status that is
 * not final). On the fixture API shop@1.0.0, whose Order has the statuses CREATED, Created and PAID.
 */
import { describe, it } from "vitest";
import { declarations, edit, fixture } from "./declarations.js";

const { expectProblem } = declarations("declaration-expiry");

describe("an expiry rule", () => {
  it("from a status that is not final but that no move to its target lists is refused", () => {
    // Created is no longer final, and the one move to Created leaves only CREATED.
    const text = edit(
      fixture,
      ["final: [PAID, Created]", "final: [PAID]"],
      ["      from: [CREATED]\n", "      from: [CREATED, Created]\n"],
    );
    expectProblem(
      text,
      "      from: [CREATED, Created]",
      "resources.order.expiry.from",
      "no move of status.moves goes from Created to Created",
    );
  });
});
