/**
 * The sandbox as a shared service filled to its credential limit through the mock's HTTP layer: a
 * flood of new credentials is refused (507, declared in the control document, a named deviation on
 * the APIs) while a partner's state stays. In the full tier (a thousand requests); the limit itself
 * is checked on the store in the quick tier (tests/unit/src/sandbox/store.test.ts).
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { LIMITS } from "../../../../src/sandbox/store/limits.js";
import { call, controlViolations } from "../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const order = { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } };

const mocks: MockServer[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

async function shopMock() {
  const mock = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath } });
  mocks.push(mock);
  return mock;
}

describe("a flood of new credentials", () => {
  it("never pushes out a partner's recent state: the newcomer is refused with 507, declared on the control API, named as a deviation on the API", async () => {
    const mock = await shopMock();
    const partner = { authorization: "Bearer partner-working" };
    const id = (await call(mock.url, "POST", "/v1/order", { headers: partner, body: order })).body.order_id;
    for (let i = 1; i < LIMITS.credentials; i++) {
      const answer = await call(mock.url, "GET", "/_sandbox/clock", { headers: { authorization: `Bearer flood-${i}` } });
      if (answer.status !== 200) throw new Error(`credential ${i}: ${answer.status}`);
    }
    const control = await call(mock.url, "GET", "/_sandbox/state", { headers: { authorization: "Bearer newcomer" } });
    expect(control.status).toBe(507);
    expect(control.headers.get("content-type")).toBe("application/problem+json");
    expect(control.body).toMatchObject({ status: 507, title: "Insufficient Storage" });
    expect(control.body.detail).toMatch(/holds state for 1000 credentials, its limit, and every one was used in the last 600 seconds/);
    expect(controlViolations("getState", control)).toEqual([]);

    const api = await call(mock.url, "POST", "/v1/order", { headers: { authorization: "Bearer newcomer-2" }, body: order });
    expect(api.status).toBe(507);
    expect(api.body).toMatchObject({ status: 507, detail: expect.stringMatching(/a new credential is refused/) });
    expect(api.violations).toEqual([
      expect.objectContaining({
        location: ["response", "status"],
        code: "sandbox-limit",
        message: expect.stringMatching(/^507 is the sandbox's own answer/),
      }),
    ]);
    // The partner's state is whole, and the partner keeps working.
    const state = await call(mock.url, "GET", "/_sandbox/state", { headers: partner });
    expect(state.body.resources.order).toEqual([expect.objectContaining({ id })]);
    expect((await call(mock.url, "POST", "/v1/order", { headers: partner, body: order })).status).toBe(200);
    expect((await call(mock.url, "GET", "/_sandbox")).body.memory).toMatchObject({ credentials: LIMITS.credentials });
  });
});
