/**
 * The rules of src/mock/write.ts that a request's bytes do not show in the other tests: a CORS
 * preflight (OPTIONS with an Origin and Access-Control-Request-Method) and its 204; the headers a
 * request asks for echoed; a problem answer's Allow (a 405 only), its added headers and status
 * (500 when it has none), nothing written after the end; micri's error body (413 closes the
 * connection); the sl-violations value cut only past MAX_SAFE_HEADER_LENGTH characters; a problem
 * list cut past MAX_LISTED_VIOLATIONS findings; a body's default Content-Type; what the response
 * cache keeps (never a 5xx); an answer's own CORS header replacing the mock's where it stands.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { MAX_LISTED_VIOLATIONS, MAX_SAFE_HEADER_LENGTH } from "../../../../src/mock/limits.js";
import { ResponseCache } from "../../../../src/mock/response-cache.js";
import type { Answer, Diagnostic, ProblemError, Violation } from "../../../../src/mock/types.js";
import {
  corsPairs,
  emit,
  findingsHeader,
  isPreflight,
  listedProblemBody,
  listedProblemBytes,
  sendBodyError,
  violationsHeader,
  withoutStack,
  writeAnswer,
  writeJson,
  writePreflight,
  writeProblem,
  writeProblemAnswer,
} from "../../../../src/mock/write.js";

/** A response that records the status, the headers in order (as pairs) and the body. */
function recorder(ended = false) {
  const sent: { status?: number; headers: Array<[string, string]>; body?: string } = { headers: [] };
  const response = {
    statusCode: 200,
    writableEnded: ended,
    headersSent: false,
    _contentLength: null,
    getHeaderNames: () => [],
    setHeader: (name: string, value: unknown) => sent.headers.push([name, String(value)]),
    writeHead: (status: number, flat: unknown[]) => {
      sent.status = status;
      for (let i = 0; i < flat.length; i += 2) sent.headers.push([String(flat[i]), String(flat[i + 1])]);
    },
    end: (body?: Buffer | string) => {
      sent.status ??= response.statusCode;
      if (body !== undefined) sent.body = body.toString();
    },
  };
  return { sent, response: response as unknown as ServerResponse };
}
const request = (headers: Record<string, string> = {}, method = "GET") =>
  ({ method, headers, resume: () => undefined }) as unknown as IncomingMessage;
const header = (sent: { headers: Array<[string, string]> }, name: string) =>
  sent.headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);

