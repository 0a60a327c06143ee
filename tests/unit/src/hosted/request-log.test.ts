/**
 * The hosted sandbox's log (src/hosted/request-log.ts): one JSON line per request with the fields the
 * operator reads, the query's names without values, connection refusals counted per window, and no
 * credential, token, Authorization or X-API-KEY value in any line, wherever it was placed: headers,
 * path, query names and values, members a careless change would add, error messages, messages.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CREDENTIAL_PREFIX } from "../../../../src/hosted/partners.js";
import { credentialValues, loggedTarget, RequestLog } from "../../../../src/hosted/request-log.js";

/** A destination keeping every line written. */
function sink() {
  const lines: string[] = [];
  let pending = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      pending += String(chunk);
      const parts = pending.split("\n");
      pending = parts.pop()!;
      lines.push(...parts);
      done();
    },
  });
  return { stream, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const OPERATOR_TOKEN = "operator-token-0123456789-abcdef";
const ISSUED = `${CREDENTIAL_PREFIX}${"Ab3_-x".repeat(7)}Q`; // the shape of an issued credential: prefix and 43 characters
const UNISSUED = "made-up-bearer-token-4711";
const API_KEY = "partner-api-key-value-0815";
const COOKIE = "sid=cookie-session-secret-99";
const SECRETS = [OPERATOR_TOKEN, ISSUED, UNISSUED, API_KEY, "cookie-session-secret-99"];

const headers = {
  host: "sandbox.test",
  authorization: `Bearer ${UNISSUED}`,
  "x-api-key": API_KEY,
  "x-sandbox-operator-token": OPERATOR_TOKEN,
  cookie: COOKIE,
  "x-partner-secret": ISSUED,
  "user-agent": "test",
};

afterEach(() => {
  vi.useRealTimers();
});

describe("a request's line", () => {
  it("names the API, operation, method, path, query names, status, duration and partner, and nothing else", async () => {
    const { stream, records } = sink();
    const log = new RequestLog({ destination: stream });
    log.request({
      api: "pay@1.3.0",
      operation: "listInvoices",
      method: "GET",
      target: "/v1/invoices?status=paid&limit=5&status=open",
      status: 200,
      ms: 1.23456,
      partner: "ptn_0123",
      headers: { host: "x" },
    });
    await log.close();
    const [line] = records();
    expect(line).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      api: "pay@1.3.0",
      operation: "listInvoices",
      method: "GET",
      path: "/v1/invoices",
      query: ["status", "limit"],
      status: 200,
      ms: 1.235,
      partner: "ptn_0123",
      msg: "request",
    });
  });

  it("says operation null for a request no operation matched, and marks an answer cut short", async () => {
    const { stream, records } = sink();
    const log = new RequestLog({ destination: stream });
    log.request({
      api: "a",
      operation: undefined,
      method: "GET",
      target: "/nope",
      status: 404,
      ms: 0,
      partner: "unissued",
      headers: {},
      aborted: true,
    });
    await log.close();
    expect(records()[0]).toMatchObject({ operation: null, path: "/nope", status: 404, partner: "unissued", aborted: true });
    expect(records()[0]).not.toHaveProperty("query");
  });

  it("bounds the path and the number of query names", () => {
    const target = `/${"a".repeat(5000)}?${Array.from({ length: 100 }, (_, i) => `p${i}=1`).join("&")}`;
    const { path, query } = loggedTarget(target, []);
    expect(path).toHaveLength(512);
    expect(query).toHaveLength(20);
  });
});

