/**
 * Prism is the judge of the mock's request validation: src/mock/validate.ts's `validateInput` and
 * `validateSecurity` components give every request of a small seeded corpus the same outcome
 * (Left or Right) and the same findings, in the same order, as stock Prism's own `validateInput`
 * and `validateSecurity` (called in process here, on the same operations and request elements).
 *
 * The corpus, for every operation of every registered API and of the mock's fixtures (shop, quirks):
 * requests of the fuzz model (scripts/lib/fuzz/model.ts; valid ones and one mutation each: wrong
 * type, missing required member or parameter, out-of-enum value, oversized string), and requests
 * made from the first valid one: without credentials, with Basic or lower-case bearer credentials,
 * with an unknown query parameter, with other media types (text, vendor JSON, charset, capitals,
 * none, multipart), without a body, with a `null` body, with a member the schema does not name.
 * Then hand-made operations with what the registered APIs do not use (parameters without style,
 * explode or schema, deprecated ones, each `$schema` draft, nested allOf with readOnly members,
 * bodies without contents or media types, form and multipart bodies, unsupported security schemes,
 * keys in headers and queries), compared with Prism the same way.
 *
 * The mock's deliberate differences (DEVIATIONS in src/mock/validate.ts) are stated by name: its
 * `unknownMember` warnings are taken out of its findings before comparing (and counted: every API
 * with a JSON object body gets some), `bearerCase` makes a lower-case `bearer` pass (asserted against
 * Prism's answer to `Bearer`), and `emptyQueryValue` requests are not generated in the corpus. The
 * deviations Prism cannot show (`pathEncoding`, `largeBody`, `emptyQueryValue`, `malformedContentType`,
 * `unknownMember` beside Prism's own findings) are asserted by hand-written tables. The tests of the
 * out-of-process fuzz (tests/e2e/fuzz/equivalence.test.ts) compare whole answers through HTTP; this
 * one is in process, so StrykerJS runs it against the mock's mutants (scripts/mutation.ts TESTS).
 */
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { jsonRequest, operations } from "../../../src/document/index.js";
import { prismValidateInput, prismValidateSecurity } from "../../../src/mock/prism-parts.js";
import { decodeBody } from "../../../src/mock/receive.js";
import { requestElement } from "../../../src/mock/route.js";
import { loadOperations } from "../../../src/mock/server.js";
import type { Element, Operation as PrismOperation } from "../../../src/mock/types.js";
import { BODY_BYTES, components, JUDGED, LARGE_BODY_BYTES } from "../../../src/mock/validate.js";
import { type CaseKind, operationModel } from "../../../scripts/lib/fuzz/model.js";
import { specValidator } from "../../helpers/ajv.js";
import { validationTargets } from "../../helpers/registry.js";

const SEED = 11;
/** Fuzzed requests per operation and kind (broken JSON never reaches validation: the body is refused first). */
const RUNS: Partial<Record<CaseKind, number>> = {
  valid: 2,
  "wrong-type": 1,
  "missing-required": 1,
  "out-of-enum": 1,
  "oversized-string": 1,
};

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const targets = validationTargets();

/** The element the mock hands to validation for a request: its target and headers read as route.ts reads them, its body as receive.ts decodes it. */
function elementOf(r: Request): Element {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers)) headers[name.toLowerCase()] = value;
  const bytes = r.body === undefined ? undefined : Buffer.from(r.body, "utf8");
  if (bytes) headers["content-length"] ??= String(bytes.length);
  const element = requestElement(r.method, r.path, headers, bytes?.length ?? 0) as Element;
  if (!bytes) return { ...element, body: null };
  const decoded = decodeBody(bytes, headers["content-type"]);
  if (typeof decoded !== "object") throw new Error(`${r.method} ${r.path}: the corpus holds only bodies the mock decodes (${decoded})`);
  return { ...element, body: decoded.value };
}

interface Outcome {
  tag: string;
  findings?: unknown[];
}
/** An Either as plain data (findings through JSON: Prism's carry no functions or symbols). */
const outcome = (either: { _tag: string; left?: unknown }): Outcome =>
  either._tag === "Left" ? { tag: "Left", findings: JSON.parse(JSON.stringify(either.left)) } : { tag: "Right" };

