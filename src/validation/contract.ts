/**
 * Contract validation by operation: is this response body (or request) what the API's bundled spec
 * says operation X answers with status Y? Used by the testing entry (`createValidator`,
 * `toMatchContract`) and the CLI (`validate`). One Ajv instance per API, created on first use and
 * kept for the process; each schema is compiled once.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import {
  type MediaContent,
  type Operation,
  operations,
  parseMediaType,
  pickMediaContent,
  requestContents,
  responseContents,
  responseKey,
  unescapeToken,
  loadDocument,
} from "../document/index.js";
import { type ApiEntry, findApi, loadRegistry } from "../registry.js";
import { type SpecValidator, sharedSpecValidator, specValidator } from "./spec.js";

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
  /**
   * The violations, at most MAX_VIOLATIONS of them; past that the list ends with one entry
   * (`keyword` `maxViolations`) that counts the others.
   */
  violations: ContractViolation[];
}

/** Most violations a result lists; a body with more gets the first ones and a count of the rest. */
export const MAX_VIOLATIONS = 1000;

/**
 * Violations found so far and the schema's findings not yet turned into violations: once a result
 * holds MAX_VIOLATIONS, the findings after them are counted, not worded (wording one walks the body
 * to name its path; for 400,000 wrong items that was most of the time, for a list cut at 1000).
 */
interface Found {
  violations: ContractViolation[];
  /** Findings of the schema past the listed maximum, not worded (possibly repeating a listed violation). */
  unworded: number;
}

/**
 * `violations` cut to MAX_VIOLATIONS, the last entry counting what was left out: exactly when every
 * finding was worded, else as a bound (a finding not worded may repeat one listed).
 */
