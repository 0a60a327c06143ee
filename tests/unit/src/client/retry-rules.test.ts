/**
 * The client's retry rules alone (src/client/retry.ts), without a server: the options' bounds at
 * their edges (docs/guides/clients.md and the module header: attempts 1-10, baseDelayMs 0-60 000,
 * maxDelayMs 0-300 000, timeoutMs 1-2 147 483 647, statuses 4xx and 5xx), the Retry-After forms, the
 * jitter's range, and `withRetries` driven by a hand-made attempt: which method, header and network
 * fault may be repeated (RFC 9110's idempotent methods; a POST only with an Idempotency-Key its
 * contract declares; a connection never made, for any method), the last attempt final, a wait that
 * would pass the deadline not taken, and onRetry told the attempt, the wait and the reason.
 */
import { describe, expect, it } from "vitest";
import { ApiError, type Operation } from "../../../../src/client/errors.js";
import {
  type AttemptOutcome,
  backoffMs,
  DEFAULT_RETRY,
  type RetryEvent,
  retryAfterMs,
  retryPolicy,
  timeoutOption,
  withRetries,
} from "../../../../src/client/retry.js";

const WHERE = "createTestClient";

describe("the options' bounds", () => {
  const accepted: Array<[string, number]> = [
    ["attempts", 1],
    ["attempts", 10],
    ["baseDelayMs", 0],
    ["baseDelayMs", 60_000],
    ["maxDelayMs", 0],
    ["maxDelayMs", 300_000],
  ];
  const refused: Array<[string, unknown]> = [
    ["attempts", 0],
    ["attempts", 11],
    ["attempts", 2.5],
    ["attempts", "3"],
    ["baseDelayMs", -1],
    ["baseDelayMs", 60_001],
    ["maxDelayMs", -1],
    ["maxDelayMs", 300_001],
    ["maxDelayMs", Number.NaN],
  ];
  it("take each bound itself", () => {
    for (const [option, value] of accepted)
      expect(retryPolicy(WHERE, { [option]: value })[option as "attempts"], `${option} ${value}`).toBe(value);
  });

  it("refuse one past each bound, and what is not an integer, naming the option, its range and the value", () => {
    for (const [option, value] of refused)
      expect(() => retryPolicy(WHERE, { [option]: value }), `${option} ${String(value)}`).toThrow(
        new RegExp(`^${WHERE}: option "${option}" must be an integer from \\d+ to \\d+, got `),
      );
    expect(() => retryPolicy(WHERE, { attempts: 11 })).toThrow(`${WHERE}: option "attempts" must be an integer from 1 to 10, got 11`);
    expect(() => retryPolicy(WHERE, { baseDelayMs: -1 })).toThrow('option "baseDelayMs" must be an integer from 0 to 60000, got -1');
  });

  it("timeoutMs: 1 to 2147483647, the fallback when not given", () => {
    expect(timeoutOption(WHERE, undefined, 1234)).toBe(1234);
    expect(timeoutOption(WHERE, 1, 1234)).toBe(1);
    expect(timeoutOption(WHERE, 2_147_483_647, 1234)).toBe(2_147_483_647);
    expect(() => timeoutOption(WHERE, 0, 1234)).toThrow('option "timeoutMs" must be an integer from 1 to 2147483647, got 0');
    expect(() => timeoutOption(WHERE, 2_147_483_648, 1234)).toThrow(/got 2147483648/);
  });

  it("statuses: 4xx and 5xx integers only", () => {
    expect([...retryPolicy(WHERE, { statuses: [400, 599] }).statuses]).toEqual([400, 599]);
    for (const bad of [[399], [600], [503.5], ["503"], "503", [200, 503]])
      expect(() => retryPolicy(WHERE, { statuses: bad }), JSON.stringify(bad)).toThrow(
        `${WHERE}: option "retry.statuses" must be a list of 4xx and 5xx statuses`,
      );
  });

  it("the defaults, false for one attempt, a call's options merged over the client's", () => {
    const defaults = retryPolicy(WHERE, undefined);
    expect(defaults).toMatchObject({ attempts: 3, baseDelayMs: 200, maxDelayMs: 5000 });
    expect([...defaults.statuses]).toEqual([408, 429, 500, 502, 503, 504]);
    expect(DEFAULT_RETRY.statuses).toEqual([408, 429, 500, 502, 503, 504]);
    expect(retryPolicy(WHERE, false).attempts).toBe(1);
    const client = retryPolicy(WHERE, { attempts: 5, baseDelayMs: 10 });
    const call = retryPolicy("GET /x", { baseDelayMs: 20 }, client);
    expect(call).toMatchObject({ attempts: 5, baseDelayMs: 20, maxDelayMs: 5000 });
    expect(retryPolicy("GET /x", false, client).attempts).toBe(1);
    expect(retryPolicy("GET /x", undefined, client)).toBe(client);
  });

  it("refuses what is not an object, unknown members, unsafe, and hooks that are not functions", () => {
    for (const bad of [null, 3, "yes", true])
      expect(() => retryPolicy(WHERE, bad), String(bad)).toThrow(`${WHERE}: option "retry" must be an object or false`);
    expect(() => retryPolicy(WHERE, { unsafe: true })).toThrow(/option "retry.unsafe" is not supported/);
    expect(() => retryPolicy(WHERE, { unsafe: false })).toThrow(/option "retry.unsafe" is not supported/);
    expect(() => retryPolicy(WHERE, { attempt: 2 })).toThrow(`${WHERE}: unknown option "retry.attempt"`);
    for (const hook of ["onRetry", "sleep", "random"])
      expect(() => retryPolicy(WHERE, { [hook]: "no" }), hook).toThrow(`${WHERE}: option "retry.${hook}" must be a function`);
    const onRetry = () => undefined;
    expect(retryPolicy(WHERE, { onRetry }).onRetry).toBe(onRetry);
  });
});

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP-dates; a date needs letters, a number no sign or fraction", () => {
    expect(retryAfterMs("3", null, 0)).toBe(3000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:03 GMT", "garbage", Date.UTC(2015, 9, 21, 7, 28, 0))).toBe(3000);
    expect(retryAfterMs("2015-10-21T07:28:05Z", "Wed, 21 Oct 2015 07:28:00 GMT", 0)).toBe(5000);
    for (const unread of ["", "  ", "+3", "3s", "2015-10-21", "12 13", "Someday"])
      expect(retryAfterMs(unread, null, 0), unread).toBeUndefined();
  });
});

