/**
 * The control API (src/sandbox/control/) over the fixture API shop@1.0.0: every answer matches
 * its own OpenAPI document (src/sandbox/openapi.yaml); every bad input gets a 4xx problem whose
 * detail says what is wrong and whose field names the member; the typed client (sandboxControl)
 * drives the same operations.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type MockServer } from "../../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { CONTROL_DOCUMENT } from "../../../../../src/sandbox/control/index.js";
import { LIMITS } from "../../../../../src/sandbox/store/limits.js";
import { sandboxControl, SandboxControlError } from "../../../../../src/testing/index.js";
import { call, controlViolations, controlValidator } from "../../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
/** The operator token (GET/DELETE /_sandbox/state/all need it); the other operations ignore the header. */
const operatorToken = "operator-token-of-the-control-tests";
const headers = { authorization: "Bearer control-token", "x-sandbox-operator-token": operatorToken };

let mock: MockServer;
let orderId: string;
beforeAll(async () => {
  mock = await startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath, operatorToken } });
  const created = await call(mock.url, "POST", "/v1/order", { headers, body: { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } } });
  orderId = created.body.order_id;
});
afterAll(() => mock.close());

describe("answers match the control API's document", () => {
  const valid: Array<[string, string, string, unknown?]> = [
    ["getSandbox", "GET", "/_sandbox"],
    ["getState", "GET", "/_sandbox/state"],
    ["listStates", "GET", "/_sandbox/state/all"],
    ["getResource", "GET", "/_sandbox/resources/order/{id}"],
    ["updateResourceStatus", "POST", "/_sandbox/resources/order/{id}/status", { status: "CREATED" }],
    ["listEvents", "GET", "/_sandbox/events"],
    ["registerCallback", "PUT", "/_sandbox/callbacks/orderPaid", { url: "http://127.0.0.1:9/cb" }],
    ["listCallbacks", "GET", "/_sandbox/callbacks"],
    ["listDeliveries", "GET", "/_sandbox/deliveries"],
    ["getClock", "GET", "/_sandbox/clock"],
    ["advanceClock", "POST", "/_sandbox/clock/advance", { seconds: 60 }],
    ["createError", "POST", "/_sandbox/errors", { operation_id: "getOrder", status: 401, count: 3 }],
    ["listErrors", "GET", "/_sandbox/errors"],
    ["deleteErrors", "DELETE", "/_sandbox/errors"],
    ["deleteCallback", "DELETE", "/_sandbox/callbacks/orderPaid"],
    ["resetState", "DELETE", "/_sandbox/state"],
    ["resetAllStates", "DELETE", "/_sandbox/state/all"],
  ];

  /** Hosted mode's operations, as a sandbox that is not hosted answers them: the health check, and 404 naming hosted mode. */
  const notHosted: Array<[string, string, string, number, unknown?]> = [
    ["getHealth", "GET", "/_sandbox/health", 200],
    ["getMetrics", "GET", "/_sandbox/metrics", 404],
    ["listPartners", "GET", "/_sandbox/partners", 404],
    ["createPartner", "POST", "/_sandbox/partners", 404, { name: "Acme" }],
    ["getPartner", "GET", "/_sandbox/partners/ptn_1", 404],
    ["updatePartner", "PATCH", "/_sandbox/partners/ptn_1", 404, { quotas: { records: 5 } }],
    ["deletePartner", "DELETE", "/_sandbox/partners/ptn_1", 404],
  ];

  it("covers every operation of the document but the document itself", () => {
    expect(valid).toHaveLength(17);
    expect(notHosted).toHaveLength(7);
    const moves = ["updateResourceWithAction", "sendEventAgain"]; // covered in "lifecycles and events" below
    expect(new Set([...valid.map(([id]) => id), ...notHosted.map(([id]) => id), ...moves])).toEqual(
      new Set(controlValidator.operationIds.filter((id) => id !== "getSandboxDocument")),
    );
  });

  it.each(notHosted)("%s, not hosted", async (operationId, method, path, status, body) => {
    const answer = await call(mock.url, method, path, { headers: { ...headers, "x-sandbox-operator-token": operatorToken }, body });
    expect(answer.status).toBe(status);
    if (status === 404)
      expect(answer.body.detail).toBe(
        `no control operation at ${path}: it exists only in hosted mode (mock --sandbox --hosted), for the sandbox's operator`,
      );
    else expect(answer.body).toEqual({ status: "ready" });
    expect(controlViolations(operationId, answer)).toEqual([]);
  });

  it.each(valid)("%s", async (operationId, method, path, body) => {
    const answer = await call(mock.url, method, path.replace("{id}", orderId), { headers, body });
    expect(answer.status).toBeLessThan(300);
    expect(controlViolations(operationId, answer)).toEqual([]);
  });

  it("serves its own document at /_sandbox/openapi.yaml, without a credential", async () => {
    const answer = await call(mock.url, "GET", "/_sandbox/openapi.yaml");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/yaml/);
    expect(answer.body).toBe(readFileSync(CONTROL_DOCUMENT, "utf8"));
  });
});

