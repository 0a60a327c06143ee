/**
 * Large request bodies are judged off the thread that answers (src/mock/judge.ts): the worker's
 * judgement is the one the answering thread would make (validate.ts run on the parsed body), the
 * body comes back only when asked for and valid, and while a large body is being judged the server
 * answers other requests, of its own API and of another, and never parses the large body itself.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { Judge, WithheldBody } from "../../../../src/mock/judge.js";
import { createPrismServer, type JudgedRequest, loadOperations, type Operation, type PrismServer } from "../../../../src/mock/server.js";
import { BODY_BYTES, type Element, inputFindings, LARGE_BODY_BYTES } from "../../../../src/mock/validate.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";

const QUIRKS = join(repoRoot, "tests/fixtures/mock-quirks/openapi.yaml");
const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const BEARER = { authorization: "Bearer t" };
const JSON_TYPE = { "content-type": "application/json" };

/** A body over LARGE_BODY_BYTES for /v1/batch: `count` valid items, then `bad` items of the wrong type. */
function batch(bad: number, count = Math.ceil(LARGE_BODY_BYTES / 30) + 10): string {
  const items: unknown[] = Array.from({ length: count }, (_, i) => ({ id: `i${i % 1000}`, amount: i, kind: "A" }));
  for (let i = 0; i < bad; i++) items.push("not-an-object");
  const text = JSON.stringify({ items, channel: "web" });
  expect(text.length).toBeGreaterThan(LARGE_BODY_BYTES);
  return text;
}

const batchOperation = async (): Promise<Operation> => (await loadOperations(QUIRKS)).find((op) => op.path === "/v1/batch")!;

function element(headers: Record<string, string>, bytes: number): Omit<Element, "body"> {
  return {
    method: "post",
    url: { path: "/v1/batch", query: {} },
    headers: { ...headers, "content-length": String(bytes) },
    [BODY_BYTES]: bytes,
  };
}

