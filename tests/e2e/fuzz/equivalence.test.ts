/**
 * Prism is the judge: the mock (src/mock/server.ts, its fast path and Prism's pipeline) answers
 * every request exactly as Prism's own server (@stoplight/prism-http-server, stock) does: status,
 * headers (all but Date and connection headers) and body.
 *
 * The corpus, seeded: for every operation of every API, RUNS[kind] fuzzed requests of each kind
 * that applies to it (valid ones, and one mutation each: wrong type, missing required member or
 * parameter, out-of-enum value, oversized string, broken JSON; scripts/lib/fuzz/model.ts), and per
 * operation the requests of CASES (credentials, routing, media types, preferences, CORS). Each is
 * sent to stock Prism once and to the mock twice: the first may teach the mock Prism's answer to
 * that kind of request, the second must come from the fast path (or from the response cache for
 * a request that chooses its answer) and equal it too.
 *
 * The mock's deliberate differences (DEVIATIONS in src/mock/validate.ts) are stated here, each by
 * name: `cors` and `allow` are applied to stock Prism's answer before comparing, and `unknownMember`
 * warnings are taken out of the mock's `sl-violations` (counted; a request with one is made for
 * every operation with a JSON body); requests that fall under `emptyQueryValue`, `largeBody`,
 * `violationCap` or `invalidJson` are not compared, and are counted.
 * The others (`bearerCase`, `malformedContentType`, `malformedAccept`, `bodyLimit`, `pathEncoding`,
 * `headerEscape`, `jsonDepth`) are never generated here; tests/unit/src/mock/deviations.test.ts shows
 * each against stock Prism (or the mock alone where stock Prism's process dies).
 */
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismServer, loadOperations, MAX_LISTED_VIOLATIONS, type PrismServer } from "../../../src/mock/server.js";
import { DEVIATIONS, LARGE_BODY_BYTES } from "../../../src/mock/validate.js";
import { specValidator } from "../../helpers/ajv.js";
import { type Doc, HTTP_METHODS, jsonRequest, type Operation, operations, securitySchemes } from "../../../src/document/index.js";
import { resolveSchema, types } from "../../../src/document/schema.js";
import { bundled, named, validationTargets } from "../../helpers/registry.js";
import { type CaseKind, operationModel, type OperationModel } from "../../../scripts/lib/fuzz/model.js";
import { startStockPrism } from "../../../scripts/lib/stock-prism.js";
import { EXPECTED_DEVIATIONS } from "../../helpers/deviations.js";

const SEED = 7;
/** Fuzzed requests per operation and kind (valid ones get more). */
const RUNS: Record<CaseKind, number> = {
  valid: 8,
  "wrong-type": 4,
  "missing-required": 4,
  "out-of-enum": 4,
  "oversized-string": 4,
  "broken-json": 2,
};

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The APIs compared: every registered one, and the mock library's fixtures. */
const targets = validationTargets();

const mocks = new Map<string, { url: string; server: PrismServer }>();
const stock = new Map<string, { url: string; close: () => Promise<void> }>();

beforeAll(async () => {
  for (const api of targets) {
    const server = createPrismServer(await loadOperations(api.specPath));
    mocks.set(api.alias, { url: await server.listen(0, "127.0.0.1"), server });
    stock.set(api.alias, await startStockPrism(api.specPath));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([...mocks.values()].map((m) => m.server.close()));
  await Promise.all([...stock.values()].map((s) => s.close()));
});

/** Sends with node:http (fetch refuses a GET with a body); the answer's headers but Date and connection ones. */
function send(base: string, r: Request): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      base + r.path,
      {
        method: r.method,
        headers: r.body === undefined ? r.headers : { ...r.headers, "content-length": Buffer.byteLength(r.body) },
        timeout: 10_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (!["date", "connection", "keep-alive"].includes(name) && value !== undefined) headers[name] = String(value);
          }
          resolve({ status: response.statusCode!, headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`timeout: ${r.method} ${r.path}`)));
    request.on("error", reject);
    request.end(r.body);
  });
}

