import { describe, expect, it } from "vitest";
import { forcedAnswer } from "../../../../src/sandbox/engine/forced.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { shopEngine } from "../../../helpers/shop.js";

const engine = shopEngine();

/** The answer a fresh credential gets from createOrder with one status rule queued. */
function forced(credential: string, rule: { status: number; retryAfter?: number }) {
  const state = engine.store.run(credentialKey(credential), (s) => s) as CredentialState;
  state.addErrorRule({ id: "err_1", operationId: "createOrder", remaining: 1, ...rule });
  const op = engine.operation("createOrder");
  if (!op) throw new Error("no operation createOrder in the fixture");
  return forcedAnswer(engine, state, op);
}

describe("a forced status's Retry-After", () => {
  it("is absent when the rule gives no retry_after", () => {
    const answer = forced("forced-retry-none", { status: 503 });
    expect(answer?.status).toBe(503);
    expect(Object.keys(answer?.headers ?? {}).map((name) => name.toLowerCase())).not.toContain("retry-after");
  });

  it("is 0 seconds when the rule gives 0", () => {
    const answer = forced("forced-retry-zero", { status: 429, retryAfter: 0 });
    expect(answer?.status).toBe(429);
    expect(answer?.headers?.["Retry-After"]).toBe("0");
  });
});
