/**
 * The mock's request validation and security check: Prism 5.12's `validateInput` and
 * `validateSecurity` (@stoplight/prism-http/dist/validator), rewritten as plain loops over work done
 * once per operation, with Prism's own parts wherever the outcome is decided: its deserialisers,
 * media-type matching, schema normalisation (allOf merged, readOnly properties stripped), Ajv
 * classes and options (allErrors, coercion for parameters only, its date-time format), error
 * conversion and security handlers. A request gets the findings Prism gives it, in Prism's order,
 * with the differences listed in DEVIATIONS and nothing else (tests/e2e/fuzz/equivalence.test.ts
 * compares every answer with stock Prism's).
 *
 * Where Prism builds a parameter schema, a normalised body schema or an Ajv validator once per
 * operation and keeps it (in WeakMaps keyed by the operation's objects), so does this module; what
 * Prism redoes per request (fp-ts plumbing, a URI template per request, lodash key mapping) is gone.
 * These functions are Prism's `validateInput` and `validateSecurity` components in the mock's Prism
 * instance (server.ts), so Prism's own pipeline and the mock's fast path judge a request alike.
 */
import { parseMediaType } from "../document/media.js";
import { LARGE_BODY_BYTES } from "./limits.js";
import { isNode, type MemberPlan, memberPlan, unknownIn } from "./unknown-members.js";
import {
  addFormats,
  type AjvInstance,
  ajvClasses,
  convertAjvErrors,
  dateTimeFormat,
  type Deserializer,
  deserializers,
  ERROR,
  findSecurityHandler,
  INFORMATION,
  INPUT,
  type MediaContent,
  mergeAllOf,
  noneSecurityHandler,
  type ParamSpec,
  parseMIMEHeader,
  type SecurityHandler,
  stripReadOnlyProperties,
  typeIs,
  UriTemplate,
  type ValidateFunction,
  validateBody,
  WARNING,
  bearerHandlers,
  apiKeyInHeader,
  wildcardMediaTypeMatch as wildcardMatch,
} from "./prism-parts.js";
import { BODY_BYTES, type Diagnostic, type Either, type Element, JUDGED, type Operation } from "./types.js";

export { DEVIATIONS } from "./deviations.js";
export { LARGE_BODY_BYTES };
export { BODY_BYTES, type Element, JUDGED };

/* ------------------------------------------------------------------ Ajv, as Prism sets it up */

// validator/validators/utils.js: the same options, formats and logger (which silences "unknown format").
const logger = {
  warn(...args: unknown[]) {
    if (typeof args[0] === "string" && args[0].startsWith("unknown format")) return;
    console.warn(...args);
  },
  log: console.log,
  error: console.error,
};
const baseOptions = { allErrors: true, allowUnionTypes: true, allowMatchingProperties: true, strict: false, logger };

type Draft = keyof typeof ajvClasses;
type Mode = "coerce" | "noCoerce" | "firstError";
const instances = new Map<string, AjvInstance>();

function ajvFor(draft: Draft, mode: Mode): AjvInstance {
  const key = `${draft} ${mode}`;
  let ajv = instances.get(key);
  if (!ajv) {
    ajv = new ajvClasses[draft]({
      ...baseOptions,
      coerceTypes: mode === "coerce",
      ...(mode === "firstError" ? { allErrors: false } : {}),
    });
    addFormats(ajv);
    ajv.addFormat("date-time", dateTimeFormat);
    instances.set(key, ajv);
  }
  return ajv;
}

