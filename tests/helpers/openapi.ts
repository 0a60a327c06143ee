/**
 * Reading a bundled OpenAPI 3.1 document for the generic tests: operations, local `$ref`s,
 * examples, parameter values, credentials and a wrong-typed request body. Generic: nothing here
 * knows an API.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export type Json = any;
export type Doc = Record<string, Json>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const JSON_MEDIA = /^application\/(.+\+)?json$/;

export const isJsonMedia = (mediaType: string) => JSON_MEDIA.test(mediaType);

export function loadBundle(path: string): Doc {
  return parse(readFileSync(path, "utf8")) as Doc;
}

/** RFC 6901 pointer from raw segments: ["paths", "/v1/x", "get"] -> "/paths/~1v1~1x/get". */
export function pointer(...segments: Array<string | number>): string {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function unescapeToken(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

export interface Located {
  value: Json;
  /** Canonical pointer of the value, every `$ref` on the way followed. */
  at: string;
}

/** Follows a chain of local `$ref`s from a node found at `at`. */
export function deref(doc: Doc, value: Json, at: string): Located {
  const seen = new Set<string>();
  while (value && typeof value === "object" && typeof value.$ref === "string") {
    const ref: string = value.$ref;
    if (!ref.startsWith("#")) throw new Error(`${at}: only local $refs are supported in a bundle, got ${ref}`);
    if (seen.has(ref)) throw new Error(`${at}: $ref cycle through ${ref}`);
    seen.add(ref);
    at = decodeURIComponent(ref.slice(1));
    value = at
      .split("/")
      .slice(1)
      .map(unescapeToken)
      .reduce((node: Json, key) => node?.[key], doc);
    if (value === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return { value, at };
}

/** Walks `segments` from the root, following `$ref`s at every step. */
export function locate(doc: Doc, ...segments: Array<string | number>): Located {
  let here = deref(doc, doc, "");
  for (const segment of segments) {
    const child = here.value?.[segment];
    if (child === undefined) return { value: undefined, at: here.at + pointer(segment) };
    here = deref(doc, child, here.at + pointer(segment));
  }
  return here;
}

export interface MediaContent {
  mediaType: string;
  schema?: Located;
  /** Named examples in order (`example` counts as one named "example"). */
  examples: Array<{ name: string; value: Json }>;
}

export interface Operation {
  /** `paths` or `webhooks`. */
  section: "paths" | "webhooks";
  path: string;
  method: (typeof METHODS)[number];
  operationId: string;
  /** Canonical pointer of the operation object. */
  at: string;
  value: Json;
  parameters: Located[];
  requestBody?: Located;
  responses: Record<string, Located>;
}

function mediaContent(doc: Doc, content: Located | undefined): MediaContent[] {
  if (!content?.value) return [];
  return Object.keys(content.value).map((mediaType) => {
    const media = locate(doc, ...segmentsOf(content.at), mediaType);
    const examples = Object.keys(media.value.examples ?? {}).map((name) => ({
      name,
      value: locate(doc, ...segmentsOf(media.at), "examples", name).value.value,
    }));
    if (media.value.example !== undefined) examples.push({ name: "example", value: media.value.example });
    const schema = media.value.schema === undefined ? undefined : locate(doc, ...segmentsOf(media.at), "schema");
    return { mediaType, schema, examples };
  });
}

function segmentsOf(at: string): string[] {
  return at === "" ? [] : at.split("/").slice(1).map(unescapeToken);
}

/** Every operation of the document: paths x methods, and (with `webhooks`) the webhooks. */
export function operations(doc: Doc, { webhooks = false } = {}): Operation[] {
  const sections = webhooks ? (["paths", "webhooks"] as const) : (["paths"] as const);
  return sections.flatMap((section) =>
    Object.keys(doc[section] ?? {}).flatMap((path) => {
      const item = locate(doc, section, path);
      return METHODS.filter((method) => item.value[method]).map((method): Operation => {
        const op = locate(doc, ...segmentsOf(item.at), method);
        const params = new Map<string, Located>();
        for (const [owner, list] of [
          [item, item.value.parameters],
          [op, op.value.parameters],
        ] as const) {
          (list ?? []).forEach((_: Json, i: number) => {
            const p = locate(doc, ...segmentsOf(owner.at), "parameters", i);
            params.set(`${p.value.in}:${p.value.name}`, p);
          });
        }
        const responses: Record<string, Located> = {};
        for (const code of Object.keys(op.value.responses ?? {})) responses[code] = locate(doc, ...segmentsOf(op.at), "responses", code);
        return {
          section,
          path,
          method,
          operationId: op.value.operationId ?? `${method.toUpperCase()} ${path}`,
          at: op.at,
          value: op.value,
          parameters: [...params.values()],
          requestBody: op.value.requestBody === undefined ? undefined : locate(doc, ...segmentsOf(op.at), "requestBody"),
          responses,
        };
      });
    }),
  );
}

export function requestContents(doc: Doc, op: Operation): MediaContent[] {
  return op.requestBody ? mediaContent(doc, locate(doc, ...segmentsOf(op.requestBody.at), "content")) : [];
}

export function responseContents(doc: Doc, response: Located): MediaContent[] {
  return mediaContent(doc, locate(doc, ...segmentsOf(response.at), "content"));
}

/** The JSON request body of an operation, if it has one. */
export function jsonRequest(doc: Doc, op: Operation): MediaContent | undefined {
  return requestContents(doc, op).find((c) => JSON_MEDIA.test(c.mediaType));
}

/** The success response Prism answers with: the lowest 2xx (or 2XX) the operation declares. */
export function successResponse(op: Operation): { status: number; response: Located } {
  const codes = Object.keys(op.responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  if (codes.length === 0) throw new Error(`${op.operationId}: no 2xx response declared`);
  return { status: Number(codes[0].replace(/XX$/i, "00")), response: op.responses[codes[0]] };
}

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

/** A parameter's schema and its examples (named ones in order, then `example`). */
export function parameterContent(doc: Doc, param: Located): MediaContent {
  const p = param.value;
  const examples = Object.keys(p.examples ?? {}).map((name) => ({
    name,
    value: locate(doc, ...segmentsOf(param.at), "examples", name).value.value,
  }));
  if (p.example !== undefined) examples.push({ name: "example", value: p.example });
  const schema = p.schema === undefined ? undefined : locate(doc, ...segmentsOf(param.at), "schema");
  return { mediaType: `${p.in} ${p.name}`, schema, examples };
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

/** The operation's effective security schemes (operation `security`, else the document's). */
export function securitySchemes(doc: Doc, op: Operation): Json[] {
  const requirements: Json[] = op.value.security ?? doc.security ?? [];
  return requirements
    .flatMap((req: Json) => Object.keys(req))
    .map((name: string) => locate(doc, "components", "securitySchemes", name).value);
}

/** True when the operation requires credentials (an empty requirement `{}` makes them optional). */
export function requiresCredentials(doc: Doc, op: Operation): boolean {
  const requirements: Json[] = op.value.security ?? doc.security ?? [];
  return requirements.length > 0 && requirements.every((req: Json) => Object.keys(req).length > 0);
}

export const TEST_TOKEN = "contract-test-token";
export const TEST_API_KEY = "contract-test-key";

/** Headers carrying a test credential for every header-borne scheme the operation accepts. */
export function credentialHeaders(doc: Doc, op: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const scheme of securitySchemes(doc, op)) {
    if (scheme.type === "http") headers.authorization = `${scheme.scheme === "basic" ? "Basic" : "Bearer"} ${TEST_TOKEN}`;
    else if (scheme.type === "apiKey" && scheme.in === "header") headers[scheme.name.toLowerCase()] = TEST_API_KEY;
  }
  return headers;
}

/** The JSON types a schema admits, following `$ref`, `allOf`, `oneOf`/`anyOf`, `enum` and `const`; undefined when unconstrained. */
function admittedTypes(doc: Doc, schema: Json, at: string): Set<string> | undefined {
  const { value: s, at: here } = deref(doc, schema, at);
  if (!s || typeof s !== "object") return undefined;
  if (s.type !== undefined) {
    const types = new Set<string>([s.type].flat());
    if (types.has("integer")) types.add("number");
    return types;
  }
  const values = s.const !== undefined ? [s.const] : s.enum;
  if (values) return new Set(values.map((v: Json) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
  for (const key of ["oneOf", "anyOf", "allOf"]) {
    if (!Array.isArray(s[key])) continue;
    const parts = s[key].map((sub: Json, i: number) => admittedTypes(doc, sub, `${here}${pointer(key, i)}`));
    if (key === "allOf") return parts.find(Boolean);
    if (parts.every(Boolean)) return new Set(parts.flatMap((p: Set<string> | undefined) => [...p!]));
  }
  return undefined;
}

function jsonType(value: Json): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** Top-level properties of an object schema, own and from `allOf`, in order. */
function schemaProperties(doc: Doc, schema: Located): Array<[string, Located]> {
  const s = schema.value;
  const own: Array<[string, Located]> = Object.keys(s.properties ?? {}).map((name) => [
    name,
    locate(doc, ...segmentsOf(schema.at), "properties", name),
  ]);
  const inherited = (s.allOf ?? []).flatMap((_: Json, i: number) =>
    schemaProperties(doc, locate(doc, ...segmentsOf(schema.at), "allOf", i)),
  );
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

export interface Violation {
  location: Array<string | number>;
  severity: string;
  code: string | number;
  message: string;
}

/**
 * Prism's findings on a request: the `sl-violations` header, or, when the spec declares no
 * response for the error and Prism answers with its own problem+json, that body's `validation`.
 * Locations are normalised to start with "request".
 */
export function violations(response: Response, body: string): Violation[] {
  const header = response.headers.get("sl-violations");
  if (header) {
    try {
      return JSON.parse(header) as Violation[];
    } catch {
      // Prism truncates a long list to "Too many violations! <first 8 kB>": keep it whole as one message.
      return [{ location: ["request"], severity: "Error", code: "unparsed", message: header }];
    }
  }
  if (response.headers.get("content-type")?.includes("problem+json")) {
    const problem = JSON.parse(body) as { validation?: Violation[] };
    return (problem.validation ?? []).map((v) => ({ ...v, location: ["request", ...v.location] }));
  }
  return [];
}