describe("the backoff", () => {
  const policy = (random: number) => ({ baseDelayMs: 1000, maxDelayMs: 3000, random: () => random });
  it("is half the ceiling plus a random part of the other half; a random outside [0, 1) counts as one half", () => {
    expect(backoffMs(2, policy(0))).toBe(500);
    expect(backoffMs(2, policy(0.5))).toBe(750);
    expect(backoffMs(3, policy(0))).toBe(1000);
    expect(backoffMs(4, policy(0))).toBe(1500); // 4000 capped at 3000
    for (const odd of [1, 1.5, -0.1, Number.NaN]) expect(backoffMs(2, policy(odd)), String(odd)).toBe(750);
  });
});

const OPERATION: Operation = { method: "GET", path: "/items/{id}" };

/** A result of one attempt: an answer with `status`, or a network fault whose cause has `code`. */
function outcome(
  method: string,
  answer: { status: number; retryAfter?: string } | { network: string; answered?: boolean },
  headers: Record<string, string> = {},
) {
  const request = new Request("http://api.test/items/1", { method, headers });
  if ("status" in answer) {
    const response = new Response(null, { status: answer.status, headers: answer.retryAfter ? { "retry-after": answer.retryAfter } : {} });
    return { result: { response }, request, answered: true } as AttemptOutcome<{ response: Response; fault?: ApiError }>;
  }
  const cause = Object.assign(new Error("fetch failed"), { cause: Object.assign(new Error(answer.network), { code: answer.network }) });
  const fault = new ApiError(Response.error(), undefined, { method, path: "/items/{id}" }, { kind: "network", cause });
  return { result: { response: Response.error(), fault }, request, answered: answer.answered ?? false } as AttemptOutcome<{
    response: Response;
    fault?: ApiError;
  }>;
}

/** Runs withRetries over the outcomes given, one per attempt; what it returned, the attempts made, the waits and the events. */
async function run(
  outcomes: Array<ReturnType<typeof outcome>>,
  options: { attempts?: number; deduplicated?: boolean; timeoutMs?: number } = {},
) {
  const waits: number[] = [];
  const events: RetryEvent[] = [];
  let made = 0;
  const policy = retryPolicy(WHERE, {
    attempts: options.attempts ?? 3,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    random: () => 0,
    sleep: async (ms: number) => void waits.push(ms),
    onRetry: (event: RetryEvent) => void events.push(event),
  });
  const result = await withRetries({
    operation: OPERATION,
    policy,
    deduplicated: options.deduplicated ?? false,
    timeoutMs: options.timeoutMs ?? 60_000,
    body: undefined,
    attempt: async () => outcomes[Math.min(made++, outcomes.length - 1)],
    fault: (error) => ({ response: Response.error(), fault: error as ApiError }),
  });
  return { result, made, waits, events };
}

