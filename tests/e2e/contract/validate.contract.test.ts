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
 *
 * The mock's deliberate differences (DEVIATIONS in src/mock/validate.ts) are stated by name: its
 * `unknownMember` warnings are taken out of its findings before comparing (and counted: every API
 * with a JSON object body gets some), `bearerCase` makes a lower-case `bearer` pass (asserted against
 * Prism's answer to `Bearer`), and `emptyQueryValue` requests are not generated. The tests of the
 * out-of-process fuzz (tests/e2e/fuzz/equivalence.test.ts) compare whole answers through HTTP; this
 * one is in process, so StrykerJS runs it against the mock's mutants (scripts/mutation.ts TESTS).
 */
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Doc, jsonRequest, loadDocument, operations } from "../../../src/document/index.js";
import { prismValidateInput, prismValidateSecurity } from "../../../src/mock/prism-parts.js";
import { decodeBody } from "../../../src/mock/receive.js";
import { requestElement } from "../../../src/mock/route.js";
import { loadOperations } from "../../../src/mock/server.js";
import type { Element, Operation as PrismOperation } from "../../../src/mock/types.js";
import { components } from "../../../src/mock/validate.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { type CaseKind, operationModel } from "../../../scripts/lib/fuzz/model.js";
import { specValidator } from "../../helpers/ajv.js";
import { bundled } from "../../helpers/registry.js";

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

const QUIRKS = join(repoRoot, "tests/fixtures/mock-quirks/openapi.yaml");
const targets: Array<{ alias: string; specPath: string; doc: Doc }> = [
  ...bundled.map((api) => ({ alias: api.entry.alias, specPath: api.entry.bundlePath, doc: api.doc })),
  ...loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml")).map((entry) => ({
    alias: `${entry.alias} (fixture)`,
    specPath: entry.bundlePath,
    doc: loadDocument(entry.bundlePath),
  })),
  { alias: "quirks@1.0.0 (fixture)", specPath: QUIRKS, doc: loadDocument(QUIRKS) },
];

/** The element the mock hands to validation for a request: its target and headers read as route.ts reads them, its body as receive.ts decodes it. */
function elementOf(r: Request): Element {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers)) headers[name.toLowerCase()] = value;
  const bytes = r.body === undefined ? undefined : Buffer.from(r.body, "utf8");
  if (bytes) headers["content-length"] = String(bytes.length);
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