const UNKNOWN = new Set(["unknown-member", "unknown-members-capped"]);
/** The mock's outcome with its unknownMember findings taken out (Right when nothing else is left), and how many were taken out. */
function withoutUnknown(mine: Outcome): [Outcome, number] {
  if (!mine.findings) return [mine, 0];
  const rest = mine.findings.filter((f) => !UNKNOWN.has(String((f as { code?: unknown }).code)));
  const taken = mine.findings.length - rest.length;
  return [rest.length === 0 ? { tag: "Right" } : { tag: "Left", findings: rest }, taken];
}

const tally = { compared: 0, left: 0, unknown: new Map<string, number>(), securityLeft: 0 };

/** Compares the mock's two components with Prism's on one request; returns the mock's input outcome. */
function compare(alias: string, op: PrismOperation, r: Request, label: string): Outcome {
  const what = `${alias} ${op.method.toUpperCase()} ${op.path} ${label}: ${r.method} ${r.path} ${JSON.stringify(r.headers)} ${(r.body ?? "").slice(0, 120)}`;
  // Each side gets an element of its own: nothing either does to it can reach the other.
  const theirs = outcome(prismValidateInput({ resource: op, element: elementOf(r) }));
  const [mine, unknown] = withoutUnknown(outcome(components.validateInput({ resource: op, element: elementOf(r) })));
  if (unknown > 0) tally.unknown.set(alias, (tally.unknown.get(alias) ?? 0) + 1);
  expect(mine, `${what}: validateInput`).toEqual(theirs);
  const theirSecurity = outcome(prismValidateSecurity({ resource: op, element: elementOf(r) }));
  const mySecurity = outcome(components.validateSecurity({ resource: op, element: elementOf(r) }));
  expect(mySecurity, `${what}: validateSecurity`).toEqual(theirSecurity);
  tally.compared++;
  if (theirs.tag === "Left") tally.left++;
  if (theirSecurity.tag === "Left") tally.securityLeft++;
  return mine;
}

const emptyQueryValue = (r: Request) => [...new URLSearchParams(r.path.split("?")[1] ?? "").values()].includes("");

const withHeaders = (r: Request, headers: Record<string, string | undefined>): Request => {
  const next = { ...r.headers };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete next[name];
    else next[name] = value;
  }
  return { ...r, headers: next };
};

/** Requests made from an operation's first valid one (undefined where one does not apply). */
const VARIANTS: Array<{ name: string; make(valid: Request): Request | undefined }> = [
  { name: "no credentials", make: (v) => withHeaders(v, { authorization: undefined, "x-api-key": undefined }) },
  { name: "Basic credentials", make: (v) => withHeaders(v, { authorization: "Basic dXNlcjpwdw==" }) },
  { name: "empty bearer", make: (v) => withHeaders(v, { authorization: "Bearer" }) },
  { name: "unknown query parameter", make: (v) => ({ ...v, path: `${v.path}${v.path.includes("?") ? "&" : "?"}unknown=1` }) },
  {
    name: "no body",
    make: (v) => (v.body === undefined ? undefined : withHeaders({ ...v, body: undefined }, { "content-type": undefined })),
  },
  { name: "body null", make: (v) => (v.body === undefined ? undefined : { ...v, body: "null" }) },
  { name: "text body", make: (v) => (v.body === undefined ? undefined : withHeaders(v, { "content-type": "text/plain" })) },
  {
    name: "multipart body",
    make: (v) => (v.body === undefined ? undefined : withHeaders(v, { "content-type": "multipart/form-data; boundary=x" })),
  },
  { name: "no Content-Type", make: (v) => (v.body === undefined ? undefined : withHeaders(v, { "content-type": undefined })) },
  {
    name: "charset",
    make: (v) => (v.body === undefined ? undefined : withHeaders(v, { "content-type": "application/json; charset=utf-8" })),
  },
  { name: "capitals", make: (v) => (v.body === undefined ? undefined : withHeaders(v, { "content-type": "Application/JSON" })) },
  {
    name: "vendor JSON",
    make: (v) => (v.body === undefined ? undefined : withHeaders(v, { "content-type": "application/vnd.partner+json" })),
  },
  {
    name: "a member the schema does not name",
    make: (v) => {
      const body = v.body === undefined ? undefined : JSON.parse(v.body);
      if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
      return { ...v, body: JSON.stringify({ ...body, zz_not_in_the_schema: 1 }) };
    },
  },
  {
    name: "an empty array body",
    make: (v) => (v.body === undefined ? undefined : { ...v, body: "[]" }),
  },
  {
    name: "a body on a GET",
    make: (v) => (v.method !== "GET" ? undefined : withHeaders({ ...v, body: "{}" }, { "content-type": "application/json" })),
  },
];

