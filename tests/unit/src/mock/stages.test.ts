/**
 * The mock's stages (src/mock/server.ts: receive, route, judge, answer, write), each run alone on
 * the shop fixture, without a socket: a request is a stream with headers, a response an object that
 * records what is written.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { answerRequest } from "../../../../src/mock/answer.js";
import type { Exchange, MockContext } from "../../../../src/mock/context.js";
import { decodeHere, findingsOf } from "../../../../src/mock/judge.js";
import { MAX_BODY_BYTES, MAX_SAFE_HEADER_LENGTH } from "../../../../src/mock/limits.js";
import { BodyError, readBody } from "../../../../src/mock/receive.js";
import { choosesAnswer, fastRoute, requestElement } from "../../../../src/mock/route.js";
import { afterReceive, createContext, loadOperations } from "../../../../src/mock/server.js";
import type { Diagnostic, Operation, RawBody, Violation } from "../../../../src/mock/types.js";
import { createUnprocessableEntityResponse } from "../../../../src/mock/prism-parts.js";
import {
  findingsHeader,
  listedProblemBody,
  problemBody,
  violationsHeader,
  violationsOf,
  withoutStack,
  write,
} from "../../../../src/mock/write.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const JSON_BEARER = { authorization: "Bearer t", "content-type": "application/json" };

/** A request as node:http gives it: a stream of the body, with method, target and headers. */
function fakeRequest(method: string, url: string, headers: Record<string, string>, body?: Buffer | string): IncomingMessage {
  const stream = new PassThrough();
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  if (body !== undefined) lower["content-length"] ??= String(Buffer.byteLength(body));
  Object.assign(stream, { method, url, headers: lower, rawHeaders: Object.entries(lower).flat(), complete: false });
  if (body !== undefined) stream.end(body);
  else stream.end();
  stream.once("end", () => Object.assign(stream, { complete: true }));
  return stream as unknown as IncomingMessage;
}

interface Written {
  status?: number;
  headers: Array<[string, string]>;
  body?: string;
}

/** A response that records its status, headers (in order) and body. */
function fakeResponse(): { response: ServerResponse; written: Written; done: Promise<void> } {
  const written: Written = { headers: [] };
  let ended: () => void;
  const done = new Promise<void>((resolve) => (ended = resolve));
  const response = {
    statusCode: 200,
    headersSent: false,
    writableEnded: false,
    setHeader(name: string, value: unknown) {
      written.headers.push([name, String(value)]);
    },
    writeHead(status: number, flat: unknown[]) {
      written.status = status;
      for (let i = 0; i < flat.length; i += 2) written.headers.push([String(flat[i]), String(flat[i + 1])]);
      this.headersSent = true;
    },
    end(body?: Buffer) {
      written.status ??= this.statusCode;
      if (body !== undefined) written.body = body.toString("utf8");
      this.writableEnded = true;
      ended();
    },
  };
  return { response: response as unknown as ServerResponse, written, done };
}

const header = (written: Written, name: string) => written.headers.find(([n]) => n.toLowerCase() === name)?.[1];

let operations: Operation[];
let context: MockContext;
beforeAll(async () => {
  operations = await loadOperations(shop.bundlePath);
  context = createContext(operations);
});

function received(raw: string | undefined): RawBody {
  return raw === undefined ? { present: false, bytes: Buffer.alloc(0) } : { present: true, bytes: Buffer.from(raw) };
}

describe("receive", () => {
  it("reads a body whole, and tells no body from an empty one", async () => {
    const read = (request: IncomingMessage) =>
      new Promise<{ error?: BodyError; raw?: RawBody }>((resolve) => readBody(request, (error, raw) => resolve({ error, raw })));
    const withBody = await read(fakeRequest("POST", "/v1/order", { "content-type": "application/json" }, '{"a":1}'));
    expect(withBody.error).toBeUndefined();
    expect(withBody.raw).toEqual({ present: true, bytes: Buffer.from('{"a":1}') });
    expect((await read(fakeRequest("GET", "/v1/order", {}))).raw).toEqual({ present: false, bytes: Buffer.alloc(0) });
  });

  it("fails a body over the limit with micri's 413", async () => {
    const request = fakeRequest("POST", "/v1/order", { "transfer-encoding": "chunked" }, Buffer.alloc(MAX_BODY_BYTES + 1));
    const error = await new Promise<BodyError | undefined>((resolve) => readBody(request, (failure) => resolve(failure)));
    expect(error).toBeInstanceOf(BodyError);
    expect(error).toMatchObject({ status: 413, code: "request_entity_too_large" });
  });
});

describe("route", () => {
  it("reads the target as Prism does and finds the operation the fast path answers for", () => {
    const element = requestElement("POST", "/v1/order?x=1&x=2&y=", JSON_BEARER, 10);
    expect(element).toMatchObject({ method: "post", url: { path: "/v1/order", query: { x: ["1", "2"], y: "" } } });
    expect(fastRoute(context.fast, element)?.path).toBe("/v1/order");
    expect(fastRoute(context.fast, requestElement("POST", "/v1/nothing", {}, 0))).toBeUndefined();
    // A request that chooses its answer goes to Prism's pipeline.
    const choosing = requestElement("POST", "/v1/order", { ...JSON_BEARER, prefer: "code=400" }, 10);
    expect(choosesAnswer(choosing)).toBe(true);
    expect(fastRoute(context.fast, choosing)).toBeUndefined();
    expect(context.router.allowed("/v1/order")).toBe("POST, GET");
  });
});

