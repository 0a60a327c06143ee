/**
 * Example requests built from a document, for tests of code that calls these APIs (the contract
 * tests, the CLI and proxy tests, the fuzz model, the benchmark): a value for each parameter (its
 * first example, else one derived from its schema), the URL with them filled in, headers carrying a
 * test credential for every scheme the operation accepts, a wrong-typed body, and the status Prism
 * answers an invalid request with. Generic: nothing here knows an API.
 */
import {
  child,
  type Doc,
  type Json,
  jsonRequest,
  type Located,
  type Operation,
  parameterContent,
  securitySchemes,
} from "../document/index.js";
import { admittedTypes, jsonType } from "../document/schema.js";

/**
 * The status Prism answers an invalid request with: the first of `codes` that the operation
 * declares (exactly or as a range), else `default` with the first code, else Prism's own
 * fallback (`fallback`, a problem+json).
 */
export function declaredErrorStatus(op: Operation, codes: number[], fallback: number): number {
  const declared = Object.keys(op.responses).map((c) => c.toUpperCase());
  for (const code of codes) {
    if (declared.includes(String(code)) || declared.includes(`${String(code)[0]}XX`)) return code;
  }
  return declared.includes("DEFAULT") ? codes[0] : fallback;
}

function schemaSample(schema: Json): Json {
  if (!schema || typeof schema !== "object") return "example";
  for (const value of [schema.example, schema.examples?.[0], schema.default, schema.const, schema.enum?.[0]]) {
    if (value !== undefined) return value;
  }
  const type = [schema.type].flat()[0];
  if (type === "integer" || type === "number") return schema.minimum ?? 1;
  if (type === "boolean") return true;
  if (schema.format === "uuid") return "6f1c2a8e-4b7d-4e8a-9c3f-1d2e3f4a5b6c";
  if (schema.format === "date-time") return "2024-01-01T00:00:00Z";
  if (schema.format === "date") return "2024-01-01";
  return "example";
}

/** A value for a parameter: its first example, else one derived from its schema. */
export function parameterValue(doc: Doc, param: Located): Json {
  const { examples, schema } = parameterContent(doc, param);
  return examples.length > 0 ? examples[0].value : schemaSample(schema?.value);
}

/** Header names OpenAPI says a parameter may not define (they are set by the client). */
const RESERVED_HEADERS = new Set(["authorization", "content-type", "accept"]);

/** Values for the path parameters and the required query and header parameters. */
export function requestParams(doc: Doc, op: Operation) {
  const params = { path: {} as Record<string, Json>, query: {} as Record<string, Json>, header: {} as Record<string, Json> };
  for (const param of op.parameters) {
    const { name, in: where, required } = param.value;
    if (where === "path") params.path[name] = parameterValue(doc, param);
    else if (where === "query" && required) params.query[name] = parameterValue(doc, param);
    else if (where === "header" && required && !RESERVED_HEADERS.has(name.toLowerCase()))
      params.header[name] = String(parameterValue(doc, param));
  }
  return params;
}

/** `/v1/x/{id}` with the path parameters filled in and the query appended. */
export function requestUrl(op: Operation, params: ReturnType<typeof requestParams>): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params.path[name])));
  const query = new URLSearchParams(Object.entries(params.query).map(([k, v]) => [k, String(v)])).toString();
  return query ? `${path}?${query}` : path;
}

export const TEST_TOKEN = "contract-test-token";
export const TEST_API_KEY = "contract-test-key";

/** Headers carrying a test credential for every header-borne scheme the operation accepts. */
export function credentialHeaders(doc: Doc, op: Operation, credentials: { token?: string; apiKey?: string } = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const scheme of securitySchemes(doc, op)) {
    if (scheme.type === "http")
      headers.authorization = `${scheme.scheme === "basic" ? "Basic" : "Bearer"} ${credentials.token ?? TEST_TOKEN}`;
    else if (scheme.type === "apiKey" && scheme.in === "header")
      headers[scheme.parameter!.toLowerCase()] = credentials.apiKey ?? TEST_API_KEY;
  }
  return headers;
}

/**
 * Sends `op`'s example request to `base`: its parameters, its first JSON request example as the body,
 * and a test credential for each scheme it accepts (`credentials: false`: none); `headers` are added
 * last. Resolves to the answer.
 */
export function sendExample(
  base: string,
  doc: Doc,
  op: Operation,
  options: { headers?: Record<string, string>; credentials?: boolean } = {},
): Promise<Response> {
  const params = requestParams(doc, op);
  const body = jsonRequest(doc, op)?.examples[0]?.value;
  return fetch(base + requestUrl(op, params), {
    method: op.method.toUpperCase(),
    headers: {
      ...(params.header as Record<string, string>),
      ...(options.credentials === false ? {} : credentialHeaders(doc, op)),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Top-level properties of an object schema, own and from `allOf`, in order. */
function schemaProperties(doc: Doc, schema: Located): Array<[string, Located]> {
  const s = schema.value;
  const own: Array<[string, Located]> = Object.keys(s.properties ?? {}).map((name) => [name, child(doc, schema, "properties", name)!]);
  const inherited = (s.allOf ?? []).flatMap((_: Json, i: number) => schemaProperties(doc, child(doc, schema, "allOf", i)!));
  return [...own, ...inherited];
}

const WRONG_CANDIDATES: Json[] = [true, "wrong-type", 12.5, { wrong: "type" }, ["wrong-type"]];

/**
 * A request body that is the given valid example with its first typed property set to a value of
 * a type the schema does not admit. `field` is that property, or undefined when the schema has no
 * typed property (then the whole body has the wrong type).
 */
export function wrongTypedBody(doc: Doc, schema: Located, example: Json): { body: Json; field?: string } {
  for (const [name, prop] of schemaProperties(doc, schema)) {
    const types = admittedTypes(doc, prop.value, prop.at);
    const wrong = types && WRONG_CANDIDATES.find((c) => !types.has(jsonType(c)));
    if (wrong !== undefined) return { body: { ...(example ?? {}), [name]: wrong }, field: name };
  }
  const types = admittedTypes(doc, schema.value, schema.at);
  const wrong = types && WRONG_CANDIDATES.find((c) => !types.has(jsonType(c)));
  if (wrong === undefined) throw new Error(`${schema.at}: cannot derive a wrong-typed body (the schema constrains no type)`);
  return { body: wrong };
}