describe("the mock's request validation judges as Prism's validateInput and validateSecurity", () => {
  const cases = targets.map((api) => {
    const validator = specValidator(api.doc);
    return { api, validator };
  });

  it.each(cases.map((c) => [c.api.alias, c] as const))("%s: fuzzed requests and their variants", async (_, { api, validator }) => {
    const resources = await loadOperations(api.specPath);
    const docOps = operations(api.doc);
    expect(resources.length, `${api.alias}: Prism's operations`).toBe(docOps.length);
    for (const op of docOps) {
      const resource = resources.find((r) => r.method === op.method && r.path === op.path);
      expect(resource, `${api.alias} ${op.method} ${op.path}: Prism's operation`).toBeDefined();
      const model = operationModel(api.alias, api.doc, op, validator);
      let first: Request | undefined;
      for (const kind of model.kinds) {
        const runs = RUNS[kind];
        if (!runs) continue;
        // emptyQueryValue: Prism drops an empty query value, the mock validates it; not generated here.
        const arbitrary = model.arbitrary(kind).filter((c) => c !== undefined && !emptyQueryValue(model.request(c)));
        for (const c of fc.sample(arbitrary, { seed: SEED, numRuns: runs })) {
          const r = model.request(c!);
          first ??= kind === "valid" ? r : undefined;
          compare(api.alias, resource!, r, kind);
        }
      }
      expect(first, `${api.alias} ${op.operationId}: a valid request`).toBeDefined();
      for (const variant of VARIANTS) {
        const r = variant.make(first!);
        if (r) compare(api.alias, resource!, r, variant.name);
      }
      // bearerCase: `bearer x` passes where `Bearer x` passes.
      if (first!.headers.authorization?.startsWith("Bearer ")) {
        const lower = withHeaders(first!, { authorization: first!.headers.authorization.replace(/^Bearer/, "bearer") });
        const capital = outcome(prismValidateSecurity({ resource: resource!, element: elementOf(first!) }));
        const mine = outcome(components.validateSecurity({ resource: resource!, element: elementOf(lower) }));
        expect(mine, `${api.alias} ${op.operationId}: bearer in lower case`).toEqual(capital);
      }
    }
  });

  it("compared requests Prism takes and requests it refuses, for every API, with the mock's own warnings", () => {
    expect(tally.compared).toBeGreaterThan(200);
    expect(tally.left, "requests Prism refuses").toBeGreaterThan(50);
    expect(tally.securityLeft, "requests Prism's security check refuses").toBeGreaterThan(20);
    for (const api of targets) {
      if (!operations(api.doc).some((op) => jsonRequest(api.doc, op))) continue;
      expect(tally.unknown.get(api.alias) ?? 0, `${api.alias}: requests with unknown-member warnings`).toBeGreaterThan(0);
    }
  });
});

/* ------------------------------------------------------------------ hand-made operations */

/** A Prism HTTP operation made by hand (the shape @stoplight/http-spec gives): what the registered APIs do not use. */
function operation(path: string, request: Record<string, unknown> | undefined, security: unknown[][] = []): PrismOperation {
  return {
    id: path,
    method: "post",
    path,
    responses: [{ id: "r", code: "200", contents: [], headers: [] }],
    servers: [],
    security,
    request,
  } as never;
}
const string = { type: "string" };
const param = (name: string, extra: Record<string, unknown> = {}) => ({ name, schema: string, ...extra });
const body = (schema: Record<string, unknown>, mediaType = "application/json") => ({ contents: [{ mediaType, schema }] });

