/**
 * The operator's partner operations of a hosted sandbox (src/sandbox/control/operations/
 * create-partner.ts, update-partner.ts, src/sandbox/control/handler.ts `partnerInput`), in process
 * over the fixture API shop@1.0.0, as the control document (src/sandbox/openapi.yaml) describes them:
 * a name the schema lets through but hosted mode refuses (a control character: "1 to 100 printable
 * characters") is answered 400 naming `name`, and nothing changes; partners that cannot be written (a
 * durable store down) are answered 503 with Retry-After, as every store failure is, never as the
 * operator's mistake.
 */
import { Writable } from "node:stream";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryPartnerStore, type PartnerStore } from "../../../../src/hosted/index.js";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";
import { call } from "../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const OPERATOR = "operator-token-of-the-partner-operation-tests";
const AS_OPERATOR = { "x-sandbox-operator-token": OPERATOR };

/** The partners' store: the memory one, whose writes can be made to fail as a durable store's do when it is down. */
const memory = new MemoryPartnerStore();
let down = false;
const partners: PartnerStore = {
  listPartners: () => memory.listPartners(),
  partnerByCredential: (key) => memory.partnerByCredential(key),
  deletePartner: (id) => memory.deletePartner(id),
  putPartner: (row) =>
    down ? Promise.reject(new StoreUnavailable("the sandbox's store could not write a partner")) : memory.putPartner(row),
};
const log = new Writable({ write: (_chunk, _encoding, done) => done() });

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(shop, {
    port: 0,
    sandbox: { declarationPath, registry: registryPath, operatorToken: OPERATOR, hosted: { log, partners } },
  });
}, 60_000);
afterAll(() => mock?.close());

const listed = async () => (await call(mock.url, "GET", "/_sandbox/partners", { headers: AS_OPERATOR })).body.partners;

describe("a partner's name with a control character (the schema's length allows it)", () => {
  it("is refused 400 naming `name` when issuing, and no partner is made", async () => {
    const before = await listed();
    const refused = await call(mock.url, "POST", "/_sandbox/partners", { headers: AS_OPERATOR, body: { name: "Acme\u0007Ltd" } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.body).toMatchObject({ status: 400, field: "name" });
    expect(refused.body.detail).toMatch(/control characters/);
    expect(await listed()).toEqual(before);
  });

  it("is refused 400 naming `name` in a patch, and the partner keeps its name", async () => {
    const issued = await call(mock.url, "POST", "/_sandbox/partners", { headers: AS_OPERATOR, body: { name: "Acme Ltd" } });
    expect(issued.status).toBe(201);
    const refused = await call(mock.url, "PATCH", `/_sandbox/partners/${issued.body.id}`, {
      headers: AS_OPERATOR,
      body: { name: "Acme\u001bLtd" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, field: "name" });
    const partner = await call(mock.url, "GET", `/_sandbox/partners/${issued.body.id}`, { headers: AS_OPERATOR });
    expect(partner.body.name).toBe("Acme Ltd");
  });
});

describe("the operator's bodies", () => {
  it("are JSON: a partner sent as text is refused 415, and none is made", async () => {
    const before = await listed();
    const refused = await call(mock.url, "POST", "/_sandbox/partners", {
      headers: { ...AS_OPERATOR, "content-type": "text/plain" },
      raw: JSON.stringify({ name: "Delta Ltd" }),
    });
    expect(refused.status).toBe(415);
    expect(await listed()).toEqual(before);
  });

  it("are not read by an operation that takes none: DELETE revokes whatever body comes with it", async () => {
    const issued = await call(mock.url, "POST", "/_sandbox/partners", { headers: AS_OPERATOR, body: { name: "Epsilon Ltd" } });
    const revoked = await call(mock.url, "DELETE", `/_sandbox/partners/${issued.body.id}`, {
      headers: { ...AS_OPERATOR, "content-type": "text/plain" },
      raw: "not the control API's",
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: issued.body.id, name: "Epsilon Ltd" });
  });
});

describe("a partner id no partner has", () => {
  it.each([
    ["GET", undefined],
    ["PATCH", { name: "Gamma Ltd" }],
    ["DELETE", undefined],
  ])("is refused %s 404 naming the id", async (method, body) => {
    const refused = await call(mock.url, method, "/_sandbox/partners/ptn_nobody", { headers: AS_OPERATOR, body });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 404, field: "id" });
    expect(refused.body.detail).toContain('no partner "ptn_nobody"');
  });
});

describe("partners that cannot be written (the store is down)", () => {
  it("answer the operator 503 with Retry-After, the store's failure, not the input's", async () => {
    down = true;
    try {
      const refused = await call(mock.url, "POST", "/_sandbox/partners", { headers: AS_OPERATOR, body: { name: "Beta Ltd" } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.body).toMatchObject({ status: 503, title: "Sandbox store unavailable" });
      expect(refused.body).not.toHaveProperty("field");
    } finally {
      down = false;
    }
    expect((await listed()).map((p: { name: string }) => p.name)).not.toContain("Beta Ltd");
  });
});
