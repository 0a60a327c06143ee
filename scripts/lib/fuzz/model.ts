/**
 * The fuzz model of one operation: fast-check arbitraries of valid requests (parameters and JSON
 * body generated from the spec's schemas) and of invalid ones (a valid request with one mutation:
 * a wrong type, a missing required member or parameter, an out-of-enum value, an oversized string,
 * or broken JSON), and the check of the mock's answer to each. Used by tests/fuzz/*.test.ts
 * (short, in `npm test`) and scripts/fuzz.ts (`npm run fuzz`, long). Generic over the registry.
 */
import fc from "fast-check";
import type { SpecValidator } from "../../../src/validation/spec.js";
import { type Doc, jsonRequest, type Json, type Located, type Operation, successResponse } from "../../../src/document/index.js";
import { credentialHeaders, declaredErrorStatus, parameterValue } from "../../../src/testing/requests.js";
import { responseViolations } from "../../../src/client/index.js";
import { admittedTypes, resolveSchema } from "../../../src/document/schema.js";
import { arbitraryFor, type MutationKind, mutationSites } from "./schema-arbitrary.js";

export type CaseKind = "valid" | MutationKind | "broken-json";
export const CASE_KINDS: CaseKind[] = ["valid", "wrong-type", "missing-required", "out-of-enum", "oversized-string", "broken-json"];

/** What came back, in words: the good outcomes first. */
export type Outcome =
  | "2xx as declared"
  | "4xx with violations"
  | "400 invalid JSON"
  | "skipped: generated value invalid"
  | "skipped: mutation left it valid"
  | "5xx"
  | "timeout"
  | "connection error"
  | "wrong status"
  | "4xx without the violation";

export const GOOD: ReadonlySet<Outcome> = new Set(["2xx as declared", "4xx with violations", "400 invalid JSON"]);
export const SKIPPED: ReadonlySet<Outcome> = new Set(["skipped: generated value invalid", "skipped: mutation left it valid"]);

interface Params {
  path: Record<string, string>;
  query: Array<[string, string]>;
  header: Record<string, string>;
}

export interface FuzzCase {
  kind: CaseKind;
  params: Params;
  /** The JSON body as a value (undefined: no body). */
  body?: Json;
  /** The body text when it is not `JSON.stringify(body)` (broken JSON). */
  rawBody?: string;
  /** Where the mutation is: ["body", ...] or ["query" | "header" | "path", name]. */
  target?: Array<string | number>;
  /** For a parameter mutation: the parameter is valid otherwise (no Ajv check of the body needed). */
  paramMutation?: boolean;
}

export interface OperationModel {
  alias: string;
  op: Operation;
  /** Kinds that apply to this operation (valid always; a mutation kind only where the schema allows it). */
  kinds: CaseKind[];
  arbitrary(kind: CaseKind): fc.Arbitrary<FuzzCase | undefined>;
  /** Sends the case to the mock at `baseUrl` and judges the answer. */
  /** Without `timeoutMs` it waits for the answer (a test's own time limit bounds it). */
  run(baseUrl: string, c: FuzzCase, timeoutMs?: number): Promise<{ outcome: Outcome; status?: number; detail: string }>;
  /** The request a case makes (method, URL path with query, headers, body). */
  request(c: FuzzCase): { method: string; path: string; headers: Record<string, string>; body?: string };
}

/** Characters that survive a path segment or header value unchanged (no `.`/`..` segments, no spaces to trim). */
const SAFE = /^[A-Za-z0-9_~-]{1,24}$/;

function paramArbitrary(doc: Doc, param: Located): fc.Arbitrary<string | string[]> {
  const p = param.value;
  const schema = p.schema === undefined ? {} : resolveSchema(doc, p.schema, `${param.at}/schema`).schema;
  const type = [schema.type].flat()[0];
  const constrained = schema.enum || schema.const !== undefined || schema.pattern || schema.format || (type && type !== "string");
  if (type === "array") {
    const items = arbitraryFor(doc, schema.items ?? { type: "string" }, `${param.at}/schema/items`);
    return fc.array(items, { minLength: 1, maxLength: 3 }).map((values) => values.map(text));
  }
  if (!constrained && (p.in === "path" || p.in === "header")) return fc.stringMatching(SAFE);
  const arbitrary = arbitraryFor(doc, p.schema ?? { type: "string" }, `${param.at}/schema`).map(text);
  if (p.in === "path") return arbitrary.filter((v) => v !== "" && v !== "." && v !== "..");
  if (p.in === "header") return arbitrary.filter((v) => /^[\x21-\x7e]+$/.test(v));
  return arbitrary;
}

