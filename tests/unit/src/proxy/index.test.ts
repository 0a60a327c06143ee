/**
 * The validating proxy (src/proxy; `bank-api-contracts proxy`) in front of a small node:http
 * upstream that answers one operation of the API with its spec example, or, when asked, with a
 * wrong-typed copy. On every API (in process): the valid exchange passes untouched, the invalid one
 * is reported to onExchange and in sl-violations, a request without credentials is reported but
 * still forwarded, a wrong-typed request body is forwarded as sent and reported at its property. A
 * reporter that throws breaks no exchange. The CLI (a process) is tested in
 * tests/unit/src/cli/proxy.spawn.test.ts.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ProxyExchange, type ProxyViolation, startProxy } from "../../../../src/proxy/index.js";
import { jsonRequest, operations, requiresCredentials, responseContents, successResponse } from "../../../../src/document/index.js";
import { credentialHeaders, requestParams, requestUrl, sendExample, wrongTypedBody } from "../../../../src/testing/requests.js";
import { bundled, named, registry } from "../../../helpers/registry.js";
import { type ContractCase, contractCases } from "../cli/cases.js";
import { escapeRegExp } from "../../../helpers/cli.js";

/** An upstream answering every request with the case's status and example (`x-variant: invalid`: the wrong-typed copy). */
async function upstream(c: ContractCase): Promise<{ url: string; server: Server; received: string[] }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    const body = request.headers["x-variant"] === "invalid" ? c.invalid : c.valid;
    response.writeHead(c.status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server, received };
}

/** The case's operation, called through `base` with its example request. */
function call(c: ContractCase, base: string, headers: Record<string, string> = {}, credentials = true) {
  return sendExample(base, c.api.doc, c.op, { headers, credentials });
}

const pathOf = (c: ContractCase) => requestUrl(c.op, requestParams(c.api.doc, c.op)).split("?")[0];

describe.each(named(contractCases))("proxy %s", (_, c) => {
  let up: Awaited<ReturnType<typeof upstream>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  const exchanges: ProxyExchange[] = [];
  beforeAll(async () => {
    up = await upstream(c);
    proxy = await startProxy(c.alias, { upstream: up.url, port: 0, onExchange: (e) => exchanges.push(e) });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => up.server.close(resolve));
  });

  it("forwards a valid exchange untouched and reports no violation", async () => {
    exchanges.length = 0;
    const response = await call(c, proxy.url);
    expect(response.status).toBe(c.status);
    expect(await response.json()).toEqual(c.valid);
    expect(response.headers.get("sl-violations")).toBeNull();
    expect(up.received.at(-1)).toMatch(new RegExp(`^${c.op.method.toUpperCase()} ${escapeRegExp(pathOf(c))}`));
    expect(exchanges).toEqual([expect.objectContaining({ method: c.op.method.toUpperCase(), status: c.status, violations: [] })]);
    expect(exchanges[0].url.split("?")[0]).toBe(pathOf(c));
  });

  it("passes an invalid response on as it is, reporting the property in sl-violations and to onExchange", async () => {
    exchanges.length = 0;
    const response = await call(c, proxy.url, { "x-variant": "invalid" });
    expect(response.status).toBe(c.status);
    expect(await response.json()).toEqual(c.invalid);
    const header = JSON.parse(response.headers.get("sl-violations") ?? "[]");
    const expected = expect.objectContaining({ location: ["response", "body", c.field], severity: "Error" });
    expect(header).toEqual(expect.arrayContaining([expected]));
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0].violations).toEqual(expect.arrayContaining([expected]));
  });

  it("reports a request without credentials, and still forwards it", async () => {
    // Each case's operation is authenticated in its source (none of them is public).
    expect(requiresCredentials(c.api.doc, c.op)).toBe(true);
    exchanges.length = 0;
    const before = up.received.length;
    const response = await call(c, proxy.url, {}, false);
    expect(response.status).toBe(c.status);
    expect(up.received.length).toBe(before + 1);
    expect(exchanges[0].violations).toEqual(expect.arrayContaining([expect.objectContaining({ location: ["request"], code: 401 })]));
  });
});

/** Per API: the first operation with a JSON request body example, and a copy with one property wrong-typed. */
const bodyCases = bundled.flatMap(({ entry, doc }) => {
  for (const op of operations(doc)) {
    const media = jsonRequest(doc, op);
    const example = media?.examples[0]?.value;
    if (!media?.schema || example === undefined) continue;
    const wrong = wrongTypedBody(doc, media.schema, example);
    if (wrong.field === undefined) continue;
    return [{ alias: entry.alias, doc, op, body: wrong.body, field: wrong.field }];
  }
  return [];
});

it("every API has an operation with a JSON request body to send wrong", () => {
  expect(bodyCases.map((c) => c.alias)).toEqual(registry.map((e) => e.alias));
});

