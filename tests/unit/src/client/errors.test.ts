/**
 * The client's errors on their own (src/client/errors.ts), without a server: Prism's findings read
 * from `sl-violations` or a problem body, the fault a thrown error names, the system code under it,
 * a URL's userinfo kept out of every message, stack and cause, the messages of ApiError for an
 * answer and for a fault, and `unwrap`. The expectations are the module's documented behaviour,
 * written out by hand here.
 */
import { describe, expect, it } from "vitest";
import {
  ApiError,
  CallTimeoutError,
  causeCode,
  faultKind,
  parseViolations,
  recordOperation,
  ResponseTooLargeError,
  responseViolations,
  unwrap,
  withoutUserinfo,
} from "../../../../src/client/errors.js";

const finding = { location: ["request", "body", "amount"], severity: "Error", code: "type", message: "must be number" };

describe("parseViolations: the sl-violations header", () => {
  it.each([
    ["absent", undefined],
    ["null", null],
    ["empty", ""],
  ])("%s -> no finding", (_, header) => {
    expect(parseViolations(header)).toEqual([]);
  });

  it("a JSON array of findings -> each finding as Prism wrote it", () => {
    const second = { location: ["request", "query", "limit"], severity: "Warning", code: 7, message: "too big" };
    expect(parseViolations(JSON.stringify([finding, second]))).toEqual([finding, second]);
  });

  it("drops the entries that are not findings: a location that is not a list of strings, a message that is not a string", () => {
    const header = JSON.stringify([
      null,
      "text",
      { location: "request.body", message: "x" },
      { location: ["request", 1], message: "x" },
      { location: ["request"], message: 5 },
      { location: ["request"] },
      finding,
    ]);
    expect(parseViolations(header)).toEqual([finding]);
  });

  it.each([
    ["an object", JSON.stringify(finding)],
    ["a number", "3"],
    ["text that is not JSON", "not json ["],
  ])("%s -> no finding", (_, header) => {
    expect(parseViolations(header)).toEqual([]);
  });

  it("a value Prism cut short -> one finding `truncated` carrying the text, never none", () => {
    const header = `Too many violations! [${JSON.stringify(finding)},{"location":["req`;
    expect(parseViolations(header)).toEqual([{ location: ["request"], severity: "Error", code: "truncated", message: header }]);
  });

  it("text that only contains the truncation words elsewhere is not a cut value", () => {
    expect(parseViolations("[ Too many violations! ")).toEqual([]);
  });
});

describe("responseViolations: the header, else the problem body's validation list", () => {
  const problem = {
    type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
    validation: [{ ...finding, location: ["body", "amount"] }],
  };

  it("the header's findings win over the body's", () => {
    const headers = new Headers({ "sl-violations": JSON.stringify([finding]) });
    expect(responseViolations(headers, { validation: [{ location: ["query"], severity: "Error", code: "x", message: "other" }] })).toEqual([
      finding,
    ]);
  });

  it("no header: the body's locations get `request` before them, as the header writes them", () => {
    expect(responseViolations(new Headers(), problem)).toEqual([finding]);
  });

  it("a location that already starts with `request` is kept as it is", () => {
    expect(responseViolations(new Headers(), { validation: [finding] })).toEqual([finding]);
  });

  it("an empty header list falls back to the body", () => {
    expect(responseViolations(new Headers({ "sl-violations": "[]" }), problem)).toEqual([finding]);
  });

  it("a body given as its text is parsed first", () => {
    expect(responseViolations(new Headers(), JSON.stringify(problem))).toEqual([finding]);
  });

  it.each([
    ["text that is not JSON", "<h1>boom</h1>"],
    ["undefined", undefined],
    ["null", null],
    ["a body without validation", { code: "E1" }],
    ["a validation that is not a list", { validation: { location: ["body"], message: "x" } }],
  ])("%s -> no finding", (_, body) => {
    expect(responseViolations(new Headers(), body)).toEqual([]);
  });
});