describe("no credential reaches a line", () => {
  it("from the request's headers, path, query names and values, in plain or percent-encoded form", async () => {
    const { stream, lines } = sink();
    const log = new RequestLog({ destination: stream, secrets: [OPERATOR_TOKEN] });
    const target =
      `/v1/merchant/${UNISSUED}/keys/${encodeURIComponent(API_KEY)}/${ISSUED}` +
      `?token=${ISSUED}&${UNISSUED}=1&api_key=${API_KEY}&auth=${encodeURIComponent(`Bearer ${UNISSUED}`)}&op=${OPERATOR_TOKEN}`;
    log.request({ api: "pay@1.3.0", operation: "getMerchant", method: "GET", target, status: 401, ms: 1, partner: "unissued", headers });
    await log.close();
    expect(lines).toHaveLength(1);
    for (const secret of SECRETS) expect(lines[0]).not.toContain(secret);
    const record = JSON.parse(lines[0]);
    expect(record.path).toBe("/v1/merchant/[redacted]/keys/[redacted]/[redacted]");
    expect(record.query).toEqual(["token", "[redacted]", "api_key", "auth", "op"]);
  });

  it("from members a careless change would log: headers, a request, credentials, tokens, nested ones", async () => {
    const { stream, lines } = sink();
    const log = new RequestLog({ destination: stream, secrets: [OPERATOR_TOKEN] });
    log.logger.info({ headers }, "careless headers");
    log.logger.info({ req: { method: "GET", url: "/v1/x", headers } }, "careless request");
    log.logger.info({ request: { headers: { "x-api-key": API_KEY } } }, "careless nested");
    log.logger.info(
      { credential: ISSUED, token: UNISSUED, operatorToken: OPERATOR_TOKEN, authorization: `Bearer ${UNISSUED}` },
      "careless members",
    );
    log.logger.info({ partner: { credential: ISSUED, secret: API_KEY, password: UNISSUED } }, "careless partner");
    log.logger.info({ "x-api-key": API_KEY, req: { "x-api-key": API_KEY } }, "careless key");
    log.logger.info({ cookie: COOKIE }, "careless cookie");
    log.event("careless options", { options: { operatorToken: OPERATOR_TOKEN, token: UNISSUED } });
    await log.close();
    expect(lines).toHaveLength(8);
    for (const line of lines) for (const secret of SECRETS) expect(line, line).not.toContain(secret);
  });

  it("from messages and errors: the operator's token, issued credentials, Bearer values, URLs' query values", async () => {
    const { stream, lines } = sink();
    const log = new RequestLog({ destination: stream, secrets: [OPERATOR_TOKEN] });
    log.logger.error(new Error(`refused ${ISSUED} and Bearer ${UNISSUED} from http://x.test/cb?key=${API_KEY}&t=${UNISSUED}`));
    log.logger.warn(`operator token was ${OPERATOR_TOKEN}`);
    log.logger.info({ url: `https://partner.test/hook?signature=${API_KEY}` }, "callback");
    log.logger.info({ note: `header "Authorization: Basic ${UNISSUED}"` }, "basic");
    await log.close();
    expect(lines).toHaveLength(4);
    for (const line of lines) for (const secret of SECRETS) expect(line, line).not.toContain(secret);
    expect(JSON.parse(lines[2]).url).toBe("https://partner.test/hook?signature=[redacted]");
  });

  it("while a request's line is written, its own credential values anywhere in it", () => {
    expect(credentialValues(headers).sort()).toEqual([`Bearer ${UNISSUED}`, UNISSUED, API_KEY, OPERATOR_TOKEN, COOKIE, ISSUED].sort());
    expect(credentialValues({ host: "h", accept: "*/*", "content-type": "application/json" })).toEqual([]);
  });
});

describe("refused connections", () => {
  it("write the first of each reason and address at once, and count the rest into one line per window", async () => {
    vi.useFakeTimers();
    const { stream, records } = sink();
    const log = new RequestLog({ destination: stream, refusalWindowMs: 10_000 });
    for (let i = 0; i < 500; i++) log.refused({ reason: "max-connections-per-address", address: "127.0.0.2" });
    log.refused({ reason: "max-connections-per-address", address: "127.0.0.3" });
    log.refused({ reason: "timeout", address: "127.0.0.2" });
    expect(records().map((r) => [r.msg, r.reason, r.address])).toEqual([
      ["connection refused", "max-connections-per-address", "127.0.0.2"],
      ["connection refused", "max-connections-per-address", "127.0.0.3"],
      ["connection refused", "timeout", "127.0.0.2"],
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(records().slice(3)).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "connections refused",
        reason: "max-connections-per-address",
        address: "127.0.0.2",
        count: 499,
        windowSeconds: 10,
      }),
    ]);
    // A new window: the first is written at once again.
    log.refused({ reason: "max-connections-per-address", address: "127.0.0.2" });
    expect(records()).toHaveLength(5);
    await log.close();
  });

  it("count addresses past the thousandth in one window as `other`", () => {
    const { stream, records } = sink();
    const log = new RequestLog({ destination: stream });
    for (let i = 0; i < 1500; i++) log.refused({ reason: "timeout", address: `10.0.${i >> 8}.${i & 255}` });
    log.flushRefusals();
    const written = records();
    expect(written.filter((r) => r.msg === "connection refused")).toHaveLength(1001);
    expect(written.at(-1)).toMatchObject({ msg: "connections refused", address: "other", count: 499 });
  });
});

describe("closing", () => {
  it("waits until a sonic-boom destination has written every line, in the order logged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "request-log-"));
    try {
      const file = join(dir, "log.jsonl");
      const destination = pino.destination({ dest: file, sync: false, mkdir: true });
      await new Promise((resolve) => destination.once("ready", resolve));
      const log = new RequestLog({ destination });
      for (let i = 0; i < 2000; i++) log.event(`event ${i}`, { i });
      await log.close();
      // Read at once, as a process exiting after close would leave the file.
      const written = readFileSync(file, "utf8").trimEnd().split("\n");
      expect(written.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
      destination.end();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("returns at once when nothing is left to write", async () => {
    const { stream } = sink();
    const log = new RequestLog({ destination: stream });
    log.event("sandbox stopped");
    const started = performance.now();
    await log.close();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
