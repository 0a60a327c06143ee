/** The one writer of the sandbox's problem+json answers (src/sandbox/problem.ts), for the engine's answers and the control API's refusals alike. */
import { describe, expect, it } from "vitest";
import { ControlError, problemOf } from "../../../../src/sandbox/control/errors.js";
import { MoveRefused } from "../../../../src/sandbox/engine/lifecycle.js";
import { problem } from "../../../../src/sandbox/problem.js";
import { CapacityError, LimitError } from "../../../../src/sandbox/store/limits.js";

describe("problem", () => {
  it("writes an RFC 9457 body: type, the status's reason phrase as title, status, detail, then the members given", () => {
    expect(problem(503, "forced")).toEqual({
      status: 503,
      headers: { "Content-Type": "application/problem+json" },
      body: { type: "about:blank", title: "Service Unavailable", status: 503, detail: "forced" },
    });
    const written = problem(409, "no move", { title: "Conflict of moves", members: { field: "status", allowed: [] } });
    expect(Object.keys(written.body as object)).toEqual(["type", "title", "status", "detail", "field", "allowed"]);
    expect(written.body).toMatchObject({ title: "Conflict of moves" });
    expect((problem(599, "odd").body as { title: string }).title).toBe("Error");
  });
});

describe("the control API's refusals", () => {
  const cases: Array<[string, unknown, number, string, Record<string, unknown>]> = [
    ["a ControlError as it says", new ControlError(400, "url is too long", "url"), 400, "Bad Request", { field: "url" }],
    [
      "a body too large, titled as RFC 9110 names 413",
      new ControlError(413, "too big", undefined, undefined, "Content Too Large"),
      413,
      "Content Too Large",
      {},
    ],
    ["no room for a new credential", new CapacityError("full"), 507, "Insufficient Storage", {}],
    ["another bound reached", new LimitError("too many records"), 409, "Conflict", {}],
    [
      "a move the lifecycle refuses",
      new MoveRefused("order", "PAID", "by pay", [], true),
      409,
      "Conflict",
      { field: "status", allowed: [], final: true },
    ],
    ["anything else", new Error("boom"), 500, "Internal Server Error", {}],
  ];
  it("has the expected number of cases", () => expect(cases).toHaveLength(6));
  it.each(cases)("answer %s", (_, error, status, title, members) => {
    const answer = problemOf(error);
    expect(answer.status).toBe(status);
    expect(answer.headers).toEqual({ "Content-Type": "application/problem+json" });
    expect(answer.body).toEqual({ type: "about:blank", title, status, detail: expect.any(String), ...members });
  });
});
