import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismServer, loadOperations, MAX_LISTED_VIOLATIONS, type PrismServer } from "../../../../src/mock/server.js";
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_UNKNOWN_MEMBERS } from "../../../../src/mock/limits.js";
import {
  BODY_BYTES,
  DEVIATIONS,
  inputFindings,
  LARGE_BODY_BYTES,
  MAX_CONVERTED_FINDINGS,
  NOT_CONVERTED,
} from "../../../../src/mock/validate.js";
import { loadDocument } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { validatorForDocument } from "../../../../src/validation/contract.js";
import { startStockPrism } from "../../../../scripts/lib/stock-prism.js";
import { EXPECTED_DEVIATIONS } from "../../../helpers/deviations.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const QUIRKS = join(repoRoot, "tests/fixtures/mock-quirks/openapi.yaml");
const BEARER = { authorization: "Bearer t" };
const JSON_BODY = { ...BEARER, "content-type": "application/json" };

const STAMP_EXAMPLE = { at: "2025-11-21T10:00:00.000Z" };
/** /stamp: an operation whose generated answer never validates (a pattern beside a format, which json-schema-faker ignores). */
const STAMP = join(repoRoot, "tests/fixtures/mock-dynamic/openapi.yaml");

const servers: Record<string, { mock: string; stock: string }> = {};
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  for (const [name, path] of [
    ["shop", shop.bundlePath],
    ["quirks", QUIRKS],
    ["stamp", STAMP],
  ]) {
    const mock: PrismServer = createPrismServer(await loadOperations(path));
    const stock = await startStockPrism(path);
    servers[name] = { mock: await mock.listen(0, "127.0.0.1"), stock: stock.url };
    closers.push(
      () => mock.close(),
      () => stock.close(),
    );
  }
}, 30_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(base + path, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) out[name] = String(value);
        resolve({ status: response.statusCode!, headers: out, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

const both = (api: string, method: string, path: string, headers: Record<string, string>, body?: string) =>
  Promise.all([send(servers[api].mock, method, path, headers, body), send(servers[api].stock, method, path, headers, body)]);

const violations = (reply: Reply) =>
  JSON.parse(reply.headers["sl-violations"] ?? "[]") as Array<{ location: string[]; code: unknown; message: string }>;

describe("the mock's deviations from stock Prism", () => {
  it("lists the deviations tested here", () => {
    expect([...DEVIATIONS].sort()).toEqual([...EXPECTED_DEVIATIONS].sort());
  });

  it("cors: allows every origin without credentials instead of echoing the Origin with credentials", async () => {
    const origin = { ...BEARER, origin: "https://evil.example" };
    const [mock, stock] = await both("shop", "GET", "/v1/order/o-1", origin);
    expect(stock.headers["access-control-allow-origin"]).toBe("https://evil.example");
    expect(stock.headers["access-control-allow-credentials"]).toBe("true");
    expect(mock.status).toBe(stock.status);
    expect(mock.headers["access-control-allow-origin"]).toBe("*");
    expect(mock.headers["access-control-allow-credentials"]).toBeUndefined();

    const preflight = {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization",
    };
    const [mockPre, stockPre] = await both("shop", "OPTIONS", "/v1/order", preflight);
    expect(stockPre.headers["access-control-allow-credentials"]).toBe("true");
    expect(mockPre).toMatchObject({ status: 204, body: "" });
    expect(mockPre.headers).toMatchObject({ "access-control-allow-origin": "*", "access-control-allow-headers": "authorization" });
    expect(mockPre.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("allow: a 405 names the methods the path has", async () => {
    const [mock, stock] = await both("shop", "DELETE", "/v1/order", BEARER);
    expect(stock.status).toBe(405);
    expect(stock.headers.allow).toBeUndefined();
    expect(mock.status).toBe(405);
    expect(mock.body).toBe(stock.body);
    expect(mock.headers.allow.split(", ").sort()).toEqual(["GET", "POST"]);
    const [item] = await both("shop", "POST", "/v1/order/o-1", BEARER);
    expect(item.headers.allow.split(", ").sort()).toEqual(["DELETE", "GET", "PUT"]);
  });

  it.each(["a", "/", ";", "text/", "application/json; x"])(
    "malformedContentType: Content-Type %j with a body is a 415 violation, not a 500",
    async (type) => {
      const body = JSON.stringify({ merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" } });
      const [mock, stock] = await both("shop", "POST", "/v1/order", { ...BEARER, "content-type": type }, body);
      expect(stock.status).toBe(500);
      // shop declares 400: Prism's answer to an unsupported media type there, with the 415 finding.
      expect(mock.status).toBe(400);
      expect(violations(mock)).toEqual([
        {
          location: ["request"],
          severity: "Error",
          code: 415,
          message: `The Content-Type ${JSON.stringify(type)} is not a media type. Supported content types: application/json`,
        },
      ]);
      // quirks' createBatch declares no 4xx: Prism's own 415 problem.
      const [problem] = await both("quirks", "POST", "/v1/batch", { ...BEARER, "content-type": type }, "{}");
      expect(problem.status).toBe(415);
      expect(JSON.parse(problem.body)).toMatchObject({ title: "Invalid content type", status: 415 });
    },
  );

  it("malformedContentType: without a body, a malformed Content-Type is ignored (stock Prism's process dies)", async () => {
    const mock = await send(servers.shop.mock, "GET", "/v1/order/o-1", { ...BEARER, "content-type": ";" });
    expect(mock.status).toBe(200);
  });

  it("malformedAccept: an Accept that is not a media type gets 406 when nothing declared is acceptable (stock Prism's process dies)", async () => {
    const mock = await send(servers.shop.mock, "GET", "/v1/order/o-1", { ...BEARER, accept: "a" });
    expect(mock.status).toBe(406);
    expect(JSON.parse(mock.body)).toMatchObject({ status: 406, detail: "Unable to find content for a" });
    // The same answer again (the fast path keeps it), and a malformed entry beside an acceptable one changes nothing.
    expect((await send(servers.shop.mock, "GET", "/v1/order/o-1", { ...BEARER, accept: "a" })).status).toBe(406);
    const [mixed, stockMixed] = await both("shop", "GET", "/v1/order/o-1", { ...BEARER, accept: "a, application/json" });
    expect(mixed).toMatchObject({ status: 200, body: stockMixed.body });
  });

  it("emptyQueryValue: an empty query value is validated as the empty string, not dropped", async () => {
    // An integer: stock Prism reports the required parameter missing; the mock reports "" not an integer.
    const [mock, stock] = await both("shop", "GET", "/v1/order?limit=", BEARER);
    expect(JSON.parse(stock.body).validation).toEqual([
      { location: ["query"], severity: "Error", code: "required", message: "Request query must have required property 'limit'" },
    ]);
    expect(mock.status).toBe(422);
    expect(JSON.parse(mock.body).validation).toEqual([
      { location: ["query", "limit"], severity: "Error", code: "type", message: "Request query parameter limit must be integer" },
    ]);
    // An array of enum values: stock Prism answers 200, the mock finds "" outside the enum.
    const headers = { ...BEARER, "x-count": "1" };
    const [items, stockItems] = await both("quirks", "GET", "/v1/items/1?fields=", headers);
    expect(stockItems.status).toBe(200);
    expect(items.status).toBe(422);
    expect(items.body).toBe(JSON.stringify({ code: "E1" }));
    expect(violations(items).map((v) => v.location)).toEqual([["request", "query", "fields", "0"]]);
    // A string accepts the empty string, as in stock Prism.
    const [merchant, stockMerchant] = await both("shop", "GET", "/v1/order?limit=1&merchant_id=", BEARER);
    expect(merchant).toMatchObject({ status: 200, body: stockMerchant.body });
  });

  it.each(["bearer t", "BEARER t", "BeArEr t"])("bearerCase: %j is accepted as a bearer token", async (authorization) => {
    const [mock, stock] = await both("shop", "GET", "/v1/order/o-1", { authorization });
    expect(stock.status).toBe(401);
    expect(mock.status).toBe(200);
    // A scheme name alone, or another scheme, is still refused.
    for (const refused of ["bearer", "Bearer ", "Basic dTpw"]) {
      expect((await send(servers.shop.mock, "GET", "/v1/order/o-1", { authorization: refused })).status, refused).toBe(401);
    }
  });

  it("bodyLimit: a body over 10 MB gets the 413, then the connection closes", async () => {
    const body = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const mock = await send(servers.shop.mock, "POST", "/v1/order", JSON_BODY, body);
    expect(mock.status).toBe(413);
    expect(mock.headers.connection).toBe("close");
    expect(JSON.parse(mock.body)).toEqual({ error: { code: "request_entity_too_large", message: "Body exceeded 10mb limit" } });
    // Through fetch too (it reads the answer while still sending), with a body well over the limit.
    const response = await fetch(`${servers.shop.mock}/v1/order`, {
      method: "POST",
      headers: JSON_BODY,
      body: Buffer.alloc(30 * 1024 * 1024, 0x20),
    });
    expect(response.status).toBe(413);
    await response.text();
  });

  it("largeBody: a body over LARGE_BODY_BYTES is validated up to its first violation, and says so", async () => {
    const items = Array.from({ length: Math.ceil(LARGE_BODY_BYTES / 20) + 10 }, () => "not-an-object-item");
    const body = JSON.stringify({ items });
    expect(body.length).toBeGreaterThan(LARGE_BODY_BYTES);
    const [mock, stock] = await both("quirks", "POST", "/v1/batch", JSON_BODY, body);
    expect(stock.status).toBe(422);
    expect(JSON.parse(stock.body).validation).toHaveLength(items.length);
    expect(mock.status).toBe(422);
    expect(JSON.parse(mock.body).validation).toEqual([
      { location: ["body", "items", "0"], severity: "Error", code: "type", message: "Request body property items.0 must be object" },
      {
        location: ["body"],
        severity: "Information",
        code: "validation-stopped",
        message: `Request body is over ${LARGE_BODY_BYTES} bytes: validated up to its first violation`,
      },
    ]);
  });

  it("dynamicFallback: a generated answer that breaks its own schema is replaced by the example", async () => {
    const dynamic = { prefer: "dynamic=true" };
    const [mock, stock] = await both("stamp", "GET", "/stamp", dynamic);
    // Stock Prism sends the generated value with the violation of its pattern.
    expect(stock.status).toBe(200);
    expect(JSON.parse(stock.body)).not.toEqual(STAMP_EXAMPLE);
    expect(violations(stock).map((v) => [v.location, v.code])).toEqual([[["response", "body", "at"], "pattern"]]);
    // The mock sends the example, without violations.
    expect(mock.status).toBe(200);
    expect(JSON.parse(mock.body)).toEqual(STAMP_EXAMPLE);
    expect(mock.headers["sl-violations"]).toBeUndefined();
    // A static answer is the same on both.
    const [plain, stockPlain] = await both("stamp", "GET", "/stamp", {});
    expect(plain).toMatchObject({ status: 200, body: stockPlain.body });
  });

  it("violationCap: a problem body lists MAX_LISTED_VIOLATIONS violations and a count of the others", async () => {
    const count = MAX_LISTED_VIOLATIONS + 50;
    const body = JSON.stringify({ items: Array.from({ length: count }, () => 1) });
    const [mock, stock] = await both("quirks", "POST", "/v1/batch", JSON_BODY, body);
    const theirs = JSON.parse(stock.body).validation;
    expect(theirs).toHaveLength(count);
    // Everything but the list is stock Prism's (the title too).
    expect({ ...JSON.parse(mock.body), validation: [] }).toEqual({ ...JSON.parse(stock.body), validation: [] });
    const ours = JSON.parse(mock.body).validation;
    expect(ours).toEqual([
      ...theirs.slice(0, MAX_LISTED_VIOLATIONS),
      { location: [], severity: "Information", code: "violations-capped", message: "50 more violations not listed" },
    ]);
    // In sl-violations the list is cut where stock Prism cuts it: the same header.
    const many = JSON.stringify({ merchant_id: 1, amount: { cur: 1, amt: 1 }, child_amounts: Array.from({ length: count }, () => ({})) });
    const [header, stockHeader] = await both("shop", "POST", "/v1/order", JSON_BODY, many);
    expect(stockHeader.headers["sl-violations"]).toMatch(/^Too many violations! /);
    expect(header.headers["sl-violations"]).toBe(stockHeader.headers["sl-violations"]);
  });

  const unknown = (path: string[]) => ({
    location: ["request", "body", ...path],
    severity: "Warning",
    code: "unknown-member",
    message: `Request body property ${path.join(".")} is not a member its schema names (misspelt?)`,
  });

  it("unknownMember: a member the body's schema does not name is a Warning in sl-violations; the answer is otherwise stock Prism's", async () => {
    const body = JSON.stringify({
      merchant_id: "m-1",
      amount: { cur: "PHP", amt: "1.00", amout: "1.00" },
      mercant_note: "x",
      child_amounts: [
        { cur: "PHP", amt: "0.50" },
        { cur: "PHP", amt: "0.50", crr: "PHP" },
      ],
    });
    const [mock, stock] = await both("shop", "POST", "/v1/order", JSON_BODY, body);
    expect(stock.status).toBe(200);
    expect(stock.headers["sl-violations"]).toBeUndefined();
    expect(mock).toMatchObject({ status: 200, body: stock.body });
    expect(mock.headers["content-type"]).toBe(stock.headers["content-type"]);
    // In the body's order, depth first.
    expect(violations(mock)).toEqual([unknown(["amount", "amout"]), unknown(["mercant_note"]), unknown(["child_amounts", "1", "crr"])]);
    // The same from the fast path (a second request of the kind), and with a deprecated member's warning before them.
    const again = await send(servers.shop.mock, "POST", "/v1/order", JSON_BODY, body);
    expect(violations(again)).toEqual(violations(mock));
    const deprecated = JSON.stringify({ merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" }, payment_method: "CARD", notes: "x" });
    const [withDeprecated, stockDeprecated] = await both("shop", "POST", "/v1/order", JSON_BODY, deprecated);
    expect(violations(withDeprecated)).toEqual([...violations(stockDeprecated), unknown(["notes"])]);
  });

  it(`unknownMember: at most ${MAX_UNKNOWN_MEMBERS} are listed, then one finding says there are more`, async () => {
    const extra = Object.fromEntries(Array.from({ length: MAX_UNKNOWN_MEMBERS + 5 }, (_, i) => [`extra_${i}`, i]));
    const body = JSON.stringify({ merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" }, ...extra });
    const [mock, stock] = await both("shop", "POST", "/v1/order", JSON_BODY, body);
    expect(mock).toMatchObject({ status: 200, body: stock.body });
    expect(violations(mock)).toEqual([
      ...Array.from({ length: MAX_UNKNOWN_MEMBERS }, (_, i) => unknown([`extra_${i}`])),
      {
        location: ["request", "body"],
        severity: "Information",
        code: "unknown-members-capped",
        message: `Request body has more members its schema does not name; the first ${MAX_UNKNOWN_MEMBERS} are listed`,
      },
    ]);
  });

  it("unknownMember: an invalid request gets stock Prism's findings alone; in a valid one, every named object is read", async () => {
    // An invalid request: stock Prism's answer, the same findings.
    const invalid = JSON.stringify({ merchant_id: 1, amount: { cur: "PHP", amt: "1.00" }, mercant_note: "x" });
    const [mock, stock] = await both("shop", "POST", "/v1/order", JSON_BODY, invalid);
    expect(mock.status).toBe(400);
    expect(mock.headers["sl-violations"]).toBe(stock.headers["sl-violations"]);
    // updateOrder's body names status and notes (maps and free-form objects: the tags fixture below).
    const headers = { ...JSON_BODY, "idempotency-key": "2f1e3c4d-5b6a-4789-8abc-0123456789ab" };
    const [named, stockNamed] = await both("shop", "PUT", "/v1/order/o-1", headers, JSON.stringify({ status: "PAID", note: "x" }));
    expect(stockNamed.status).toBe(200);
    expect(violations(named)).toEqual([unknown(["note"])]);
  });

  it(`unknownMember: a body over LARGE_BODY_BYTES, judged by the worker, gets the same warnings`, async () => {
    const items = Array.from({ length: Math.ceil(LARGE_BODY_BYTES / 24) + 10 }, () => ({ cur: "PHP", amt: "0.01" }));
    items[7] = { cur: "PHP", amt: "0.01", amnt: "0.01" } as never;
    const body = JSON.stringify({ merchant_id: "m-1", amount: { cur: "PHP", amt: "1.00" }, child_amounts: items });
    expect(body.length).toBeGreaterThan(LARGE_BODY_BYTES);
    const [mock, stock] = await both("shop", "POST", "/v1/order", JSON_BODY, body);
    expect(mock).toMatchObject({ status: 200, body: stock.body });
    expect(violations(mock)).toEqual([unknown(["child_amounts", "7", "amnt"])]);
  });

  it("invalidJson: broken JSON to an operation that declares a 400 (and no 422) gets that 400, which its contract describes", async () => {
    const contract = validatorForDocument("shop@1.0.0", loadDocument(shop.bundlePath));
    const bodyOf = (reply: Reply) => (reply.body === "" ? undefined : JSON.parse(reply.body));
    const [mock, stock] = await both("shop", "POST", "/v1/order", JSON_BODY, '{"merchant_id": ');
    // Stock Prism sends micri's body, which the operation's 400 (no body) does not describe.
    expect(stock.status).toBe(400);
    expect(JSON.parse(stock.body)).toEqual({ error: { code: "invalid_json", message: "Invalid JSON" } });
    expect(contract.validateResponse({ operationId: "createOrder", status: 400, body: bodyOf(stock) }).valid).toBe(false);
    // The mock answers the operation's 400 as for any invalid request, the finding in sl-violations.
    expect(mock.status).toBe(400);
    expect(contract.validateResponse({ operationId: "createOrder", status: 400, body: bodyOf(mock) })).toEqual({
      valid: true,
      violations: [],
    });
    expect(violations(mock)).toEqual([
      { location: ["request", "body"], severity: "Error", code: "invalid_json", message: "Request body is not valid JSON" },
    ]);
    const wrongType = JSON.stringify({ merchant_id: 1, amount: { cur: "PHP", amt: "1.00" } });
    const wrong = await send(servers.shop.mock, "POST", "/v1/order", JSON_BODY, wrongType);
    expect(wrong).toMatchObject({ status: mock.status, body: mock.body });
    // The same again (from the fast path), and without credentials the 401 first, as for any invalid request.
    expect(await send(servers.shop.mock, "POST", "/v1/order", JSON_BODY, "{")).toMatchObject({ status: 400, body: "" });
    const [anonymous, stockAnonymous] = await both("shop", "POST", "/v1/order", { "content-type": "application/json" }, "{");
    expect(stockAnonymous.status).toBe(400);
    expect(anonymous.status).toBe(401);
  });

  it("invalidJson: elsewhere (a 422 declared, no operation) broken JSON gets stock Prism's answer", async () => {
    const headers = { ...JSON_BODY, "idempotency-key": "2f1e3c4d-5b6a-4789-8abc-0123456789ab" };
    const [put, stockPut] = await both("shop", "PUT", "/v1/order/o-1", headers, "{");
    expect(put).toMatchObject({ status: stockPut.status, body: stockPut.body });
    expect(put.status).toBe(400);
    const [nowhere, stockNowhere] = await both("shop", "POST", "/v1/no-such-path", JSON_BODY, "{");
    expect(nowhere).toMatchObject({ status: stockNowhere.status, body: stockNowhere.body });
  });

  it("violations past MAX_CONVERTED_FINDINGS are counted, not converted, and the answer stays stock Prism's", async () => {
    const count = MAX_CONVERTED_FINDINGS + 500;
    const body = JSON.stringify({ items: Array.from({ length: count }, () => 1) });
    const [mock, stock] = await both("quirks", "POST", "/v1/batch", JSON_BODY, body);
    expect(mock.status).toBe(stock.status);
    const theirs = JSON.parse(stock.body).validation;
    expect(theirs).toHaveLength(count);
    expect(JSON.parse(mock.body).validation).toEqual([
      ...theirs.slice(0, MAX_LISTED_VIOLATIONS),
      {
        location: [],
        severity: "Information",
        code: "violations-capped",
        message: `${count - MAX_LISTED_VIOLATIONS} more violations not listed`,
      },
    ]);
    const many = JSON.stringify({
      merchant_id: "m",
      amount: { cur: "PHP", amt: "1" },
      child_amounts: Array.from({ length: count }, () => 1),
    });
    const [header, stockHeader] = await both("shop", "POST", "/v1/order", JSON_BODY, many);
    expect(header.headers["sl-violations"]).toBe(stockHeader.headers["sl-violations"]);
    // The findings themselves: the first MAX_CONVERTED_FINDINGS converted, each further one the shared stand-in.
    const [op] = (await loadOperations(QUIRKS)).filter((o) => o.method === "post" && o.path === "/v1/batch");
    const headers = { "content-type": "application/json", "content-length": String(body.length) };
    const element = { method: "post", url: { path: "/v1/batch", query: {} }, headers, body: JSON.parse(body), [BODY_BYTES]: body.length };
    const findings = inputFindings(op, element)!;
    expect(findings).toHaveLength(count);
    expect(findings[MAX_CONVERTED_FINDINGS - 1]).toMatchObject({ path: ["body", "items", String(MAX_CONVERTED_FINDINGS - 1)] });
    expect(findings[MAX_CONVERTED_FINDINGS]).toBe(NOT_CONVERTED);
    expect(findings[count - 1]).toBe(NOT_CONVERTED);
  });
});

/**
 * Requests on which stock Prism's process dies (an uncaught exception: Node refusing a header, a
 * URI that cannot be decoded, an Accept it cannot parse) or hangs (a declared body that never
 * comes): the mock's answers, sent to the mock alone.
 */
describe("the mock's answers where stock Prism dies or hangs", () => {
  const dir = mkdtempSync(join(tmpdir(), "deviations-"));
  const spec = join(dir, "openapi.yaml");
  let tags: string;
  let mock: PrismServer;
  beforeAll(async () => {
    writeFileSync(
      spec,
      [
        "openapi: 3.1.0",
        "info: { title: tags, version: 1.0.0 }",
        "paths:",
        "  /v1/tags/{tag_id}:",
        "    put:",
        "      parameters: [{ name: tag_id, in: path, required: true, schema: { type: string } }]",
        "      requestBody:",
        "        required: true",
        "        content:",
        "          application/json:",
        "            schema:",
        "              type: object",
        "              properties:",
        "                labels: { type: object, additionalProperties: { type: integer } }",
        "                strict: { type: object, additionalProperties: false }",
        "                deep: {}",
        "      responses:",
        "        '200': { description: ok, content: { application/json: { example: { ok: true } } } }",
        "        '400': { description: bad }",
      ].join("\n"),
    );
    mock = createPrismServer(await loadOperations(spec));
    tags = await mock.listen(0, "127.0.0.1");
  });
  afterAll(async () => {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("headerEscape: a rejected map key above U+00FF or with DEL is escaped in sl-violations, and parses back to itself", async () => {
    const key = "Ā\u007fé😀";
    for (let i = 0; i < 2; i++) {
      const labels = await send(tags, "PUT", "/v1/tags/t", JSON_BODY, JSON.stringify({ labels: { [key]: "x" } }));
      expect(labels.status).toBe(400);
      expect(labels.headers["sl-violations"]).toContain("\\u0100\\u007f");
      expect(violations(labels)).toEqual([
        {
          location: ["request", "body", "labels", key],
          severity: "Error",
          code: "type",
          message: `Request body property labels.${key} must be integer`,
        },
      ]);
      const strict = await send(tags, "PUT", "/v1/tags/t", JSON_BODY, JSON.stringify({ strict: { [key]: 1 } }));
      expect(strict.status).toBe(400);
      expect(violations(strict)[0].message).toBe(`Request body property strict must NOT have additional properties; found '${key}'`);
    }
  });

  it("unknownMember: a map's keys (additionalProperties: a schema) and a free-form object's members are not reported", async () => {
    const body = JSON.stringify({ labels: { any: 1, key: 2 }, deep: { whatever: { nested: true } }, lables: {} });
    const reply = await send(tags, "PUT", "/v1/tags/t", JSON_BODY, body);
    expect(reply.status).toBe(200);
    expect(violations(reply)).toEqual([
      {
        location: ["request", "body", "lables"],
        severity: "Warning",
        code: "unknown-member",
        message: "Request body property lables is not a member its schema names (misspelt?)",
      },
    ]);
  });

  it.each(["%", "a%ZZb", "%E0%A4%A"])(
    "pathEncoding: a path parameter %j that is not valid percent-encoding is an invalid parameter",
    async (id) => {
      for (let i = 0; i < 2; i++) {
        const reply = await send(tags, "PUT", `/v1/tags/${id}`, JSON_BODY, "{}");
        expect(reply.status).toBe(400);
        expect(violations(reply)).toEqual([
          {
            location: ["request", "path", "tag_id"],
            severity: "Error",
            code: "encoding",
            message: "Request path parameter tag_id is not valid percent-encoding (RFC 3986, section 2.1)",
          },
        ]);
      }
      // Where the operation has no 4xx, Prism's own 422 problem lists it.
      const problem = await send(servers.shop.mock, "GET", "/v1/order/%", BEARER);
      expect(problem.status).toBeGreaterThanOrEqual(400);
      expect(problem.status).toBeLessThan(500);
    },
  );

  it("malformedAccept: an empty Accept entry (`Accept: ,`) gets 406 as any Accept that matches nothing", async () => {
    for (let i = 0; i < 2; i++) {
      const reply = await send(servers.shop.mock, "GET", "/v1/order/o-1", { ...BEARER, accept: "," });
      expect(reply.status).toBe(406);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 406, detail: "Unable to find content for ," });
    }
  });

  it(`jsonDepth: a JSON body nested deeper than ${MAX_JSON_DEPTH} levels is answered as unparseable JSON, small or large`, async () => {
    const nested = (depth: number, pad = 0) => `{"pad":"${" ".repeat(pad)}","deep":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    // The operation declares a 400 (no body) and no 422: its 400, with the finding (DEVIATIONS invalidJson).
    const refused = {
      location: ["request", "body"],
      severity: "Error",
      code: "invalid_json",
      message: `Request body is JSON nested deeper than ${MAX_JSON_DEPTH} levels, which the mock does not read`,
    };
    for (const pad of [0, LARGE_BODY_BYTES]) {
      const deep = await send(tags, "PUT", "/v1/tags/t", JSON_BODY, nested(50_000, pad));
      expect(deep.status, `pad ${pad}`).toBe(400);
      expect(deep.body).toBe("");
      expect(violations(deep)).toEqual([refused]);
      expect((await send(tags, "PUT", "/v1/tags/t", JSON_BODY, nested(MAX_JSON_DEPTH + 1, pad))).status).toBe(400);
      // At the bound, and with brackets inside strings, the body is taken.
      expect((await send(tags, "PUT", "/v1/tags/t", JSON_BODY, nested(MAX_JSON_DEPTH, pad))).status).toBe(200);
      const quoted = `{"pad":"${" ".repeat(pad)}${"[".repeat(3 * MAX_JSON_DEPTH)}\\"{"}`;
      expect((await send(tags, "PUT", "/v1/tags/t", JSON_BODY, quoted)).status).toBe(200);
    }
    // Where the operation declares no 400 (quirks' createBatch), micri's 400 of unparseable JSON, as stock Prism's.
    const batch = await send(servers.quirks.mock, "POST", "/v1/batch", JSON_BODY, nested(50_000));
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.body)).toEqual({
      error: { code: "invalid_json", message: `Invalid JSON: nested deeper than ${MAX_JSON_DEPTH} levels` },
    });
  });

  it("bodyLimit: a declared Content-Length over the limit gets the 413 at once, before any byte of the body", async () => {
    const { port } = new URL(tags);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1");
      let text = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within 10 s to a declared Content-Length of ${MAX_BODY_BYTES + 1} with no body sent`));
      }, 10_000);
      socket.on("data", (chunk) => {
        text += chunk.toString("latin1");
        if (text.includes("\r\n\r\n")) {
          clearTimeout(timer);
          socket.destroy();
          resolve(text);
        }
      });
      socket.on("error", reject);
      socket.write(`PUT /v1/tags/t HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`);
    });
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain("connection: close");
  });
});
