/**
 * answerOf (src/mock/answer.ts) on its own: Prism's result as the answer the mock keeps. A problem
 * (Left) keeps its status (500 when it has none), is never kept at 500 or over, is sent as
 * application/problem+json with the headers Prism's error adds, and a 422 listing findings (Prism's
 * UNPROCESSABLE_ENTITY) is rendered per request; an answer (Right) keeps its status, headers, the
 * body serialised for its Content-Type, and the findings on the answer itself.
 */
import { describe, expect, it } from "vitest";
import { answerOf } from "../../../../src/mock/answer.js";
import type { PrismResult } from "../../../../src/mock/types.js";

const UNPROCESSABLE = "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY";
const NOT_FOUND = "https://stoplight.io/prism/errors#NOT_FOUND";

/** A ProblemJsonError as Prism makes it: its message is the problem's title. */
const left = (error: Record<string, unknown>) =>
  ({ _tag: "Left", left: Object.assign(new Error("T"), { detail: "D", ...error }) }) as unknown as PrismResult;

describe("answerOf a problem", () => {
  it("keeps its status, as problem+json, with the headers its error adds; its body made once", () => {
    const answer = answerOf(left({ name: NOT_FOUND, status: 404, additional: { headers: { "WWW-Authenticate": "Bearer" } } }));
    expect(answer).toMatchObject({
      status: 404,
      headers: [
        ["content-type", "application/problem+json"],
        ["WWW-Authenticate", "Bearer"],
      ],
      problem: true,
      listsFindings: false,
      outputFindings: [],
      example: undefined,
    });
    expect(JSON.parse(answer!.body!.toString())).toMatchObject({ type: NOT_FOUND, title: "T", status: 404, detail: "D" });
  });

  it("a 499 is kept; a 500, or no status (a 500), is not", () => {
    expect(answerOf(left({ name: NOT_FOUND, status: 499 }))?.status).toBe(499);
    expect(answerOf(left({ name: NOT_FOUND, status: 500 }))).toBeUndefined();
    expect(answerOf(left({ name: NOT_FOUND, status: 503 }))).toBeUndefined();
    expect(answerOf(left({ name: NOT_FOUND }))).toBeUndefined();
  });

  it("Prism's 422 listing findings: no body of its own, the findings listed per request", () => {
    const answer = answerOf(left({ name: UNPROCESSABLE, status: 422, additional: { validation: [] } }));
    expect(answer).toMatchObject({ status: 422, listsFindings: true, body: undefined, problem: true });
  });

  it("a 422 of another kind, or one without a list, has its own body", () => {
    expect(answerOf(left({ name: NOT_FOUND, status: 422, additional: { validation: [] } }))).toMatchObject({ listsFindings: false });
    const unlisted = answerOf(left({ name: UNPROCESSABLE, status: 422 }));
    expect(unlisted?.listsFindings).toBe(false);
    expect(unlisted?.body).toBeInstanceOf(Buffer);
  });
});

describe("answerOf an answer", () => {
  const right = (output: Record<string, unknown>, outputFindings: unknown[] = []) =>
    ({ _tag: "Right", right: { output, validations: { input: [], output: outputFindings } } }) as unknown as PrismResult;

  it("its status, headers, the body serialised as JSON, the findings on it, the example", () => {
    const finding = { message: "m", severity: 1 };
    const answer = answerOf(
      right({ statusCode: 201, headers: { "Content-Type": "application/json", "X-Id": "7" }, body: { id: 7 } }, [finding]),
    );
    expect(answer).toEqual({
      status: 201,
      headers: [
        ["Content-Type", "application/json"],
        ["X-Id", "7"],
      ],
      body: Buffer.from('{"id":7}'),
      problem: false,
      listsFindings: false,
      outputFindings: [finding],
      example: { id: 7 },
    });
  });

  it("a text body under a text Content-Type is sent as it is", () => {
    expect(answerOf(right({ statusCode: 200, headers: { "content-type": "text/plain" }, body: "hello" }))?.body?.toString()).toBe("hello");
  });

  it("no body, no headers: neither", () => {
    expect(answerOf(right({ statusCode: 204 }))).toMatchObject({ status: 204, headers: [], body: undefined });
  });
});
