/**
 * Fuzzing the sandbox's control API (src/sandbox/openapi.yaml, every operation under `/_sandbox`),
 * as Schemathesis fuzzes an API from its document: for each operation, valid requests generated
 * from its schemas (lib/fuzz/model.ts), mutated ones (wrong type, missing required member or
 * parameter, out-of-enum value, oversized string, broken JSON), the hostile requests of
 * lib/fuzz/hostile.ts, and the control API's own hostile inputs (another auth scheme, a wrong
 * operator token, a query filter over its length limit, a body over the control API's limit, huge numbers).
 * Each answer is judged as Schemathesis's checks judge it: not a server error, a status the
 * operation declares, and a body that validates against the document's response for it. A
 * record or webhook that a generated request names need not exist: 404 is declared. Used by
 * tests/e2e/fuzz/control.fuzz.test.ts and scripts/fuzz.ts. Generic over the control document.
 */
import fc from "fast-check";
import { type Doc, loadDocument, type Operation, operations } from "../../../src/document/index.js";
import { CONTROL_DOCUMENT } from "../../../src/sandbox/control/index.js";
import { LIMITS } from "../../../src/sandbox/store/limits.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../src/testing/requests.js";
import { type ContractValidator, validatorForDocument } from "../../../src/validation/contract.js";
import { specValidator } from "../../../src/validation/spec.js";
import { hostileCases } from "./hostile.js";
import { type CaseKind, operationModel } from "./model.js";