const BEARER_SCHEME = { key: "b", type: "http", scheme: "bearer" };
const BASIC_SCHEME = { key: "basic", type: "http", scheme: "basic" };
const KEY_SCHEME = { key: "k", type: "apiKey", in: "header", name: "X-Key" };
/** A scheme Prism has no handler for: its finding is a Warning with no tags. */
const UNSUPPORTED_SCHEME = { key: "h", type: "http", scheme: "hoba" };
const QUERY_KEY_SCHEME = { key: "q", type: "apiKey", in: "query", name: "key" };

const HAND_MADE: Array<{ name: string; op: PrismOperation; requests: Request[] }> = [
  {
    name: "parameters: deprecated, without style, explode or schema, repeated names in other cases",
    op: operation("/v1/things/{id}", {
      path: [param("id", { required: true, schema: { type: "integer", minimum: 1 } })],
      headers: [
        param("X-Count", { required: true, schema: { type: "integer", maximum: 9 } }),
        param("x-old", { deprecated: true }),
        param("X-Raw", { schema: undefined }),
      ],
      query: [
        param("list", { explode: true, schema: { type: "array", items: { type: "string", enum: ["a", "b"] } } }),
        param("csv", { explode: false, schema: { type: "array", items: { type: "integer" } } }),
        param("old", { deprecated: true, schema: { type: "integer" } }),
        param("Page", { schema: { type: "integer" } }),
        param("page", { schema: { type: "integer", maximum: 5 } }),
      ],
    }),
    requests: [
      { method: "POST", path: "/v1/things/3?list=a&list=b&csv=1,2&old=4&page=2", headers: { "x-count": "2", "x-old": "y", "x-raw": "z" } },
      { method: "POST", path: "/v1/things/0?list=a&list=c&csv=1,x&old=q&page=9", headers: { "x-count": "12", "x-old": "y" } },
      { method: "POST", path: "/v1/things/x?old=1", headers: { "x-count": "" } },
      { method: "POST", path: "/v1/things/2?Page=7", headers: {} },
    ],
  },
  {
    name: "an operation without a request",
    op: operation("/v1/bare", undefined),
    requests: [{ method: "POST", path: "/v1/bare?x=1", headers: { "content-type": "application/json" }, body: "{}" }],
  },
  {
    name: "an operation without path parameters, headers or query, and no parameter lists at all",
    op: operation("/v1/plain", {}),
    requests: [
      { method: "POST", path: "/v1/plain?x=1", headers: { "x-y": "1" } },
      // A JSON body with no length and no body declared: nothing read of it.
      { method: "POST", path: "/v1/plain", headers: { "content-type": "application/json", "content-length": "0" }, body: '{"a":1}' },
    ],
  },
  {
    name: "a body schema with allOf, readOnly members, closed objects and enums in alternatives",
    op: operation("/v1/bodies", {
      body: {
        required: true,
        ...body({
          allOf: [
            {
              type: "object",
              required: ["id", "a"],
              properties: { id: { type: "string", readOnly: true }, a: string },
              additionalProperties: false,
            },
            {
              type: "object",
              properties: {
                b: { anyOf: [{ enum: ["xy"] }, { enum: ["x", "y"] }] },
                n: { type: "object", additionalProperties: false },
                // Merged only with deep merging: its readOnly required member is stripped, as Prism strips it.
                deep: {
                  allOf: [
                    { type: "object", required: ["r"], properties: { r: { type: "string", readOnly: true } } },
                    { type: "object", properties: { s: string } },
                  ],
                },
              },
            },
          ],
        }),
      },
    }),
    requests: [
      { method: "POST", path: "/v1/bodies", headers: { "content-type": "application/json" }, body: '{"a":"1","b":"x","deep":{"s":"x"}}' },
      {
        method: "POST",
        path: "/v1/bodies",
        headers: { "content-type": "application/json" },
        body: '{"a":1,"b":"z","n":{"p":1,"q":2,"r":3}}',
      },
      { method: "POST", path: "/v1/bodies", headers: { "content-type": "application/json" }, body: "[]" },
      { method: "POST", path: "/v1/bodies", headers: {} },
    ],
  },
  // Drafts named by $schema: 2019-09 and 2020-12 enforce unevaluatedProperties and dependentRequired, draft-07 does not;
  // a $schema that is not the draft's own URI (with or without its empty fragment) is one Ajv cannot compile against.
  ...[
    "https://json-schema.org/draft/2019-09/schema#",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft/2019-09/schema",
    "x-https://json-schema.org/draft/2019-09/schema",
    "https://json-schema.org/draft/2019-09/schema#x",
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
    "http://json-schema.org/draft/2020-12/schema",
    "x-https://json-schema.org/draft/2020-12/schema#",
    "https://json-schema.org/draft/2020-12/schema#x",
    "http://json-schema.org/draft-07/schema#",
  ].map(($schema) => ({
    name: `$schema ${$schema}`,
    op: operation("/v1/drafts", {
      headers: [],
      body: body({ $schema, type: "object", properties: { a: string }, unevaluatedProperties: false, dependentRequired: { a: ["b"] } }),
    }),
    requests: [{ method: "POST", path: "/v1/drafts", headers: { "content-type": "application/json" }, body: '{"a":"1","x":1,"y":2}' }],
  })),
  {
    name: "media types: a content without a type, several types, none declared, no contents, form and multipart bodies",
    op: operation("/v1/media", {
      body: {
        contents: [
          {
            mediaType: "application/x-www-form-urlencoded",
            schema: { type: "object", required: ["name"], properties: { name: string, age: { type: "integer" } } },
          },
          { mediaType: "multipart/form-data", schema: { type: "object", required: ["file"], properties: { file: string } } },
          { mediaType: "application/json", schema: { type: "object", required: ["name"], properties: { name: string } } },
          { mediaType: "text/plain", schema: { type: "string", maxLength: 3 } },
        ],
      },
    }),
    requests: [
      { method: "POST", path: "/v1/media", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "name=Ann&age=x" },
      { method: "POST", path: "/v1/media", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "age=3" },
      {
        method: "POST",
        path: "/v1/media",
        headers: { "content-type": "multipart/form-data; boundary=zz" },
        body: '--zz\r\nContent-Disposition: form-data; name="other"\r\n\r\nv\r\n--zz--\r\n',
      },
      { method: "POST", path: "/v1/media", headers: { "content-type": "text/plain" }, body: "long text" },
      { method: "POST", path: "/v1/media", headers: { "content-type": "text/plain", "content-length": "0" }, body: "long text" },
      { method: "POST", path: "/v1/media", headers: { "content-type": "application/xml" }, body: "<a/>" },
      { method: "POST", path: "/v1/media", headers: {}, body: "{}" },
    ],
  },
  {
    name: "date-time as Prism reads it: a time zone required",
    op: operation("/v1/times", { body: body({ type: "object", properties: { at: { type: "string", format: "date-time" } } }) }),
    requests: ["2025-01-01T10:00:00", "2025-01-01T10:00:00+0100", "2025-01-01T10:00:00Z"].map((at) => ({
      method: "POST",
      path: "/v1/times",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ at }),
    })),
  },
  {
    name: "a body schema that is readOnly as a whole: nothing left to check (Prism strips it)",
    op: operation("/v1/read-only", { body: body({ type: "object", readOnly: true, required: ["a"] }) }),
    requests: [{ method: "POST", path: "/v1/read-only", headers: { "content-type": "application/json" }, body: "{}" }],
  },
  {
    name: "a body declared without contents, with no contents, with a content without a type",
    op: operation("/v1/empty", { body: {} }),
    requests: [{ method: "POST", path: "/v1/empty", headers: { "content-type": "text/plain" }, body: "x" }],
  },
  {
    name: "a body declared with an empty list of contents",
    op: operation("/v1/none", { body: { contents: [] } }),
    requests: [
      { method: "POST", path: "/v1/none", headers: { "content-type": "application/json" }, body: "{}" },
      { method: "POST", path: "/v1/none", headers: { "content-type": "application/json", "content-length": "0" }, body: "{}" },
    ],
  },
  {
    name: "a content without a media type",
    op: operation("/v1/any", { body: { contents: [{ mediaType: "", schema: { type: "object", required: ["a"] } }] } }),
    requests: [{ method: "POST", path: "/v1/any", headers: { "content-type": "application/json" }, body: "{}" }],
  },
  {
    name: "security: Basic only, a key in a header with a bearer token, an unsupported scheme, an empty alternative",
    op: operation("/v1/secure", {}, [[BASIC_SCHEME], [BEARER_SCHEME, KEY_SCHEME], [UNSUPPORTED_SCHEME]]),
    requests: [
      { method: "POST", path: "/v1/secure", headers: { authorization: "Bearer abc" } },
      { method: "POST", path: "/v1/secure", headers: { authorization: "Bearer abc", "x-key": "k" } },
      { method: "POST", path: "/v1/secure", headers: { "x-key": "k" } },
      { method: "POST", path: "/v1/secure", headers: { authorization: "Basic dXNlcjpwdw==" } },
      { method: "POST", path: "/v1/secure", headers: {} },
    ],
  },
  {
    name: "security: a key in the query, sent in a header of its name instead",
    op: operation("/v1/query-key", {}, [[QUERY_KEY_SCHEME]]),
    requests: [
      { method: "POST", path: "/v1/query-key", headers: { key: "k" } },
      { method: "POST", path: "/v1/query-key?key=k", headers: {} },
    ],
  },
  {
    name: "security: an unsupported scheme first, then an empty alternative",
    op: operation("/v1/optional", {}, [[UNSUPPORTED_SCHEME], []]),
    requests: [
      { method: "POST", path: "/v1/optional", headers: {} },
      // An empty alternative is met only without credentials (Prism's `none`).
      { method: "POST", path: "/v1/optional", headers: { authorization: "Bearer t" } },
    ],
  },
  {
    name: "security: a bearer token or nothing",
    op: operation("/v1/bearer-or-none", {}, [[BEARER_SCHEME], []]),
    requests: [
      { method: "POST", path: "/v1/bearer-or-none", headers: { authorization: "Basic dXNlcjpwdw==" } },
      { method: "POST", path: "/v1/bearer-or-none", headers: { authorization: "Bearer t" } },
      { method: "POST", path: "/v1/bearer-or-none", headers: {} },
    ],
  },
  {
    name: "security: an unsupported scheme alone",
    op: operation("/v1/unsupported", {}, [[UNSUPPORTED_SCHEME, BEARER_SCHEME]]),
    requests: [
      { method: "POST", path: "/v1/unsupported", headers: {} },
      { method: "POST", path: "/v1/unsupported", headers: { authorization: "Bearer t" } },
    ],
  },
];

