/**
 * The judge stage (src/mock/judge.ts) on a hand-made context: which operation a body that is not
 * JSON is judged against and when it is an invalid request of it (DEVIATIONS invalidJson: the
 * operation declares a 400 and no 422) rather than micri's 400, and what a large body's judgement
 * (the worker's, here a stand-in's) becomes: the body asked for only when the answer needs it, its
 * bound, a withheld body, a body that is not JSON. The worker itself: judge-thread.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { Exchange, MockContext } from "../../../../src/mock/context.js";
import type { Judgement } from "../../../../src/mock/judge-thread.js";
import { judgeLarge, NOT_JSON, TOO_DEEP_JSON, unreadable, WithheldBody } from "../../../../src/mock/judge.js";
import { MAX_JSON_DEPTH } from "../../../../src/mock/limits.js";
import { BodyError } from "../../../../src/mock/receive.js";
import { type Element, JUDGED, type Operation } from "../../../../src/mock/types.js";

const operation = (codes: string[], callbacks: unknown[] = []) =>
  ({ method: "post", path: "/v1/x", responses: codes.map((code) => ({ code })), callbacks }) as unknown as Operation;
const element: Omit<Element, "body"> = { method: "post", url: { path: "/v1/x", query: {} }, headers: {} };
const micri400 = () => new BodyError(400, "invalid_json", "Invalid JSON");

/** A context whose router sends every request to `routed`, with the given hooks, and a stand-in judge answering `judgement`. */
function contextWith(
  routed: Operation | undefined,
  hooks: MockContext["hooks"] = {},
  judgement: Judgement = { invalidJson: false, findings: undefined },
) {
  const calls: Array<{ operation: Operation | undefined; wantBody: boolean; bound: number | undefined }> = [];
  const judge = {
    count: 0,
    judge: (op: Operation | undefined, _element: unknown, _bytes: Buffer, wantBody: boolean, bound?: number) => {
      calls.push({ operation: op, wantBody, bound });
      return Promise.resolve(judgement);
    },
  };
  const context = { router: { operation: () => routed }, hooks, judge } as unknown as MockContext;
  return { context, calls };
}
const exchange = { raw: { present: true, bytes: Buffer.from("{}") } } as unknown as Exchange;

