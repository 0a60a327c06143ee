/**
 * Hosted mode's service (src/hosted/index.ts): it needs an operator token (the option, else the
 * environment), says which store it runs on and keeps its partners there (a durable one: found by
 * the next start), names who made each request (a tagged partner, the operator by the token it
 * carries, else "unissued"), writes each request to the log and the metrics, reports what the
 * connection guards refuse, answers what the sandbox asks of it, and closes with the last mock
 * attached to it.
 */
import type { IncomingMessage } from "node:http";
import { Writable } from "node:stream";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  HostedConfigError,
  HostedService,
  MemoryPartnerStore,
  NO_OPERATOR_TOKEN,
  openHostedService,
  storeNotice,
} from "../../../../src/hosted/index.js";
import { repoRoot } from "../../../../src/registry.js";

const TOKEN = "operator-token-for-tests-0001";

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { stream, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>), lines };
}

const request = (headers: Record<string, string> = {}, url = "/v1/merchant", method = "GET") =>
  ({ method, url, headers }) as unknown as IncomingMessage;

describe("the operator token", () => {
  it("is required: without one hosted mode does not start, and says how to give one", () => {
    expect(() => new HostedService({}, {})).toThrow(new HostedConfigError(NO_OPERATOR_TOKEN));
    expect(NO_OPERATOR_TOKEN).toBe(
      "hosted mode needs an operator token: set $BANK_API_CONTRACTS_OPERATOR_TOKEN (the CLI also reads --operator-token-file <path>)",
    );
    expect(() => new HostedService({ operatorToken: "   " }, {})).toThrow(HostedConfigError);
  });

  it("comes from the option, else the environment, and must be long enough", async () => {
    const { stream } = sink();
    const fromEnv = new HostedService({ log: stream }, { BANK_API_CONTRACTS_OPERATOR_TOKEN: TOKEN });
    expect(fromEnv.operator.matches(TOKEN)).toBe(true);
    const fromOption = new HostedService({ log: stream, operatorToken: `${TOKEN}-option` }, { BANK_API_CONTRACTS_OPERATOR_TOKEN: TOKEN });
    expect(fromOption.operator.matches(`${TOKEN}-option`)).toBe(true);
    expect(() => new HostedService({ operatorToken: "short" }, {})).toThrow("at least 16 characters");
    await Promise.all([fromEnv.close(), fromOption.close()]);
  });

  it("never reaches the log, even when a request carries it", async () => {
    const { stream, lines } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    hosted.observe("pay@1.3.0")({
      request: request({ "x-sandbox-operator-token": TOKEN }, `/_sandbox/state/all?token=${TOKEN}`),
      status: 200,
      seconds: 0.001,
      operationId: undefined,
      aborted: false,
    });
    await hosted.close();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(TOKEN);
  });
});

describe("the start", () => {
  it("says which store it runs on: memory keeps nothing across a restart, the durable ones do", async () => {
    expect(storeNotice("memory")).toBe("store memory: nothing is kept across a restart (partners, their quotas, every partner's state)");
    expect(storeNotice("postgres")).toBe("store postgres: partners, their quotas and every partner's state are kept across restarts");
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    expect(hosted.storeNotice()).toBe(storeNotice("memory"));
    expect(records()[0]).toMatchObject({ msg: "sandbox starting", hosted: true, store: "memory", durable: false });
    await hosted.close();
  });

  it("refuses connection settings out of their bounds", () => {
    expect(() => new HostedService({ operatorToken: TOKEN, connections: { maxConnections: 0 } }, {})).toThrow(RangeError);
  });
});