describe.each(bodyCases.map((c) => [c.alias, c] as const))("proxy %s, a request body of the wrong type", (_, c) => {
  it("is forwarded as sent and reported at its property, in sl-violations and to onExchange", async () => {
    const received: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push(Buffer.concat(chunks).toString());
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const exchanges: ProxyExchange[] = [];
    const proxy = await startProxy(c.alias, {
      upstream: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      port: 0,
      onExchange: (e) => exchanges.push(e),
    });
    try {
      const params = requestParams(c.doc, c.op);
      const text = JSON.stringify(c.body);
      const response = await fetch(proxy.url + requestUrl(c.op, params), {
        method: c.op.method.toUpperCase(),
        headers: { ...params.header, ...credentialHeaders(c.doc, c.op), "content-type": "application/json" },
        body: text,
      });
      expect(response.status).toBe(204);
      expect(received).toEqual([text]);
      const expected = expect.objectContaining({ location: ["request", "body", c.field], severity: "Error" });
      expect(JSON.parse(response.headers.get("sl-violations") ?? "[]")).toEqual(expect.arrayContaining([expected]));
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0].violations).toEqual(expect.arrayContaining([expected]));
    } finally {
      await proxy.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a reporter that throws", () => {
  it("breaks no exchange: each answer still reaches the client, the reporter is called for each, its error named on stderr", async () => {
    const [c] = contractCases;
    const up = await upstream(c);
    let calls = 0;
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const proxy = await startProxy(c.alias, {
      upstream: up.url,
      port: 0,
      onExchange: () => {
        calls++;
        throw new Error("reporter failed");
      },
    });
    try {
      for (const variant of ["valid", "invalid"]) {
        const response = await call(c, proxy.url, { "x-variant": variant });
        expect(response.status).toBe(c.status);
        expect(await response.json()).toEqual(variant === "valid" ? c.valid : c.invalid);
      }
      expect(calls).toBe(2);
      const lines = written.filter((line) => line.startsWith(`${c.alias} proxy:`));
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/ proxy: onExchange threw on \S+ \S+: reporter failed\n$/);
    } finally {
      spy.mockRestore();
      await proxy.close();
      await new Promise((resolve) => up.server.close(resolve));
    }
  });
});

/** The first operation of any API whose success answer is a JSON object that admits no other property (`additionalProperties: false`). */
const closedObjectCase = bundled.flatMap(({ entry, doc }) =>
  operations(doc).flatMap((op) => {
    const { status, response } = successResponse(op);
    const closed = responseContents(doc, response).some((m) => /json/.test(m.mediaType) && m.schema?.value?.additionalProperties === false);
    return closed ? [{ alias: entry.alias, doc, op, status }] : [];
  }),
)[0];

describe("a finding that quotes text outside Latin-1 (which a header cannot carry as it is)", () => {
  /** An upstream answering every request with `status`, `type` and `body`. */
  async function answering(status: number, type: string, body: string) {
    const server = createServer((_, response) => {
      response.writeHead(status, { "content-type": type });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  async function through(alias: string, server: Server, send: (base: string) => Promise<Response>) {
    const exchanges: ProxyExchange[] = [];
    const proxy = await startProxy(alias, {
      upstream: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      port: 0,
      onExchange: (e) => exchanges.push(e),
    });
    try {
      const response = await send(proxy.url);
      return { response, text: await response.text(), exchanges };
    } finally {
      await proxy.close();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("an object that admits no other property, answered with one named 名前: the upstream's status, a header that parses back to the finding", async () => {
    expect(closedObjectCase).toBeDefined();
    const c = closedObjectCase;
    const body = JSON.stringify({ 名前: "値 😀" });
    const server = await answering(c.status, "application/json", body);
    const { response, text, exchanges } = await through(c.alias, server, (base) => sendExample(base, c.doc, c.op));
    expect(response.status).toBe(c.status);
    expect(text).toBe(body);
    const header = response.headers.get("sl-violations");
    expect(header).not.toBeNull();
    // Prism names the property it did not expect (prism-http's convertAjvErrors: "; found '<name>'").
    const finding = expect.objectContaining({
      location: ["response", "body"],
      severity: "Error",
      message: expect.stringContaining("found '名前'"),
    });
    expect(JSON.parse(header!)).toEqual(expect.arrayContaining([finding]));
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ status: c.status });
    expect(exchanges[0].error).toBeUndefined();
    expect(JSON.parse(header!)).toEqual(exchanges[0].violations);
  });

  it("a JSON answer that does not parse, its error quoting an emoji: the upstream's status, a header that parses back to the finding", async () => {
    const [c] = contractCases;
    const body = '{"note": 😀}';
    const server = await answering(c.status, "application/json", body);
    const { response, text, exchanges } = await through(c.alias, server, (base) => call(c, base));
    expect(response.status).toBe(c.status);
    expect(text).toBe(body);
    const header = response.headers.get("sl-violations");
    expect(header).not.toBeNull();
    const parsed = JSON.parse(header!);
    const finding = parsed.find((v: ProxyViolation) => v.code === "invalid-json");
    expect(finding).toMatchObject({ location: ["response", "body"], severity: "Error", message: expect.stringContaining('{"note": 😀}') });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0].error).toBeUndefined();
    expect(parsed).toEqual(exchanges[0].violations);
  });
});
