/**
 * src/mock/write.ts writeProblemAnswer: a kept problem answer (Prism's 4xx problem+json) written to
 * an invalid request sends what prism-http-server sends: the CORS headers, the answer's headers,
 * Content-Length and the body listing the request's own findings in Prism's 422 problem shape; the
 * headers and a one-finding body made once are the same bytes on every request. endWithoutBody, on
 * a real server: an answer without a body is written with the bytes that setting each header and
 * calling `end()` writes, for every status and method (Content-Length 0 only where a body is allowed).
 * emit with a body given as text: the bytes of the same body given as a Buffer.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Answer, Diagnostic } from "../../../../src/mock/types.js";
import { emit, endWithoutBody, write, writeJson, writeProblemAnswer } from "../../../../src/mock/write.js";

/** What a response was given: the flat header list of writeHead (or setHeader's), the status, the body. */
function recorder() {
  const sent: { status?: number; headers: Array<string | number>; body?: string } = { headers: [] };
  const response = {
    statusCode: 200,
    setHeader: (name: string, value: string | number) => sent.headers.push(name, value),
    writeHead: (status: number, headers: Array<string | number>) => {
      sent.status = status;
      sent.headers.push(...headers);
    },
    end: (body?: Buffer) => {
      sent.status ??= response.statusCode;
      sent.body = body?.toString("utf8");
    },
  };
  return { sent, response: response as unknown as ServerResponse };
}

const request = (headers: Record<string, string> = {}) => ({ headers }) as unknown as IncomingMessage;

const answer: Answer = {
  status: 422,
  headers: [["content-type", "application/problem+json"]],
  body: undefined,
  problem: true,
  listsFindings: true,
  outputFindings: [],
  example: undefined,
};
const missing: Diagnostic = Object.freeze({
  path: ["body"],
  code: "required",
  message: "must have required property 'amount'",
  severity: 0,
});
const wrong: Diagnostic = Object.freeze({
  path: ["body", "currency"],
  code: "enum",
  message: "must be equal to one of the allowed values",
  severity: 0,
});

// Prism's 422 problem (createUnprocessableEntityResponse), as stock prism-http-server sends it.
const problem = (findings: Array<{ location: string[]; code: string; message: string }>) =>
  JSON.stringify({
    type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
    title: "Invalid request",
    status: 422,
    detail: "Your request is not valid and no HTTP validation response was found in the spec, so Prism is generating this error for you.",
    validation: findings.map((f) => ({ location: f.location, severity: "Error", code: f.code, message: f.message })),
  });

/** The headers sent: the CORS ones (Allow-Headers `allow`), the answer's Content-Type, the body's length. */
const sentHeaders = (allow: string, body: string) => [
  "Access-Control-Allow-Origin",
  "*",
  "Access-Control-Allow-Headers",
  allow,
  "Access-Control-Expose-Headers",
  "*",
  "content-type",
  "application/problem+json",
  "Content-Length",
  Buffer.byteLength(body),
];

/** A real server on a free port for the describe block calling it; gives the raw bytes of its answers. */
function realServer(handler: (request: IncomingMessage, response: ServerResponse) => void): (head: string) => Promise<string> {
  const server = createServer(handler);
  let port = 0;
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());
  // The raw bytes of the answer to a request's head (the connection closed after it), its Date line removed.
  return async (head) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.write(head);
    await once(socket, "close");
    return Buffer.concat(chunks)
      .toString("latin1")
      .replace(/\r\nDate: [^\r]*/, "");
  };
}

describe("writeProblemAnswer", () => {
  it("one finding: CORS, the answer's headers, Content-Length, Prism's 422 body listing it; the same bytes again", () => {
    const expectedBody = problem([{ location: ["body"], code: "required", message: "must have required property 'amount'" }]);
    for (let i = 0; i < 2; i++) {
      const { sent, response } = recorder();
      writeProblemAnswer(request(), response, answer, [missing]);
      expect(sent).toEqual({
        status: 422,
        headers: sentHeaders("*", expectedBody),
        body: expectedBody,
      });
    }
  });

  it("two findings, in order; a request asking for CORS headers gets them echoed", () => {
    const { sent, response } = recorder();
    writeProblemAnswer(request({ "access-control-request-headers": "x-a" }), response, answer, [missing, wrong]);
    const expectedBody = problem([
      { location: ["body"], code: "required", message: "must have required property 'amount'" },
      { location: ["body", "currency"], code: "enum", message: "must be equal to one of the allowed values" },
    ]);
    expect(sent.body).toBe(expectedBody);
    expect(sent.headers).toEqual(sentHeaders("x-a", expectedBody));
  });

  it("a problem that does not list findings: its own body, whatever the findings", () => {
    const own: Answer = { ...answer, status: 401, listsFindings: false, body: Buffer.from('{"title":"Invalid security scheme used"}') };
    const { sent, response } = recorder();
    writeProblemAnswer(request(), response, own, [missing]);
    expect(sent.status).toBe(401);
    expect(sent.body).toBe('{"title":"Invalid security scheme used"}');
    expect(sent.headers.slice(-2)).toEqual(["Content-Length", 40]);
  });
});

