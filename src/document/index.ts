/**
 * The one model of an OpenAPI 3.1 document that every part of the package reads: the mock, the
 * validator, the proxy, the callbacks, the CLI, and the scripts (docs, changelog, gap report,
 * release lock) and tests. A document is the plain JSON value of a bundled spec (`Doc`); this
 * module answers the questions asked of it:
 *
 * - load: `loadDocument(path)` reads and parses a spec once per file version; errors name the file;
 * - pointers: `pointer`, `parsePointer`, `valueAt` (./pointer.ts, the only escaper);
 * - `$ref`s: `deref` follows a chain of local references (the only follower), `locate` walks a
 *   path following them at every step, each result carrying its canonical pointer;
 * - operations and webhooks: `operations(doc)`, `webhooks(doc)`, `findOperation(doc, id)`, each with
 *   its merged parameters, request body and responses; `HTTP_METHODS` is the only list of methods;
 * - media types: `mediaContents`, `requestContents`, `responseContents` with their examples, and
 *   parsing and matching of Content-Type values (./media.ts);
 * - security: `securitySchemes`, `requiresCredentials`, `describeScheme`.
 *
 * Only local references (`#/...`) are followed: a bundled spec has no other kind.
 */
import { readFileSync, statSync } from "node:fs";
import { parse } from "yaml";
import { defaultMediaType, isJsonMediaType, matchMediaType } from "./media.js";
import { parsePointer, pointer, refPointer } from "./pointer.js";

export { defaultMediaType, isJsonMediaType, type MediaType, matchMediaType, parseMediaType } from "./media.js";
export { escapeToken, parsePointer, pointer, refPointer, unescapeToken, valueAt } from "./pointer.js";

/** A value of the document: JSON, untyped. */
export type Json = any;
/** A parsed OpenAPI document. */
export type Doc = Record<string, Json>;

/** The HTTP methods a path item can hold, in the order OpenAPI 3.1 lists its fixed fields. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

const METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);
export const isHttpMethod = (name: string): name is HttpMethod => METHOD_SET.has(name);

/** A node of the document and its canonical pointer (every `$ref` on the way followed). */
export interface Located {
  value: Json;
  at: string;
}

/** Parses a spec's text (YAML or JSON); `source` names it in the error. Throws unless it is an OpenAPI document. */
export function parseDocument(text: string, source: string): Doc {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  if (!doc || typeof doc !== "object" || typeof (doc as Doc).openapi !== "string") {
    throw new Error(`${source}: not an OpenAPI document (no "openapi" field)`);
  }
  return doc as Doc;
}

const loaded = new Map<string, { version: string; doc: Doc }>();

/**
 * Reads and parses the spec at `path`, once per version of the file (its size and modification
 * time): later calls return the same object, which callers must not modify. Errors name the file
 * and, when it is missing, the command that writes it. `parse` reads the text instead of
 * `parseDocument` (the sandbox's: parsed documents kept between starts, src/mock/operations-cache.ts).
 */
export function loadDocument(path: string, parse: (text: string) => Doc = (text) => parseDocument(text, path)): Doc {
  let version: string;
  try {
    const stat = statSync(path);
    version = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    throw new Error(`${path}: not found (the bundled specs are written by \`npm run generate\`)`);
  }
  const cached = loaded.get(path);
  if (cached?.version === version) return cached.doc;
  const doc = parse(readFileSync(path, "utf8"));
  loaded.set(path, { version, doc });
  return doc;
}