export interface ControlCase {
  operationId: string;
  /** valid, a mutation kind, `hostile: <name>` or `control: <name>`. */
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent over a raw socket in hostile.ts; here such cases are left out (the mock's own fuzz sends them). */
}

export interface ControlOutcome {
  /** Undefined when the answer is as the document says. */
  failure?: string;
  status?: number;
}

/** The control document, its operations and its validator, loaded once. */
let loaded: { doc: Doc; ops: Operation[]; validator: ContractValidator } | undefined;
export function controlDocument() {
  if (!loaded) {
    const doc = loadDocument(CONTROL_DOCUMENT);
    loaded = { doc, ops: operations(doc), validator: validatorForDocument("sandbox control API", doc) };
  }
  return loaded;
}

/** The control API's own hostile inputs for `op` (each once accepted or answered wrongly). */
function ownHostile(doc: Doc, op: Operation): ControlCase[] {
  const method = op.method.toUpperCase();
  const path = requestUrl(op, requestParams(doc, op));
  const auth = credentialHeaders(doc, op);
  const json = { ...auth, "content-type": "application/json" };
  const cases: ControlCase[] = [
    { operationId: op.operationId, kind: "control: Basic credential", method, path, headers: { authorization: "Basic dXNlcjpwYXNz" } },
    {
      operationId: op.operationId,
      kind: "control: wrong operator token",
      method,
      path,
      headers: { ...auth, "x-sandbox-operator-token": "not-the-operator-token-0123" },
    },
    {
      operationId: op.operationId,
      kind: "control: credential of 10,000 characters",
      method,
      path,
      headers: { authorization: `Bearer ${"t".repeat(10_000)}` },
    },
  ];
  // Each query parameter with a length limit, over it (a filter the control API checks against the document).
  for (const param of op.parameters) {
    const { in: where, name, schema } = param.value;
    const limit = schema?.maxLength;
    if (where !== "query" || typeof limit !== "number") continue;
    cases.push({
      operationId: op.operationId,
      kind: `control: ${name} filter over its limit`,
      method,
      path: `${path}${path.includes("?") ? "&" : "?"}${encodeURIComponent(name)}=${"w".repeat(limit + 1)}`,
      headers: auth,
    });
  }
  if (method === "POST" || method === "PUT") {
    const bodies: Array<[string, string]> = [
      ["body over the control API's limit", JSON.stringify({ pad: "x".repeat(LIMITS.controlBodyBytes + 1) })],
      ["body not an object", "[1,2,3]"],
      ["body null", "null"],
      ["huge numbers", JSON.stringify({ seconds: 1e308, count: 1e308, status: 1e308, latency_ms: -1e308, times: 1e308 })],
      ["strings where numbers go", JSON.stringify({ seconds: "1e9", count: "x", status: "500", url: 5 })],
      ["NUL and lone surrogates", `{"status":"\\u0000\\ud800","url":"http://\\udfff/","operation_id":"\\u0000"}`],
      ["__proto__ member", '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'],
    ];
    for (const [name, body] of bodies)
      cases.push({ operationId: op.operationId, kind: `control: ${name}`, method, path, headers: json, body });
  }
  return cases;
}

/**
 * The cases of every control operation: `perKind` generated requests per kind that applies (seeded),
 * then the hostile ones. Cases over a raw socket (a declared length with no body) are left to the
 * mock's fuzz, which sends them to every port (the control API included).
 */
export function controlCases(seed: number, perKind: number): ControlCase[] {
  const { doc, ops } = controlDocument();
  const bodies = specValidator(doc);
  const cases: ControlCase[] = [];
  ops.forEach((op, i) => {
    const model = operationModel("sandbox control API", doc, op, bodies);
    model.kinds.forEach((kind: CaseKind, k) => {
      for (const c of fc.sample(model.arbitrary(kind), { seed: seed + i * 16 + k, numRuns: perKind })) {
        if (!c) continue;
        const r = model.request(c);
        cases.push({ operationId: op.operationId, kind, ...r });
      }
    });
    for (const h of hostileCases(doc, op)) {
      if (h.declaredLength !== undefined) continue;
      cases.push({
        operationId: op.operationId,
        kind: `hostile: ${h.name}`,
        method: h.method,
        path: h.path,
        headers: h.headers,
        body: h.body,
      });
    }
    cases.push(...ownHostile(doc, op));
  });
  return cases;
}

/** The control operation a request path and method go to, by the document's templates (undefined: none). */
function routeOf(method: string, path: string): Operation | undefined {
  const { ops } = controlDocument();
  const bare = path.split("?")[0];
  const segments = bare.split("/");
  const matches = ops.filter((op) => {
    if (op.method.toUpperCase() !== method) return false;
    const template = op.path.split("/");
    return template.length === segments.length && template.every((part, i) => part.startsWith("{") || part === segments[i]);
  });
  // A literal segment wins over a template (`/state/all` over `/state/{...}`).
  return matches.sort((a, b) => (b.path.match(/\{/g)?.length ?? 0) - (a.path.match(/\{/g)?.length ?? 0)).at(-1);
}

/** Sends a case to the sandbox mock at `base`; what is wrong with the answer, if anything. */
export async function runControl(base: string, c: ControlCase, timeoutMs: number): Promise<ControlOutcome> {
  const where = `${c.operationId} ${c.kind}: ${c.method} ${c.path.slice(0, 120)}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(base + c.path, { method: c.method, headers: c.headers, body: c.body, signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (error) {
    return { failure: `${where}: no answer (${(error as Error).message})` };
  }
  const { status } = response;
  const said = `${status} ${text.slice(0, 300)}`;
  if (status >= 500) return { status, failure: `${where}: ${said}` };
  // An undecodable or unknown path is no operation's: a problem with 400 or 404 is the answer.
  const op = routeOf(c.method, c.path);
  if (!op) return status === 400 || status === 404 || status === 405 ? { status } : { status, failure: `${where}: unrouted, ${said}` };
  let body: unknown = text;
  const contentType = response.headers.get("content-type") ?? undefined;
  if (contentType?.includes("json")) {
    try {
      body = JSON.parse(text);
    } catch {
      return { status, failure: `${where}: a ${contentType} body that is not JSON: ${said}` };
    }
  }
  const { violations } = controlDocument().validator.validateResponse({ operationId: op.operationId, status, body, contentType });
  if (violations.length > 0) return { status, failure: `${where}: ${said}; ${violations.map((v) => v.message).join("; ")}` };
  return { status };
}
