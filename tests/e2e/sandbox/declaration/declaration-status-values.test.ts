/**
 * A resource's declared status values (src/sandbox/README.md, "A declaration": `status.values`)
 * checked against its schema (src/sandbox/declaration.ts): each value must be a status the schema
 * allows, and a value it does not allow is refused at that value's own line and member,
 * `resources.<name>.status.values.<index>`, as every problem names the file, the line and the
 * member. On the fixture API shop@1.0.0 (tests/fixtures/mock), whose Order's status is one of
 * CREATED, Created and PAID.
 */
import { describe, expect, it } from "vitest";
import { declarations, edit, fixture } from "./declarations.js";

const { load, refusal, expectProblem } = declarations("declaration-status-values");
const FINAL = "      final: [PAID, Created]\n";
/** The fixture with these status values declared, one a line. */
const withValues = (...values: string[]) =>
  edit(fixture, [FINAL, `      values:\n${values.map((value) => `        - ${value}\n`).join("")}${FINAL}`]);

describe("declared status values", () => {
  it("load when the schema allows each of them", () => {
    expect(load(withValues("CREATED", "Created", "PAID")).resources.order.status?.values).toEqual(["CREATED", "Created", "PAID"]);
  });

  it("a value the schema does not allow is refused at its own line, by its index", () => {
    const text = withValues("CREATED", "Created", "PAID", "SHIPPED");
    expectProblem(text, "- SHIPPED", "resources.order.status.values.3", '"SHIPPED" is not a status #/components/schemas/Order allows');
  });

  it("each value refused is named apart, the first one by index 0", () => {
    const text = withValues("DRAFT", "CREATED", "Created", "PAID", "VOID");
    expectProblem(text, "- DRAFT", "resources.order.status.values.0", '"DRAFT" is not a status #/components/schemas/Order allows');
    expectProblem(text, "- VOID", "resources.order.status.values.4", '"VOID" is not a status #/components/schemas/Order allows');
    expect(refusal(text).message).not.toMatch(/status\.values\.[123]\b/);
  });
});