/** A generated parameter value as text: objects (an object-typed parameter) as JSON. */
const text = (value: Json): string => (value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));

/** Header names a parameter may not define (the client sets them). */
const RESERVED_HEADERS = new Set(["authorization", "content-type", "accept"]);

export function operationModel(alias: string, doc: Doc, op: Operation, validator: Pick<SpecValidator, "validate">): OperationModel {
  const json = jsonRequest(doc, op);
  const bodySchema = json?.schema;
  const params = op.parameters.filter(
    (p) => !(p.value.in === "header" && RESERVED_HEADERS.has(p.value.name.toLowerCase())) && p.value.in !== "cookie",
  );

  const paramsArbitrary: fc.Arbitrary<Params> = fc
    .tuple(
      ...params.map((param) => {
        const value = paramArbitrary(doc, param);
        return param.value.required || param.value.in === "path"
          ? value.map((v) => [param, v] as const)
          : fc.option(value, { nil: undefined }).map((v) => [param, v] as const);
      }),
    )
    .map((entries) => {
      const result: Params = { path: {}, query: [], header: {} };
      for (const [param, value] of entries) {
        if (value === undefined) continue;
        const { name, in: where } = param.value;
        if (where === "path") result.path[name] = String(value);
        else if (where === "header") result.header[name] = String(value);
        else for (const v of [value].flat()) result.query.push([name, String(v)]);
      }
      return result;
    });

  const bodyArbitrary: fc.Arbitrary<Json> = bodySchema ? arbitraryFor(doc, bodySchema.value, bodySchema.at) : fc.constant(undefined);
  const valid: fc.Arbitrary<FuzzCase> = fc
    .record({ params: paramsArbitrary, body: bodyArbitrary })
    .map((v) => ({ kind: "valid" as const, ...v }));

  /** Mutations of the parameters: a required one left out, a typed one given a wrong value, an enum one a value outside. */
  const paramSites = params.flatMap((param) => {
    const { name, in: where, required } = param.value;
    const schema = param.value.schema === undefined ? {} : resolveSchema(doc, param.value.schema, `${param.at}/schema`).schema;
    const sites: Array<{ kind: MutationKind; apply: (p: Params) => Params; target: string[] }> = [];
    const without = (p: Params): Params => ({
      path: p.path,
      query: p.query.filter(([n]) => !(where === "query" && n === name)),
      header: Object.fromEntries(Object.entries(p.header).filter(([n]) => !(where === "header" && n === name))),
    });
    const withValue =
      (value: string) =>
      (p: Params): Params => {
        const rest = without(p);
        if (where === "query") return { ...rest, query: [...rest.query, [name, value]] };
        if (where === "header") return { ...rest, header: { ...rest.header, [name]: value } };
        return { ...rest, path: { ...rest.path, [name]: value } };
      };
    if (required && where !== "path") sites.push({ kind: "missing-required", apply: without, target: [where, name] });
    const types = admittedTypes(doc, schema, `${param.at}/schema`);
    if (types && [...types].every((t) => ["integer", "number", "boolean"].includes(t)))
      sites.push({ kind: "wrong-type", apply: withValue("not-a-number"), target: [where, name] });
    if (Array.isArray(schema.enum) && schema.enum.every((e: Json) => typeof e === "string")) {
      sites.push({ kind: "out-of-enum", apply: withValue("not-in-enum"), target: [where, name] });
    }
    return sites;
  });

  // Which mutation kinds the schema allows, judged on the body's first example (or one generated body).
  const sample: Json = json?.examples[0]?.value ?? (bodySchema ? fc.sample(bodyArbitrary, { numRuns: 1, seed: 1 })[0] : undefined);
  const bodyKinds = new Set(bodySchema ? mutationSites(doc, bodySchema.value, bodySchema.at, sample).map((s) => s.kind) : []);
  const kinds: CaseKind[] = CASE_KINDS.filter(
    (kind) => kind === "valid" || (kind === "broken-json" ? Boolean(json) : bodyKinds.has(kind) || paramSites.some((s) => s.kind === kind)),
  );

  function arbitrary(kind: CaseKind): fc.Arbitrary<FuzzCase | undefined> {
    if (kind === "valid") return valid;
    if (kind === "broken-json") {
      return fc.tuple(valid, fc.nat(), fc.constantFrom("truncate", "garble")).map(([c, n, how]) => {
        const text = JSON.stringify(c.body ?? {});
        let raw =
          how === "truncate"
            ? text.slice(0, n % Math.max(text.length, 1))
            : `${text.slice(0, n % (text.length + 1))}\u0000}{${text.slice(n % (text.length + 1))}`;
        if (raw.trim() === "" || isJson(raw)) raw = `${raw}{"`;
        return { ...c, kind, rawBody: raw, target: ["body"] };
      });
    }
    return valid.chain((c) => {
      const bodySites = bodySchema ? mutationSites(doc, bodySchema.value, bodySchema.at, c.body).filter((s) => s.kind === kind) : [];
      const choices: Array<() => FuzzCase> = [
        ...bodySites.map((site) => () => ({ ...c, kind, body: site.apply(c.body), target: ["body", ...site.path] })),
        ...paramSites
          .filter((s) => s.kind === kind)
          .map((site) => () => ({ ...c, kind, params: site.apply(c.params), target: site.target, paramMutation: true })),
      ];
      return choices.length === 0 ? fc.constant(undefined) : fc.constantFrom(...choices).map((make) => make());
    });
  }

  function request(c: FuzzCase) {
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(c.params.path[name] ?? String(parameterValue(doc, op.parameters.find((p) => p.value.name === name)!))),
    );
    const query = new URLSearchParams(c.params.query).toString();
    const headers: Record<string, string> = { ...c.params.header, ...credentialHeaders(doc, op) };
    const body = c.rawBody ?? (json && c.body !== undefined ? JSON.stringify(c.body) : undefined);
    if (body !== undefined) headers["content-type"] = json?.mediaType ?? "application/json";
    return { method: op.method.toUpperCase(), path: query ? `${path}?${query}` : path, headers, body };
  }

  const success = successResponse(op).status;
  const invalidStatus = declaredErrorStatus(op, [422, 400], 422);

  async function run(baseUrl: string, c: FuzzCase, timeoutMs?: number) {
    // Judge the case first, independently of the mock: a valid case must be valid, a mutated one invalid.
    if (bodySchema && c.body !== undefined && c.kind !== "broken-json") {
      const { valid: ok, errors } = validator.validate(bodySchema.at, c.body);
      if (c.kind === "valid" && !ok) return { outcome: "skipped: generated value invalid" as const, detail: errors };
      if (c.kind !== "valid" && !c.paramMutation && ok)
        return { outcome: "skipped: mutation left it valid" as const, detail: JSON.stringify(c.target) };
    }
    const r = request(c);
    let response: Response;
    let text: string;
    try {
      response = await fetch(baseUrl + r.path, {
        method: r.method,
        headers: r.headers,
        body: r.body,
        signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const name = (error as Error).name;
      return {
        outcome: name === "TimeoutError" || name === "AbortError" ? ("timeout" as const) : ("connection error" as const),
        detail: `${r.method} ${r.path}: ${error}`,
      };
    }
    const status = response.status;
    const detail = `${r.method} ${r.path} ${c.kind} at ${JSON.stringify(c.target ?? [])} -> ${status} sl-violations: ${response.headers.get("sl-violations")} body: ${text.slice(0, 300)} request body: ${(r.body ?? "").slice(0, 300)}`;
    if (status >= 500) return { outcome: "5xx" as const, status, detail };
    if (c.kind === "valid")
      return { outcome: status === success ? ("2xx as declared" as const) : ("wrong status" as const), status, detail };
    if (c.kind === "broken-json") {
      // The operation's 400 with the finding in sl-violations, or (no 400 declared) micri's body naming it.
      let code: unknown;
      try {
        code = JSON.parse(text)?.error?.code;
      } catch {
        code = undefined;
      }
      const named = code === "invalid_json" || responseViolations(response.headers, text).some((v) => v.code === "invalid_json");
      return {
        outcome: status === 400 && named ? ("400 invalid JSON" as const) : ("wrong status" as const),
        status,
        detail,
      };
    }
    if (status !== invalidStatus) return { outcome: "wrong status" as const, status, detail };
    // The violation must be at the mutated member or at one of its parents (Ajv reports a missing member at its parent).
    const target = ["request", ...(c.target ?? [])].map(String);
    const found = responseViolations(response.headers, text).some(
      (v) =>
        v.severity === "Error" &&
        v.location.length >= 2 &&
        v.location.length <= target.length &&
        v.location.every((part, i) => String(part) === target[i]),
    );
    return { outcome: found ? ("4xx with violations" as const) : ("4xx without the violation" as const), status, detail };
  }

  return { alias, op, kinds, arbitrary, run, request };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