describe("bad input gets a 4xx naming the member", () => {
  beforeAll(async () => {
    const created = await call(mock.url, "POST", "/v1/order", {
      headers,
      body: { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } },
    });
    orderId = created.body.order_id;
  });
  const big = JSON.stringify({ status: "x".repeat(LIMITS.controlBodyBytes) });
  const cases: Array<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    raw?: string;
    type?: string;
    status: number;
    field?: string;
    detail: RegExp;
  }> = [
    { name: "no body", method: "POST", path: "/_sandbox/resources/order/{id}/status", status: 400, detail: /the body is required/ },
    {
      name: "status missing",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      body: {},
      status: 400,
      field: "status",
      detail: /^status: is required/,
    },
    {
      name: "status not a string",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      body: { status: 5 },
      status: 400,
      field: "status",
      detail: /status: must be string/,
    },
    {
      name: "status not allowed",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      body: { status: "SHIPPED" },
      status: 400,
      field: "status",
      detail: /"SHIPPED" is not a status of order; allowed: CREATED, Created, PAID/,
    },
    {
      name: "unknown member",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      body: { status: "PAID", deliver: 1 },
      status: 400,
      field: "deliver",
      detail: /deliver: is not allowed here/,
    },
    {
      name: "deliver_twice not a boolean",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      body: { status: "PAID", deliver_twice: "yes" },
      status: 400,
      field: "deliver_twice",
      detail: /deliver_twice: must be boolean/,
    },
    {
      name: "not JSON",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      raw: "{status:",
      type: "application/json",
      status: 400,
      detail: /the body is not valid JSON/,
    },
    {
      name: "not application/json",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      raw: "status=PAID",
      type: "text/plain",
      status: 415,
      detail: /takes application\/json bodies, got text\/plain/,
    },
    {
      name: "body too large",
      method: "POST",
      path: "/_sandbox/resources/order/{id}/status",
      raw: big,
      type: "application/json",
      status: 413,
      detail: /the body exceeds 65536 bytes/,
    },
    {
      name: "unknown resource",
      method: "GET",
      path: "/_sandbox/resources/parcel/{id}",
      status: 404,
      field: "resource",
      detail: /shop@1\.0\.0 has no sandbox resource "parcel"; resources: order/,
    },
    {
      name: "unknown id",
      method: "GET",
      path: "/_sandbox/resources/order/o-404",
      status: 404,
      field: "id",
      detail: /this credential has no order "o-404"/,
    },
    {
      name: "bad percent-encoding",
      method: "GET",
      path: "/_sandbox/resources/order/%E0%A4%A",
      status: 400,
      field: "id",
      detail: /not valid percent-encoding/,
    },
    {
      name: "callback URL not http",
      method: "PUT",
      path: "/_sandbox/callbacks/orderPaid",
      body: { url: "ftp://127.0.0.1/x" },
      status: 400,
      field: "url",
      detail: /url must be an absolute http\(s\) URL/,
    },
    {
      name: "callback URL with userinfo",
      method: "PUT",
      path: "/_sandbox/callbacks/orderPaid",
      body: { url: "http://user:pw@127.0.0.1:9/" },
      status: 400,
      field: "url",
      detail: /must not carry a user name or password/,
    },
    {
      name: "callback URL not a URL",
      method: "PUT",
      path: "/_sandbox/callbacks/orderPaid",
      body: { url: "not a url" },
      status: 400,
      field: "url",
      detail: /url: must match format "uri"/,
    },
    {
      name: "unknown webhook",
      method: "PUT",
      path: "/_sandbox/callbacks/orderShipped",
      body: { url: "http://127.0.0.1:9/" },
      status: 404,
      field: "webhook",
      detail: /shop@1\.0\.0 has no webhook "orderShipped"; webhooks: orderPaid/,
    },
    {
      name: "clock: zero seconds",
      method: "POST",
      path: "/_sandbox/clock/advance",
      body: { seconds: 0 },
      status: 400,
      field: "seconds",
      detail: /seconds: must be >= 1/,
    },
    {
      name: "clock: more than 400 days",
      method: "POST",
      path: "/_sandbox/clock/advance",
      body: { seconds: LIMITS.advanceSeconds + 1 },
      status: 400,
      field: "seconds",
      detail: /seconds: must be <= 34560000/,
    },
    {
      name: "clock: not an integer",
      method: "POST",
      path: "/_sandbox/clock/advance",
      body: { seconds: 1.5 },
      status: 400,
      field: "seconds",
      detail: /seconds: must be integer/,
    },
    {
      name: "error: unknown operation",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "shipOrder", status: 400 },
      status: 400,
      field: "operation_id",
      detail:
        /"shipOrder" is not an operation of shop@1\.0\.0; operations: listOrders, createOrder, getOrder, updateOrder, deleteOrder, getPing/,
    },
    {
      name: "error: not an error status",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "createOrder", status: 200 },
      status: 400,
      field: "status",
      detail: /status: must be >= 400/,
    },
    {
      name: "error: nothing to force",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "getPing" },
      status: 400,
      field: "status",
      detail: /status: is required; latency_ms: is required; drop: is required/,
    },
    {
      name: "error: a drop with a status",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "getPing", status: 503, drop: true },
      status: 400,
      field: "drop",
      detail: /drop: must be false/,
    },
    {
      name: "error: a drop after processing with a status",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "getPing", status: 503, drop: "after" },
      status: 400,
      field: "drop",
      detail: /drop: must be false/,
    },
    {
      name: "error: drop false forces nothing",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "getPing", drop: false },
      status: 400,
      field: "drop",
      detail: /status: is required; latency_ms: is required; drop: must be one of true, "before", "after"/,
    },
    {
      name: "error: a drop neither before nor after",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "getPing", drop: "later" },
      status: 400,
      field: "drop",
      detail: /drop/,
    },
    {
      name: "error: count 0",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "createOrder", status: 400, count: 0 },
      status: 400,
      field: "count",
      detail: /count: must be >= 1/,
    },
    {
      name: "error: count over 100",
      method: "POST",
      path: "/_sandbox/errors",
      body: { operation_id: "createOrder", status: 400, count: 101 },
      status: 400,
      field: "count",
      detail: /count: must be <= 100/,
    },
    {
      name: "unknown control path",
      method: "GET",
      path: "/_sandbox/nothing",
      status: 404,
      detail: /no control operation at \/_sandbox\/nothing/,
    },
    {
      name: "method not allowed",
      method: "PATCH",
      path: "/_sandbox/clock",
      status: 405,
      detail: /PATCH is not allowed on \/_sandbox\/clock; allowed: GET/,
    },
  ];

  it("has the expected number of cases", () => expect(cases).toHaveLength(30));

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const answer = await call(mock.url, c.method, c.path.replace("{id}", orderId), {
      headers: { ...headers, ...(c.type ? { "content-type": c.type } : {}) },
      body: c.body,
      raw: c.raw,
    });
    expect(answer.status).toBe(c.status);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(answer.body).toMatchObject({ type: "about:blank", status: c.status });
    expect(answer.body.detail).toMatch(c.detail);
    if (c.field) expect(answer.body.field).toBe(c.field);
    else expect(answer.body.field).toBeUndefined();
    if (c.status === 405) expect(answer.headers.get("allow")).toBe("GET");
  });

  it("asks for a credential, naming the headers it is read from", async () => {
    const answer = await call(mock.url, "GET", "/_sandbox/state");
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toMatch(/Authorization: Bearer <value> or x-api-key: <value>/);
    expect(controlViolations("getState", answer)).toEqual([]);
  });

  it("an error queued for one operation answers only that operation's calls: the others answer from state and leave it queued", async () => {
    const own = { authorization: "Bearer control-one-operation" };
    const order = { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } };
    const id = (await call(mock.url, "POST", "/v1/order", { headers: own, body: order })).body.order_id;
    // 401 is declared by every operation of the API: a leak would be answered, not refused.
    const queued = await call(mock.url, "POST", "/_sandbox/errors", { headers: own, body: { operation_id: "createOrder", status: 401 } });
    expect(queued.status).toBe(201);
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers: own })).status).toBe(200);
    expect((await call(mock.url, "GET", "/v1/order?limit=10", { headers: own })).status).toBe(200);
    expect((await call(mock.url, "GET", "/_sandbox/errors", { headers: own })).body.errors).toEqual([
      expect.objectContaining({ operation_id: "createOrder", status: 401, remaining: 1 }),
    ]);
    expect((await call(mock.url, "POST", "/v1/order", { headers: own, body: order })).status).toBe(401);
    expect((await call(mock.url, "POST", "/v1/order", { headers: own, body: order })).status).toBe(200);
  });

  it("bounds the queued errors of a credential", async () => {
    const own = { authorization: "Bearer control-bounds" };
    for (let i = 0; i < LIMITS.errorRules; i++) {
      expect(
        (await call(mock.url, "POST", "/_sandbox/errors", { headers: own, body: { operation_id: "createOrder", status: 400 } })).status,
      ).toBe(201);
    }
    const over = await call(mock.url, "POST", "/_sandbox/errors", { headers: own, body: { operation_id: "createOrder", status: 400 } });
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/20 error rules are queued for this credential, the limit/);
    expect(controlViolations("createError", over)).toEqual([]);
  });
});