describe("Judge", () => {
  const judges: Judge[] = [];
  afterEach(async () => {
    await Promise.all(judges.splice(0).map((judge) => judge.close()));
  });
  const newJudge = () => {
    const judge = new Judge();
    judges.push(judge);
    return judge;
  };
  // A worker's start is most of a test's time: the tests of a judgement alone share one worker; the
  // tests of a worker's life (a first body, closing, the time limits, idling) start their own.
  let shared: Judge | undefined;
  const sharedJudge = () => (shared ??= new Judge());
  afterAll(() => shared?.close());

  it("finds what validate.ts finds on the parsed body, valid or not, and hands back the body only when asked and valid", async () => {
    const op = await batchOperation();
    const judge = sharedJudge();
    const before = judge.count;
    const cases = [
      { name: "invalid", text: batch(3), valid: false },
      { name: "valid", text: batch(0), valid: true },
    ];
    for (const { name, text, valid } of cases) {
      const bytes = Buffer.from(text);
      const here = inputFindings(op, { ...element(JSON_TYPE, bytes.length), body: JSON.parse(text) });
      expect(here === undefined, name).toBe(valid);
      for (const wantBody of [false, true]) {
        const judgement = await judge.judge(op, element(JSON_TYPE, bytes.length), Buffer.from(text), wantBody);
        expect(judgement, name).toEqual({
          invalidJson: false,
          findings: here,
          ...(wantBody && valid ? { body: JSON.parse(text) } : {}),
        });
      }
    }
    expect(judge.count - before).toBe(4);
  });

  it("hands back a valid body only within maxBodyBytes (its JSON size): a larger one stays in the worker and only its size crosses", async () => {
    const op = await batchOperation();
    const judge = sharedJudge();
    const text = batch(0);
    const size = Buffer.byteLength(JSON.stringify(JSON.parse(text)));
    const judged = (body: string, max: number) => judge.judge(op, element(JSON_TYPE, body.length), Buffer.from(body), true, max);
    expect(await judged(text, size - 1)).toEqual({ invalidJson: false, findings: undefined, withheld: size });
    expect(await judged(text, size)).toEqual({ invalidJson: false, findings: undefined, body: JSON.parse(text) });
    // Its size is that of its JSON form, not of the bytes sent: spaces between members do not count.
    const spaced = JSON.stringify(JSON.parse(text), null, 8);
    expect(spaced.length).toBeGreaterThan(size);
    expect(await judged(spaced, size)).toEqual({ invalidJson: false, findings: undefined, body: JSON.parse(text) });
    // An invalid body comes back as its findings whatever the bound.
    const invalid = await judged(batch(1), 1);
    expect(invalid).not.toHaveProperty("body");
    expect(invalid).not.toHaveProperty("withheld");
    expect(invalid).toMatchObject({ invalidJson: false, findings: [expect.objectContaining({ code: "type" }), expect.anything()] });
  });

  it("says invalid JSON is invalid, decodes a non-JSON body as text, and judges without an operation", async () => {
    const op = await batchOperation();
    const judge = newJudge();
    // The operation's first body is invalid JSON: the worker keeps the operation all the same.
    const broken = Buffer.from(`${batch(0)}}`);
    expect(await judge.judge(op, element(JSON_TYPE, broken.length), broken, true)).toEqual({ invalidJson: true });
    const text = Buffer.from("x".repeat(LARGE_BODY_BYTES + 1));
    const plain = { "content-type": "text/plain" };
    const here = inputFindings(op, { ...element(plain, text.length), body: text.toString("utf8") });
    expect(here?.map((finding) => finding.code)).toEqual([415]);
    expect(await judge.judge(op, element(plain, text.length), text, false)).toEqual({ invalidJson: false, findings: here });
    // No operation (Prism answers 404 or 405): only the decoding is judged.
    const valid = Buffer.from(batch(0));
    expect(await judge.judge(undefined, element(JSON_TYPE, valid.length), valid, false)).toEqual({
      invalidJson: false,
      findings: undefined,
    });
  });

  it("copies a body that shares its memory, and moves one that owns it", async () => {
    const op = await batchOperation();
    const judge = sharedJudge();
    const text = batch(1);
    const pool = Buffer.from(`xx${text}yy`);
    const slice = pool.subarray(2, 2 + text.length);
    const judgement = await judge.judge(op, element(JSON_TYPE, slice.length), slice, false);
    expect(judgement.invalidJson).toBe(false);
    expect(pool.toString()).toBe(`xx${text}yy`); // still readable: copied
    const own = Buffer.from(text);
    await judge.judge(op, element(JSON_TYPE, own.length), own, false);
    expect(own.buffer.byteLength).toBe(0); // moved to the worker
  });

  it("fails what is pending when closed, and starts a new worker for the next body", async () => {
    const op = await batchOperation();
    const judge = newJudge();
    const text = batch(1);
    const pending = expect(judge.judge(op, element(JSON_TYPE, text.length), Buffer.from(text), false)).rejects.toThrow(
      "the mock was closed",
    );
    await judge.close();
    await pending;
    const again = await judge.judge(op, element(JSON_TYPE, text.length), Buffer.from(text), false);
    expect(again.invalidJson).toBe(false);
  });

  it("stops a worker that takes longer than its time limit, fails that judgement, and judges the next in a new worker", async () => {
    // A pattern that backtracks for ever on a long run of "a" followed by "!": a hostile schema and body.
    const dir = mkdtempSync(join(tmpdir(), "judge-"));
    const spec = join(dir, "openapi.yaml");
    writeFileSync(
      spec,
      [
        "openapi: 3.1.0",
        "info: { title: slow, version: 1.0.0 }",
        "paths:",
        "  /slow:",
        "    post:",
        "      requestBody:",
        "        content:",
        "          application/json:",
        "            schema: { type: object, properties: { s: { type: string, pattern: '^(a+)+$' } } }",
        "      responses: { '200': { description: ok } }",
      ].join("\n"),
    );
    const [op] = await loadOperations(spec);
    // The limit counts from the request being handed to a ready worker (its start, which tsx compiles
    // from source, is bounded apart). A fresh worker's first judgement compiles the operation's checks:
    // about 80 ms on a quiet machine, but over 1.5 s once in a full suite run on two busy cores. 5 s
    // leaves room for that, and the hostile worker spins for no longer than that.
    const judge = new Judge({ timeoutMs: 5_000 });
    judges.push(judge);
    const body = (s: string) => Buffer.from(JSON.stringify({ s }));
    const head = { method: "post", url: { path: "/slow", query: {} }, headers: JSON_TYPE };
    // Start the worker, then hand it the hostile body.
    expect((await judge.judge(op, head, body("aaaa"), false)).invalidJson).toBe(false);
    await expect(judge.judge(op, head, body(`${"a".repeat(40)}!`), false)).rejects.toThrow(
      "judging a request body took more than 5000 ms; the worker was stopped",
    );
    expect(judge.running).toBe(false);
    const next = await judge.judge(op, head, body("b"), false);
    expect(next).toMatchObject({ invalidJson: false, findings: [expect.objectContaining({ code: "pattern" })] });
  });

  it("bounds a worker's start apart: a worker not ready in time is stopped, its judgements fail, the next body starts another", async () => {
    const op = await batchOperation();
    const text = batch(1);
    const slow = new Judge({ startMs: 1 });
    judges.push(slow);
    await expect(slow.judge(op, element(JSON_TYPE, text.length), Buffer.from(text), false)).rejects.toThrow(
      "the worker judging request bodies did not start within 1 ms; it was stopped",
    );
    expect(slow.running).toBe(false);
  });

  it("ends an idle worker", async () => {
    const op = await batchOperation();
    const judge = new Judge({ idleMs: 50 });
    judges.push(judge);
    const text = batch(1);
    await judge.judge(op, element(JSON_TYPE, text.length), Buffer.from(text), false);
    await vi.waitFor(() => expect(judge.running).toBe(false));
  });
});