describe("CORS", () => {
  it.each([
    ["OPTIONS", { origin: "https://a.test", "access-control-request-method": "POST" }, true],
    ["OPTIONS", { origin: "https://a.test" }, false],
    ["OPTIONS", { "access-control-request-method": "POST" }, false],
    ["GET", { origin: "https://a.test", "access-control-request-method": "POST" }, false],
  ] as const)("%s with %j is a preflight: %s", (method, headers, expected) => {
    expect(isPreflight(request(headers, method))).toBe(expected);
  });

  it("a preflight's 204 allows the method asked for; without one, every method", () => {
    const asked = recorder();
    writePreflight(request({ origin: "o", "access-control-request-method": "PATCH" }, "OPTIONS"), asked.response);
    expect(asked.sent.status).toBe(204);
    expect(header(asked.sent, "Access-Control-Allow-Methods")).toEqual(["PATCH"]);
    expect(header(asked.sent, "Content-Length")).toEqual(["0"]);
    const none = recorder();
    writePreflight(request({ origin: "o" }, "OPTIONS"), none.response);
    expect(header(none.sent, "Access-Control-Allow-Methods")).toEqual(["GET,DELETE,HEAD,PATCH,POST,PUT,OPTIONS"]);
  });

  it("the headers a request asks for are echoed; else *", () => {
    expect(corsPairs(request({ "access-control-request-headers": "x-a", "access-control-expose-headers": "x-b" }))).toEqual([
      ["Access-Control-Allow-Origin", "*"],
      ["Access-Control-Allow-Headers", "x-a"],
      ["Access-Control-Expose-Headers", "x-b"],
    ]);
  });

  it("an answer's own CORS header replaces the mock's where it stands", () => {
    const answer = {
      status: 200,
      headers: [
        ["access-control-allow-origin", "https://bank.test"],
        ["content-type", "application/json"],
      ],
      body: Buffer.from("{}"),
      problem: false,
      listsFindings: false,
      outputFindings: [],
      example: {},
    } as unknown as Answer;
    for (const asks of [{}, { "access-control-expose-headers": "x-b" }] as Array<Record<string, string>>) {
      const { sent, response } = recorder();
      writeAnswer(request(asks), response, answer, []);
      expect(sent.headers[0]).toEqual(["access-control-allow-origin", "https://bank.test"]);
      expect(header(sent, "access-control-allow-origin")).toEqual(["https://bank.test"]);
      expect(header(sent, "content-length")).toEqual(["2"]);
    }
  });

  it("an answer without a Content-Type gets the text one with its body, none without a body", () => {
    const answer = (body: Buffer | undefined) =>
      ({
        status: 200,
        headers: [["x-a", "1"]],
        body,
        problem: false,
        listsFindings: false,
        outputFindings: [],
        example: undefined,
      }) as unknown as Answer;
    const withBody = recorder();
    writeAnswer(request(), withBody.response, answer(Buffer.from("hi")), []);
    expect(header(withBody.sent, "content-type")).toEqual(["text/plain; charset=utf-8"]);
    expect(header(withBody.sent, "content-length")).toEqual(["2"]);
    const without = recorder();
    writeAnswer(request(), without.response, answer(undefined), []);
    expect(header(without.sent, "content-type")).toEqual([]);
  });
});

describe("writeProblem", () => {
  const problem = (status: number | undefined, headers?: Record<string, string>) =>
    Object.assign(new Error("Method Not Allowed"), {
      name: "https://stoplight.io/prism/errors#METHOD_NOT_ALLOWED",
      status,
      detail: "d",
      additional: headers ? { headers } : undefined,
    }) as unknown as ProblemError;

  it("a 405 names the methods allowed; another status does not", () => {
    const allowed = recorder();
    writeProblem(request(), allowed.response, problem(405), { allow: () => "GET,POST" });
    expect(allowed.sent.status).toBe(405);
    expect(header(allowed.sent, "Allow")).toEqual(["GET,POST"]);
    expect(header(allowed.sent, "content-type")).toEqual(["application/problem+json"]);
    const other = recorder();
    writeProblem(request(), other.response, problem(404), { allow: () => "GET,POST" });
    expect(header(other.sent, "Allow")).toEqual([]);
  });

  it("the headers the problem adds; no status is a 500", () => {
    const { sent, response } = recorder();
    writeProblem(request(), response, problem(undefined, { "WWW-Authenticate": "Bearer" }));
    expect(sent.status).toBe(500);
    expect(header(sent, "WWW-Authenticate")).toEqual(["Bearer"]);
  });

  it("nothing is written to a response already ended", () => {
    const { sent, response } = recorder(true);
    writeProblem(request(), response, problem(404));
    expect(sent).toEqual({ headers: [] });
  });
});

describe("sendBodyError: micri's error body", () => {
  it.each([
    [413, "entity.too.large", ["close"]],
    [400, "invalid.body", []],
  ] as const)("%i: its JSON body; Connection: close only for a 413", (status, code, connection) => {
    const { sent, response } = recorder();
    sendBodyError(request(), response, { status, code, message: "m" });
    expect(sent.status).toBe(status);
    expect(JSON.parse(sent.body!)).toEqual({ error: { code, message: "m" } });
    expect(header(sent, "Content-Type")).toEqual(["application/json; charset=utf-8"]);
    expect(header(sent, "Connection")).toEqual(connection);
  });
});