/** Follows a chain of local `$ref`s from `value`, found at `at`; throws on a remote, cyclic or unresolved reference. */
export function deref(doc: Doc, value: Json, at: string): Located {
  let seen: Set<string> | undefined;
  while (value !== null && typeof value === "object" && typeof value.$ref === "string") {
    const ref: string = value.$ref;
    const target = refPointer(ref);
    if (target === undefined) throw new Error(`${at}: only local $refs are supported in a bundled spec, got ${ref}`);
    seen ??= new Set();
    if (seen.has(ref)) throw new Error(`${at}: $ref cycle through ${ref}`);
    seen.add(ref);
    at = target;
    value = doc;
    for (const token of parsePointer(target)) {
      value = value !== null && typeof value === "object" ? value[token] : undefined;
      if (value === undefined) break;
    }
    if (value === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return { value, at };
}

/** The node under `parent` at `tokens`, following `$ref`s at every step; undefined when a token is missing. */
export function child(doc: Doc, parent: Located, ...tokens: Array<string | number>): Located | undefined {
  let here = parent;
  for (const token of tokens) {
    const next = here.value?.[token];
    if (next === undefined) return undefined;
    here = deref(doc, next, here.at + pointer(token));
  }
  return here;
}

/** Walks `tokens` from the root, following `$ref`s at every step; `value` is undefined when a token is missing. */
export function locate(doc: Doc, ...tokens: Array<string | number>): Located {
  let here: Located = { value: doc, at: "" };
  for (const token of tokens) {
    const next = here.value?.[token];
    if (next === undefined) return { value: undefined, at: here.at + pointer(token) };
    here = deref(doc, next, here.at + pointer(token));
  }
  return here;
}

export interface Operation {
  /** `paths` or `webhooks`. */
  section: "paths" | "webhooks";
  /** The path template, or the webhook's name. */
  path: string;
  method: HttpMethod;
  /** The operationId, else `METHOD path`. */
  operationId: string;
  /** Canonical pointer of the operation object. */
  at: string;
  value: Json;
  /** Path-item and operation parameters merged (the operation's win), each with its pointer. */
  parameters: Located[];
  requestBody?: Located;
  /** By status code or range as declared (`200`, `4XX`, `default`). */
  responses: Record<string, Located>;
}

const parameterKey = (p: Json) => `${p?.in}:${p?.in === "header" ? String(p?.name).toLowerCase() : p?.name}`;

function operationsOf(doc: Doc, section: "paths" | "webhooks"): Operation[] {
  const out: Operation[] = [];
  for (const path of Object.keys(doc[section] ?? {})) {
    const item = locate(doc, section, path);
    if (!item.value || typeof item.value !== "object") continue;
    for (const method of HTTP_METHODS) {
      if (item.value[method] === undefined) continue;
      const op = child(doc, item, method)!;
      const parameters = new Map<string, Located>();
      for (const owner of [item, op]) {
        (owner.value.parameters ?? []).forEach((_: Json, i: number) => {
          const param = child(doc, owner, "parameters", i)!;
          parameters.set(parameterKey(param.value), param);
        });
      }
      const responses: Record<string, Located> = {};
      for (const code of Object.keys(op.value.responses ?? {})) responses[code] = child(doc, op, "responses", code)!;
      out.push({
        section,
        path,
        method,
        operationId: op.value.operationId ?? `${method.toUpperCase()} ${path}`,
        at: op.at,
        value: op.value,
        parameters: [...parameters.values()],
        requestBody: child(doc, op, "requestBody"),
        responses,
      });
    }
  }
  return out;
}

const indexed = new WeakMap<Doc, { paths: Operation[]; webhooks: Operation[]; byId?: Map<string, Operation> }>();

function index(doc: Doc) {
  let found = indexed.get(doc);
  if (!found) {
    found = { paths: operationsOf(doc, "paths"), webhooks: operationsOf(doc, "webhooks") };
    indexed.set(doc, found);
  }
  return found;
}

// What the mock, the sandbox and the validator ask of an operation on every request (its media
// types, the response key of a status, its security schemes) depends on the operation alone (the
// document is fixed once loaded): each answer is computed once per operation and kept here, keyed by
// the operation's (or response's) object. The lists kept are frozen: callers read them, never change them.
const mediaByContent = new WeakMap<Located, MediaContent[]>();
const keysByOperation = new WeakMap<Operation, Map<string, string | undefined>>();
const schemesByOperation = new WeakMap<Operation, SecurityScheme[]>();
const defaultByContents = new WeakMap<MediaContent[], MediaContent | undefined>();

/** The operations under `paths` (path x method) in document order; with `webhooks: true`, the webhooks after them. */
export function operations(doc: Doc, { webhooks: withWebhooks = false } = {}): Operation[] {
  const { paths, webhooks } = index(doc);
  return withWebhooks ? [...paths, ...webhooks] : paths;
}

/** The webhooks (`webhooks:` name x method) in document order. */
export function webhooks(doc: Doc): Operation[] {
  return index(doc).webhooks;
}

/** An operation or webhook by its operationId; undefined when there is none. */
export function findOperation(doc: Doc, operationId: string): Operation | undefined {
  const found = index(doc);
  if (!found.byId) {
    found.byId = new Map();
    // The first operation with an id wins, paths before webhooks (as a search in that order finds it).
    for (const op of [...found.paths, ...found.webhooks]) if (!found.byId.has(op.operationId)) found.byId.set(op.operationId, op);
  }
  return found.byId.get(operationId);
}

export interface MediaContent {
  mediaType: string;
  /** Canonical pointer of the media type object. */
  at: string;
  schema?: Located;
  /** Named examples in order (`example` counts as one named "example"). */
  examples: Array<{ name: string; summary?: string; value: Json }>;
}

/** The media types of a `content` map with their schemas and examples. */
export function mediaContents(doc: Doc, content: Located | undefined): MediaContent[] {
  if (!content?.value || typeof content.value !== "object") return [];
  return Object.keys(content.value).map((mediaType) => {
    const media = child(doc, content, mediaType)!;
    const examples = Object.keys(media.value?.examples ?? {}).map((name) => {
      const example = child(doc, media, "examples", name)!.value ?? {};
      return { name, summary: example.summary, value: example.value };
    });
    if (media.value?.example !== undefined) examples.push({ name: "example", summary: undefined, value: media.value.example });
    return { mediaType, at: media.at, schema: child(doc, media, "schema"), examples };
  });
}

/** The request body's media types. */
export function requestContents(doc: Doc, op: Operation): MediaContent[] {
  return op.requestBody ? mediaContents(doc, child(doc, op.requestBody, "content")) : [];
}

/** A response's media types. */
export function responseContents(doc: Doc, response: Located): MediaContent[] {
  let found = mediaByContent.get(response);
  if (!found) {
    found = Object.freeze(mediaContents(doc, child(doc, response, "content"))) as MediaContent[];
    mediaByContent.set(response, found);
  }
  return found;
}

/** The JSON request body of an operation, if it has one. */
export function jsonRequest(doc: Doc, op: Operation): MediaContent | undefined {
  return requestContents(doc, op).find((c) => isJsonMediaType(c.mediaType));
}

/**
 * The media type of `contents` that a body with `contentType` is checked against: the declared one
 * it falls under; without a Content-Type, the JSON one, else the only one.
 */
export function pickMediaContent(contents: MediaContent[], contentType: string | undefined): MediaContent | undefined {
  if (contentType === undefined && Object.isFrozen(contents)) {
    // A kept list (responseContents): its default is worked out once.
    if (!defaultByContents.has(contents)) defaultByContents.set(contents, pickMediaContent([...contents], undefined));
    return defaultByContents.get(contents);
  }
  const declared = contents.map((c) => c.mediaType);
  const name = contentType === undefined ? defaultMediaType(declared) : matchMediaType(declared, contentType);
  return contents.find((c) => c.mediaType === name);
}

/** The response key that answers `status`: the exact code, else its range (`4XX`), else `default`. */
export function responseKey(op: Operation, status: number | string): string | undefined {
  const code = String(status);
  let keys = keysByOperation.get(op);
  if (!keys) keysByOperation.set(op, (keys = new Map()));
  if (keys.has(code)) return keys.get(code);
  const declared = Object.keys(op.responses);
  const key =
    declared.find((c) => c === code) ?? declared.find((c) => c.toUpperCase() === `${code[0]}XX`) ?? declared.find((c) => c === "default");
  if (keys.size < 1000) keys.set(code, key); // statuses are three digits; the bound only guards against odd callers
  return key;
}

/** The success response Prism answers with: the lowest 2xx (or 2XX) the operation declares. */
export function successResponse(op: Operation): { status: number; key: string; response: Located } {
  const codes = Object.keys(op.responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  if (codes.length === 0) throw new Error(`${op.operationId}: no 2xx response declared`);
  return { status: Number(codes[0].replace(/XX$/i, "00")), key: codes[0], response: op.responses[codes[0]] };
}

/** A parameter's schema and its examples (named ones in order, then `example`). */
export function parameterContent(doc: Doc, param: Located): MediaContent {
  const p = param.value;
  const examples = Object.keys(p.examples ?? {}).map((name) => {
    const example = child(doc, param, "examples", name)!.value ?? {};
    return { name, summary: example.summary, value: example.value };
  });
  if (p.example !== undefined) examples.push({ name: "example", summary: undefined, value: p.example });
  return { mediaType: `${p.in} ${p.name}`, at: param.at, schema: child(doc, param, "schema"), examples };
}

/** A security scheme an operation accepts, with its name under `components.securitySchemes`. */
export interface SecurityScheme {
  name: string;
  /** `http`, `apiKey`, `oauth2`, `openIdConnect`, `mutualTLS`. */
  type: string;
  /** For `http`: `bearer`, `basic`, ... (lower case). */
  scheme?: string;
  /** For `apiKey`: the header, query or cookie name, and where. */
  in?: "header" | "query" | "cookie";
  parameter?: string;
  value: Json;
}

/** The operation's effective security requirements: its own `security`, else the document's. */
function requirementsOf(doc: Doc, op: Operation): Json[] {
  return op.value.security ?? doc.security ?? [];
}

/** The security schemes the operation accepts (any of them), in the order its requirements name them. */
export function securitySchemes(doc: Doc, op: Operation): SecurityScheme[] {
  let found = schemesByOperation.get(op);
  if (!found) {
    found = Object.freeze(schemesOf(doc, op)) as SecurityScheme[];
    schemesByOperation.set(op, found);
  }
  return found;
}

function schemesOf(doc: Doc, op: Operation): SecurityScheme[] {
  const names = new Set<string>(requirementsOf(doc, op).flatMap((req: Json) => Object.keys(req ?? {})));
  return [...names].map((name) => {
    const { value } = locate(doc, "components", "securitySchemes", name);
    if (!value) throw new Error(`${op.operationId}: security scheme "${name}" is not declared under components.securitySchemes`);
    return {
      name,
      type: String(value.type),
      scheme: value.type === "http" ? String(value.scheme ?? "").toLowerCase() : undefined,
      in: value.type === "apiKey" ? value.in : undefined,
      parameter: value.type === "apiKey" ? String(value.name) : undefined,
      value,
    };
  });
}

/** True when the operation requires credentials (an empty requirement `{}` makes them optional). */
export function requiresCredentials(doc: Doc, op: Operation): boolean {
  const requirements = requirementsOf(doc, op);
  return requirements.length > 0 && requirements.every((req: Json) => Object.keys(req ?? {}).length > 0);
}

/** How a caller authenticates with a scheme, in words: `Authorization: Bearer`, `x-api-key header`. */
export function describeScheme(scheme: SecurityScheme): string {
  if (scheme.type === "http") {
    const name = scheme.scheme ?? "";
    return `Authorization: ${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  }
  if (scheme.type === "apiKey") return `${scheme.parameter} ${scheme.in}`;
  return scheme.type;
}

/** The distinct security schemes the document's operations accept, in the order they first appear. */
export function authSchemes(doc: Doc): SecurityScheme[] {
  const found = new Map<string, SecurityScheme>();
  for (const op of operations(doc))
    for (const scheme of securitySchemes(doc, op)) if (!found.has(scheme.name)) found.set(scheme.name, scheme);
  return [...found.values()];
}

/** The distinct ways of authenticating over every operation of the document, in words (see describeScheme). */
export function describeAuth(doc: Doc): string[] {
  return [...new Set(authSchemes(doc).map(describeScheme))];
}
