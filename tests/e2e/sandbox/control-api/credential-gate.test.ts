/**
 * Hosted mode's credential gate (src/sandbox/control/gate.ts) and the control API's admission of a
 * call on a credential's state (src/sandbox/control/index.ts), in process, on a tiny hand-written
 * document whose operations carry their credential in each place OpenAPI allows (a header, the
 * query, a cookie, Authorization). The hosted service is a scripted stand-in (HostedSandbox is the
 * sandbox's whole view of it), so that each of its answers, a store that cannot be read included, is
 * given at will:
 * - a credential no one issued is taken off the request wherever its scheme puts it, and only it
 *   (the request then goes on as one carrying none: hosting guide, "Credentials");
 * - partners that cannot be read answer 503 problem+json with Retry-After, on the API and on the
 *   control API alike, and never tell the partner what failed underneath.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { ControlApi } from "../../../../src/sandbox/control/index.js";
import { gate, UNREADABLE } from "../../../../src/sandbox/control/gate.js";
import { createEngine } from "../../../../src/sandbox/engine/create.js";
import type { Admission, HostedSandbox } from "../../../../src/sandbox/hosting.js";
import { credentialKey } from "../../../../src/sandbox/store/state.js";

const answers = {
  "200": { description: "ok", content: { "application/json": { schema: { type: "object" }, example: {} } } },
  "401": { description: "no credential" },
};
const doc: Doc = {
  openapi: "3.1.0",
  info: { title: "Credential places (test)", version: "1.0.0" },
  paths: {
    "/v1/by-header": { get: { operationId: "byHeader", security: [{ headerKey: [] }], responses: answers } },
    "/v1/by-query": { get: { operationId: "byQuery", security: [{ queryKey: [] }], responses: answers } },
    "/v1/by-cookie": { get: { operationId: "byCookie", security: [{ cookieKey: [] }], responses: answers } },
    "/v1/by-bearer": { get: { operationId: "byBearer", security: [{ bearer: [] }], responses: answers } },
    "/v1/declares-503": {
      get: {
        operationId: "declares503",
        security: [{ headerKey: [] }],
        responses: {
          ...answers,
          "503": { description: "unavailable", content: { "application/problem+json": { schema: { type: "object" } } } },
        },
      },
    },
    // A path with no GET: the gate finds its operation by the request's own method.
    "/v1/payments": { post: { operationId: "createPayment", security: [{ headerKey: [] }], responses: answers } },
  },
  components: {
    securitySchemes: {
      // Mixed case, as specs write header names: Node hands them over in lower case.
      headerKey: { type: "apiKey", in: "header", name: "X-Partner-Key" },
      queryKey: { type: "apiKey", in: "query", name: "partner_key" },
      cookieKey: { type: "apiKey", in: "cookie", name: "partner_session" },
      bearer: { type: "http", scheme: "bearer" },
    },
  },
};

const [fixture] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const engine = createEngine({ ...fixture, alias: "credential-places@1.0.0" }, doc, {}, "inline");

/** The credential an issued partner holds (the scripted service admits it), and one no one issued. */
const ISSUED = "bacsbx_issued-credential-of-the-gate-tests";
const MADE_UP = "made-up-credential-of-the-gate-tests";
/** What the store's failure says underneath: the operator's to see, never the partner's. */
const STORE_FAILURE = "connect ECONNREFUSED postgres://sandbox:secret-password@db.internal:5432";

/** The scripted hosted service: what `admit` answers (or throws), and what it was asked. */
let admission: () => Promise<Admission> = async () => ({ outcome: "unissued" });
const admitted: Array<string | undefined> = [];
const kept: IncomingMessage["headers"][] = [];
const hosted = {
  admit: (_request: IncomingMessage, key: string | undefined) => {
    admitted.push(key);
    return admission();
  },
  keepHeaders: (_request: IncomingMessage, headers: IncomingMessage["headers"]) => {
    kept.push(headers);
  },
} as unknown as HostedSandbox;

const scripted = (credential: string) => async (): Promise<Admission> =>
  credential === ISSUED ? { outcome: "admitted", partner: { id: "ptn_1" } } : { outcome: "unissued" };