describe("hand-made operations: what the registered APIs do not use, judged as Prism judges it", () => {
  it.each(HAND_MADE.map((c) => [c.name, c] as const))("%s", (_, { op, requests }) => {
    for (const [i, r] of requests.entries()) compare("hand-made", op, r, `request ${i}`);
  });
});

/* ------------------------------------------------------------------ the deliberate differences, by hand-written tables */

const elementAt = (path: string, headers: Record<string, string> = {}, requestBody?: string) =>
  elementOf({ method: "POST", path, headers, body: requestBody });
const encoding = (name: string) => ({
  path: ["path", name],
  code: "encoding",
  message: `Request path parameter ${name} is not valid percent-encoding (RFC 3986, section 2.1)`,
  severity: 0,
});

describe("DEVIATIONS pathEncoding: a path parameter that is not valid percent-encoding is reported by name", () => {
  const twoParams = operation("/v1/accounts/{account_id}/cards/{card_id}", {
    path: [param("account_id", { required: true }), param("card_id", { required: true })],
  });
  const oneParam = operation("/v1/accounts/{account_id}", { path: [param("account_id", { required: true })] });
  const twoInOne = operation("/v1/files/{base_name}.{ext_name}", {
    path: [param("base_name", { required: true }), param("ext_name", { required: true })],
  });

  it.each([
    ["the parameter whose segment does not decode", twoParams, "/v1/accounts/%zz/cards/c-1", [encoding("account_id")]],
    ["the second one", twoParams, "/v1/accounts/a-1/cards/%E0%A4", [encoding("card_id")]],
    ["both", twoParams, "/v1/accounts/%/cards/%zz", [encoding("account_id"), encoding("card_id")]],
    ["both parameters of one segment", twoInOne, "/v1/files/report.%", [encoding("base_name"), encoding("ext_name")]],
    // The template's last parameter takes the rest of the path: no segment of the template's alone fails, so every parameter is named.
    ["every parameter when no segment of the template fails alone", oneParam, "/v1/accounts/a-1/%", [encoding("account_id")]],
  ] as const)("%s", (_, op, path, expected) => {
    expect(() => prismValidateInput({ resource: op, element: elementAt(path) }), "Prism's own match throws").toThrow(URIError);
    expect(components.validateInput({ resource: op, element: elementAt(path) })).toEqual({ _tag: "Left", left: expected });
  });

  it("a path that decodes is judged as Prism judges it", () => {
    compare("hand-made", twoParams, { method: "POST", path: "/v1/accounts/a%20b/cards/c", headers: {} }, "decodable");
  });
});

