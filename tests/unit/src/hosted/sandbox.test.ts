/**
 * Hosted mode in the sandbox, in process (src/sandbox/control/gate.ts, src/sandbox/hosting.ts and
 * the control API's hosted routes, over the fixture API shop@1.0.0): only a credential the operator
 * issued is served; any other is answered exactly as a request that carries none (Prism's 401) and
 * nothing is made for it, on the API and on the control API; a revoked one at once; a partner over
 * its rate gets 429 and the others go on; its quotas bound its state and change from its next
 * request; the partners' routes, the health check and the metrics answer as the control document
 * says; a failure the sandbox does not foresee is answered 500 naming only the id the log holds its
 * cause under; callbacks follow the shared policy on a loopback interface; no log line carries a credential.
 * The same as real processes, on every API: tests/e2e/hosted/.
 */
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadDocument, operations, requiresCredentials } from "../../../../src/document/index.js";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { Partners } from "../../../../src/hosted/partners.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { credentialHeaders, sendExample } from "../../../../src/testing/requests.js";
import { call, controlViolations } from "../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const doc = loadDocument(shop.bundlePath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const OPERATOR = "operator-token-of-the-hosted-tests";
const AS_OPERATOR = { "x-sandbox-operator-token": OPERATOR };
const ORDER = { merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } };

const lines: string[] = [];
const log = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    done();
  },
});
const records = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

let mock: MockServer;
/** Every credential issued here, to look for in the log. */
const issuedCredentials: string[] = [];

beforeAll(async () => {
  mock = await startMock(shop, {
    port: 0,
    sandbox: { declarationPath, registry: registryPath, operatorToken: OPERATOR, hosted: { log } },
  });
}, 60_000);
afterAll(() => mock.close());

interface Issued {
  id: string;
  credential: string;
  quotas: Record<string, number>;
}

async function issue(name: string, quotas?: Record<string, number>): Promise<Issued> {
  const answer = await call(mock.url, "POST", "/_sandbox/partners", {
    headers: AS_OPERATOR,
    body: { name, ...(quotas ? { quotas } : {}) },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  issuedCredentials.push(answer.body.credential);
  return answer.body;
}

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const createOrder = (credential: string) => call(mock.url, "POST", "/v1/order", { headers: bearer(credential), body: ORDER });
/** The credentials with state, as the operator lists them (labels). */
const statesHeld = async () => (await call(mock.url, "GET", "/_sandbox/state/all", { headers: AS_OPERATOR })).body.credentials as unknown[];

/** An answer as compared: status, headers but the date, body. */
async function answerOf(response: Response) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "date"));
  return { status: response.status, headers, body: await response.text() };
}

describe("a credential no one issued", () => {
  const ops = operations(doc);

  it("is answered on every operation exactly as a request without a credential (Prism's 401), and nothing is made for it", async () => {
    expect(ops.map((op) => op.operationId).sort()).toEqual([
      "createOrder",
      "deleteOrder",
      "getOrder",
      "getPing",
      "listOrders",
      "updateOrder",
    ]);
    const before = await statesHeld();
    for (const op of ops) {
      const without = await answerOf(await sendExample(mock.url, doc, op, { credentials: false }));
      const madeUp = await answerOf(
        await sendExample(mock.url, doc, op, {
          credentials: false,
          headers: credentialHeaders(doc, op, { token: "made-up-credential-0001", apiKey: "made-up-credential-0001" }),
        }),
      );
      // getPing's credentials are optional: without one it answers its example, as it does a made-up one.
      expect(without.status, op.operationId).toBe(requiresCredentials(doc, op) ? 401 : 200);
      expect(madeUp, op.operationId).toEqual(without);
    }
    expect(await statesHeld()).toEqual(before);
  });

  it("gets 401 on the control API's operations on a credential's state, and nothing is made for it", async () => {
    const before = await statesHeld();
    for (const [method, path] of [
      ["GET", "/_sandbox/state"],
      ["GET", "/_sandbox/events"],
      ["POST", "/_sandbox/clock/advance"],
    ] as const) {
      const answer = await call(mock.url, method, path, {
        headers: bearer("made-up-credential-0002"),
        body: method === "POST" ? { seconds: 1 } : undefined,
      });
      expect(answer.status, path).toBe(401);
      expect(answer.body.detail).toContain("was not issued by the sandbox's operator, or was revoked");
    }
    expect(await statesHeld()).toEqual(before);
  });
});

