/**
 * Which states a store brings in arm the mock's transport rules (src/sandbox/engine/resume.ts), on
 * the engine of the fixture API shop@1.0.0 without HTTP: a latency or a drop rule (before or after
 * the answer) arms them, a queued error status alone does not (the mock then asks the sandbox about
 * no request it would not ask anyway: src/sandbox/index.ts `mayIntercept`), and a state with nothing
 * scheduled sets no wake.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { resume } from "../../../../src/sandbox/engine/resume.js";
import { withShopSandbox } from "../../../helpers/shop.js";
import { CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import type { ErrorRule } from "../../../../src/sandbox/store/types.js";

let engine: EngineContext;
withShopSandbox((sandbox) => {
  engine = sandbox.engine;
});
beforeEach(() => {
  engine.transportArmed = false;
});

/** A state as a store loads it (from its rows), holding `rules`. */
function loaded(name: string, rules: Array<Partial<ErrorRule>>): CredentialState {
  const original = new CredentialState(credentialKey(`token-of-${name}`));
  rules.forEach((rule, i) => original.addErrorRule({ id: `err_${i}`, operationId: "getOrder", status: 503, remaining: 1, ...rule }));
  return CredentialState.load({ key: original.key, version: 1, rows: JSON.parse(JSON.stringify(original.rows())) });
}

describe("resuming a state", () => {
  it("with a queued error status only: the transport rules stay off, and nothing scheduled sets no wake", () => {
    const state = loaded("an-error-status", [{ status: 503 }, { status: 429, retryAfter: 2 }]);
    resume(engine, state);
    expect(engine.transportArmed).toBe(false);
    expect(engine.wakes.when(state.key)).toBeUndefined();
  });

  it("with a drop rule, before or after the answer: armed", () => {
    for (const drop of ["before", "after"] as const) {
      engine.transportArmed = false;
      resume(engine, loaded(`a-drop-${drop}`, [{ status: 0, drop }]));
      expect(engine.transportArmed, drop).toBe(true);
    }
  });

  it("with a latency rule after an error status: armed", () => {
    resume(engine, loaded("a-latency-after-a-status", [{ status: 503 }, { status: 0, latencyMs: 250 }]));
    expect(engine.transportArmed).toBe(true);
  });
});
