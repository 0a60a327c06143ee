/**
 * src/mock/prism-parts.ts (in process, beside the contract tests: Prism is loaded whole): the parts of Prism the mock calls are Prism's own (the same functions and
 * values, resolved from Prism's package), and what src/mock/write.ts makes once from them on its
 * first use is Prism's 422 problem (and what it makes as it loads: the severities' names, the
 * header escape, the CORS headers). Each module is loaded anew here (tests/helpers/fresh-module.ts),
 * so what runs while it loads, or once on its first use, runs in this test.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/mock/types.js";
import { freshModule } from "../../helpers/fresh-module.js";

const fromPrism = createRequire(createRequire(import.meta.url).resolve("@stoplight/prism-http"));
const prism = (path: string) => fromPrism(`@stoplight/prism-http/dist/${path}`);

type Parts = typeof import("../../../src/mock/prism-parts.js");
type Write = typeof import("../../../src/mock/write.js");
/** The module loaded anew (a mutation tester's mutant is switched on while it loads). */
const freshParts = () => freshModule<Parts>("src/mock/prism-parts.ts");
const freshWrite = () => freshModule<Write>("src/mock/write.ts");

describe("prism-parts: Prism's own parts", () => {
  it("the bearer handlers are Prism's three (http bearer, oauth2, openIdConnect)", async () => {
    const { bearerHandlers } = await freshParts();
    const bearer = prism("validator/validators/security/handlers/bearer.js");
    expect([...bearerHandlers]).toEqual([bearer.bearer, bearer.oauth2, bearer.openIdConnect]);
    expect(bearerHandlers.size).toBe(3);
  });

  it("Prism's request validation, security check, 422 problem and problem class", async () => {
    const parts = await freshParts();
    const validator = prism("validator/index.js");
    expect(parts.prismValidateInput).toBe(validator.validateInput);
    expect(parts.prismValidateSecurity).toBe(validator.validateSecurity);
    expect(parts.createUnprocessableEntityResponse).toBe(prism("mocker/index.js").createUnprocessableEntityResponse);
    expect(parts.ProblemJsonError).toBe(prism("types.js").ProblemJsonError);
    expect(parts.NOT_ACCEPTABLE).toBe(prism("mocker/errors.js").NOT_ACCEPTABLE);
    expect(typeof parts.prismValidateInput).toBe("function");
  });

  it("the name of Prism's 422 problem", async () => {
    expect((await freshParts()).UNPROCESSABLE_ENTITY_NAME).toBe("https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY");
  });
});

describe("write: Prism's 422 problem made on first use", () => {
  const finding: Diagnostic = { path: ["body", "amount"], code: "required", message: "must have required property 'amt'", severity: 0 };
  /** Prism's own body for the 422 listing `findings` (createUnprocessableEntityResponse, toProblemJson). */
  const prismBody = (findings: Diagnostic[]) => {
    const error = prism("mocker/index.js").createUnprocessableEntityResponse(findings);
    const json = prism("types.js").ProblemJsonError.toProblemJson(error);
    return JSON.stringify(json);
  };

  it("the first body a fresh module makes, and the next, are Prism's", async () => {
    const { listedProblemBody } = await freshWrite();
    expect(listedProblemBody([finding])).toBe(prismBody([finding]));
    expect(listedProblemBody([])).toBe(prismBody([]));
  });

  it("a fresh module names every severity as Prism does (Error, Warning, Information, Hint)", async () => {
    const { listedProblemBody } = await freshWrite();
    const each = [0, 1, 2, 3].map((severity) => ({ ...finding, severity }));
    expect(listedProblemBody(each)).toBe(prismBody(each));
  });

  it("a fresh module's sl-violations: findings rendered, a character no header can carry as its JSON escape", async () => {
    const { findingsHeader, violationsHeader } = await freshWrite();
    const wide: Diagnostic = { path: ["body", "name"], code: "enum", message: "must be 中", severity: 1 };
    const json = '[{"location":["request","body","name"],"severity":"Warning","code":"enum","message":"must be \\u4e2d"}]';
    expect(findingsHeader([wide], [])).toBe(json);
    expect(violationsHeader([{ location: ["request", "body", "name"], severity: "Warning", code: "enum", message: "must be 中" }])).toBe(
      json,
    );
  });

  it("a fresh module's writeJson and emit: the CORS headers, the body's Content-Type and length", async () => {
    const { emit, writeJson } = await freshWrite();
    const sent: unknown[][] = [];
    const response = { writeHead: (...head: unknown[]) => sent.push(head), end: (body: unknown) => sent.push([body]) } as never;
    const request = { headers: {} } as never;
    writeJson(request, response, 201, undefined, '{"a":"é"}');
    emit(response, 200, [], Buffer.from("hi"));
    const CORS = ["Access-Control-Allow-Origin", "*", "Access-Control-Allow-Headers", "*", "Access-Control-Expose-Headers", "*"];
    expect(sent).toEqual([
      [201, [...CORS, "Content-Type", "application/json", "Content-Length", 10]],
      ['{"a":"é"}'],
      [200, ["Content-Type", "text/plain; charset=utf-8", "Content-Length", 2]],
      [Buffer.from("hi")],
    ]);
  });

  it("a fresh module's first body without findings is Prism's empty list", async () => {
    const { listedProblemBody } = await freshWrite();
    expect(listedProblemBody([])).toBe(prismBody([]));
  });
});