function draftOf($schema: unknown): Draft {
  const value = String($schema);
  if (/^https?:\/\/json-schema.org\/draft\/2019-09\/schema#?$/.test(value)) return "draft2019_09";
  if (/^https?:\/\/json-schema.org\/draft\/2020-12\/schema#?$/.test(value)) return "draft2020_12";
  return "default";
}

const EMPTY_BUNDLE = {};
/** Compiled validators by schema object, bundle and mode; null when Ajv cannot compile it (Prism then skips the check). */
const compiled = new WeakMap<object, WeakMap<object, Map<Mode, ValidateFunction | null>>>();

function validatorFor(schema: Record<string, unknown>, mode: Mode, bundle: unknown): ValidateFunction | null {
  const bundleKey = typeof bundle === "object" && bundle !== null ? bundle : EMPTY_BUNDLE;
  let byBundle = compiled.get(schema);
  if (!byBundle) compiled.set(schema, (byBundle = new WeakMap()));
  let byMode = byBundle.get(bundleKey);
  if (!byMode) byBundle.set(bundleKey, (byMode = new Map()));
  let fn = byMode.get(mode);
  if (fn === undefined) {
    try {
      fn = ajvFor(draftOf(schema.$schema), mode).compile({ ...schema, __bundled__: bundle });
    } catch {
      fn = null;
    }
    byMode.set(mode, fn);
  }
  return fn;
}

/**
 * Ajv errors past this many are counted, not converted into findings: what the mock renders of a
 * request's findings (at most MAX_LISTED_VIOLATIONS in a problem body and a count of the rest, an
 * `sl-violations` value cut at 8 KB, which 1000 findings always exceed) never reaches them, and
 * converting them was most of the time an array of many wrong items cost.
 */
export const MAX_CONVERTED_FINDINGS = 1000;

/** The finding that stands for each Ajv error past MAX_CONVERTED_FINDINGS (counted, never rendered). */
export const NOT_CONVERTED: Diagnostic = Object.freeze({
  path: [],
  code: "not-converted",
  message: `a violation past the first ${MAX_CONVERTED_FINDINGS}`,
  severity: ERROR,
}) as Diagnostic;

/**
 * validateAgainstSchema: the Ajv errors converted, or undefined when valid (or when Ajv throws, as
 * Prism). Past MAX_CONVERTED_FINDINGS, each further error stands as one shared finding (`NOT_CONVERTED`),
 * so that the number of findings, and so every answer, stays Prism's.
 */
function check(fn: ValidateFunction | null, value: unknown, prefix: string): Diagnostic[] | undefined {
  if (!fn) return undefined;
  try {
    fn(value);
  } catch {
    return undefined;
  }
  const errors = fn.errors as AjvError[] | null | undefined;
  if (!errors || errors.length === 0) return undefined;
  const converted = Math.min(errors.length, MAX_CONVERTED_FINDINGS);
  const findings: Diagnostic[] = new Array(errors.length);
  for (let i = 0; i < converted; i++) findings[i] = findingOf(fn, errors[i], prefix);
  return converted < errors.length ? findings.fill(NOT_CONVERTED, converted) : findings;
}

/** What Prism's convertAjvErrors reads of an Ajv error. */
interface AjvError {
  instancePath: string;
  keyword?: string;
  message?: string;
  params: { allowedValues?: unknown[]; additionalProperty?: string; unevaluatedProperty?: string };
}

/** Per validator, the findings already converted, by what the conversion reads (at most FINDINGS_KEPT each). */
const findingsKept = new WeakMap<ValidateFunction, Map<string, Diagnostic>>();
const FINDINGS_KEPT = 512;

/**
 * One Ajv error as Prism's convertAjvErrors converts it, converted once per validator and kept: the
 * same error of an operation (the same member wrong in the same way) is the same finding object on
 * every request, so that what is rendered of it is rendered once too (write.ts). Kept findings are
 * frozen: nothing downstream changes a finding.
 */
function findingOf(fn: ValidateFunction, error: AjvError, prefix: string): Diagnostic {
  const { params } = error;
  const key = `${prefix}\u0000${error.instancePath}\u0000${error.keyword}\u0000${error.message}\u0000${params.allowedValues?.join("\u0001") ?? ""}\u0000${params.additionalProperty ?? ""}\u0000${params.unevaluatedProperty ?? ""}`;
  let kept = findingsKept.get(fn);
  if (!kept) findingsKept.set(fn, (kept = new Map()));
  let finding = kept.get(key);
  if (!finding) {
    finding = Object.freeze(convertAjvErrors([error], ERROR, INPUT, prefix)[0]);
    if (kept.size < FINDINGS_KEPT) kept.set(key, finding);
  }
  return finding;
}

/* ------------------------------------------------------------------ schemas, once per operation */

// body.js memoizeSchemaNormalizer: allOf merged, then readOnly properties stripped (an Option: None skips validation).
const normalised = new WeakMap<object, Record<string, unknown> | null>();

function normalise(schema: Record<string, unknown>): Record<string, unknown> | null {
  let found = normalised.get(schema);
  if (found === undefined) {
    let merged: unknown = schema;
    try {
      merged = mergeAllOf(schema, { deep: true, ignoreAdditionalProperties: true });
    } catch {
      merged = schema;
    }
    const stripped = stripReadOnlyProperties(merged);
    found = stripped._tag === "Some" ? stripped.value : null;
    normalised.set(schema, found);
  }
  return found;
}

/* ------------------------------------------------------------------ parameters */

type Location = "header" | "query" | "path";
const DEFAULT_STYLE: Record<Location, string> = { header: "simple", query: "form", path: "simple" };
const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface ParamPlan {
  /** params.js createJsonSchemaFromParams (properties by lower-case name, required names). */
  schema: Record<string, unknown>;
  /** Per lower-case name (the last parameter of that name, as lodash keyBy keeps it): its deserialiser and schema. */
  entries: Array<{ name: string; deserialize: Deserializer | undefined; schema: unknown; explode: boolean; array: boolean }>;
  deprecated: ParamSpec[];
}

// Worked out once per parameter list, as Prism keeps its parameter schema per list.
const paramPlans = new WeakMap<ParamSpec[], ParamPlan>();

function paramPlan(specs: ParamSpec[], prefix: Location): ParamPlan {
  let found = paramPlans.get(specs);
  if (!found) {
    const properties: Record<string, unknown> = {};
    const byLocaleName = new Map<string, ParamSpec>();
    for (const spec of specs) byLocaleName.set(spec.name.toLocaleLowerCase(), spec);
    for (const [name, spec] of byLocaleName) if (spec.schema) properties[name] = spec.schema;
    const required = specs.filter((spec) => spec.required).map((spec) => spec.name.toLowerCase());
    const byName = new Map<string, ParamSpec>();
    for (const spec of specs) byName.set(spec.name.toLowerCase(), spec);
    found = {
      schema: { type: "object", properties, required },
      entries: [...byName].map(([name, spec]) => ({
        name,
        deserialize: deserializers[prefix][spec.style || DEFAULT_STYLE[prefix]],
        schema: properties[name],
        explode: spec.explode || false,
        array: (properties[name] as { type?: unknown } | undefined)?.type === "array",
      })),
      deprecated: specs.filter((spec) => spec.deprecated),
    };
    paramPlans.set(specs, found);
  }
  return found;
}

/** params.js validateParams: schema findings first, then deprecation warnings. */
function validateParams(target: Record<string, unknown>, specs: ParamSpec[], prefix: Location, bundle: unknown): Diagnostic[] | undefined {
  if (specs.length === 0) return undefined;
  const { schema, entries, deprecated } = paramPlan(specs, prefix);
  let warnings: Diagnostic[] | undefined;
  for (const spec of deprecated) {
    if (target[spec.name]) {
      (warnings ??= []).push({
        path: [prefix, spec.name],
        code: "deprecated",
        message: `${upperFirst(prefix)} param ${spec.name} is deprecated`,
        severity: WARNING,
      });
    }
  }
  const lower: Record<string, unknown> = {};
  for (const key of Object.keys(target ?? {})) lower[key.toLowerCase()] = target[key];
  const values: Record<string, unknown> = {};
  for (const { name, deserialize, schema: property, explode, array } of entries) {
    const value = deserialize ? deserialize(name, lower, property, explode) : undefined;
    if (value) values[name] = value;
    else if (prefix === "query" && lower[name] === "") {
      // DEVIATIONS emptyQueryValue: Prism drops the empty value; it is validated as given.
      values[name] = array ? [""] : "";
    }
  }
  const errors = check(validatorFor(schema, "coerce", bundle), values, prefix);
  if (errors) return warnings ? [...errors, ...warnings] : errors;
  return warnings;
}

/* ------------------------------------------------------------------ the body */

interface BodyChoice {
  content: MediaContent | Record<string, never>;
  /** The media type the body is read as: the request's, or "random" when none fits (as Prism). */
  mediaType: string;
  form: boolean;
  /** What its schema names (DEVIATIONS unknownMember), worked out on first use; null: nothing to check. */
  members?: MemberPlan | null;
}

interface Compiled {
  op: Operation;
  bundle: unknown;
  template?: { match(path: string): Record<string, unknown> | null };
  /** Per request media type: whether the request body's content map supports it. */
  supported: Map<string, boolean>;
  /** Per request media type: the content the body is checked against. */
  choices: Map<string, BodyChoice>;
  security?: Array<Array<{ handler: Either<Diagnostic, SecurityHandler>; name: string; bearer: boolean; header?: string }>>;
}

const compiledOperations = new WeakMap<Operation, Compiled>();
/** Per operation, at most this many distinct media types are remembered (further ones are worked out each time). */
const MEDIA_TYPES_KEPT = 32;

function compiledFor(op: Operation): Compiled {
  let found = compiledOperations.get(op);
  if (!found) {
    const security = (op.security ?? []) as unknown as Array<Array<Record<string, unknown>>>;
    found = {
      op,
      bundle: (op as unknown as Record<string, unknown>).__bundled__,
      supported: new Map(),
      choices: new Map(),
      security:
        security.length === 0
          ? undefined
          : security.map((pairs) =>
              pairs.map((scheme) => {
                const handler = findSecurityHandler(scheme);
                const name = "name" in scheme ? (scheme.name as string) : "";
                return {
                  handler,
                  name,
                  bearer: handler._tag === "Right" && bearerHandlers.has(handler.right),
                  // apiKeyInHeader passes when the header (its name in lower case) has a value.
                  header: handler._tag === "Right" && handler.right === apiKeyInHeader ? name.toLowerCase() : undefined,
                };
              }),
            ),
    };
    compiledOperations.set(op, found);
  }
  return found;
}

function remember<V>(map: Map<string, V>, key: string, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    if (map.size < MEDIA_TYPES_KEPT) map.set(key, value);
  }
  return value;
}

/** findContentByMediaTypeOrFirst and the "random" fallback of body.js validate. */
function chooseContent(specs: MediaContent[], mediaType: string | undefined): BodyChoice {
  if (mediaType !== undefined && specs.length > 0) {
    const content = specs.find((spec) => wildcardMatch(mediaType, spec.mediaType)) ?? specs[0];
    return { content, mediaType, form: Boolean(typeIs(mediaType, ["application/x-www-form-urlencoded", "multipart/form-data"])) };
  }
  return { content: specs[0] || {}, mediaType: "random", form: false };
}

/** Content-Type values read by parseMIMEHeader (null: malformed), the last CONTENT_TYPES_KEPT distinct ones. */
const contentTypes = new Map<string, [string | undefined, string] | null>();
const CONTENT_TYPES_KEPT = 256;

function parsedContentType(value: string): [string | undefined, string] | null {
  let parsed = contentTypes.get(value);
  if (parsed === undefined) {
    try {
      // DEVIATIONS malformedContentType: what is not a media type (RFC 9110, src/document's reading) is
      // malformed even where Prism's lenient parser reads one (`application/json; x`).
      parsed = parseMediaType(value) ? parseMIMEHeader(value) : null;
    } catch {
      parsed = null;
    }
    if (contentTypes.size >= CONTENT_TYPES_KEPT) contentTypes.clear();
    contentTypes.set(value, parsed);
  }
  return parsed;
}

/** validateInputBody of validator/index.js, then body.js validate. */
function validateInputBody(compiledOp: Compiled, element: Element): Diagnostic[] | undefined {
  const { op } = compiledOp;
  const requestBody = op.request?.body as { required?: boolean; contents?: MediaContent[] } | undefined;
  const { body } = element;
  if (requestBody?.required && !body) return [{ code: "required", message: "Body parameter is required", severity: ERROR }];
  const headers = element.headers ?? {};
  const contentType = headers["content-type"] as string | undefined;
  let mediaType: string | undefined;
  let boundary: string | undefined;
  let malformed = false;
  if (contentType) {
    const parsed = parsedContentType(contentType);
    if (parsed) [boundary, mediaType] = parsed;
    else malformed = true; // DEVIATIONS malformedContentType
  }
  const contentLength = Number.parseInt(headers["content-length"] as string, 10) || 0;
  if (contentLength !== 0) {
    const contents = requestBody?.contents;
    const supported =
      !malformed &&
      (requestBody === undefined
        ? false
        : mediaType === undefined || !contents
          ? true
          : remember(compiledOp.supported, mediaType, () => contents.some((c) => !c.mediaType || wildcardMatch(mediaType!, c.mediaType))));
    if (!supported) {
      const declared = requestBody?.contents ?? [];
      let message =
        declared.length > 0
          ? `Supported content types: ${declared.map((c) => c.mediaType).join(",")}`
          : "No supported content types, but request included a non-empty body";
      if (malformed) message = `The Content-Type ${JSON.stringify(contentType)} is not a media type. ${message}`;
      return [{ message, code: 415, severity: ERROR }];
    }
  }
  if (body === undefined || body === null || !requestBody) return undefined;
  const specs = requestBody.contents ?? [];
  const choice =
    mediaType === undefined
      ? chooseContent(specs, undefined)
      : remember(compiledOp.choices, mediaType, () => chooseContent(specs, mediaType));
  chosen = choice;
  const raw = (choice.content as MediaContent).schema;
  if (!raw) return undefined;
  const schema = normalise(raw);
  if (!schema) return undefined;
  if (choice.form) {
    // Form and multipart bodies: Prism's own deserialisation and validation, as it does them.
    const result = validateBody(body, specs, INPUT, mediaType, boundary, compiledOp.bundle);
    return result._tag === "Left" ? result.left : undefined;
  }
  if ((element[BODY_BYTES] ?? 0) > LARGE_BODY_BYTES) {
    // DEVIATIONS largeBody: stop at the first violation.
    const first = check(validatorFor(schema, "firstError", compiledOp.bundle), body, "body");
    return first
      ? [
          ...first,
          {
            path: ["body"],
            code: "validation-stopped",
            message: `Request body is over ${LARGE_BODY_BYTES} bytes: validated up to its first violation`,
            severity: INFORMATION,
          },
        ]
      : undefined;
  }
  return check(validatorFor(schema, "noCoerce", compiledOp.bundle), body, "body");
}

/** The body content validateInputBody read the current request's body by (set on each call; synchronous). */
let chosen: BodyChoice | undefined;

/**
 * DEVIATIONS unknownMember: the Warnings of a JSON body's members its schema does not name (read by
 * the body content validateInputBody chose); undefined when there are none.
 */
function unknownMembers(compiledOp: Compiled, element: Element): Diagnostic[] | undefined {
  const { body } = element;
  const choice = chosen;
  if (typeof body !== "object" || body === null || !choice || choice.form) return undefined;
  let plan = choice.members;
  if (plan === undefined) {
    const schema = (choice.content as MediaContent).schema;
    plan = (isNode(schema) ? memberPlan(schema, compiledOp.bundle) : undefined) ?? null;
    // A choice made for this request alone (no Content-Type) is not kept: its plan is kept per schema.
    choice.members = plan;
  }
  if (!plan) return undefined;
  return unknownIn(plan, body);
}

function hasError(findings: Diagnostic[] | undefined): boolean {
  if (findings) for (const finding of findings) if (finding.severity === ERROR) return true;
  return false;
}

/* ------------------------------------------------------------------ the components */

/** Prism's validateInput: the findings of the body, then the headers, the query and the path; undefined when there are none. */
export function inputFindings(op: Operation, element: Element): Diagnostic[] | undefined {
  const judged = element[JUDGED];
  if (judged) {
    if (judged.operation !== op) throw new Error(`a large request body was judged against another operation than ${op.method} ${op.path}`);
    return judged.findings;
  }
  const request = op.request;
  if (!request) return undefined;
  const compiledOp = compiledFor(op);
  chosen = undefined;
  const body = validateInputBody(compiledOp, element);
  const headers = request.headers
    ? validateParams((element.headers ?? {}) as Record<string, unknown>, request.headers as ParamSpec[], "header", compiledOp.bundle)
    : undefined;
  const query = request.query
    ? validateParams((element.url.query ?? {}) as Record<string, unknown>, request.query as ParamSpec[], "query", compiledOp.bundle)
    : undefined;
  let path: Diagnostic[] | undefined;
  // Without path parameters Prism's template match captures nothing (and so cannot throw): nothing to check.
  if (request.path && request.path.length > 0) {
    compiledOp.template ??= new UriTemplate(op.path);
    let values: Record<string, unknown> | null | undefined;
    try {
      values = compiledOp.template.match(element.url.path);
    } catch (error) {
      if (!(error instanceof URIError)) throw error;
    }
    path =
      values === undefined
        ? undecodablePath(op.path, element.url.path)
        : validateParams(values as Record<string, unknown>, request.path as ParamSpec[], "path", compiledOp.bundle);
  }
  // DEVIATIONS unknownMember: on a request otherwise valid, the body's members its schema does not name.
  const unknown =
    hasError(body) || hasError(headers) || hasError(query) || hasError(path) ? undefined : unknownMembers(compiledOp, element);
  if (!body && !headers && !query && !path) return unknown;
  const findings = [...(body ?? []), ...(headers ?? []), ...(query ?? []), ...(path ?? [])];
  if (unknown) for (const finding of unknown) findings.push(finding);
  return findings;
}

/**
 * DEVIATIONS pathEncoding: the findings of a path whose parameter is not valid percent-encoding
 * (`/v1/merchant/%`): Prism's template match throws "URI malformed" (a 500); the mock reports each
 * parameter whose segment cannot be decoded, as an invalid parameter is reported, so the request
 * gets the operation's answer to an invalid request.
 */
function undecodablePath(template: string, path: string): Diagnostic[] {
  const templates = template.split("/");
  const segments = path.split("/");
  const names: string[] = [];
  for (let i = 0; i < templates.length; i++) {
    const params = [...templates[i].matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    if (params.length === 0) continue;
    try {
      decodeURIComponent(segments[i] ?? "");
    } catch {
      names.push(...params);
    }
  }
  // The template match decoded what the segments hold: when no segment alone fails, name every parameter.
  if (names.length === 0) names.push(...[...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]));
  return names.map((name) => ({
    path: ["path", name],
    code: "encoding",
    message: `Request path parameter ${name} is not valid percent-encoding (RFC 3986, section 2.1)`,
    severity: ERROR,
  }));
}

const BEARER = /^bearer\s.+$/i;

/** Prism's validateSecurity: one finding (tags of every failed scheme) when no alternative is met; undefined when one is. */
export function securityFindings(op: Operation, element: Element): Diagnostic[] | undefined {
  const { security } = compiledFor(op);
  if (!security) return undefined;
  let failures: Diagnostic[] | undefined;
  for (const alternative of security) {
    let failed: Diagnostic[] | undefined;
    for (const { handler, name, bearer, header } of alternative) {
      if (handler._tag === "Left") {
        (failed ??= []).push(handler.left);
        continue;
      }
      if (header !== undefined && element.headers?.[header]) continue;
      // DEVIATIONS bearerCase: `bearer x` is accepted as `Bearer x` is.
      const authorization = element.headers?.authorization;
      if (bearer && typeof authorization === "string" && BEARER.test(authorization)) continue;
      const result = handler.right(element, name);
      if (result._tag === "Left") (failed ??= []).push(result.left);
    }
    if (alternative.length === 0) {
      const result = noneSecurityHandler(element);
      if (result._tag === "Left") (failed ??= []).push(result.left);
    }
    if (!failed) return undefined;
    failures = failures ? [...failures, ...failed] : failed;
  }
  if (!failures) return undefined;
  return [{ ...failures[0], tags: failures.flatMap((failure) => failure.tags ?? []) }];
}

/** The two functions as Prism components (`createInstance(config, { validateInput, validateSecurity })`). */
export const components = {
  validateInput: ({ resource, element }: { resource: Operation; element: Element }) => {
    const findings = inputFindings(resource, element);
    return findings ? { _tag: "Left", left: findings } : { _tag: "Right", right: element };
  },
  validateSecurity: ({ resource, element }: { resource: Operation; element: Element }) => {
    const findings = securityFindings(resource, element);
    return findings ? { _tag: "Left", left: findings } : { _tag: "Right", right: element };
  },
};