describe("what withRetries repeats", () => {
  it("an idempotent method's retried status, up to the attempts, the last answer final", async () => {
    // TRACE is idempotent too, but fetch's Request refuses to build one.
    for (const method of ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]) {
      const { made, result } = await run([outcome(method, { status: 503 })], { attempts: 3 });
      expect(made, method).toBe(3);
      expect(result.response.status).toBe(503);
    }
  });

  it("never a POST or PATCH answered, unless its contract declares Idempotency-Key and it sends one", async () => {
    for (const method of ["POST", "PATCH"]) {
      expect((await run([outcome(method, { status: 503 })])).made, method).toBe(1);
      expect((await run([outcome(method, { status: 503 })], { deduplicated: true })).made, `${method} without key`).toBe(1);
      expect((await run([outcome(method, { status: 503 }, { "idempotency-key": "k" })])).made, `${method} undeclared`).toBe(1);
      expect(
        (await run([outcome(method, { status: 503 }, { "idempotency-key": "k" })], { deduplicated: true })).made,
        `${method} with key`,
      ).toBe(3);
    }
  });

  it("only the statuses of the policy, never a 2xx", async () => {
    expect((await run([outcome("GET", { status: 501 })])).made).toBe(1);
    expect((await run([outcome("GET", { status: 404 })])).made).toBe(1);
    expect((await run([outcome("GET", { status: 200 })])).made).toBe(1);
    expect((await run([outcome("GET", { status: 429 }), outcome("GET", { status: 200 })])).made).toBe(2);
  });

  it("a network fault: any method whose connection was never made, only an idempotent one otherwise", async () => {
    for (const code of [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "EADDRNOTAVAIL",
      "UND_ERR_CONNECT_TIMEOUT",
    ])
      expect((await run([outcome("POST", { network: code })])).made, code).toBe(3);
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]) {
      expect((await run([outcome("POST", { network: code })])).made, `POST ${code}`).toBe(1);
      expect((await run([outcome("GET", { network: code })])).made, `GET ${code}`).toBe(3);
    }
    // Refused, but after an answer had arrived (a redirect's): the request went out.
    expect((await run([outcome("POST", { network: "ECONNREFUSED", answered: true })])).made).toBe(1);
  });

  it("never an attempt that sent nothing, nor a fault other than network", async () => {
    const none = { ...outcome("GET", { status: 503 }), request: undefined };
    expect((await run([none])).made).toBe(1);
    const timeout = outcome("GET", { network: "ECONNREFUSED" });
    (timeout.result.fault as { kind: string }).kind = "timeout";
    expect((await run([timeout])).made).toBe(1);
  });
});

describe("the waits and onRetry", () => {
  it("tells each retry its attempt, the attempts, the wait, the reason and the status", async () => {
    const { events, waits } = await run([
      outcome("GET", { status: 503 }),
      outcome("GET", { network: "ECONNRESET" }),
      outcome("GET", { status: 200 }),
    ]);
    expect(waits).toEqual([50, 100]);
    expect(events.map(({ attempt, attempts, delayMs, reason, status }) => ({ attempt, attempts, delayMs, reason, status }))).toEqual([
      { attempt: 2, attempts: 3, delayMs: 50, reason: "status", status: 503 },
      { attempt: 3, attempts: 3, delayMs: 100, reason: "network", status: 0 },
    ]);
    expect(events[0].response?.status).toBe(503);
    expect(events[0].fault).toBeUndefined();
    expect(events[1].fault?.kind).toBe("network");
    expect(events[1].response).toBeUndefined();
    expect(events[0].request.method).toBe("GET");
  });

  it("waits what Retry-After asks, up to maxDelayMs; more ends the retries", async () => {
    expect((await run([outcome("GET", { status: 503, retryAfter: "1" }), outcome("GET", { status: 200 })])).waits).toEqual([1000]);
    const over = await run([outcome("GET", { status: 503, retryAfter: "2" })]);
    expect(over.made).toBe(1);
    expect(over.waits).toEqual([]);
  });

  it("a network fault after an answer (a followed redirect's) is status 0 to onRetry, and that answer's Retry-After is not read", async () => {
    const fault = outcome("GET", { network: "ECONNRESET" });
    fault.result.response = new Response(null, { status: 302, headers: { "retry-after": "1" } });
    const { events, waits } = await run([fault, outcome("GET", { status: 200 })]);
    expect(waits).toEqual([50]);
    expect(events.map((e) => [e.reason, e.status, e.delayMs])).toEqual([["network", 0, 50]]);
  });

  it("takes no wait that would end at or past the deadline", async () => {
    expect((await run([outcome("GET", { status: 503, retryAfter: "1" })], { timeoutMs: 1000 })).made).toBe(1);
    expect((await run([outcome("GET", { status: 503, retryAfter: "1" }), outcome("GET", { status: 200 })], { timeoutMs: 1500 })).made).toBe(
      2,
    );
  });
});