describe("unreadable", () => {
  // Prism answers an invalid request with the operation's 422 where it declares one, else its 400.
  it.each([
    [["200", "400"], true],
    [["400", "422"], false],
    [["200", "422"], false],
    [["200"], false],
    [["400", "4XX"], true],
  ])("with responses %j, is an invalid request of the operation: %s", (codes, judged) => {
    const op = operation(codes);
    const error = micri400();
    const result = unreadable(contextWith(op).context, element, undefined, error, false);
    if (judged) expect(result).toEqual({ ...element, body: null, [JUDGED]: { operation: op, findings: [NOT_JSON] } });
    else expect(result).toBe(error);
  });

  it("is micri's 400 where Prism routes the request to no operation", () => {
    const error = micri400();
    expect(unreadable(contextWith(undefined).context, element, undefined, error, false)).toBe(error);
  });

  it("judges against the route stage's operation when it has one, Prism's router's otherwise", () => {
    const fast = operation(["400"]);
    const routed = operation(["400"]);
    const judged = (fastOp: Operation | undefined, routedOp: Operation | undefined) =>
      (unreadable(contextWith(routedOp).context, element, fastOp, micri400(), false) as Element)[JUDGED]?.operation;
    expect(judged(fast, routed)).toBe(fast);
    expect(judged(fast, undefined)).toBe(fast);
    expect(judged(undefined, routed)).toBe(routed);
  });

  it("says a body nested too deep is that, not that it is not JSON", () => {
    const op = operation(["400"]);
    const result = unreadable(contextWith(op).context, element, undefined, micri400(), true) as Element;
    expect(result[JUDGED]?.findings).toEqual([TOO_DEEP_JSON]);
    expect(TOO_DEEP_JSON.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });
});

describe("judgeLarge", () => {
  it("asks for the body only for an answer hook or callbacks, bounded by the hook's maxBodyBytes unless callbacks read it", async () => {
    const plain = operation(["200"]);
    const withCallbacks = operation(["200"], [{ callbackName: "done" }]);
    const answer = () => undefined;
    const cases = [
      { op: plain, hooks: {}, wantBody: false, bound: undefined },
      { op: plain, hooks: { maxBodyBytes: 64 }, wantBody: false, bound: 64 },
      { op: plain, hooks: { answer, maxBodyBytes: 64 }, wantBody: true, bound: 64 },
      { op: withCallbacks, hooks: {}, wantBody: true, bound: undefined },
      { op: withCallbacks, hooks: { answer, maxBodyBytes: 64 }, wantBody: true, bound: undefined },
      { op: undefined, hooks: { answer }, wantBody: true, bound: undefined },
    ];
    expect(cases).toHaveLength(6);
    for (const { op, hooks, wantBody, bound } of cases) {
      const { context, calls } = contextWith(op, hooks as MockContext["hooks"]);
      await judgeLarge(context, exchange, element, undefined);
      expect(calls, JSON.stringify({ op: op?.callbacks, hooks })).toEqual([{ operation: op, wantBody, bound }]);
    }
  });

  it("judges against the route stage's operation when it has one, Prism's router's otherwise", async () => {
    const fast = operation(["200"]);
    const routed = operation(["200"], [{ callbackName: "done" }]);
    const first = contextWith(routed);
    const judged = (await judgeLarge(first.context, exchange, element, fast)) as Element;
    expect(first.calls[0]).toMatchObject({ operation: fast, wantBody: false });
    expect(judged[JUDGED]?.operation).toBe(fast);
    const second = contextWith(routed);
    expect(((await judgeLarge(second.context, exchange, element, undefined)) as Element)[JUDGED]?.operation).toBe(routed);
  });

  it("hands on the worker's findings and body, a withheld body as its size, and no body when none came back", async () => {
    const op = operation(["200"]);
    const findings = [{ path: ["body"], code: "type", message: "must be object", severity: 0 }] as never;
    const run = async (judgement: Judgement) =>
      (await judgeLarge(contextWith(op, {}, judgement).context, exchange, element, undefined)) as Element;
    expect(await run({ invalidJson: false, findings: undefined, body: { a: 1 } })).toEqual({
      ...element,
      body: { a: 1 },
      [JUDGED]: { operation: op, findings: undefined },
    });
    const withheld = await run({ invalidJson: false, findings: undefined, withheld: 123 });
    expect(withheld.body).toBeInstanceOf(WithheldBody);
    expect((withheld.body as WithheldBody).bytes).toBe(123);
    const invalid = await run({ invalidJson: false, findings });
    expect(invalid.body).toBeUndefined();
    expect(invalid[JUDGED]).toEqual({ operation: op, findings });
  });

  it("makes a body that is not JSON, or nested too deep, an invalid request of an operation that answers 400, else micri's 400", async () => {
    const run = async (op: Operation, judgement: Judgement) =>
      judgeLarge(contextWith(op, {}, judgement).context, exchange, element, undefined);
    const answers400 = operation(["400"]);
    expect(((await run(answers400, { invalidJson: true })) as Element)[JUDGED]?.findings).toEqual([NOT_JSON]);
    expect(((await run(answers400, { invalidJson: true, tooDeep: false })) as Element)[JUDGED]?.findings).toEqual([NOT_JSON]);
    expect(((await run(answers400, { invalidJson: true, tooDeep: true })) as Element)[JUDGED]?.findings).toEqual([TOO_DEEP_JSON]);
    const refused = (await run(operation(["422"]), { invalidJson: true })) as BodyError;
    expect(refused).toBeInstanceOf(BodyError);
    expect(refused).toMatchObject({ status: 400, code: "invalid_json", message: "Invalid JSON" });
    const deep = (await run(operation(["422"]), { invalidJson: true, tooDeep: true })) as BodyError;
    expect(deep).toMatchObject({ status: 400, code: "invalid_json" });
    expect(deep.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
