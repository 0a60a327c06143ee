/**
 * The problem+json answer of what a control call throws (src/sandbox/control/errors.ts `problemOf`),
 * as its module and src/sandbox/README.md ("The control API") state it: a ControlError as it says
 * (its status, detail, field, title and headers); a failure the control API did not foresee is 500,
 * saying the sandbox failed and why, with no member a refusal adds; on a hosted sandbox (`conceal`)
 * naming only the id its operator's log holds the cause under.
 */
import { describe, expect, it } from "vitest";
import { ControlError, problemOf } from "../../../../src/sandbox/control/errors.js";

describe("problemOf", () => {
  it("answers a failure it does not know 500, saying the sandbox failed and why", () => {
    expect(problemOf(new TypeError("cannot read properties of undefined"))).toEqual({
      status: 500,
      headers: { "Content-Type": "application/problem+json" },
      body: {
        type: "about:blank",
        title: "Internal Server Error",
        status: 500,
        detail: "the sandbox failed: cannot read properties of undefined",
      },
    });
  });

  it("on a hosted sandbox, answers such a failure 500 naming the id it is logged under, never its message", () => {
    const error = new TypeError("cannot read properties of undefined");
    const concealed: unknown[] = [];
    const answer = problemOf(error, (cause) => {
      concealed.push(cause);
      return "4f1c2a9e-failure";
    });
    expect(concealed).toEqual([error]);
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
      detail: "the sandbox failed; its operator's log names the cause, as failure 4f1c2a9e-failure",
    });
    // A refusal it foresees is not concealed, nor logged.
    expect(problemOf(new ControlError(404, "no such record"), () => expect.unreachable()).body).toMatchObject({ detail: "no such record" });
  });

  it("answers a ControlError with its status, detail, field, title and headers", () => {
    const error = new ControlError(413, "the body exceeds 65536 bytes", "body", { limit: 65536 }, "Content Too Large", {
      "Retry-After": "1",
    });
    expect(problemOf(error)).toEqual({
      status: 413,
      headers: { "Content-Type": "application/problem+json", "Retry-After": "1" },
      body: {
        type: "about:blank",
        title: "Content Too Large",
        status: 413,
        detail: "the body exceeds 65536 bytes",
        field: "body",
        limit: 65536,
      },
    });
    // Without headers of its own: the problem's Content-Type alone.
    expect(problemOf(new ControlError(404, "no such record")).headers).toEqual({ "Content-Type": "application/problem+json" });
  });

  it("names a ControlError as one where it is logged", () => {
    const error = new ControlError(400, "seconds: must be >= 1", "seconds");
    expect([error.name, String(error)]).toEqual(["ControlError", "ControlError: seconds: must be >= 1"]);
  });
});