describe("a mock server and a large body", () => {
  const servers: PrismServer[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  async function start(spec: string, hooks = {}): Promise<{ server: PrismServer; url: string }> {
    const server = createPrismServer(await loadOperations(spec), { hooks });
    servers.push(server);
    return { server, url: await server.listen(0, "127.0.0.1") };
  }
  const post = (url: string, path: string, body: string) =>
    fetch(url + path, { method: "POST", headers: { ...BEARER, ...JSON_TYPE }, body }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));

  it("answers other requests, of its API and of another, while a large body is judged", async () => {
    const quirks = await start(QUIRKS);
    const other = await start(shop.bundlePath);
    // Hold every judgement until released: the server must not wait for it to answer anything else.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const real = Judge.prototype.judge;
    const held = vi.spyOn(Judge.prototype, "judge").mockImplementation(async function (this: Judge, ...args) {
      await gate;
      return real.apply(this, args);
    });
    const parse = vi.spyOn(JSON, "parse");
    let settled = false;
    const large = post(quirks.url, "/v1/batch", batch(2)).finally(() => (settled = true));
    await vi.waitFor(() => expect(held).toHaveBeenCalledTimes(1));

    const small = await post(quirks.url, "/v1/batch", JSON.stringify({ items: [{ id: "a" }] }));
    expect(small.status).toBe(200);
    const elsewhere = await fetch(`${other.url}/v1/order/o-1`, { headers: BEARER });
    expect(elsewhere.status).toBe(200);
    expect(settled).toBe(false);

    release();
    const answer = await large;
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body).validation.map((v: { code: string }) => v.code)).toEqual(["type", "validation-stopped"]);
    expect(quirks.server.stats().judged).toBe(1);
    expect(other.server.stats().judged).toBe(0);
    // The answering thread parsed the small bodies, never the large one.
    expect(parse.mock.calls.every(([text]) => String(text).length < LARGE_BODY_BYTES)).toBe(true);
  });

  it("hands a large valid body to the answer hook as sent, and a large invalid JSON body gets 400", async () => {
    const seen: JudgedRequest[] = [];
    const { url, server } = await start(QUIRKS, {
      answer: (request: JudgedRequest) => {
        seen.push(request);
        return undefined;
      },
    });
    const text = batch(0);
    expect((await post(url, "/v1/batch", text)).status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toEqual(JSON.parse(text));
    const broken = await post(url, "/v1/batch", `${text}]`);
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toEqual({ error: { code: "invalid_json", message: "Invalid JSON" } });
    expect(server.stats().judged).toBe(2);
  });

  it("hands the answer hook a WithheldBody in place of a valid body over its maxBodyBytes, never the body itself", async () => {
    const seen: JudgedRequest[] = [];
    const text = batch(0);
    const size = Buffer.byteLength(JSON.stringify(JSON.parse(text)));
    const { url } = await start(QUIRKS, {
      maxBodyBytes: LARGE_BODY_BYTES,
      answer: (request: JudgedRequest) => {
        seen.push(request);
        return request.body instanceof WithheldBody ? { status: 507, body: { withheld: request.body.bytes } } : undefined;
      },
    });
    const parse = vi.spyOn(JSON, "parse");
    const answer = await post(url, "/v1/batch", text);
    expect(answer.status).toBe(507);
    expect(JSON.parse(answer.body)).toEqual({ withheld: size });
    expect(seen.map((request) => request.body)).toEqual([new WithheldBody(size)]);
    // The answering thread parsed no large body (the answer's own parse above is the test's).
    expect(parse.mock.calls.filter(([t]) => String(t).length >= LARGE_BODY_BYTES)).toEqual([]);
    // Bad requests are judged as before: the findings, never the body.
    expect((await post(url, "/v1/batch", batch(2))).status).toBe(422);
    expect(seen).toHaveLength(1);
  });
});
