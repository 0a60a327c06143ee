/**
 * Contract validation by operation: is this response body (or request) what the API's bundled spec
 * says operation X answers with status Y? Used by the testing entry (`createValidator`,
 * `toMatchContract`) and the CLI (`validate`). One Ajv instance per API, created on first use and
 * kept for the process; each schema is compiled once.
 */
import { readFileSync } from "node:fs";
import type { ErrorObject } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { type ApiEntry, findApi, loadRegistry } from "../registry.js";
import { type SpecValidator, specValidator } from "./spec.js";

/** One way in which a body or a request breaks the contract. */
export interface ContractViolation {
  /** What is wrong: the body, a parameter (`path`, `query`, `header`, `cookie`), or the status. */
  in: "body" | "path" | "query" | "header" | "cookie" | "status";
  /**
   * Where: a JSONPath into the body (`$`, `$.amount.cur`, `$.items[0].id`), or, for a parameter,
   * its location and name (`query.limit`, `header.x-request-id`).
   */
  path: string;
  /** What the contract expects there, e.g. `must be string`, `is required`. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, ...), when a schema failed. */
  keyword?: string;
}

export interface ValidationResult {
  valid: boolean;
  violations: ContractViolation[];
}

export interface ResponseInput {
  operationId: string;
  /** The HTTP status; matched exactly, else by its range (`4XX`), else `default`. */
  status: number | string;
  /** The parsed body (JSON), a string for other media types, or undefined/"" when there is none. */
  body: unknown;
  /** The response's Content-Type; default: the JSON media type the operation declares. */
  contentType?: string;
}

/** Request parameters by location, as openapi-fetch takes them (`params: { path, query, header }`). */
export interface RequestParams {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  header?: Record<string, unknown>;
  cookie?: Record<string, unknown>;
}

export interface RequestInput {
  operationId: string;
  /** The request body (parsed JSON); undefined when there is none. */
  body?: unknown;
  /**
   * Parameters; values may be strings as they arrive in a URL (they are coerced to the schema's
   * type). When given, every required parameter must be in it; when omitted, parameters are not
   * checked (to validate a body alone).
   */
  params?: RequestParams;
  /** The request's Content-Type; default: the JSON media type the operation declares. */
  contentType?: string;
}

export interface ContractValidator {
  readonly alias: string;
  /** Every operationId of the API, webhooks included, in document order. */
  readonly operationIds: readonly string[];
  /** Checks a response body against the operation's response for `status`. */
  validateResponse(input: ResponseInput): ValidationResult;
  /** Checks a request's body and parameters against the operation (also: a webhook's payload). */
  validateRequest(input: RequestInput): ValidationResult;
}