describe("DEVIATIONS largeBody: a body over LARGE_BODY_BYTES is validated up to its first violation", () => {
  const op = operation("/v1/large", {
    body: body({
      type: "object",
      required: ["a", "b"],
      properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" }, d: { type: "integer" } },
    }),
  });
  const json = { "content-type": "application/json" };
  const text = '{"c":"x","d":"y"}';
  const sized = (bytes: number | undefined) => {
    const element = elementAt("/v1/large", json, text);
    if (bytes === undefined) delete element[BODY_BYTES];
    else element[BODY_BYTES] = bytes;
    return element;
  };
  const prism = prismValidateInput({ resource: op, element: sized(undefined) }) as { _tag: string; left: unknown[] };

  it("over it: Prism's first finding, then an Information saying validation stopped", () => {
    expect(prism.left.length, "Prism finds every violation").toBe(4);
    const mine = components.validateInput({ resource: op, element: sized(LARGE_BODY_BYTES + 1) });
    expect(JSON.parse(JSON.stringify(mine))).toEqual({
      _tag: "Left",
      left: [
        JSON.parse(JSON.stringify(prism.left[0])),
        {
          path: ["body"],
          code: "validation-stopped",
          message: `Request body is over ${LARGE_BODY_BYTES} bytes: validated up to its first violation`,
          severity: 2,
        },
      ],
    });
  });

  it.each([
    ["at it", LARGE_BODY_BYTES],
    ["its size unknown", undefined],
  ])("%s: every violation, as Prism", (_, bytes) => {
    const mine = components.validateInput({ resource: op, element: sized(bytes) });
    expect(outcome(mine)).toEqual(outcome(prism));
  });

  it("a valid large body: no finding", () => {
    const element = elementAt("/v1/large", json, '{"a":1,"b":2}');
    element[BODY_BYTES] = LARGE_BODY_BYTES + 1;
    expect(components.validateInput({ resource: op, element })).toEqual({ _tag: "Right", right: element });
  });
});