describe("each request", () => {
  it("is one log line naming who made it, and counted in the metrics", async () => {
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    const observe = hosted.observe("pay@1.3.0");
    const partnerRequest = request({ authorization: "Bearer bacsbx_whatever" });
    hosted.tag(partnerRequest, "ptn_0001");
    observe({ request: partnerRequest, status: 200, seconds: 0.002, operationId: "getMerchant", aborted: false });
    observe({
      request: request({ authorization: "Bearer made-up" }),
      status: 401,
      seconds: 0.001,
      operationId: "getMerchant",
      aborted: false,
    });
    observe({
      request: request({ "x-sandbox-operator-token": TOKEN }, "/_sandbox"),
      status: 200,
      seconds: 0.001,
      operationId: undefined,
      aborted: false,
    });
    observe({
      request: request({ "x-sandbox-operator-token": "not-the-operator-token" }, "/_sandbox"),
      status: 404,
      seconds: 0,
      operationId: undefined,
      aborted: false,
    });
    await hosted.close();
    const requests = records().filter((r) => r.msg === "request");
    expect(requests.map((r) => [r.api, r.operation, r.status, r.partner])).toEqual([
      ["pay@1.3.0", "getMerchant", 200, "ptn_0001"],
      ["pay@1.3.0", "getMerchant", 401, "unissued"],
      ["pay@1.3.0", null, 200, "operator"],
      ["pay@1.3.0", null, 404, "unissued"],
    ]);
    const { body } = await hosted.metrics.render();
    expect(body).toContain('bank_api_contracts_sandbox_requests_total{api="pay@1.3.0",operation="getMerchant",status="200"} 1');
    expect(body).toContain('bank_api_contracts_sandbox_requests_total{api="pay@1.3.0",operation="none",status="200"} 1');
  });
});

describe("a failure the sandbox does not foresee", () => {
  it("is one log line with a new id, the API and its cause, any credential in it cut out; the id is given back", async () => {
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    const first = hosted.failed("pay@1.3.0", new TypeError(`cannot read properties of undefined (reading 'amount'), token ${TOKEN}`));
    const second = hosted.failed("statement@1.0.0", "a thrown string");
    await hosted.close();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(second).not.toBe(first);
    const failures = records().filter((r) => r.msg === "sandbox failed");
    expect(failures.map((r) => [r.failure, r.api, r.cause])).toEqual([
      [first, "pay@1.3.0", "cannot read properties of undefined (reading 'amount'), token [redacted]"],
      [second, "statement@1.0.0", "a thrown string"],
    ]);
  });
});

const key = (value: string) => createHash("sha256").update(value).digest("hex");

describe("the credential gate", () => {
  it("admits an issued credential with its partner's quotas and tags the request; an unissued or revoked one is not", async () => {
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    const issued = await hosted.partners.issue({ name: "Acme", quotas: { records: 7 } });
    const partnerRequest = request({ authorization: `Bearer ${issued.credential}` });
    const admitted = await hosted.admit(partnerRequest, key(issued.credential));
    expect(admitted).toMatchObject({ outcome: "admitted", partner: { id: issued.id }, quotas: { records: 7, requestsPerSecond: 10 } });
    expect(hosted.requester(partnerRequest)).toBe(issued.id);
    // Its state's bounds are its quotas from now on; a key no partner was admitted with has none of its own.
    expect(hosted.boundsOf(key(issued.credential))).toEqual({
      records: 7,
      bytes: 4 * 1024 * 1024,
      events: 200,
      queuedCallbacks: 20,
      named: "this partner's quota",
    });
    expect(hosted.boundsOf(key("made-up-credential"))).toBeUndefined();
    expect(await hosted.admit(request(), key("made-up-credential"))).toEqual({ outcome: "unissued" });
    expect(await hosted.admit(request(), undefined)).toEqual({ outcome: "unissued" });
    await hosted.partners.revoke(issued.id);
    const afterRevoke = request();
    expect(await hosted.admit(afterRevoke, key(issued.credential))).toEqual({ outcome: "unissued" });
    expect(hosted.requester(afterRevoke)).toBe("unissued");
    expect(hosted.boundsOf(key(issued.credential))).toBeUndefined();
    await hosted.close();
    expect(
      records()
        .map((r) => JSON.stringify(r))
        .join("\n"),
    ).not.toContain(issued.credential);
  });

  it("answers a partner over its rate with the seconds to wait, and leaves another partner admitted", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] }); // the limiter's window does not pass while this runs
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const hosted = new HostedService({ log: sink().stream, operatorToken: TOKEN }, {});
    const noisy = await hosted.partners.issue({ name: "Noisy", quotas: { requests_per_second: 2, burst: 0 } });
    const quiet = await hosted.partners.issue({ name: "Quiet" });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await hosted.admit(request(), key(noisy.credential))).outcome);
    expect(outcomes).toEqual(["admitted", "admitted", "limited", "limited", "limited"]);
    expect(await hosted.admit(request(), key(noisy.credential))).toMatchObject({
      outcome: "limited",
      retryAfterSeconds: 1,
      detail: "this partner's request rate is 2 per second: retry after 1 s",
    });
    expect(await hosted.admit(request(), key(quiet.credential))).toMatchObject({ outcome: "admitted", partner: { id: quiet.id } });
    await hosted.close();
  });

  it("counts the partners in the metrics when scraped", async () => {
    const hosted = new HostedService({ log: sink().stream, operatorToken: TOKEN }, {});
    await hosted.partners.issue({ name: "A" });
    const b = await hosted.partners.issue({ name: "B" });
    expect((await hosted.metrics.render()).body).toMatch(/^bank_api_contracts_sandbox_partners 2$/m);
    await hosted.partners.revoke(b.id);
    expect((await hosted.metrics.render()).body).toMatch(/^bank_api_contracts_sandbox_partners 1$/m);
    await hosted.close();
  });
});