/* ------------------------------------------------------------------ the named deviations */

/** Methods whose path template fits `path` (literal segments equal, `{x}` any non-empty segment), from the document. */
function allowedMethods(alias: string, path: string): string {
  const api = targets.find((a) => a.alias === alias)!;
  const segments = path.split("?")[0].split("/");
  const fits = (template: string) => {
    const parts = template.split("/");
    return (
      parts.length === segments.length && parts.every((part, i) => (/^\{.+\}$/.test(part) ? segments[i] !== "" : part === segments[i]))
    );
  };
  const methods = operations(api.doc)
    .filter((op) => fits(op.path))
    .map((op) => op.method);
  return HTTP_METHODS.filter((m) => methods.includes(m))
    .map((m) => m.toUpperCase())
    .join(", ");
}

/** Stock Prism's answer with the `cors` and `allow` deviations applied: what the mock must answer. */
function expected(alias: string, r: Request, theirs: Reply): Reply {
  const headers = { ...theirs.headers };
  // cors: every origin allowed, never with credentials (so nothing varies by Origin).
  if ("access-control-allow-origin" in headers) headers["access-control-allow-origin"] = "*";
  delete headers["access-control-allow-credentials"];
  if (r.method === "OPTIONS") delete headers.vary;
  // allow: a 405 names the methods the path has.
  if (theirs.status === 405) headers.allow = allowedMethods(alias, r.path);
  return { ...theirs, headers };
}

/** Normalises the order of an Allow value (the order carries no meaning). */
function sortedAllow(reply: Reply): Reply {
  if (!reply.headers.allow) return reply;
  return { ...reply, headers: { ...reply.headers, allow: reply.headers.allow.split(", ").sort().join(", ") } };
}

type Excluded = "emptyQueryValue" | "largeBody" | "violationCap" | "invalidJson" | "unknownMember";

/** Whether the body is not JSON (to JSON.parse), so that the mock refuses it as unparseable. */
function notJson(body: string | undefined): boolean {
  if (body === undefined) return false;
  try {
    JSON.parse(body);
    return false;
  } catch {
    return true;
  }
}

/** invalidJson: an operation that declares a 400 and no 422 answers a body that is not JSON with that 400. */
function answersBrokenJson(op: Operation): boolean {
  return "400" in op.responses && !("422" in op.responses);
}

/** The deviation a request falls under, whose answer stock Prism does not give: not compared. */
function excludedBy(model: OperationModel, r: Request, theirs: Reply): Excluded | undefined {
  if (notJson(r.body) && /json/i.test(r.headers["content-type"] ?? "") && answersBrokenJson(model.op)) return "invalidJson";
  const declared = new Set(model.op.parameters.filter((p) => p.value.in === "query").map((p) => p.value.name));
  const query = new URLSearchParams(r.path.split("?")[1] ?? "");
  if ([...query].some(([name, value]) => value === "" && declared.has(name))) return "emptyQueryValue";
  if (r.body !== undefined && Buffer.byteLength(r.body) > LARGE_BODY_BYTES) return "largeBody";
  if (theirs.headers["content-type"] === "application/problem+json" && theirs.body !== "") {
    const listed = (JSON.parse(theirs.body) as { validation?: unknown[] }).validation;
    if (listed && listed.length > MAX_LISTED_VIOLATIONS) return "violationCap";
  }
  return undefined;
}

const UNKNOWN_CODES = new Set(["unknown-member", "unknown-members-capped"]);

/**
 * unknownMember: the mock's answer with its warnings of members the schema does not name taken out
 * of `sl-violations` (what stock Prism would send); undefined when there were none. A header cut
 * for its length cannot be taken apart: `cut`.
 */