describe("DEVIATIONS emptyQueryValue: an empty query value is validated as given", () => {
  const op = operation("/v1/list", {
    query: [
      param("kinds", { style: "form", explode: true, schema: { type: "array", items: { enum: ["a", "b"] } } }),
      param("name", { schema: { type: "string", minLength: 2 } }),
    ],
  });
  it.each([
    ["an array: one empty item", "/v1/list?kinds=", ["query", "kinds", "0"], "enum"],
    ["a string: the empty string", "/v1/list?name=", ["query", "name"], "minLength"],
  ])("%s", (_, path, at, code) => {
    expect(outcome(prismValidateInput({ resource: op, element: elementAt(path) })), "Prism drops the value").toEqual({ tag: "Right" });
    const mine = outcome(components.validateInput({ resource: op, element: elementAt(path) }));
    expect(mine.findings?.map((f) => [(f as { path: string[] }).path, (f as { code: string }).code])).toEqual([[at, code]]);
  });
  it("an array: the one empty item is the empty text", () => {
    const op = operation("/v1/short", {
      query: [
        param("codes", { style: "form", explode: true, schema: { type: "array", minItems: 1, items: { type: "string", maxLength: 0 } } }),
      ],
    });
    expect(outcome(components.validateInput({ resource: op, element: elementAt("/v1/short?codes=") }))).toEqual({ tag: "Right" });
  });
  it("an empty header value is dropped, as Prism drops it", () => {
    const withHeader = operation("/v1/h", { headers: [param("X-Name", { required: true, schema: { type: "string", minLength: 2 } })] });
    compare("hand-made", withHeader, { method: "POST", path: "/v1/h", headers: { "x-name": "" } }, "empty header");
  });
});