describe("faultKind: what a thrown error names", () => {
  const named = (name: string, cause?: unknown) => Object.assign(new Error("x", cause === undefined ? undefined : { cause }), { name });
  const chain = (depth: number, inner: unknown) => {
    let error: unknown = inner;
    for (let i = 0; i < depth; i++) error = new Error(`level ${i}`, { cause: error });
    return error;
  };

  it.each([
    ["a TimeoutError", named("TimeoutError"), "timeout"],
    ["a CallTimeoutError (the call's limit)", new CallTimeoutError({ method: "GET", path: "/x" }, 50), "timeout"],
    ["an AbortError whose reason is a TimeoutError", named("AbortError", named("TimeoutError")), "timeout"],
    ["an AbortError from the caller's signal", named("AbortError"), "aborted"],
    ["an AbortError with another reason", named("AbortError", new Error("stop")), "aborted"],
    ["a SyntaxError (the body parser)", new SyntaxError("Unexpected token <"), "invalid-body"],
    ["a ResponseTooLargeError", new ResponseTooLargeError(10), "too-large"],
    ["a ResponseTooLargeError four causes down", chain(4, new ResponseTooLargeError(10)), "too-large"],
    ["a TypeError from fetch", new TypeError("fetch failed"), "network"],
    ["a thrown string", "boom", "network"],
    ["null", null, "network"],
    ["undefined", undefined, "network"],
  ] as const)("%s -> %s", (_, error, kind) => {
    expect(faultKind(error)).toBe(kind);
  });

  it("looks through at most five errors of a cause chain (a bound, also for a chain that loops)", () => {
    expect(faultKind(chain(5, new ResponseTooLargeError(10)))).toBe("network");
    const loop = new Error("a");
    const other = new Error("b", { cause: loop });
    Object.assign(loop, { cause: other });
    expect(faultKind(loop)).toBe("network");
  });
});

describe("causeCode: the system error's code", () => {
  const withCode = (code: unknown, cause?: unknown) => Object.assign(new Error("x", cause === undefined ? undefined : { cause }), { code });

  it("the first string code down the cause chain", () => {
    expect(causeCode(withCode("ECONNRESET"))).toBe("ECONNRESET");
    expect(causeCode(new TypeError("fetch failed", { cause: withCode("ECONNREFUSED") }))).toBe("ECONNREFUSED");
    expect(causeCode(withCode("UND_ERR_SOCKET", withCode("ECONNRESET")))).toBe("UND_ERR_SOCKET");
  });

  it("a code that is not a string is passed over", () => {
    expect(causeCode(withCode(-104, withCode("ECONNRESET")))).toBe("ECONNRESET");
  });

  it("none, or deeper than five errors -> undefined", () => {
    expect(causeCode(new Error("x"))).toBeUndefined();
    expect(causeCode(undefined)).toBeUndefined();
    expect(causeCode(null)).toBeUndefined();
    let deep: unknown = withCode("EDEEP");
    for (let i = 0; i < 5; i++) deep = new Error("up", { cause: deep });
    expect(causeCode(deep)).toBeUndefined();
    let four: unknown = withCode("EFOUR");
    for (let i = 0; i < 4; i++) four = new Error("up", { cause: four });
    expect(causeCode(four)).toBe("EFOUR");
  });
});

describe("withoutUserinfo", () => {
  it.each([
    ["https://user:pass@host.test/x", "https://host.test/x"],
    ["https://token@host.test", "https://host.test"],
    ["fetch http://a:b@h1.test/p and HTTP://c:d@h2.test/q", "fetch http://h1.test/p and HTTP://h2.test/q"],
    ["git+ssh://me:pw@repo.test/x", "git+ssh://repo.test/x"],
    ["https://host.test/a@b", "https://host.test/a@b"],
    ["write to ops@bank.test", "write to ops@bank.test"],
    ["no URL at all", "no URL at all"],
  ])("%s -> %s", (text, expected) => {
    expect(withoutUserinfo(text)).toBe(expected);
  });
});

describe("the error classes' own fields", () => {
  it("ResponseTooLargeError names its limit", () => {
    const error = new ResponseTooLargeError(1024);
    expect(error).toMatchObject({ name: "ResponseTooLargeError", limit: 1024 });
    expect(error.message).toBe("the response body exceeds 1024 bytes (maxResponseBytes)");
  });

  it("CallTimeoutError is named TimeoutError, as AbortSignal.timeout()'s reason", () => {
    const error = new CallTimeoutError({ method: "POST", path: "/v1/payments" }, 250);
    expect(error).toMatchObject({ name: "TimeoutError", timeoutMs: 250, operation: { method: "POST", path: "/v1/payments" } });
    expect(error.message).toBe("no complete answer within the call's limit of 250 ms (timeoutMs)");
  });
});