function withoutUnknownMembers(reply: Reply): Reply | "cut" | undefined {
  const header = reply.headers["sl-violations"];
  if (header === undefined || !header.includes("unknown-member")) return undefined;
  if (header.startsWith("Too many violations! ")) return "cut";
  const listed = JSON.parse(header) as Array<{ code?: unknown }>;
  const rest = listed.filter((v) => !UNKNOWN_CODES.has(String(v.code)));
  const headers = { ...reply.headers };
  if (rest.length === 0) delete headers["sl-violations"];
  else headers["sl-violations"] = JSON.stringify(rest);
  return { ...reply, headers };
}

const tally = {
  /** Fuzzed requests compared, by API and kind. */
  compared: new Map<string, number>(),
  /** Fuzzed requests excluded by a deviation, by API and kind. */
  excluded: new Map<string, number>(),
  /** Every excluded request (fuzzed or not), by API and deviation. */
  deviations: new Map<string, number>(),
  distinct: new Map<string, Set<string>>(),
  /** Second answers that came from the fast path, by API. */
  fast: new Map<string, number>(),
  /** Requests sent that the fast path must answer the second time (counted where they are made), by API. */
  fastExpected: new Map<string, number>(),
  /** Operations each of CASES applied to, by case name. */
  applied: new Map<string, number>(),
  /** Answers compared once the mock's unknown-member warnings were taken out, by API. */
  unknownMembers: new Map<string, number>(),
};
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/**
 * Compares the mock with stock Prism on `r`, twice; `fast` says whether the second answer must
 * come from the fast path (else it must not). Returns false when the request falls under an
 * excluded deviation: then the mock's two answers must still be equal, and not a 5xx.
 */
async function expectSame(model: OperationModel, r: Request, label: string, fast: boolean): Promise<boolean> {
  const { alias } = model;
  const mock = mocks.get(alias)!;
  if (fast) bump(tally.fastExpected, alias);
  const theirs = await send(stock.get(alias)!.url, r);
  const ours = await send(mock.url, r);
  const before = mock.server.stats();
  const again = await send(mock.url, r);
  const after = mock.server.stats();
  const what = `${alias} ${label}: ${r.method} ${r.path} ${JSON.stringify(r.headers)} ${(r.body ?? "").slice(0, 200)}`;
  const viaFast = after.fast - before.fast;
  expect(viaFast, `${what}: the second answer ${fast ? "came" : "did not come"} from the fast path`).toBe(fast ? 1 : 0);
  if (viaFast) bump(tally.fast, alias);
  let deviation = excludedBy(model, r, theirs);
  // unknownMember: the warnings are the mock's own; the rest of the answer is compared.
  const [mine, mineAgain] = [withoutUnknownMembers(ours), withoutUnknownMembers(again)];
  if (!deviation && (mine === "cut" || mineAgain === "cut")) deviation = "unknownMember";
  if (deviation) {
    bump(tally.deviations, `${alias}\t${deviation}`);
    expect(ours.status, `${what} (${deviation})`).toBeLessThan(500);
    expect(again, `${what} (second time)`).toEqual(ours);
    return false;
  }
  if (mine) bump(tally.unknownMembers, alias);
  const reference = sortedAllow(expected(alias, r, theirs));
  expect(sortedAllow((mine as Reply | undefined) ?? ours), what).toEqual(reference);
  expect(sortedAllow((mineAgain as Reply | undefined) ?? again), `${what} (second time)`).toEqual(reference);
  return true;
}

const models = targets.flatMap((api) => {
  const validator = specValidator(api.doc);
  return operations(api.doc).map((op) => ({
    name: `${api.alias} ${op.operationId}`,
    model: operationModel(api.alias, api.doc, op, validator),
  }));
});

/** The fuzzed requests of a kind for an operation: RUNS[kind] of them, each a request the mutation applies to. */
function corpus(model: OperationModel, kind: CaseKind): Request[] {
  const arbitrary = model.arbitrary(kind).filter((c) => c !== undefined);
  return fc.sample(arbitrary, { seed: SEED, numRuns: RUNS[kind] }).map((c) => model.request(c!));
}