describe("an issued credential", () => {
  it("is served on the API and the control API, its requests logged under its partner's id", async () => {
    const partner = await issue("Served");
    const created = await createOrder(partner.credential);
    expect(created.status).toBe(200);
    const read = await call(mock.url, "GET", `/v1/order/${created.body.order_id}`, { headers: bearer(partner.credential) });
    expect(read.body.order_id).toBe(created.body.order_id);
    const state = await call(mock.url, "GET", "/_sandbox/state", { headers: bearer(partner.credential) });
    expect(state.status).toBe(200);
    const logged = records().filter((r) => r.msg === "request" && r.partner === partner.id);
    expect(logged.map((r) => [r.method, r.path, r.status])).toEqual([
      ["POST", "/v1/order", 200],
      ["GET", `/v1/order/${created.body.order_id}`, 200],
      ["GET", "/_sandbox/state", 200],
    ]);
  });

  it("is refused from the moment it is revoked, on the API and on the control API", async () => {
    const partner = await issue("Revoked");
    expect((await createOrder(partner.credential)).status).toBe(200);
    const revoked = await call(mock.url, "DELETE", `/_sandbox/partners/${partner.id}`, { headers: AS_OPERATOR });
    expect(revoked.status).toBe(200);
    expect(revoked.body.id).toBe(partner.id);
    expect((await createOrder(partner.credential)).status).toBe(401);
    expect((await call(mock.url, "GET", "/_sandbox/state", { headers: bearer(partner.credential) })).status).toBe(401);
  });
});

describe("a partner's rate", () => {
  it("answers 429 problem+json with Retry-After past it, named in sl-violations; another partner is answered meanwhile", async () => {
    const noisy = await issue("Noisy", { requests_per_second: 1, burst: 0 });
    const quiet = await issue("Quiet");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(mock.url, "GET", "/v1/order?limit=10", { headers: bearer(noisy.credential) })),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    const [first] = limited;
    expect(first.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(first.body).toEqual({
      type: "about:blank",
      title: "Sandbox rate limit reached",
      status: 429,
      detail: `this partner's request rate is 1 per second: retry after ${first.headers.get("retry-after")} s`,
    });
    expect(first.violations).toEqual([
      {
        location: ["response", "status"],
        severity: "Error",
        code: "sandbox-rate-limit",
        message: `429 is the sandbox's own answer when a partner's request rate is reached (not a status listOrders declares): ${first.body.detail}`,
      },
    ]);
    expect((await call(mock.url, "GET", "/v1/order?limit=10", { headers: bearer(quiet.credential) })).status).toBe(200);
    // The control API counts against the same rate, answered as the control document says.
    const control = await call(mock.url, "GET", "/_sandbox/state", { headers: bearer(noisy.credential) });
    expect(control.status).toBe(429);
    expect(control.headers.get("retry-after")).not.toBeNull();
    expect(controlViolations("getState", control)).toEqual([]);
  });
});