type Node = Record<string, any>;
interface Located {
  node: Node;
  at: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const JSON_MEDIA = /^application\/(.+\+)?json$/i;

const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapeToken = (token: string) => token.replace(/~1/g, "/").replace(/~0/g, "~");
const pointer = (...tokens: string[]) => tokens.map((t) => `/${escapeToken(t)}`).join("");

/** Follows local `$ref`s from the node found at `at`; returns the target and its canonical pointer. */
function follow(doc: Node, node: Node, at: string): Located {
  const seen = new Set<string>();
  while (node && typeof node === "object" && typeof node.$ref === "string") {
    const ref: string = node.$ref;
    if (!ref.startsWith("#")) throw new Error(`${at}: only local $refs are supported in a bundled spec, got ${ref}`);
    if (seen.has(ref)) throw new Error(`${at}: $ref cycle through ${ref}`);
    seen.add(ref);
    at = decodeURIComponent(ref.slice(1));
    node = at
      .split("/")
      .slice(1)
      .map(unescapeToken)
      .reduce((n: Node | undefined, key) => n?.[key], doc) as Node;
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return { node, at };
}

const child = (doc: Node, parent: Located, ...tokens: string[]): Located | undefined => {
  let here: Located = parent;
  for (const token of tokens) {
    const next = here.node?.[token];
    if (next === undefined) return undefined;
    here = follow(doc, next, here.at + pointer(token));
  }
  return here;
};

interface OperationInfo {
  operationId: string;
  method: string;
  /** Path template, or the webhook's name. */
  path: string;
  op: Located;
  parameters: Located[];
}

function indexOperations(doc: Node): Map<string, OperationInfo> {
  const operations = new Map<string, OperationInfo>();
  const root: Located = { node: doc, at: "" };
  for (const section of ["paths", "webhooks"]) {
    for (const path of Object.keys(doc[section] ?? {})) {
      const item = child(doc, root, section, path)!;
      for (const method of METHODS) {
        const op = child(doc, item, method);
        if (!op) continue;
        const operationId: string = op.node.operationId ?? `${method.toUpperCase()} ${path}`;
        const parameters = new Map<string, Located>();
        for (const owner of [item, op]) {
          (owner.node.parameters ?? []).forEach((_: unknown, i: number) => {
            const param = child(doc, owner, "parameters", String(i))!;
            parameters.set(`${param.node.in}:${String(param.node.name).toLowerCase()}`, param);
          });
        }
        operations.set(operationId, { operationId, method, path, op, parameters: [...parameters.values()] });
      }
    }
  }
  return operations;
}

/** JSON Pointer tokens of an Ajv instancePath -> JSONPath, following `data` to tell indices from keys. */
function jsonPath(tokens: string[], data: unknown, prefix = "$"): string {
  let path = prefix;
  let here: any = data;
  for (const token of tokens) {
    if (Array.isArray(here) && /^\d+$/.test(token)) path += `[${token}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(token)) path += `.${token}`;
    else path += `[${JSON.stringify(token)}]`;
    here = here?.[token];
  }
  return path;
}

function fromAjv(errors: ErrorObject[], data: unknown, where: ContractViolation["in"], prefix: string): ContractViolation[] {
  const seen = new Set<string>();
  const out: ContractViolation[] = [];
  for (const error of errors) {
    const tokens = error.instancePath.split("/").slice(1).map(unescapeToken);
    const params = error.params as Record<string, any>;
    let message = error.message ?? error.keyword;
    if (error.keyword === "required") {
      tokens.push(params.missingProperty);
      message = "is required";
    } else if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
      tokens.push(params.additionalProperty ?? params.unevaluatedProperty);
      message = "is not allowed here (the schema does not declare it)";
    } else if (error.keyword === "enum") {
      message = `must be one of ${params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(", ")}`;
    } else if (error.keyword === "const") {
      message = `must be ${JSON.stringify(params.allowedValue)}`;
    }
    const violation: ContractViolation = {
      in: where,
      path: jsonPath(tokens, data, prefix),
      message,
      keyword: error.keyword,
    };
    const key = `${violation.path}\u0000${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(violation);
  }
  return out;
}

const isEmpty = (body: unknown) => body === undefined || body === null || body === "";

const mediaTypeOf = (contentType: string) => contentType.split(";")[0].trim().toLowerCase();

/** The media type object to validate against: the given Content-Type, else the JSON one, else the only one. */
function pickMedia(doc: Node, content: Located, contentType: string | undefined): { media?: Located; problem?: string } {
  const declared = Object.keys(content.node);
  if (contentType !== undefined) {
    const wanted = mediaTypeOf(contentType);
    const name =
      declared.find((m) => m.toLowerCase() === wanted) ??
      declared.find((m) => m.endsWith("/*") && wanted.startsWith(m.slice(0, -1).toLowerCase())) ??
      declared.find((m) => m === "*/*");
    if (!name) return { problem: `content type ${wanted} is not declared (declared: ${declared.join(", ")})` };
    return { media: child(doc, content, name) };
  }
  const name = declared.find((m) => JSON_MEDIA.test(m)) ?? (declared.length === 1 ? declared[0] : undefined);
  if (!name) return { problem: `several media types are declared (${declared.join(", ")}); pass contentType` };
  return { media: child(doc, content, name) };
}

export class OperationNotFoundError extends Error {
  override readonly name = "OperationNotFoundError";
}

/** Builds a validator over a parsed bundled document. */
export function validatorForDocument(alias: string, doc: Node): ContractValidator {
  const operations = indexOperations(doc);
  const bodies: SpecValidator = specValidator(doc);
  let parameters: SpecValidator | undefined; // created on first use: parameters arrive as strings
  const validateParameter = (at: string, value: unknown) => (parameters ??= specValidator(doc, { coerceTypes: true })).check(at, value);

  const operation = (operationId: string): OperationInfo => {
    const found = operations.get(operationId);
    if (!found) {
      throw new OperationNotFoundError(`${alias}: unknown operationId "${operationId}"; known: ${[...operations.keys()].join(", ")}`);
    }
    return found;
  };

  const checkBody = (content: Located | undefined, body: unknown, contentType: string | undefined, what: string): ContractViolation[] => {
    if (!content || Object.keys(content.node).length === 0) {
      return isEmpty(body) ? [] : [{ in: "body", path: "$", message: `must be empty: the contract declares no body for ${what}` }];
    }
    if (isEmpty(body)) {
      return [{ in: "body", path: "$", message: `is missing: the contract declares ${Object.keys(content.node).join(", ")} for ${what}` }];
    }
    const { media, problem } = pickMedia(doc, content, contentType);
    if (problem) return [{ in: "body", path: "$", message: `${problem} for ${what}` }];
    if (media?.node.schema === undefined) return [];
    return fromAjv(bodies.check(`${media.at}/schema`, body), body, "body", "$");
  };

  return {
    alias,
    operationIds: [...operations.keys()],

    validateResponse({ operationId, status, body, contentType }) {
      const { op } = operation(operationId);
      const code = String(status);
      if (!/^[1-5]\d\d$/.test(code))
        throw new TypeError(`${alias} ${operationId}: status must be an HTTP status code, got ${JSON.stringify(status)}`);
      const declared = Object.keys(op.node.responses ?? {});
      const key =
        declared.find((c) => c === code) ??
        declared.find((c) => c.toUpperCase() === `${code[0]}XX`) ??
        declared.find((c) => c === "default");
      if (!key) {
        const violation: ContractViolation = {
          in: "status",
          path: "$",
          message: `status ${code} is not declared for ${operationId} (declared: ${declared.join(", ")})`,
        };
        return { valid: false, violations: [violation] };
      }
      const response = child(doc, op, "responses", key)!;
      const violations = checkBody(child(doc, response, "content"), body, contentType, `${operationId} ${key}`);
      return { valid: violations.length === 0, violations };
    },

    validateRequest({ operationId, body, params, contentType }) {
      const info = operation(operationId);
      const violations: ContractViolation[] = [];
      for (const param of params === undefined ? [] : info.parameters) {
        const where = param.node.in as "path" | "query" | "header" | "cookie";
        const name = String(param.node.name);
        const given = params![where] ?? {};
        const key = where === "header" ? Object.keys(given).find((k) => k.toLowerCase() === name.toLowerCase()) : name;
        const value = key === undefined ? undefined : given[key];
        const label = `${where}.${name}`;
        if (value === undefined) {
          if (param.node.required) violations.push({ in: where, path: label, message: "is required" });
          continue;
        }
        const schema = param.node.schema !== undefined ? `${param.at}/schema` : undefined;
        if (schema) violations.push(...fromAjv(validateParameter(schema, value), value, where, label));
      }
      const requestBody = child(doc, info.op, "requestBody");
      if (!requestBody) {
        if (!isEmpty(body)) violations.push({ in: "body", path: "$", message: `must be empty: ${operationId} takes no request body` });
      } else if (isEmpty(body)) {
        if (requestBody.node.required) violations.push({ in: "body", path: "$", message: `is required by ${operationId}` });
      } else {
        violations.push(...checkBody(child(doc, requestBody, "content"), body, contentType, `the ${operationId} request`));
      }
      return { valid: violations.length === 0, violations };
    },
  };
}

export interface CreateValidatorOptions {
  /** Registry (a redocly.yaml) to look the alias up in; default: the package's own. */
  registry?: string;
}

const validators = new Map<string, ContractValidator>();

/**
 * The validator of one API, by alias (`pay@1.3.0`) or registry entry. Created once per API and
 * process: later calls return the same validator, with the schemas it already compiled.
 */
export function createValidator(api: string | ApiEntry, options: CreateValidatorOptions = {}): ContractValidator {
  const entry = typeof api === "string" ? findApi(api, loadRegistry(options.registry)) : api;
  let validator = validators.get(entry.bundlePath);
  if (!validator) {
    let text: string;
    try {
      text = readFileSync(entry.bundlePath, "utf8");
    } catch (error) {
      throw new Error(`${entry.alias}: cannot read the bundled spec ${entry.bundlePath}: ${(error as Error).message}`);
    }
    validator = validatorForDocument(entry.alias, parse(text) as Node);
    validators.set(entry.bundlePath, validator);
  }
  return validator;
}

/** `$.amount.cur: must be string`, one line per violation. */
export function formatViolations(violations: readonly ContractViolation[], indent = "  "): string {
  return violations.map((v) => `${indent}${v.path}: ${v.message}`).join("\n");
}