describe("the mock answers as Prism's own server", () => {
  it("states its deviations, each by name", () => {
    expect([...DEVIATIONS].sort()).toEqual([...EXPECTED_DEVIATIONS].sort());
  });

  it("generates dynamic data on request (Prefer: dynamic=true)", async () => {
    // The shop fixture's getOrder: its generated answers always validate (order_id any string), so they vary.
    const found = models.find(({ model }) => model.alias === "shop@1.0.0 (fixture)" && model.op.operationId === "getOrder");
    expect(found, "the shop fixture's getOrder").toBeDefined();
    const { model } = found!;
    const valid = model.request(fc.sample(model.arbitrary("valid"), { seed: SEED, numRuns: 1 })[0]!);
    const answers = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await fetch(mocks.get(model.alias)!.url + valid.path, { headers: { ...valid.headers, prefer: "dynamic=true" } });
        return { status: response.status, violations: response.headers.get("sl-violations"), body: await response.text() };
      }),
    );
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, violations: null });
    expect(new Set(answers.map((a) => a.body)).size, "generated answers differ").toBeGreaterThan(1);
  });

  it.each(named(models))("%s: fuzzed requests of every kind", async (_, { model }) => {
    for (const kind of model.kinds) {
      for (const r of corpus(model, kind)) {
        const key = `${model.alias}\t${kind}`;
        // Broken JSON goes to the fast path only where the mock answers it as an invalid request (invalidJson).
        const fast = kind !== "broken-json" || answersBrokenJson(model.op);
        bump((await expectSame(model, r, kind, fast)) ? tally.compared : tally.excluded, key);
        if (!tally.distinct.has(key)) tally.distinct.set(key, new Set());
        tally.distinct.get(key)!.add(JSON.stringify(r));
      }
    }
  });

  /**
   * Requests built from an operation's first valid one: credentials, routing, media types, preferences, CORS.
   * A case whose `make` can decline says, with `applies`, which operations it must be made for (read from the
   * document, not from the request): every case is made exactly where it applies, and each for at least one operation.
   */
  const CASES: Array<{
    name: string;
    /** Whether the fast path answers it; "routed": when the document has an operation for its method and path. */
    fast: boolean | "routed";
    applies?: (op: Operation, doc: Doc) => boolean;
    make(valid: Request): Request | undefined;
  }> = [
    { name: "no credentials", fast: true, make: (v) => ({ ...v, headers: withoutCredentials(v.headers) }) },
    { name: "unknown path", fast: "routed", make: (v) => ({ ...v, path: `${v.path.split("?")[0]}/no-such-thing` }) },
    { name: "other method", fast: "routed", make: (v) => ({ ...v, method: v.method === "DELETE" ? "PATCH" : "DELETE", body: undefined }) },
    { name: "Prefer code", fast: false, make: (v) => ({ ...v, headers: { ...v.headers, prefer: "code=404" } }) },
    { name: "Prefer bad code", fast: false, make: (v) => ({ ...v, headers: { ...v.headers, prefer: "code=abc" } }) },
    { name: "__code query", fast: false, make: (v) => ({ ...v, path: `${v.path}${v.path.includes("?") ? "&" : "?"}__code=200` }) },
    {
      name: "Origin",
      fast: true,
      make: (v) => ({
        ...v,
        headers: { ...v.headers, origin: "https://partner.example", "access-control-expose-headers": "sl-violations" },
      }),
    },
    {
      name: "preflight",
      fast: false,
      make: (v) => ({
        method: "OPTIONS",
        path: v.path,
        headers: { origin: "https://partner.example", "access-control-request-method": v.method },
      }),
    },
    { name: "Accept JSON", fast: true, make: (v) => ({ ...v, headers: { ...v.headers, accept: "application/json" } }) },
    { name: "Accept any", fast: true, make: (v) => ({ ...v, headers: { ...v.headers, accept: "*/*" } }) },
    { name: "Accept HTML", fast: true, make: (v) => ({ ...v, headers: { ...v.headers, accept: "text/html" } }) },
    { name: "Accept list", fast: true, make: (v) => ({ ...v, headers: { ...v.headers, accept: "text/plain;q=0.5, application/json" } }) },
    { name: "HEAD", fast: false, applies: isGet, make: (v) => (v.method === "GET" ? { ...v, method: "HEAD" } : undefined) },
    {
      name: "GET with a body",
      fast: true,
      applies: isGet,
      make: (v) => (v.method === "GET" ? { ...v, headers: { ...v.headers, "content-type": "application/json" }, body: "{}" } : undefined),
    },
    {
      name: "no body",
      fast: true,
      applies: hasBody,
      make: (v) => (v.body === undefined ? undefined : { ...v, body: undefined, headers: withoutContentType(v.headers) }),
    },
    { name: "body null", fast: true, applies: hasBody, make: (v) => (v.body === undefined ? undefined : { ...v, body: "null" }) },
    {
      name: "text/plain body",
      fast: true,
      applies: hasBody,
      make: (v) => (v.body === undefined ? undefined : { ...v, headers: { ...v.headers, "content-type": "text/plain" } }),
    },
    {
      name: "Content-Type with charset",
      fast: true,
      applies: hasBody,
      make: (v) =>
        v.body === undefined ? undefined : { ...v, headers: { ...v.headers, "content-type": "application/json; charset=utf-8" } },
    },
    {
      name: "Content-Type in capitals",
      fast: true,
      applies: hasBody,
      make: (v) => (v.body === undefined ? undefined : { ...v, headers: { ...v.headers, "content-type": "Application/JSON" } }),
    },
    {
      name: "no Content-Type",
      fast: true,
      applies: hasBody,
      make: (v) => (v.body === undefined ? undefined : { ...v, headers: withoutContentType(v.headers) }),
    },
    {
      name: "vendor JSON type",
      fast: true,
      applies: hasBody,
      make: (v) => (v.body === undefined ? undefined : { ...v, headers: { ...v.headers, "content-type": "application/vnd.partner+json" } }),
    },
    {
      name: "Basic credentials",
      fast: true,
      applies: usesHttpAuth,
      make: (v) => (v.headers.authorization ? { ...v, headers: { ...v.headers, authorization: "Basic dXNlcjpwdw==" } } : undefined),
    },
    {
      name: "repeated query parameter",
      fast: true,
      applies: hasQuery,
      make: (v) => (v.path.includes("?") ? { ...v, path: `${v.path}&${v.path.split("?")[1]}` } : undefined),
    },
    { name: "unknown query parameter", fast: true, make: (v) => ({ ...v, path: `${v.path}${v.path.includes("?") ? "&" : "?"}unknown=1` }) },
    {
      name: "member the schema does not name",
      fast: true,
      applies: hasObjectBody,
      make: (v) => {
        const body = v.body === undefined ? undefined : JSON.parse(v.body);
        if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
        return { ...v, body: JSON.stringify({ ...body, zz_not_in_the_schema: 1 }) };
      },
    },
  ];

  it.each(named(models))("%s: credentials, routing, media types, preferences, CORS", async (_, { model }) => {
    const valid = model.request(fc.sample(model.arbitrary("valid"), { seed: SEED, numRuns: 1 })[0]!);
    const { doc } = targets.find((t) => t.alias === model.alias)!;
    for (const c of CASES) {
      const r = c.make(valid);
      const applies = c.applies ? c.applies(model.op, doc) : true;
      expect(r !== undefined, `${model.alias} ${model.op.operationId} ${c.name}: made where it applies`).toBe(applies);
      if (!r) continue;
      bump(tally.applied, c.name);
      const routed = allowedMethods(model.alias, r.path).split(", ").includes(r.method);
      await expectSame(model, r, c.name, c.fast === "routed" ? routed : c.fast);
    }
  });

  it("compared every fuzzed request of every API and kind, or counted it under a named deviation", () => {
    const lines: string[] = [];
    for (const { alias } of targets) {
      const apiModels = models.filter(({ model }) => model.alias === alias);
      for (const kind of Object.keys(RUNS) as CaseKind[]) {
        const key = `${alias}\t${kind}`;
        const generated = apiModels.filter(({ model }) => model.kinds.includes(kind)).length * RUNS[kind];
        const compared = tally.compared.get(key) ?? 0;
        const excluded = tally.excluded.get(key) ?? 0;
        // Nothing is dropped silently: each generated request was compared or excluded by a named deviation.
        expect(compared + excluded, `${key}: compared and excluded of ${generated} generated`).toBe(generated);
        if (generated > 0) {
          lines.push(`  ${alias} ${kind}: ${compared} compared (${tally.distinct.get(key)!.size} distinct), ${excluded} excluded`);
        }
      }
      // Valid requests and at least one kind of invalid one are compared for every API.
      expect(tally.compared.get(`${alias}\tvalid`), `${alias}: valid requests compared`).toBeGreaterThan(0);
      const invalid = (Object.keys(RUNS) as CaseKind[]).filter((k) => k !== "valid" && k !== "broken-json");
      expect(
        invalid.reduce((sum, kind) => sum + (tally.compared.get(`${alias}\t${kind}`) ?? 0), 0),
        `${alias}: invalid requests compared`,
      ).toBeGreaterThan(0);
    }
    // The fast path answered the second sending of every request it must take, for every API.
    for (const { alias } of targets) expect(tally.fast.get(alias) ?? 0, `${alias}: second answers from the fast path`).toBeGreaterThan(0);
    expect(Object.fromEntries(tally.fast)).toEqual(Object.fromEntries(tally.fastExpected));
    // unknownMember: the mock reported a member the schema does not name, and otherwise answered as stock Prism, for every registered API.
    for (const { entry } of bundled) {
      expect(tally.unknownMembers.get(entry.alias) ?? 0, `${entry.alias}: answers with unknown-member warnings compared`).toBeGreaterThan(
        0,
      );
    }
    // Every case of CASES was made for at least one operation (a case that applies nowhere tests nothing).
    expect(CASES.filter((c) => !tally.applied.get(c.name)).map((c) => c.name)).toEqual([]);
    const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(
      `equivalence: ${total(tally.compared)} fuzzed requests compared with stock Prism, ${total(tally.excluded)} excluded by a deviation; ` +
        `${total(tally.fast)} second answers from the fast path\n${lines.join("\n")}\n` +
        [...tally.deviations].map(([k, n]) => `  excluded by ${k.replace("\t", " ")}: ${n}`).join("\n") +
        "\n",
    );
  });
});

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const { authorization: _a, "x-api-key": _k, ...rest } = headers;
  return rest;
}
function withoutContentType(headers: Record<string, string>): Record<string, string> {
  const { "content-type": _c, ...rest } = headers;
  return rest;
}

function isGet(op: Operation): boolean {
  return op.method === "get";
}
/** The operation takes a JSON body (the fuzz model sends JSON bodies only). */
function hasBody(op: Operation, doc: Doc): boolean {
  return jsonRequest(doc, op) !== undefined;
}
/** The operation's valid request has a JSON object body (the first example of its JSON request, or the fuzz model's). */
function hasObjectBody(op: Operation, doc: Doc): boolean {
  const json = jsonRequest(doc, op);
  if (!json) return false;
  const kinds = json.schema ? types(resolveSchema(doc, json.schema.value, json.schema.at).schema) : [];
  return kinds.length === 1 && kinds[0] === "object";
}
function hasQuery(op: Operation): boolean {
  return op.parameters.some((p) => p.value.in === "query");
}
/** The operation accepts an HTTP scheme (bearer or basic): its valid request carries `Authorization`. */
function usesHttpAuth(op: Operation, doc: Doc): boolean {
  return securitySchemes(doc, op).some((scheme) => scheme.type === "http");
}