describe("ApiError for an answer", () => {
  const operation = { method: "POST", path: "/v1/invoice/{invoice_id}" };

  it("names the operation, the status and its text, and Prism's findings", () => {
    const response = new Response("{}", {
      status: 422,
      statusText: "Unprocessable Entity",
      headers: { "sl-violations": JSON.stringify([finding, { ...finding, location: ["request", "query"], message: "bad" }]) },
    });
    const error = new ApiError(response, { code: "E" }, operation);
    expect(error.message).toBe(
      "POST /v1/invoice/{invoice_id} responded 422 Unprocessable Entity (request.body.amount: must be number; request.query: bad)",
    );
    expect(error).toMatchObject({ name: "ApiError", kind: "http", status: 422, method: "POST", path: operation.path, body: { code: "E" } });
    expect(error.violations).toHaveLength(2);
    expect(error.response).toBe(response);
    expect(error.cause).toBeUndefined();
  });

  it("without a status text or findings, just the status", () => {
    const error = new ApiError(new Response(null, { status: 404 }), undefined, operation);
    expect(error.message).toBe("POST /v1/invoice/{invoice_id} responded 404");
    expect(error.violations).toEqual([]);
  });

  it("the operation recorded for the response, else `?` and the URL's path, else `?` and `?`", () => {
    const recorded = new Response(null, { status: 500 });
    recordOperation(recorded, { method: "GET", path: "/v1/merchant" });
    expect(new ApiError(recorded, undefined)).toMatchObject({ method: "GET", path: "/v1/merchant" });
    const withUrl = new Response(null, { status: 500 });
    Object.defineProperty(withUrl, "url", { value: "http://127.0.0.1:1/v1/things/7?x=1" });
    expect(new ApiError(withUrl, undefined)).toMatchObject({ method: "?", path: "/v1/things/7" });
    expect(new ApiError(new Response(null, { status: 500 }), undefined)).toMatchObject({ method: "?", path: "?" });
  });
});

