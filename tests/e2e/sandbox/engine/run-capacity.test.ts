/**
 * A request whose credential the sandbox has no room for (src/sandbox/engine/run.ts over the memory
 * store, src/sandbox/store/memory.ts), on the engine of the fixture API shop@1.0.0 without HTTP: with
 * LIMITS.credentials states held, every one in recent use, a new credential's request is answered 507
 * problem+json naming the limit (docs/guides/hosting.md: "1000: one idle this long gives way to a
 * newcomer, else 507"), and nothing is kept for it, while a credential already held is answered as before.
 */
import { describe, expect, it } from "vitest";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { answerRequest } from "../../../../src/sandbox/engine/run.js";
import { withShopSandbox } from "../../../helpers/shop.js";
import { LIMITS } from "../../../../src/sandbox/store/limits.js";
import { credentialKey } from "../../../../src/sandbox/store/state.js";

let engine: EngineContext;
withShopSandbox((sandbox) => {
  engine = sandbox.engine;
});

const createOrder = (token: string) =>
  answerRequest(engine, {
    operationId: "createOrder",
    path: "/v1/order",
    query: {},
    headers: { authorization: `Bearer ${token}` },
    body: { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } },
    status: 200,
  });

describe("a full sandbox", () => {
  it("answers a new credential 507 problem+json naming the limit, and keeps nothing for it", () => {
    expect(createOrder("token-held-first")).toMatchObject({ status: 200 });
    for (let i = 1; i < LIMITS.credentials; i++) engine.store.run(credentialKey(`token-held-${i}`), () => undefined);
    expect(engine.store.size).toBe(LIMITS.credentials);

    const refused = createOrder("token-of-a-newcomer");
    expect(refused).toMatchObject({
      status: 507,
      headers: { "Content-Type": "application/problem+json" },
      body: { status: 507, title: "Sandbox limit reached", detail: expect.stringMatching(/credentials, its limit/) },
    });
    expect(engine.store.size).toBe(LIMITS.credentials);
    expect(engine.store.runExisting(credentialKey("token-of-a-newcomer"), () => "held")).toBeUndefined();

    expect(createOrder("token-held-first")).toMatchObject({ status: 200, body: { status: "CREATED" } });
  });
});