describe("the guards", () => {
  it("carry the settings and report each refusal to the log and the metrics", async () => {
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN, connections: { maxConnectionsPerAddress: 3 } }, {});
    const guards = hosted.guards();
    expect(guards).toMatchObject({ maxConnectionsPerAddress: 3, maxConnections: 4096, headersTimeoutMs: 10_000 });
    guards.onRefused!({ reason: "max-connections-per-address", address: "127.0.0.2" });
    guards.onRefused!({ reason: "max-connections-per-address", address: "127.0.0.2" });
    await hosted.close();
    const { body } = await hosted.metrics.render();
    expect(body).toContain('bank_api_contracts_sandbox_connections_refused_total{reason="max-connections-per-address"} 2');
    const refusals = records().filter((r) => String(r.msg).startsWith("connection"));
    expect(refusals).toEqual([
      expect.objectContaining({ msg: "connection refused", address: "127.0.0.2" }),
      expect.objectContaining({ msg: "connections refused", address: "127.0.0.2", count: 1 }),
    ]);
  });
});

describe("closing", () => {
  it("drains, then writes its last line, once; a service that closes with its mocks closes with the last of them", async () => {
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {}, true);
    hosted.health.ready();
    const first = hosted.attach();
    const second = hosted.attach();
    await first();
    await first();
    expect(records().map((r) => r.msg)).not.toContain("sandbox stopped");
    await second();
    expect(hosted.health.state).toBe("draining");
    expect(records().map((r) => r.msg)).toEqual(["sandbox starting", "sandbox ready", "sandbox draining", "sandbox stopped"]);
    await hosted.close();
    expect(records().filter((r) => r.msg === "sandbox stopped")).toHaveLength(1);
  });

  it("of a service given to the mocks is its owner's: the last mock's release leaves it open", async () => {
    const { stream, records } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    await hosted.attach()();
    expect(records().map((r) => r.msg)).not.toContain("sandbox stopped");
    await hosted.close();
    expect(records().map((r) => r.msg)).toContain("sandbox stopped");
  });
});

