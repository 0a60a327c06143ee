/**
 * The stages of a request answered from state (src/sandbox/engine/run.ts `answerRequest`), on one
 * engine of the fixture API shop@1.0.0 and its declaration (tests/fixtures/sandbox/shop.sandbox.yaml)
 * without HTTP, at their edges (src/sandbox/README.md): an operation the engine or the declaration
 * does not cover keeps Prism's answer; an unknown id is answered 404; a failure inside the change
 * that is no bound is thrown on; a body the mock withheld (over one record's bound) and a record
 * over it are answered 507 with nothing kept; a durable store that cannot keep the changes answers
 * 503 with Retry-After; a bound its work reaches, 507; any other failure is not turned into an
 * answer; an expiry a request finds due is made with the cause `expiry`; a request's events are kept
 * once it succeeded, and a move made after it outside any request keeps its event at once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { WithheldBody } from "../../../../src/mock/types.js";
import { tick } from "../../../../src/sandbox/engine/clock.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { answerRequest } from "../../../../src/sandbox/engine/run.js";
import { withShopSandbox } from "../../../helpers/shop.js";
import { LIMITS, LimitError } from "../../../../src/sandbox/store/limits.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";

let engine: EngineContext;
withShopSandbox((sandbox) => {
  engine = sandbox.engine;
});
afterEach(() => vi.restoreAllMocks());

const ORDER = { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } };
const request = (token: string, operationId: string, body: unknown = ORDER, path = "/v1/order") =>
  answerRequest(engine, { operationId, path, query: {}, headers: { authorization: `Bearer ${token}` }, body, status: 200 });
const stateOf = (token: string) => engine.store.runExisting(credentialKey(token), (state: CredentialState) => state) as CredentialState;

describe("what keeps Prism's answer", () => {
  it("an operation the document does not have, and one the declaration does not cover", () => {
    expect(request("token-of-prism-answers", "noSuchOperation")).toBeUndefined();
    const undeclared = engine.operations.find((op) => !engine.declaration!.operations[op.operationId]);
    expect(undeclared, "the fixture has an operation its declaration does not cover").toBeDefined();
    expect(request("token-of-prism-answers", undeclared!.operationId, undefined, undeclared!.path)).toBeUndefined();
  });
});

describe("bounds", () => {
  it("a body the mock withheld is answered 507 naming its size and the bound, and nothing is kept", () => {
    const answer = request("token-of-a-withheld-body", "createOrder", new WithheldBody(300_000));
    expect(answer).toMatchObject({
      status: 507,
      headers: { "Content-Type": "application/problem+json" },
      body: {
        title: "Sandbox limit reached",
        detail: `a request body of 300000 bytes exceeds the sandbox's limit of ${LIMITS.recordBytes} bytes per record: it is not kept`,
      },
    });
    expect(stateOf("token-of-a-withheld-body").list("order")).toEqual([]);
  });

  it("a record over one record's bound is answered 507, and nothing is kept", () => {
    const big = { ...ORDER, merchant_id: "m".repeat(LIMITS.recordBytes) };
    expect(request("token-of-a-big-record", "createOrder", big)).toMatchObject({
      status: 507,
      body: { title: "Sandbox limit reached", detail: expect.stringMatching(/bytes per record/) },
    });
    expect(stateOf("token-of-a-big-record").list("order")).toEqual([]);
    expect(request("token-of-a-big-record", "createOrder")).toMatchObject({ status: 200 });
  });
});

describe("what the change answers", () => {
  it("an unknown id: 404 (getOrder declares none: no body), with nothing changed", () => {
    const answer = request("token-of-an-unknown-id", "getOrder", undefined, "/v1/order/o-404");
    expect(answer).toMatchObject({ status: 404 });
    expect((answer as { body?: unknown }).body).toBeUndefined();
    expect(stateOf("token-of-an-unknown-id").list("order")).toEqual([]);
  });

  it("a failure inside the change that is no bound is not turned into an answer, and what it changed is undone", () => {
    expect(request("token-of-a-failing-change", "createOrder")).toMatchObject({ status: 200 });
    const state = stateOf("token-of-a-failing-change");
    vi.spyOn(state, "add").mockImplementationOnce(() => {
      throw new TypeError("a bug in the change");
    });
    expect(() => request("token-of-a-failing-change", "createOrder")).toThrow("a bug in the change");
    expect(state.list("order")).toHaveLength(1);
  });
});

describe("a store that fails", () => {
  it("a durable store that cannot keep the changes: 503 problem+json with Retry-After", async () => {
    vi.spyOn(engine.store, "run").mockReturnValue(Promise.reject(new StoreUnavailable("the database is unreachable")));
    await expect(request("token-of-a-failing-store", "createOrder")).resolves.toMatchObject({
      status: 503,
      headers: { "Content-Type": "application/problem+json", "Retry-After": "1" },
      body: { status: 503, title: "Sandbox store unavailable", detail: "the database is unreachable" },
    });
  });

  it("a bound a durable store's work reaches: 507", async () => {
    vi.spyOn(engine.store, "run").mockReturnValue(Promise.reject(new LimitError("this credential holds 1000 records")));
    await expect(request("token-of-a-full-store", "createOrder")).resolves.toMatchObject({
      status: 507,
      body: { title: "Sandbox limit reached", detail: "this credential holds 1000 records" },
    });
  });

  it("any other failure is not turned into an answer, at once or later", async () => {
    vi.spyOn(engine.store, "run").mockImplementationOnce(() => {
      throw new TypeError("a bug");
    });
    expect(() => request("token-of-a-bug", "createOrder")).toThrow("a bug");
    vi.spyOn(engine.store, "run").mockReturnValueOnce(Promise.reject(new TypeError("a later bug")));
    await expect(request("token-of-a-bug", "createOrder")).rejects.toThrow("a later bug");
  });
});

describe("events", () => {
  it("a request's are kept once it succeeded; a move after it, outside any request, keeps its own at once", () => {
    const paid = request("token-of-request-events", "createOrder", { ...ORDER, merchant_id: "m-paid" }) as { body: { order_id: string } };
    const state = stateOf("token-of-request-events");
    expect(state.events.map((kept) => [kept.event.resourceId, kept.event.to])).toEqual([[paid.body.order_id, "PAID"]]);
    const other = (request("token-of-request-events", "createOrder") as { body: { order_id: string } }).body.order_id;
    const record = state.get("order", other)!;
    state.scheduleMove({ resource: "order", id: other, seq: record.seq, action: "pay", at: state.now(), cause: "test value paid_later" });
    state.wakeBy(state.now());
    tick(engine, state, "clock");
    expect(state.events.map((kept) => [kept.event.resourceId, kept.event.to])).toEqual([
      [paid.body.order_id, "PAID"],
      [other, "PAID"],
    ]);
  });
});

describe("the clock before the request", () => {
  it("an expiry the request finds due is made first, with the cause expiry", () => {
    const created = request("token-of-a-request-expiry", "createOrder", { ...ORDER, expiry_hours: 1 }) as { body: { order_id: string } };
    const state = stateOf("token-of-a-request-expiry");
    state.advanceClock(3600_000);
    const id = created.body.order_id;
    expect(request("token-of-a-request-expiry", "getOrder", undefined, `/v1/order/${id}`)).toMatchObject({
      status: 200,
      body: { order_id: id, status: "Created" },
    });
    expect(state.events.map((kept) => [kept.event.resourceId, kept.event.to, kept.event.cause])).toEqual([[id, "Created", "expiry"]]);
  });
});