describe("judge", () => {
  const exchange = (raw: string | undefined) => ({ raw: received(raw), request: fakeRequest("POST", "/v1/order", JSON_BEARER, raw) });

  it("decodes a body as Prism sees it, or fails bad JSON with a 400", () => {
    const element = requestElement("POST", "/v1/order", JSON_BEARER, 7);
    expect(decodeHere(exchange('{"a":1}') as Exchange, element)).toMatchObject({ body: { a: 1 } });
    expect(decodeHere(exchange(undefined) as Exchange, element)).toMatchObject({ body: null });
    expect(decodeHere(exchange("{") as Exchange, element)).toMatchObject({ status: 400, code: "invalid_json" });
  });

  it("finds the security finding first, then the input's", () => {
    const op = operations.find((o) => o.method === "post" && o.path === "/v1/order")!;
    const input = { ...requestElement("POST", "/v1/order", { "content-type": "application/json", "content-length": "2" }, 2), body: {} };
    const findings = findingsOf(op, input);
    expect(findings[0]).toMatchObject({ code: 401 });
    expect(findings.slice(1).map((f) => f.code)).toContain("required");
    expect(findingsOf(op, { ...input, headers: { ...input.headers, authorization: "Bearer t" } })[0].code).toBe("required");
  });
});

describe("answer", () => {
  it("answers the first request of a kind through Prism and the next from the fast path, alike", async () => {
    const own = createContext(operations);
    const run = async (body: string) => {
      const request = fakeRequest("POST", "/v1/order", JSON_BEARER, body);
      const { response, written, done } = fakeResponse();
      const element = requestElement("POST", "/v1/order", request.headers, body.length);
      const exchange: Exchange = { request, response, raw: received(body) };
      const input = decodeHere(exchange, element);
      if (input instanceof BodyError) throw input;
      await answerRequest(own, exchange, input, fastRoute(own.fast, element));
      await done;
      return written;
    };
    const first = await run(JSON.stringify({ merchant_id: 5 }));
    expect(own.counts).toEqual({ fast: 0, prism: 1, cache: 0 });
    const second = await run(JSON.stringify({ merchant_id: 6 }));
    expect(own.counts).toEqual({ fast: 1, prism: 1, cache: 0 });
    expect(first.status).toBe(400);
    expect(second).toEqual(first);
    expect(JSON.parse(header(first, "sl-violations")!)[0].location).toEqual(["request", "body"]);
  });

  it("lets an intercept hook answer before the other stages (afterReceive)", async () => {
    const own = createContext(operations, {
      hooks: {
        intercept: (_, response) => {
          response.end();
          return true;
        },
      },
    });
    const request = fakeRequest("GET", "/_sandbox/state", {});
    const { response, done } = fakeResponse();
    await afterReceive(own, { request, response, raw: received(undefined) });
    await done;
    expect(own.counts).toEqual({ fast: 0, prism: 0, cache: 0 });
  });
});

describe("write", () => {
  it("writes CORS, sl-violations, then the answer's own headers, and Content-Length", () => {
    const { response, written } = fakeResponse();
    const violations: Violation[] = [{ location: ["request", "body"], severity: "Error", code: "required", message: "m" }];
    write(fakeRequest("GET", "/", {}), response, 400, violations, [["Content-Type", "application/json"]], Buffer.from("{}"));
    expect(written.status).toBe(400);
    expect(written.headers.map(([name]) => name)).toEqual([
      "Access-Control-Allow-Origin",
      "Access-Control-Allow-Headers",
      "Access-Control-Expose-Headers",
      "sl-violations",
      "Content-Type",
      "Content-Length",
    ]);
    expect(JSON.parse(header(written, "sl-violations")!)).toEqual(violations);
    expect(written.body).toBe("{}");
  });

  it("cuts a long sl-violations value as prism-http-server does", () => {
    const many: Violation[] = Array.from({ length: 500 }, (_, i) => ({
      location: ["request", "body", String(i)],
      severity: "Error",
      code: "type",
      message: "must be string",
    }));
    const value = violationsHeader(many);
    expect(value.startsWith("Too many violations! [")).toBe(true);
    expect(value.length).toBe("Too many violations! ".length + MAX_SAFE_HEADER_LENGTH);
  });

  it("renders findings prepared once exactly as Prism's own functions render them, header and problem body", () => {
    const finding = (i: number): Diagnostic =>
      i % 7 === 0
        ? { code: 401, message: "Invalid security scheme used", severity: 0, tags: ["Bearer"] }
        : {
            path: ["body", "items", String(i), "Ā\u007f"],
            code: i % 2 ? "type" : "enum",
            message: `Request body property items.${i} must be string`,
            severity: i % 3,
          };
    for (const count of [0, 1, 3, 99, 100, 101, 150, 400]) {
      const findings = Array.from({ length: count }, (_, i) => finding(i));
      const output = count % 2 ? [finding(1)] : [];
      const expected = [...violationsOf("request", findings), ...violationsOf("response", output)];
      expect(findingsHeader(findings, output), `${count}`).toBe(expected.length ? violationsHeader(expected) : undefined);
      // Twice: the second time from what the first prepared.
      expect(findingsHeader(findings, output)).toBe(expected.length ? violationsHeader(expected) : undefined);
      const prism = problemBody(withoutStack(() => createUnprocessableEntityResponse(findings)));
      expect(listedProblemBody(findings), `${count}`).toBe(prism);
      expect(listedProblemBody(findings)).toBe(prism);
    }
  });
});