describe("sl-violations at its limit", () => {
  /** A violation whose JSON makes `[json]` exactly `total` characters. */
  function violationOf(total: number): Violation {
    const base: Violation = { location: ["request"], severity: "Error", code: "x", message: "" };
    const length = `[${JSON.stringify(base)}]`.length;
    return { ...base, message: "m".repeat(total - length) };
  }
  const diagnostic = (violation: Violation): Diagnostic => ({ path: [], code: violation.code, message: violation.message, severity: 0 });

  it(`exactly ${MAX_SAFE_HEADER_LENGTH} characters: sent whole; one more: cut, with Prism's prefix`, () => {
    const exact = violationsHeader([violationOf(MAX_SAFE_HEADER_LENGTH)]);
    expect(exact.length).toBe(MAX_SAFE_HEADER_LENGTH);
    expect(JSON.parse(exact)).toHaveLength(1);
    const over = violationsHeader([violationOf(MAX_SAFE_HEADER_LENGTH + 1)]);
    expect(over.startsWith("Too many violations! [")).toBe(true);
    expect(over.length).toBe("Too many violations! ".length + MAX_SAFE_HEADER_LENGTH);
  });

  it("the findings' value is the violations' value, at the limit too", () => {
    for (const total of [MAX_SAFE_HEADER_LENGTH, MAX_SAFE_HEADER_LENGTH + 1]) {
      const violation = violationOf(total);
      expect(findingsHeader([diagnostic(violation)], [])).toBe(violationsHeader([violation]));
    }
    expect(findingsHeader([], [])).toBeUndefined();
  });
});

