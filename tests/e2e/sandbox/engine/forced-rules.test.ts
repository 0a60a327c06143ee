import { describe, expect, it } from "vitest";
import { forcedAnswer, queuedTransport } from "../../../../src/sandbox/engine/forced.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import type { ErrorRule } from "../../../../src/sandbox/store/types.js";
import { shopEngine } from "../../../helpers/shop.js";

const engine = shopEngine();

let credentials = 0;
/** A fresh credential's state with these rules queued (as the control API queues them: a latency or drop arms the engine). */
function queued(...rules: Array<Omit<ErrorRule, "id" | "remaining"> & { remaining?: number }>) {
  const credential = `forced-${++credentials}`;
  const state = engine.store.run(credentialKey(credential), (s) => s) as CredentialState;
  const made = rules.map((rule, i) => ({ id: `err_${i}`, remaining: 1, ...rule }));
  for (const rule of made) {
    state.addErrorRule(rule);
    if (rule.latencyMs || rule.drop) engine.transportArmed = true;
  }
  return { state, rules: made, headers: { authorization: `Bearer ${credential}` } };
}
const op = (operationId: string) => {
  const found = engine.operation(operationId);
  if (!found) throw new Error(`no operation ${operationId} in the fixture`);
  return found;
};

describe("forcedAnswer", () => {
  it("answers the status queued for the operation, with its Retry-After, using one call", () => {
    const { state, rules } = queued({ operationId: "createOrder", status: 503, retryAfter: 7, remaining: 2 });
    const answer = forcedAnswer(engine, state, op("createOrder"));
    expect(answer?.status).toBe(503);
    expect(answer?.headers?.["Retry-After"]).toBe("7");
    expect(rules[0].remaining).toBe(1);
  });

  it("forces nothing with a rule of another operation, or a latency or drop alone, and uses none of them", () => {
    const { state, rules } = queued(
      { operationId: "getOrder", status: 500 },
      { operationId: "createOrder", status: 0, latencyMs: 100 },
      { operationId: "createOrder", status: 0, drop: "after" },
    );
    expect(forcedAnswer(engine, state, op("createOrder"))).toBeUndefined();
    expect(state.errors).toEqual(rules);
    expect(rules.map((r) => r.remaining)).toEqual([1, 1, 1]);
  });
});

describe("queuedTransport", () => {
  it("gives the latency or drop queued for the request's operation, and uses a call of it when it forces no status", () => {
    const { state, rules, headers } = queued({ operationId: "createOrder", status: 0, latencyMs: 250, remaining: 2 });
    expect(queuedTransport(engine, "POST", "/v1/order", headers, {})).toBe(rules[0]);
    expect(rules[0].remaining).toBe(1);
    expect(queuedTransport(engine, "post", "/v1/order", headers, {})).toBe(rules[0]);
    expect(state.errors).toEqual([]);
    expect(queuedTransport(engine, "POST", "/v1/order", headers, {})).toBeUndefined();
  });

  it("leaves a rule that also forces a status to forcedAnswer, which uses its call", () => {
    const { state, rules, headers } = queued({ operationId: "createOrder", status: 503, latencyMs: 250 });
    expect(queuedTransport(engine, "POST", "/v1/order", headers, {})).toBe(rules[0]);
    expect(rules[0].remaining).toBe(1);
    expect(forcedAnswer(engine, state, op("createOrder"))?.status).toBe(503);
    expect(state.errors).toEqual([]);
  });

  it("gives nothing for another operation's rule, a status alone, or a path that is no operation", () => {
    const { state, rules, headers } = queued(
      { operationId: "getOrder", status: 0, latencyMs: 250 },
      { operationId: "createOrder", status: 500 },
    );
    expect(queuedTransport(engine, "POST", "/v1/order", headers, {})).toBeUndefined();
    expect(queuedTransport(engine, "GET", "/v1/order/o-1", headers, {})).toBe(rules[0]);
    expect(queuedTransport(engine, "DELETE", "/v1/ping", headers, {})).toBeUndefined();
    expect(queuedTransport(engine, "GET", "/v1/nowhere", headers, {})).toBeUndefined();
    expect(state.errors).toEqual([rules[1]]);
  });

  it("an operation without security reads the rules of the empty credential; a path that is none reads none", () => {
    const state = engine.store.run(credentialKey(""), (s) => s) as CredentialState;
    const rule: ErrorRule = { id: "err_ping", operationId: "getPing", status: 0, drop: "before", remaining: 1 };
    state.addErrorRule(rule);
    engine.transportArmed = true;
    expect(queuedTransport(engine, "GET", "/v1/nowhere", {}, {})).toBeUndefined();
    expect(queuedTransport(engine, "GET", "/v1/ping", {}, {})).toBe(rule);
  });
});