/** A request as the gate sees it: its method, its target and its headers (Node's lower-case names). */
function request(target: string, headers: Record<string, string> = {}, method = "GET"): IncomingMessage {
  return { method, url: target, headers: { host: "sandbox.test", accept: "application/json", ...headers } } as IncomingMessage;
}
const urlOf = (target: string) => new URL(target, "http://sandbox.invalid");

async function gated(target: string, headers: Record<string, string> = {}, method = "GET") {
  const req = request(target, headers, method);
  const before = { ...req.headers };
  const outcome = await gate(engine, hosted, req, urlOf(target));
  return { outcome, req, before };
}

afterAll(() => engine.close());

describe("a credential no one issued is taken off the request, where its scheme puts it", () => {
  beforeAll(() => {
    admission = scripted(MADE_UP);
  });

  it("in a header the scheme names (in any case): the other headers stay", async () => {
    const { outcome, req, before } = await gated("/v1/by-header", { "x-partner-key": MADE_UP, "x-request-id": "r-1" });
    expect(outcome).toEqual({ pass: true, admitted: false });
    expect(admitted.at(-1)).toBe(credentialKey(MADE_UP));
    expect(req.headers).toEqual({ host: "sandbox.test", accept: "application/json", "x-request-id": "r-1" });
    expect(req.url).toBe("/v1/by-header");
    // The headers as received are kept for the log, which must know the values it never writes.
    expect(kept.at(-1)).toEqual(before);
  });

  it("in the query: that parameter only, the others and the headers stay", async () => {
    const { outcome, req } = await gated(`/v1/by-query?page=2&partner_key=${MADE_UP}&sort=asc`);
    expect(outcome).toEqual({ pass: true, admitted: false });
    expect(req.url).toBe("/v1/by-query?page=2&sort=asc");
    expect(req.headers).toEqual({ host: "sandbox.test", accept: "application/json" });
  });

  it("in the query, alone: the target is the bare path", async () => {
    const { req } = await gated(`/v1/by-query?partner_key=${MADE_UP}`);
    expect(req.url).toBe("/v1/by-query");
  });

  it("in a cookie", async () => {
    const { outcome, req } = await gated("/v1/by-cookie", { cookie: `partner_session=${MADE_UP}` });
    expect(outcome).toEqual({ pass: true, admitted: false });
    expect(req.headers).toEqual({ host: "sandbox.test", accept: "application/json" });
    expect(req.url).toBe("/v1/by-cookie");
  });

  it("in Authorization", async () => {
    const { req } = await gated("/v1/by-bearer", { authorization: `Bearer ${MADE_UP}` });
    expect(req.headers).toEqual({ host: "sandbox.test", accept: "application/json" });
  });

  it("of the operation the request's method names (a path without GET)", async () => {
    const calls = admitted.length;
    const { outcome, req } = await gated("/v1/payments", { "x-partner-key": MADE_UP }, "POST");
    expect(outcome).toEqual({ pass: true, admitted: false });
    expect(admitted.slice(calls)).toEqual([credentialKey(MADE_UP)]);
    expect(req.headers).toEqual({ host: "sandbox.test", accept: "application/json" });
  });

  it("but an issued one stays where it is, and the request is marked admitted", async () => {
    admission = scripted(ISSUED);
    const { outcome, req, before } = await gated(`/v1/by-query?partner_key=${ISSUED}`, { "x-partner-key": ISSUED });
    expect(outcome).toEqual({ pass: true, admitted: true });
    expect(req.headers).toEqual(before);
    expect(req.url).toBe(`/v1/by-query?partner_key=${ISSUED}`);
  });
});

describe("a request the gate does not look up", () => {
  it("matching no operation goes on untouched, and no partner is looked up (Prism answers 404)", async () => {
    admission = scripted(MADE_UP);
    const calls = admitted.length;
    const { outcome, req, before } = await gated("/v1/unknown", { "x-partner-key": MADE_UP });
    expect(outcome).toEqual({ pass: true, admitted: false });
    expect(admitted.length).toBe(calls);
    expect(req.headers).toEqual(before);
  });

  it("carrying no credential is looked up as one without a key", async () => {
    admission = scripted(MADE_UP);
    const calls = admitted.length;
    const { outcome } = await gated("/v1/by-header");
    expect(outcome).toEqual({ pass: true, admitted: false });
    expect(admitted.slice(calls)).toEqual([undefined]);
  });
});