describe("a partner's quotas", () => {
  it("bound its records (507 naming the quota) while another partner creates on; a change holds from its next request", async () => {
    const small = await issue("Small", { records: 2 });
    const other = await issue("Other");
    expect((await createOrder(small.credential)).status).toBe(200);
    expect((await createOrder(small.credential)).status).toBe(200);
    const full = await createOrder(small.credential);
    expect(full.status).toBe(507);
    expect(full.body.detail).toBe(
      "this credential holds 2 records, this partner's quota; reset its state (DELETE /_sandbox/state) to make room",
    );
    expect(full.violations.map((v) => v.code)).toEqual(["sandbox-limit"]);
    expect((await createOrder(other.credential)).status).toBe(200);
    const patched = await call(mock.url, "PATCH", `/_sandbox/partners/${small.id}`, {
      headers: { ...AS_OPERATOR, "content-type": "application/merge-patch+json" },
      body: { quotas: { records: 3 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.quotas.records).toBe(3);
    expect((await createOrder(small.credential)).status).toBe(200);
    expect((await createOrder(small.credential)).status).toBe(507);
  });

  it("bound the bytes it holds", async () => {
    const partner = await issue("Bytes", { bytes: 1024 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await createOrder(partner.credential)).status);
    expect(statuses).toContain(507);
    expect(statuses.indexOf(507)).toBeGreaterThan(0);
    const refused = await createOrder(partner.credential);
    expect(refused.body.detail).toBe(
      "this credential's records and events would take more than 1024 bytes, this partner's quota; reset its state (DELETE /_sandbox/state)",
    );
  });
});

describe("the partners' routes", () => {
  it("answer as the control document says: issue, list, get, patch, revoke, and their refusals", async () => {
    const created = await call(mock.url, "POST", "/_sandbox/partners", {
      headers: AS_OPERATOR,
      body: { name: "Documented", quotas: { events: 50 } },
    });
    issuedCredentials.push(created.body.credential);
    const { id } = created.body;
    const answers: Array<[string, Awaited<ReturnType<typeof call>>, number]> = [
      ["createPartner", created, 201],
      ["listPartners", await call(mock.url, "GET", "/_sandbox/partners", { headers: AS_OPERATOR }), 200],
      ["getPartner", await call(mock.url, "GET", `/_sandbox/partners/${id}`, { headers: AS_OPERATOR }), 200],
      [
        "updatePartner",
        await call(mock.url, "PATCH", `/_sandbox/partners/${id}`, { headers: AS_OPERATOR, body: { name: "Renamed", quotas: null } }),
        200,
      ],
      ["createPartner", await call(mock.url, "POST", "/_sandbox/partners", { headers: AS_OPERATOR, body: { name: "" } }), 400],
      [
        "createPartner",
        await call(mock.url, "POST", "/_sandbox/partners", { headers: AS_OPERATOR, body: { name: "X", quotas: { rows: 1 } } }),
        400,
      ],
      [
        "updatePartner",
        await call(mock.url, "PATCH", `/_sandbox/partners/${id}`, { headers: AS_OPERATOR, body: { quotas: { burst: -1 } } }),
        400,
      ],
      ["listPartners", await call(mock.url, "GET", "/_sandbox/partners"), 401],
      [
        "createPartner",
        await call(mock.url, "POST", "/_sandbox/partners", { headers: bearer(created.body.credential), body: { name: "Self" } }),
        401,
      ],
      ["deletePartner", await call(mock.url, "DELETE", `/_sandbox/partners/${id}`, { headers: AS_OPERATOR }), 200],
      ["getPartner", await call(mock.url, "GET", `/_sandbox/partners/${id}`, { headers: AS_OPERATOR }), 404],
      ["deletePartner", await call(mock.url, "DELETE", `/_sandbox/partners/${id}`, { headers: AS_OPERATOR }), 404],
    ];
    for (const [operationId, answer, status] of answers) {
      expect([operationId, answer.status, answer.body]).toEqual([operationId, status, expect.anything()]);
      expect(controlViolations(operationId, answer), operationId).toEqual([]);
    }
    expect(answers[3][1].body).toMatchObject({ name: "Renamed", overridden: [], quotas: { events: 200 } });
    expect(answers[4][1].body.field).toBe("name");
    expect(answers[5][1].body.field).toBe("quotas.rows");
    expect(answers[6][1].body.field).toBe("quotas.burst");
    // The listing and a partner's page never show a credential.
    expect(JSON.stringify(answers[1][1].body)).not.toContain("bacsbx_");
    expect(JSON.stringify(answers[2][1].body)).not.toContain("bacsbx_");
  });
});

describe("a control call that fails in a way the sandbox does not foresee", () => {
  it("is answered 500 naming the failure's id, as the control document says; the cause is in the log under that id", async () => {
    const failing = vi.spyOn(Partners.prototype, "list").mockRejectedValueOnce(new TypeError(`the partner store broke at ${OPERATOR}`));
    const answer = await call(mock.url, "GET", "/_sandbox/partners", { headers: AS_OPERATOR });
    failing.mockRestore();
    expect(answer.status).toBe(500);
    const id = /as failure ([0-9a-f-]{36})$/.exec(answer.body.detail)?.[1];
    expect(answer.body.detail).toBe(`the sandbox failed; its operator's log names the cause, as failure ${id}`);
    expect(controlViolations("listPartners", answer)).toEqual([]);
    expect(records().filter((r) => r.msg === "sandbox failed")).toEqual([
      expect.objectContaining({ failure: id, api: shop.alias, cause: "the partner store broke at [redacted]" }),
    ]);
  });
});

describe("running it as a service", () => {
  it("answers the health check without a credential: 200 ready", async () => {
    const health = await call(mock.url, "GET", "/_sandbox/health");
    expect([health.status, health.body]).toEqual([200, { status: "ready" }]);
    expect(controlViolations("getHealth", health)).toEqual([]);
  });

  it("serves the metrics to the operator alone: requests, records and bytes held, deliveries by outcome", async () => {
    expect((await call(mock.url, "GET", "/_sandbox/metrics")).status).toBe(401);
    const partner = await issue("Measured");
    const created = await createOrder(partner.credential);
    // Paid with no callback URL registered: a delivery skipped, counted by its outcome.
    const paid = await call(mock.url, "POST", `/_sandbox/resources/order/${created.body.order_id}/actions/pay`, {
      headers: bearer(partner.credential),
      body: {},
    });
    expect(paid.status).toBe(200);
    const metrics = await call(mock.url, "GET", "/_sandbox/metrics", { headers: AS_OPERATOR });
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = String(metrics.body);
    expect(text).toMatch(/^bank_api_contracts_sandbox_requests_total\{api="shop@1\.0\.0",operation="createOrder",status="200"\} \d+$/m);
    expect(text).toMatch(/^bank_api_contracts_sandbox_records\{api="shop@1\.0\.0"\} [1-9]\d*$/m);
    expect(text).toMatch(/^bank_api_contracts_sandbox_record_bytes\{api="shop@1\.0\.0"\} [1-9]\d*$/m);
    expect(text).toMatch(/^bank_api_contracts_sandbox_callbacks_queued\{api="shop@1\.0\.0"\} 0$/m);
    expect(text).toMatch(/^bank_api_contracts_sandbox_callback_deliveries_total\{api="shop@1\.0\.0",outcome="skipped"\} [1-9]\d*$/m);
    expect(text).toMatch(/^bank_api_contracts_sandbox_partners [1-9]\d*$/m);
    for (const credential of issuedCredentials) expect(text).not.toContain(credential);
  });

  it("keeps the shared callback policy on a loopback interface: a callback URL the operator did not allow is refused", async () => {
    const partner = await issue("Callbacks");
    const refused = await call(mock.url, "PUT", "/_sandbox/callbacks/orderPaid", {
      headers: bearer(partner.credential),
      body: { url: "http://127.0.0.1:9/paid" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: "url" });
    expect(refused.body.detail).toContain("this sandbox is shared (a hosted sandbox) and its operator allows no callback targets");
    expect((await call(mock.url, "GET", "/_sandbox")).body.sharing.mode).toBe("shared");
  });

  it("writes no credential, issued or made up, and no operator token, in any log line", async () => {
    expect(lines.length).toBeGreaterThan(10);
    const text = lines.join("\n");
    for (const secret of [...issuedCredentials, "made-up-credential-0001", "made-up-credential-0002", OPERATOR])
      expect(text).not.toContain(secret);
  });
});
