/**
 * A refusal's reason as the partner reads it in `sl-violations` (src/sandbox/engine/answer.ts
 * `refusalViolation`): the rule, then where it comes from, the provider's document by its title
 * (never the file it is kept under) and, where the rule is the sandbox's own, its convention. And
 * the sandbox's own answers (`validateAnswer`): a hosted sandbox's 429 for a partner's rate named in
 * `sl-violations` as its 507 is, a 429 forced through the control API judged as any answer.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument } from "../../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { rateLimitAnswer, refusalViolation, validateAnswer } from "../../../../../src/sandbox/engine/answer.js";
import { createEngine } from "../../../../../src/sandbox/engine/create.js";
import { problem } from "../../../../../src/sandbox/problem.js";

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
  const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
  const [shop] = loadRegistry(registryPath);
  const engine = createEngine(shop, loadDocument(shop.bundlePath), {
    declarationPath: join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml"),
    registry: registryPath,
  });
  afterAll(() => engine.close());
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