describe("a problem's list of findings", () => {
  const findings = (n: number): Diagnostic[] =>
    Array.from({ length: n }, (_, i) => ({ path: ["body", `f${i}`], code: "required", message: `m${i}`, severity: 0 }));

  it(`lists up to ${MAX_LISTED_VIOLATIONS} findings as they are; past it, the first ${MAX_LISTED_VIOLATIONS} and a count`, () => {
    const one = JSON.parse(listedProblemBody(findings(1)));
    expect(one.validation).toEqual([{ location: ["body", "f0"], severity: "Error", code: "required", message: "m0" }]);
    expect(JSON.parse(listedProblemBody(findings(MAX_LISTED_VIOLATIONS))).validation).toHaveLength(MAX_LISTED_VIOLATIONS);
    const over = JSON.parse(listedProblemBody(findings(MAX_LISTED_VIOLATIONS + 2))).validation;
    expect(over).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
    expect(over.at(-1)).toEqual({
      location: [],
      severity: "Information",
      code: "violations-capped",
      message: "2 more violations not listed",
    });
    expect(one).toMatchObject({ type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY", status: 422 });
  });
});

describe("emit and the response cache", () => {
  it("keeps an answer under 500, with a text body as its bytes; never a 5xx", () => {
    const cache = new ResponseCache();
    emit(recorder().response, 499, [["Content-Type", "application/json"]], '{"a":"é"}', { cache, key: "k499" });
    const kept = cache.get("k499");
    expect(kept?.status).toBe(499);
    expect(Buffer.isBuffer(kept?.body)).toBe(true);
    expect(kept?.body?.toString()).toBe('{"a":"é"}');
    expect(kept?.headers).toEqual([
      ["Content-Type", "application/json"],
      ["Content-Length", 10],
    ]);
    emit(recorder().response, 500, [], "x", { cache, key: "k500" });
    expect(cache.get("k500")).toBeUndefined();
  });

  it("a body gets the text Content-Type only when none is set, in any case", () => {
    const plain = recorder();
    emit(plain.response, 200, [], "x");
    expect(header(plain.sent, "content-type")).toEqual(["text/plain; charset=utf-8"]);
    const given = recorder();
    emit(given.response, 200, [["content-TYPE", "application/xml"]], "<x/>");
    expect(header(given.sent, "content-type")).toEqual(["application/xml"]);
  });
});

describe("withoutStack", () => {
  it("captures no stack while it runs, and gives the limit back after, also when it throws", () => {
    const before = Error.stackTraceLimit;
    // A limit of its own: one left at 0 by an earlier call must not read as the one given back.
    Error.stackTraceLimit = 7;
    expect(withoutStack(() => Error.stackTraceLimit)).toBe(0);
    expect(Error.stackTraceLimit).toBe(7);
    Error.stackTraceLimit = before;
    expect(withoutStack(() => new Error("x").stack?.split("\n").length)).toBe(1);
    expect(Error.stackTraceLimit).toBe(before);
    expect(() =>
      withoutStack(() => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(Error.stackTraceLimit).toBe(before);
  });
});

describe("an answer's headers put in order once (writeAnswer, writeProblemAnswer): the order emit gives", () => {
  const kept = (headers: Array<[string, string]>, body: string | undefined, problem = false) =>
    ({
      status: problem ? 404 : 200,
      headers,
      body: body === undefined ? undefined : Buffer.from(body),
      problem,
      listsFindings: false,
      outputFindings: [],
      example: undefined,
    }) as unknown as Answer;
  const CORS: Array<[string, string]> = [
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Allow-Headers", "*"],
    ["Access-Control-Expose-Headers", "*"],
  ];
  const finding: Diagnostic = { path: ["query", "x"], code: "unknown-member", message: "m", severity: 1 };
  const VIOLATION = '[{"location":["request","query","x"],"severity":"Warning","code":"unknown-member","message":"m"}]';

  it("only Expose-Headers asked for: echoed, as by corsPairs (writeAnswer, writeJson, writeProblemAnswer)", () => {
    const asks = request({ "access-control-expose-headers": "x-b" });
    const echoed = (sent: { headers: Array<[string, string]> }) => expect(header(sent, "access-control-expose-headers")).toEqual(["x-b"]);
    const answer = recorder();
    writeAnswer(asks, answer.response, kept([["content-type", "application/json"]], "{}"), []);
    echoed(answer.sent);
    const json = recorder();
    writeJson(asks, json.response, 200, undefined, "{}");
    echoed(json.sent);
    const problem = recorder();
    writeProblemAnswer(asks, problem.response, kept([["content-type", "application/problem+json"]], "{}", true), []);
    echoed(problem.sent);
  });

  it("an answer's own Content-Type is its only one; none of its own: the text one, before Content-Length", () => {
    const own = recorder();
    writeAnswer(
      request(),
      own.response,
      kept(
        [
          ["Content-Type", "application/json"],
          ["X-Id", "7"],
        ],
        "{}",
      ),
      [],
    );
    expect(own.sent.headers).toEqual([...CORS, ["Content-Type", "application/json"], ["X-Id", "7"], ["Content-Length", "2"]]);
    const problem = recorder();
    writeProblemAnswer(
      request(),
      problem.response,
      kept(
        [
          ["content-type", "application/problem+json"],
          ["X-Id", "7"],
        ],
        "{}",
        true,
      ),
      [],
    );
    expect(problem.sent.headers).toEqual([...CORS, ["content-type", "application/problem+json"], ["X-Id", "7"], ["Content-Length", "2"]]);
    const bare = recorder();
    writeProblemAnswer(request(), bare.response, kept([["X-Id", "7"]], "no", true), []);
    expect(bare.sent.headers).toEqual([...CORS, ["X-Id", "7"], ["Content-Type", "text/plain; charset=utf-8"], ["Content-Length", "2"]]);
  });

  it.each([
    ["Access-Control-Allow-Headers", "Location"],
    ["Access-Control-Expose-Headers", "Location"],
  ])("an answer's own %s replaces the mock's where it stands", (name, value) => {
    const expected = CORS.map(([n, v]): [string, string] => (n === name ? [name, value] : [n, v]));
    const answer = recorder();
    writeAnswer(
      request(),
      answer.response,
      kept(
        [
          [name, value],
          ["Content-Type", "application/json"],
        ],
        "{}",
      ),
      [],
    );
    expect(answer.sent.headers).toEqual([...expected, ["Content-Type", "application/json"], ["Content-Length", "2"]]);
    const problem = recorder();
    writeProblemAnswer(
      request(),
      problem.response,
      kept(
        [
          [name, value],
          ["content-type", "application/problem+json"],
        ],
        "{}",
        true,
      ),
      [],
    );
    expect(problem.sent.headers).toEqual([...expected, ["content-type", "application/problem+json"], ["Content-Length", "2"]]);
  });

  it("an answer's own sl-violations replaces the request's where it stands; a problem's own Content-Length is the body's", () => {
    const answer = recorder();
    writeAnswer(
      request(),
      answer.response,
      kept(
        [
          ["sl-violations", "[]"],
          ["Content-Type", "application/json"],
        ],
        "{}",
      ),
      [finding],
    );
    expect(answer.sent.headers).toEqual([...CORS, ["sl-violations", "[]"], ["Content-Type", "application/json"], ["Content-Length", "2"]]);
    const problem = recorder();
    writeProblemAnswer(
      request(),
      problem.response,
      kept(
        [
          ["Content-Length", "99"],
          ["content-type", "application/problem+json"],
        ],
        "{}",
        true,
      ),
      [],
    );
    expect(problem.sent.headers).toEqual([...CORS, ["Content-Length", "2"], ["content-type", "application/problem+json"]]);
  });

  it("the request's findings in sl-violations where the answer's own headers come first in order, and none without findings", () => {
    const own = kept(
      [
        ["access-control-allow-origin", "https://bank.test"],
        ["Content-Type", "application/json"],
      ],
      "{}",
    );
    const found = recorder();
    writeAnswer(request(), found.response, own, [finding]);
    expect(found.sent.headers).toEqual([
      ["access-control-allow-origin", "https://bank.test"],
      ...CORS.slice(1),
      ["sl-violations", VIOLATION],
      ["Content-Type", "application/json"],
      ["Content-Length", "2"],
    ]);
    const asks = recorder();
    writeAnswer(
      request({ "access-control-request-headers": "x-a" }),
      asks.response,
      kept([["Content-Type", "application/json"]], "{}"),
      [],
    );
    expect(header(asks.sent, "sl-violations")).toEqual([]);
    expect(asks.sent.headers).toHaveLength(5);
  });
});

describe("listedProblemBytes", () => {
  const one: Diagnostic = { path: ["body"], code: "required", message: "a", severity: 0 };
  const two: Diagnostic = { path: ["body", "b"], code: "type", message: "b", severity: 0 };
  it("one finding's body kept for it; several findings listed whole, not the first one's body", () => {
    const first = listedProblemBytes([one]);
    expect(listedProblemBytes([one])).toBe(first);
    expect(JSON.parse(first.toString()).validation).toHaveLength(1);
    expect(JSON.parse(listedProblemBytes([one, two]).toString()).validation.map((v: { message: string }) => v.message)).toEqual(["a", "b"]);
    // Several findings beginning with the same one: each list its own, none kept for the first finding.
    const three: Diagnostic = { path: ["body", "c"], code: "type", message: "c", severity: 0 };
    expect(JSON.parse(listedProblemBytes([one, three]).toString()).validation.map((v: { message: string }) => v.message)).toEqual([
      "a",
      "c",
    ]);
  });
});

describe("emit's default Content-Type beside other headers", () => {
  it("a body with headers but no Content-Type gets the text one", () => {
    const { sent, response } = recorder();
    emit(response, 200, [["X-Id", "7"]], "x");
    expect(sent.headers).toEqual([
      ["X-Id", "7"],
      ["Content-Type", "text/plain; charset=utf-8"],
      ["Content-Length", "1"],
    ]);
  });
});