describe("sandboxControl (the testing entry's typed client)", () => {
  it("drives the control API and throws the problem's detail and field", async () => {
    const control = sandboxControl(mock.url, "client-token");
    const created = await call(mock.url, "POST", "/v1/order", {
      headers: { authorization: "Bearer client-token" },
      body: { merchant_id: "m-2", amount: { cur: "PHP", amt: "2.00" } },
    });
    const id = created.body.order_id;
    expect((await control.record("order", id)).status).toBe("CREATED");
    expect((await control.setStatus("order", id, "PAID")).to).toBe("PAID");
    expect((await control.advanceClock(10)).clock.offset_seconds).toBe(10);
    expect((await control.queueError("createOrder", 400, 2)).remaining).toBe(2);
    expect((await control.errors()).errors).toHaveLength(1);
    expect(await control.clearErrors()).toEqual({ reset: 1 });
    expect((await control.state()).resources.order).toHaveLength(1);
    expect((await control.describe()).alias).toBe("shop@1.0.0");
    const failure = await control.setStatus("order", id, "LOST").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SandboxControlError);
    expect(failure).toMatchObject({ status: 400, field: "status", message: expect.stringContaining('"LOST" is not a status of order') });
    expect(await control.reset()).toEqual({ reset: 1 });
  });
});