describe("partners that cannot be read (the store does not answer)", () => {
  beforeAll(() => {
    admission = () => Promise.reject(new Error(STORE_FAILURE));
  });

  it("answer an API request 503 problem+json with Retry-After, reported as the sandbox's own answer", async () => {
    const { outcome } = await gated("/v1/by-header", { "x-partner-key": ISSUED });
    expect(outcome.pass).toBe(false);
    if (outcome.pass) return;
    expect(outcome.answer.status).toBe(503);
    expect(outcome.answer.headers).toMatchObject({ "Content-Type": "application/problem+json", "Retry-After": "1" });
    expect(outcome.answer.body).toMatchObject({ status: 503, detail: UNREADABLE });
    expect(JSON.stringify(outcome.answer)).not.toContain("secret-password");
    // The operation declares no 503: the answer is named a deviation of the sandbox's own.
    expect(outcome.violations.map((v) => v.code)).toEqual(["sandbox-store"]);
  });
});

describe("the control API in hosted mode, over HTTP", () => {
  const control = new ControlApi(engine, hosted);
  let server: Server;
  let base: string;
  /** The requests the control API let go on (to Prism and the engine, in the mock). */
  const wentOn: string[] = [];
  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (!(await control.handle(req, res, Buffer.concat(chunks)))) {
        wentOn.push(req.url ?? "");
        if (res.headersSent) return;
        res.writeHead(299, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ passed: req.url }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const getClock = (credential: string) => fetch(`${base}/_sandbox/clock`, { headers: { authorization: `Bearer ${credential}` } });

  it("answers a call on a credential's state 503 with Retry-After when the partners cannot be read, naming nothing underneath", async () => {
    admission = () => Promise.reject(new Error(STORE_FAILURE));
    const response = await getClock(ISSUED);
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(JSON.parse(text)).toMatchObject({ status: 503, detail: UNREADABLE });
    expect(text).not.toContain("secret-password");
  });

  it("answers an API request 503 when the partners cannot be read, named in sl-violations only where the operation does not declare 503", async () => {
    admission = () => Promise.reject(new Error(STORE_FAILURE));
    const undeclared = await fetch(`${base}/v1/by-header`, { headers: { "x-partner-key": ISSUED } });
    expect(undeclared.status).toBe(503);
    expect(await undeclared.json()).toMatchObject({ status: 503, detail: UNREADABLE });
    expect(JSON.parse(undeclared.headers.get("sl-violations") ?? "[]").map((v: { code?: string }) => v.code)).toEqual(["sandbox-store"]);

    const declared = await fetch(`${base}/v1/declares-503`, { headers: { "x-partner-key": ISSUED } });
    expect(declared.status).toBe(503);
    expect(declared.headers.has("sl-violations")).toBe(false);
    // Answered by the gate: neither went on.
    expect(wentOn).not.toContain("/v1/by-header");
    expect(wentOn).not.toContain("/v1/declares-503");
  });

  it("answers a call over its partner's rate 429 with the service's Retry-After and reason", async () => {
    const detail = "partner ptn_1 is over its 10 requests a second: retry in 3 seconds";
    admission = async () => ({ outcome: "limited", partner: { id: "ptn_1" }, retryAfterSeconds: 3, detail });
    const response = await getClock(ISSUED);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(await response.json()).toMatchObject({ status: 429, title: "Sandbox rate limit reached", detail });
  });

  it("answers it 401 for a credential no one issued, and from the state for an issued one", async () => {
    admission = scripted(MADE_UP);
    expect((await getClock(MADE_UP)).status).toBe(401);
    admission = scripted(ISSUED);
    const response = await getClock(ISSUED);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty("offset_seconds", 0);
  });

  it("takes an unissued credential off an API request before it goes on", async () => {
    admission = scripted(MADE_UP);
    const response = await fetch(`${base}/v1/by-query?partner_key=${MADE_UP}&page=1`);
    expect(response.status).toBe(299);
    expect(await response.json()).toEqual({ passed: "/v1/by-query?page=1" });
  });
});
