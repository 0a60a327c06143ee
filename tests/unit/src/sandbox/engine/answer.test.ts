import { describe, expect, it } from "vitest";
import { rateLimitAnswer, refusalViolation, validateAnswer } from "../../../../../src/sandbox/engine/answer.js";
import { problem } from "../../../../../src/sandbox/problem.js";
import { shopEngine } from "../../../../helpers/shop.js";

describe("refusalViolation", () => {
  const entry = (message: string) => ({ location: ["request"], severity: "Information", code: "sandbox-refusal", message });

  it("names the provider's document by its title and line", () => {
    expect(
      refusalViolation({
        detail: "In sandbox only DUMMY_BANK_PERSONAL is valid in bank_codes.",
        source: "Payment Initiation, Statement Retrieval and Balance Retrieval Interface, line 276",
      }),
    ).toEqual(
      entry(
        "In sandbox only DUMMY_BANK_PERSONAL is valid in bank_codes. (Payment Initiation, Statement Retrieval and Balance Retrieval Interface, line 276)",
      ),
    );
  });

  it("adds the sandbox's convention where the rule or its status is the sandbox's own", () => {
    expect(
      refusalViolation({
        detail: "updateInvoiceStatus moves an invoice only from Flagged; this one is Created",
        source: "Pay Service Interface, line 157",
        convention: "the sandbox answers 400.",
      }),
    ).toEqual(
      entry(
        "updateInvoiceStatus moves an invoice only from Flagged; this one is Created (Pay Service Interface, line 157; the sandbox's convention: the sandbox answers 400.)",
      ),
    );
    expect(refusalViolation({ detail: "No such account.", convention: "A test value." })).toEqual(
      entry("No such account. (the sandbox's convention: A test value.)"),
    );
    expect(refusalViolation({ detail: "Refused." })).toEqual(entry("Refused."));
  });
});

describe("validateAnswer on the sandbox's own answers", () => {
  const engine = shopEngine();
  const detail = "this partner's request rate is 10 per second: retry after 1 s";

  it("names a partner's rate reached (429) where the operation does not declare it, as a bound's 507", () => {
    const answer = rateLimitAnswer(detail, 1);
    expect(answer.headers).toEqual({ "Content-Type": "application/problem+json", "Retry-After": "1" });
    expect(validateAnswer(engine, "getOrder", answer)).toEqual([
      {
        location: ["response", "status"],
        severity: "Error",
        code: "sandbox-rate-limit",
        message: `429 is the sandbox's own answer when a partner's request rate is reached (not a status getOrder declares): ${detail}`,
      },
    ]);
    expect(validateAnswer(engine, "getOrder", problem(507, "full", { title: "Sandbox limit reached" }))[0].code).toBe("sandbox-limit");
  });

  it("leaves a 429 forced through the control API to the contract validator", () => {
    const forced = problem(429, "forced by the sandbox's control API (error rule err_1)");
    const found = validateAnswer(engine, "getOrder", forced);
    expect(found.map((v) => v.code)).not.toContain("sandbox-rate-limit");
    expect(found.some((v) => v.location.join(".") === "response.status")).toBe(true);
  });
});