describe("endWithoutBody", () => {
  const HEADERS = ["Access-Control-Allow-Origin", "*", "sl-violations", '[{"code":"required"}]', "X-Count", 2];
  /** The way it replaces: each header set, then `end()`. */
  const oneByOne = (response: ServerResponse, status: number) => {
    for (let i = 0; i < HEADERS.length; i += 2) response.setHeader(HEADERS[i] as string, HEADERS[i + 1]);
    response.statusCode = status;
    response.end();
  };
  const send = realServer((request, response) => {
    const status = Number(request.headers["x-status"]);
    // A header set before (as a hook may): kept, in its place.
    if (request.headers["x-before"]) response.setHeader("Vary", "Origin");
    if (request.headers["x-way"] === "new") endWithoutBody(response, status, [...HEADERS]);
    else oneByOne(response, status);
  });
  const raw = (method: string, status: number, way: string) =>
    send(`${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-status: ${status}\r\nx-way: ${way}\r\n\r\n`);

  const cases = ["GET", "HEAD", "POST"].flatMap((method) => [200, 204, 304, 400, 401, 404, 422].map((status) => [method, status] as const));
  it("has the expected number of cases", () => expect(cases).toHaveLength(21));
  it.each(cases)("%s answered %i: the same bytes as each header set and end()", async (method, status) => {
    const before = await raw(method, status, "old");
    expect(before).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(await raw(method, status, "new")).toBe(before);
  });

  it.each([
    ["GET", 200],
    ["POST", 400],
  ])("%s answered %i after a header was set: the same bytes as each header set and end(), that header first", async (method, status) => {
    const head = (way: string) =>
      `${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-status: ${status}\r\nx-way: ${way}\r\nx-before: 1\r\n\r\n`;
    const before = await send(head("old"));
    expect(before).toMatch(new RegExp(`^HTTP/1.1 ${status} [^\r]*\r\nVary: Origin\r\n`));
    expect(await send(head("new"))).toBe(before);
  });

  it("a response with a header set before falls back to setting them one by one, the one set before kept", async () => {
    const { sent, response } = recorder();
    (response as unknown as { getHeaderNames: () => string[] }).getHeaderNames = () => ["vary"];
    endWithoutBody(response, 400, ["sl-violations", "[]"]);
    expect(sent).toEqual({ status: 400, headers: ["sl-violations", "[]"], body: undefined });
  });
});

describe("emit of a body given as text", () => {
  // A body made for one answer (the sandbox's, a problem's) is passed as a string: Node writes it with
  // the head in one write. The bytes on the wire are those of the same body as a Buffer.
  const send = realServer((request, response) => {
    const body = String(request.headers["x-body"] ? decodeURIComponent(String(request.headers["x-body"])) : "");
    const pairs: Array<[string, string | number]> = [["Content-Type", "application/json"]];
    emit(response, Number(request.headers["x-status"]), pairs, request.headers["x-way"] === "text" ? body : Buffer.from(body));
  });
  const raw = (method: string, status: number, body: string, way: string) =>
    send(
      `${method} / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-status: ${status}\r\nx-way: ${way}\r\nx-body: ${encodeURIComponent(body)}\r\n\r\n`,
    );

  it.each([
    ["GET", 200, '{"a":"plain"}'],
    ["GET", 201, '{"name":"Zoë Ångström","city":"東京","emoji":"😀"}'],
    ["HEAD", 200, '{"a":"no body is sent for HEAD"}'],
    ["POST", 422, '{"detail":"x"}'],
  ] as const)("%s answered %i with %s: the bytes of the same body as a Buffer, Content-Length in bytes", async (method, status, body) => {
    const asBuffer = await raw(method, status, body, "buffer");
    expect(asBuffer).toContain(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
    expect(await raw(method, status, body, "text")).toBe(asBuffer);
  });
});

describe("writeJson", () => {
  // The sandbox's answers (JSON built for the request, no headers of their own) take writeJson; the
  // bytes are those of `write` with a Content-Type application/json header (none without a body).
  const violations = [{ location: ["response", "body"], severity: "Error", code: "required", message: "must have required property 'id'" }];
  const send = realServer((request, response) => {
    const text = request.headers["x-body"] === undefined ? undefined : decodeURIComponent(String(request.headers["x-body"]));
    const found = request.headers["x-violations"] ? violations : undefined;
    const status = Number(request.headers["x-status"]);
    if (request.headers["x-way"] === "json") writeJson(request, response, status, found, text);
    else write(request, response, status, found, text === undefined ? [] : [["Content-Type", "application/json"]], text);
  });
  const raw = (way: string, head: string) =>
    send(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\nx-way: ${way}\r\n${head}\r\n`);

  const body = `x-body: ${encodeURIComponent('{"id":"dsb_1","name":"Zoë"}')}\r\n`;
  it.each([
    ["a body, plain CORS", `x-status: 201\r\n${body}`],
    [
      "a body, CORS headers asked for",
      `x-status: 200\r\n${body}access-control-request-headers: x-a\r\naccess-control-expose-headers: x-b\r\n`,
    ],
    ["a body and violations", `x-status: 200\r\n${body}x-violations: 1\r\n`],
    ["no body", "x-status: 200\r\n"],
    ["no body, 204, violations", "x-status: 204\r\nx-violations: 1\r\n"],
  ])("%s: the bytes of write", async (_, head) => {
    const before = await raw("write", head);
    expect(before).toMatch(/^HTTP\/1.1 20[014] /);
    expect(await raw("json", head)).toBe(before);
  });
});
