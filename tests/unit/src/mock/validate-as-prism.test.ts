/**
 * The mock's request validation (src/mock/validate.ts) judges as Prism's own validateInput and
 * validateSecurity, on hand-made operations, for what the contract tests' corpus does not send:
 * a request element without a body member; a validator that
 * throws (a body nested past the stack's depth against a recursive schema), which Prism reads as no
 * finding; a header named `undefined`, which is no credential; and the security check's Right,
 * which is Prism's: the element itself.
 */
import { describe, expect, it } from "vitest";
import { prismValidateInput, prismValidateSecurity } from "../../../../src/mock/prism-parts.js";
import { components } from "../../../../src/mock/validate.js";
import { elementOf, JSON_HEADERS, operation, outcome } from "../../../helpers/hand-made-operation.js";

describe("bodies", () => {
  it("an element without a body member, for an operation whose body is optional: no finding, as Prism", () => {
    const op = operation({ body: { contents: [{ mediaType: "application/json", schema: { type: "object", required: ["id"] } }] } });
    expect(outcome(prismValidateInput({ resource: op, element: elementOf("/v1/things", {}) }))).toEqual({ tag: "Right" });
    expect(outcome(components.validateInput({ resource: op, element: elementOf("/v1/things", {}) }))).toEqual({ tag: "Right" });
  });

  it("a validator that throws (a body nested past the stack's depth) finds nothing, as Prism, even after a body it refused", () => {
    const op = operation({
      body: { contents: [{ mediaType: "application/json", schema: { type: "object", additionalProperties: { $ref: "#" } } }] },
    });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 30_000; i++) deep = { a: deep };
    const refused = components.validateInput({ resource: op, element: elementOf("/v1/things", JSON_HEADERS, { a: 1 }) });
    expect(outcome(refused).findings?.map((f: { path: string[] }) => f.path)).toEqual([["body", "a"]]);
    expect(prismValidateInput({ resource: op, element: elementOf("/v1/things", JSON_HEADERS, deep) })._tag).toBe("Right");
    expect(components.validateInput({ resource: op, element: elementOf("/v1/things", JSON_HEADERS, deep) })._tag).toBe("Right");
  });
});

describe("the security check", () => {
  const BEARER = { key: "b", type: "http", scheme: "bearer" };

  it("a header named `undefined` is no credential: Prism's 401 finding", () => {
    const op = operation({}, [[BEARER]]);
    const element = () => elementOf("/v1/things", { undefined: "Bearer t" });
    const theirs = outcome(prismValidateSecurity({ resource: op, element: element() }));
    expect(theirs).toEqual({
      tag: "Left",
      findings: [{ severity: 0, message: "Invalid security scheme used", code: 401, tags: ["Bearer"] }],
    });
    expect(outcome(components.validateSecurity({ resource: op, element: element() }))).toEqual(theirs);
  });

  it("met, or not asked for: Prism's Right, the element itself", () => {
    for (const op of [operation({}), operation({}, [[BEARER]])]) {
      const theirs = elementOf("/v1/things", { authorization: "Bearer t" });
      const mine = elementOf("/v1/things", { authorization: "Bearer t" });
      expect(prismValidateSecurity({ resource: op, element: theirs })).toEqual({ _tag: "Right", right: theirs });
      const result = components.validateSecurity({ resource: op, element: mine });
      expect(result).toEqual({ _tag: "Right", right: mine });
      expect((result as { right: unknown }).right).toBe(mine);
    }
  });
});