describe("ApiError.fault", () => {
  const operation = { method: "GET", path: "/v1/balance" };

  it("without an answer: status 0, the fault's text, the cause's message and code", () => {
    const cause = new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    const fault = ApiError.fault(operation, cause);
    expect(fault.message).toBe("GET /v1/balance failed: no usable answer: fetch failed: read ECONNRESET (ECONNRESET)");
    expect(fault).toMatchObject({ kind: "network", status: 0, method: "GET", path: "/v1/balance", body: undefined, violations: [] });
    expect(fault.response.type).toBe("error");
    expect(fault.cause).toBe(cause);
  });

  it("with an answer: its status and text in the message", () => {
    const response = new Response("{", { status: 200, statusText: "OK" });
    const fault = ApiError.fault(operation, new SyntaxError("Unexpected end of JSON input"), response);
    expect(fault.message).toBe("GET /v1/balance answered a body that is not valid JSON (status 200 OK): Unexpected end of JSON input");
    expect(fault).toMatchObject({ kind: "invalid-body", status: 200 });
    expect(fault.response).toBe(response);
  });

  it.each([
    [
      new CallTimeoutError({ method: "GET", path: "/v1/balance" }, 30),
      "GET /v1/balance timed out: no complete answer within the call's limit of 30 ms (timeoutMs)",
    ],
    [
      Object.assign(new Error("This operation was aborted"), { name: "AbortError" }),
      "GET /v1/balance was aborted: This operation was aborted",
    ],
    [
      new ResponseTooLargeError(8),
      "GET /v1/balance answered a body that is too large: the response body exceeds 8 bytes (maxResponseBytes)",
    ],
    ["a string", "GET /v1/balance failed: no usable answer: a string"],
  ])("%s -> %s", (cause, message) => {
    expect(ApiError.fault(operation, cause).message).toBe(message);
  });

  it("a cause whose message is its own cause's does not repeat it", () => {
    const cause = new Error("socket hang up", { cause: new Error("socket hang up") });
    expect(ApiError.fault(operation, cause).message).toBe("GET /v1/balance failed: no usable answer: socket hang up");
  });

  it("a cause quoting a URL's userinfo is kept as a copy without it: message, stack, inner cause, same name and code", () => {
    const inner = Object.assign(new Error("connect to http://u:s3cret@h.test/x refused"), { code: "ECONNREFUSED" });
    const cause = Object.assign(new TypeError("fetch http://u:s3cret@h.test/x failed", { cause: inner }), { code: "E_OUTER" });
    const fault = ApiError.fault(operation, cause);
    const kept = fault.cause as Error & { code?: string; cause?: Error & { code?: string } };
    expect(kept).not.toBe(cause);
    expect(kept.name).toBe("TypeError");
    expect(kept.code).toBe("E_OUTER");
    expect(kept.message).toBe("fetch http://h.test/x failed");
    expect(kept.stack).not.toContain("s3cret");
    expect(kept.stack).toContain("fetch http://h.test/x failed");
    expect(kept.cause?.message).toBe("connect to http://h.test/x refused");
    expect(kept.cause?.code).toBe("ECONNREFUSED");
    expect(fault.message).not.toContain("s3cret");
    expect(fault.message).toContain("(E_OUTER)");
  });

  it("only the stack quoting the userinfo: still a copy, its message unchanged", () => {
    const cause = new Error("refused");
    cause.stack = "Error: refused\n    at fetch (http://u:s3cret@h.test/x)";
    const kept = ApiError.fault(operation, cause).cause as Error;
    expect(kept).not.toBe(cause);
    expect(kept.message).toBe("refused");
    expect(kept.stack).toBe("Error: refused\n    at fetch (http://h.test/x)");
    expect("code" in kept).toBe(false);
    expect("cause" in kept).toBe(false);
  });

  it("a cause without a stack keeps none", () => {
    const cause = new Error("fetch http://u:s3cret@h.test/x failed");
    cause.stack = undefined;
    const kept = ApiError.fault(operation, cause).cause as Error;
    expect(kept.message).toBe("fetch http://h.test/x failed");
    expect(kept.stack).toBeUndefined();
  });

  it("a cause with nothing to hide is kept as it is", () => {
    const cause = new TypeError("fetch failed", { cause: new Error("other side closed") });
    expect(ApiError.fault(operation, cause).cause).toBe(cause);
  });

  it("a cause chain that loops is copied to a bounded depth, never followed forever", () => {
    const a = new Error("fetch http://u:s3cret@h.test/x failed");
    const b = new Error("inner", { cause: a });
    Object.assign(a, { cause: b });
    const fault = ApiError.fault(operation, a);
    expect(fault.kind).toBe("network");
    expect((fault.cause as Error).message).toBe("fetch http://h.test/x failed");
  });

  it("looks five errors down a cause chain for userinfo", () => {
    let cause: Error = new Error("at http://u:s3cret@h.test/x");
    for (let i = 0; i < 4; i++) cause = new Error(`level ${i}`, { cause });
    let kept = ApiError.fault(operation, cause).cause as Error;
    expect(kept).not.toBe(cause);
    for (let i = 0; i < 4; i++) kept = kept.cause as Error;
    expect(kept.message).toBe("at http://h.test/x");
  });
});

describe("unwrap", () => {
  const ok = new Response("{}", { status: 200 });

  it("the data of a 2xx", () => {
    expect(unwrap({ data: { id: "m1" }, response: ok })).toEqual({ id: "m1" });
  });

  it("throws the fault", () => {
    const fault = ApiError.fault({ method: "GET", path: "/x" }, new TypeError("fetch failed"));
    expect(() => unwrap({ fault, response: fault.response })).toThrow(fault);
  });

  it("throws an ApiError given as the error", () => {
    const error = new ApiError(new Response(null, { status: 404 }), undefined, { method: "GET", path: "/x" });
    expect(() => unwrap({ error, response: error.response })).toThrow(error);
  });

  it("a non-2xx with an error body -> an ApiError carrying it", () => {
    const response = new Response("{}", { status: 409, statusText: "Conflict" });
    recordOperation(response, { method: "PUT", path: "/v1/x" });
    let thrown: unknown;
    try {
      unwrap({ error: { code: "DUPLICATE" }, response });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ kind: "http", status: 409, body: { code: "DUPLICATE" }, method: "PUT", path: "/v1/x" });
  });
});
