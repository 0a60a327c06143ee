/**
 * A refusal's reason as the partner reads it in `sl-violations` (src/sandbox/engine/answer.ts
 * `refusalViolation`): the rule, then where it comes from, the provider's document by its title
 * (never the file it is kept under) and, where the rule is the sandbox's own, its convention.
 */
import { describe, expect, it } from "vitest";
import { refusalViolation } from "../../../../../src/sandbox/engine/answer.js";

describe("refusalViolation", () => {
  const entry = (message: string) => ({ location: ["request"], severity: "Information", code: "sandbox-refusal", message });

  it("names the provider's document by its title and line", () => {
    expect(
      refusalViolation({
        detail: "In sandbox only DUMMY_BANK_PERSONAL is valid in bank_codes.",
        source: "001_c84e9472cb6d908e.txt:276",
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
        source: "000_daece66fccfd0511.txt:157",
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