describe("Ajv as Prism sets it up", () => {
  it("a format Ajv does not know is ignored without a word, as in Prism", () => {
    const op = operation("/v1/format", { body: body({ type: "object", properties: { a: { type: "string", format: "no-such-format" } } }) });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const r = { method: "POST", path: "/v1/format", headers: { "content-type": "application/json" }, body: '{"a":"x"}' };
      expect(outcome(components.validateInput({ resource: op, element: elementOf(r) }))).toEqual({ tag: "Right" });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe("DEVIATIONS malformedContentType: a Content-Type that is not a media type is refused with a 415 that says so", () => {
  const declared = operation("/v1/typed", { body: body({ type: "object" }) });
  const undeclared = operation("/v1/untyped", {});
  it.each([
    [declared, "application/json; x", "Supported content types: application/json"],
    [declared, "json", "Supported content types: application/json"],
    [undeclared, "application/json; x", "No supported content types, but request included a non-empty body"],
  ] as const)("%s %s", (op, contentType, rest) => {
    const element = elementAt(op.path, { "content-type": "text/plain" }, "{}");
    element.headers = { ...element.headers, "content-type": contentType };
    expect(components.validateInput({ resource: op, element })).toEqual({
      _tag: "Left",
      left: [{ message: `The Content-Type ${JSON.stringify(contentType)} is not a media type. ${rest}`, code: 415, severity: 0 }],
    });
  });
});

describe("a request whose large body the judge already judged", () => {
  const op = operation("/v1/judged", { body: body({ type: "object" }) });
  const findings = [{ path: ["body"], code: "type", message: "judged elsewhere", severity: 0 }];
  it("gets the judge's findings, not a second validation", () => {
    const element = elementAt("/v1/judged", { "content-type": "application/json" }, "{}");
    element[JUDGED] = { operation: op, findings: findings as never };
    expect(components.validateInput({ resource: op, element })).toEqual({ _tag: "Left", left: findings });
  });
  it("judged against another operation: an error naming this one", () => {
    const element = elementAt("/v1/judged", { "content-type": "application/json" }, "{}");
    element[JUDGED] = { operation: operation("/v1/other", {}), findings: undefined };
    expect(() => components.validateInput({ resource: op, element })).toThrow(
      "a large request body was judged against another operation than post /v1/judged",
    );
  });
});

describe("DEVIATIONS unknownMember beside other findings", () => {
  it("a request with a deprecated parameter's Warning still gets its unknown members reported, after Prism's findings", () => {
    const op = operation("/v1/both", {
      query: [param("old", { deprecated: true })],
      body: body({ type: "object", properties: { a: string } }),
    });
    const r = { method: "POST", path: "/v1/both?old=1", headers: { "content-type": "application/json" }, body: '{"a":"","zz":1}' };
    const prism = outcome(prismValidateInput({ resource: op, element: elementOf(r) }));
    expect(prism.findings?.map((f) => (f as { code: string }).code)).toEqual(["deprecated"]);
    const mine = outcome(components.validateInput({ resource: op, element: elementOf(r) }));
    expect(mine).toEqual({
      tag: "Left",
      findings: [
        ...prism.findings!,
        {
          path: ["body", "zz"],
          code: "unknown-member",
          message: "Request body property zz is not a member its schema names (misspelt?)",
          severity: 1,
        },
      ],
    });
  });
});

describe("DEVIATIONS largeBody without a Content-Type: the text is validated up to its first violation too", () => {
  it("a large text body against a string schema with two violations: the first, then the Information", () => {
    const op = operation("/v1/large-text", { body: body({ type: "string", maxLength: 1, pattern: "^x" }) });
    const element = elementAt("/v1/large-text", {}, "yyy");
    const prism = prismValidateInput({ resource: op, element: elementAt("/v1/large-text", {}, "yyy") }) as { left: unknown[] };
    expect(prism.left.length, "Prism finds both").toBe(2);
    element[BODY_BYTES] = LARGE_BODY_BYTES + 1;
    expect(JSON.parse(JSON.stringify(components.validateInput({ resource: op, element })))).toEqual({
      _tag: "Left",
      left: [
        JSON.parse(JSON.stringify(prism.left[0])),
        {
          path: ["body"],
          code: "validation-stopped",
          message: `Request body is over ${LARGE_BODY_BYTES} bytes: validated up to its first violation`,
          severity: 2,
        },
      ],
    });
  });
});