function capped({ violations, unworded }: Found): ContractViolation[] {
  if (violations.length <= MAX_VIOLATIONS && unworded === 0) return violations;
  const rest = violations.length - (MAX_VIOLATIONS - 1) + unworded;
  return [
    ...violations.slice(0, MAX_VIOLATIONS - 1),
    {
      in: violations[MAX_VIOLATIONS - 1].in,
      path: "$",
      message: `and ${unworded > 0 ? "up to " : ""}${rest} more violation(s), not listed`,
      keyword: "maxViolations",
    },
  ];
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

/**
 * Ajv's findings as violations, added to `found`, one per path and message, until it holds
 * MAX_VIOLATIONS: the findings after that are only counted (`unworded`).
 */
function fromAjv(found: Found, errors: ErrorObject[], data: unknown, where: ContractViolation["in"], prefix: string): void {
  const { violations } = found;
  const seen = new Set<string>();
  for (let i = 0; i < errors.length; i++) {
    if (violations.length >= MAX_VIOLATIONS) {
      found.unworded += errors.length - i;
      return;
    }
    const error = errors[i];
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
    violations.push(violation);
  }
}

const isEmpty = (body: unknown) => body === undefined || body === null || body === "";

export class OperationNotFoundError extends Error {
  override readonly name = "OperationNotFoundError";
}

/** Builds a validator over a parsed bundled document. */
export function validatorForDocument(alias: string, doc: Node): ContractValidator {
  const all = operations(doc, { webhooks: true });
  const byId = new Map(all.map((op) => [op.operationId, op]));
  const bodies: SpecValidator = sharedSpecValidator(doc);
  let parameters: SpecValidator | undefined; // created on first use: parameters arrive as strings
  const validateParameter = (at: string, value: unknown) => (parameters ??= specValidator(doc, { coerceTypes: true })).check(at, value);

  const operation = (operationId: string): Operation => {
    const found = byId.get(operationId);
    if (!found) {
      throw new OperationNotFoundError(`${alias}: unknown operationId "${operationId}"; known: ${[...byId.keys()].join(", ")}`);
    }
    return found;
  };

  /** Adds the violations of `body` against the declared `contents` to `found`. */
  const checkBody = (found: Found, contents: MediaContent[], body: unknown, contentType: string | undefined, what: string): void => {
    const { violations } = found;
    if (contents.length === 0) {
      if (!isEmpty(body)) violations.push({ in: "body", path: "$", message: `must be empty: the contract declares no body for ${what}` });
      return;
    }
    const declared = contents.map((c) => c.mediaType).join(", ");
    if (isEmpty(body)) {
      violations.push({ in: "body", path: "$", message: `is missing: the contract declares ${declared} for ${what}` });
      return;
    }
    const media = pickMediaContent(contents, contentType);
    if (!media) {
      const problem =
        contentType === undefined
          ? `several media types are declared (${declared}); pass contentType`
          : `content type ${parseMediaType(contentType)?.essence ?? JSON.stringify(contentType)} is not declared (declared: ${declared})`;
      violations.push({ in: "body", path: "$", message: `${problem} for ${what}` });
      return;
    }
    if (media.schema) fromAjv(found, bodies.check(media.schema.at, body), body, "body", "$");
  };

  const result = (found: Found): ValidationResult => ({ valid: found.violations.length + found.unworded === 0, violations: capped(found) });

  return {
    alias,
    operationIds: [...byId.keys()],

    validateResponse({ operationId, status, body, contentType }) {
      const op = operation(operationId);
      const code = String(status);
      if (!/^[1-5]\d\d$/.test(code))
        throw new TypeError(`${alias} ${operationId}: status must be an HTTP status code, got ${JSON.stringify(status)}`);
      const key = responseKey(op, code);
      if (!key) {
        const violation: ContractViolation = {
          in: "status",
          path: "$",
          message: `status ${code} is not declared for ${operationId} (declared: ${Object.keys(op.responses).join(", ")})`,
        };
        return { valid: false, violations: [violation] };
      }
      const found: Found = { violations: [], unworded: 0 };
      checkBody(found, responseContents(doc, op.responses[key]), body, contentType, `${operationId} ${key}`);
      return result(found);
    },

    validateRequest({ operationId, body, params, contentType }) {
      const op = operation(operationId);
      const found: Found = { violations: [], unworded: 0 };
      const { violations } = found;
      for (const param of params === undefined ? [] : op.parameters) {
        const where = param.value.in as "path" | "query" | "header" | "cookie";
        const name = String(param.value.name);
        const given = params![where] ?? {};
        const key = where === "header" ? Object.keys(given).find((k) => k.toLowerCase() === name.toLowerCase()) : name;
        const value = key === undefined ? undefined : given[key];
        const label = `${where}.${name}`;
        if (value === undefined) {
          if (param.value.required) violations.push({ in: where, path: label, message: "is required" });
          continue;
        }
        if (param.value.schema !== undefined) fromAjv(found, validateParameter(`${param.at}/schema`, value), value, where, label);
      }
      if (!op.requestBody) {
        if (!isEmpty(body)) violations.push({ in: "body", path: "$", message: `must be empty: ${operationId} takes no request body` });
      } else if (isEmpty(body)) {
        if (op.requestBody.value.required) violations.push({ in: "body", path: "$", message: `is required by ${operationId}` });
      } else {
        checkBody(found, requestContents(doc, op), body, contentType, `the ${operationId} request`);
      }
      return result(found);
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
    let doc: Node;
    try {
      doc = loadDocument(entry.bundlePath);
    } catch (error) {
      throw new Error(`${entry.alias}: cannot read the bundled spec ${(error as Error).message}`);
    }
    validator = validatorForDocument(entry.alias, doc);
    validators.set(entry.bundlePath, validator);
  }
  return validator;
}

/** `$.amount.cur: must be string`, one line per violation. */
export function formatViolations(violations: readonly ContractViolation[], indent = "  "): string {
  return violations.map((v) => `${indent}${v.path}: ${v.message}`).join("\n");
}