describe("over the sandbox's store (openHostedService)", () => {
  it("keeps partners in a durable store, where another start finds them; memory keeps them in the process", async () => {
    const dir = mkdtempSync(join(repoRoot, ".tmp", "hosted-partners-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const first = await openHostedService({ log: sink().stream, operatorToken: TOKEN }, `file:${dir}`, {});
    expect(first.store).toBe("file");
    expect(first.storeNotice()).toBe(storeNotice("file"));
    const issued = await first.partners.issue({ name: "Durable", quotas: { records: 9 } });
    await first.close();
    const second = await openHostedService({ log: sink().stream, operatorToken: TOKEN }, `file:${dir}`, {});
    expect(await second.partners.list()).toEqual([expect.objectContaining({ id: issued.id, name: "Durable", overridden: ["records"] })]);
    expect(await second.admit(request(), key(issued.credential))).toMatchObject({ outcome: "admitted", quotas: { records: 9 } });
    await second.close();
    const memory = await openHostedService({ log: sink().stream, operatorToken: TOKEN }, undefined, {});
    expect(memory.store).toBe("memory");
    expect(memory.partners.store).toBeInstanceOf(MemoryPartnerStore);
    await memory.close();
  });

  it("takes the store from the environment when no option gives one, and fails without a token before opening it", async () => {
    const dir = join(repoRoot, ".tmp", `hosted-never-opened-${process.pid}`);
    await expect(openHostedService({ log: sink().stream }, `file:${dir}`, {})).rejects.toThrow(new HostedConfigError(NO_OPERATOR_TOKEN));
    expect(existsSync(dir)).toBe(false);
    const fromEnv = mkdtempSync(join(repoRoot, ".tmp", "hosted-env-"));
    onTestFinished(() => rmSync(fromEnv, { recursive: true, force: true }));
    const service = await openHostedService({ log: sink().stream, operatorToken: TOKEN }, undefined, {
      BANK_API_CONTRACTS_SANDBOX_STORE: `file:${fromEnv}`,
    });
    expect(service.store).toBe("file");
    await service.close();
  });
});

describe("what the sandbox asks of it", () => {
  it("keeps the credential headers the gate took off a request, so that the log still cuts them out", async () => {
    const { stream, lines } = sink();
    const hosted = new HostedService({ log: stream, operatorToken: TOKEN }, {});
    const madeUp = "made-up-credential-in-the-path-0042";
    const stripped = request({}, `/v1/order/${madeUp}`);
    hosted.keepHeaders(stripped, { authorization: `Bearer ${madeUp}` });
    hosted.observe("shop@1.0.0")({ request: stripped, status: 401, seconds: 0.001, operationId: "getOrder", aborted: false });
    await hosted.close();
    const line = lines.find((l) => l.includes('"msg":"request"'))!;
    expect(line).not.toContain(madeUp);
    expect(JSON.parse(line)).toMatchObject({ path: "/v1/order/[redacted]", status: 401, partner: "unissued" });
  });

  it("answers the health check, renders the metrics, and counts a sandbox's holdings and deliveries", async () => {
    const hosted = new HostedService({ log: sink().stream, operatorToken: TOKEN }, {});
    expect(hosted.healthAnswer()).toEqual({ status: 503, body: { status: "starting" } });
    hosted.health.ready();
    expect(hosted.healthAnswer()).toEqual({ status: 200, body: { status: "ready" } });
    const remove = hosted.holdings(() => [{ api: "shop@1.0.0", records: 3, bytes: 120, queuedCallbacks: 1 }]);
    hosted.delivery("shop@1.0.0", "delivered");
    const { body, contentType } = await hosted.renderMetrics();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('bank_api_contracts_sandbox_records{api="shop@1.0.0"} 3');
    expect(body).toContain('bank_api_contracts_sandbox_record_bytes{api="shop@1.0.0"} 120');
    expect(body).toContain('bank_api_contracts_sandbox_callbacks_queued{api="shop@1.0.0"} 1');
    expect(body).toContain('bank_api_contracts_sandbox_callback_deliveries_total{api="shop@1.0.0",outcome="delivered"} 1');
    remove();
    expect((await hosted.renderMetrics()).body).not.toContain('bank_api_contracts_sandbox_records{api="shop@1.0.0"}');
    await hosted.close();
    expect(hosted.healthAnswer().status).toBe(503);
  });
});
