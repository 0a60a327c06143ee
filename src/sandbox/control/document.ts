/**
 * The control API's OpenAPI document (../openapi.yaml, served at `GET /_sandbox/openapi.yaml`): where
 * it is, its text, and its validator, which checks every control call's query and body before
 * anything happens (a bad input answers 400 naming the member).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Doc, loadDocument } from "../../document/index.js";
import { packageRoot } from "../../registry.js";
import { type ContractValidator, validatorForDocument } from "../../validation/contract.js";
import { LIMITS } from "../store/limits.js";
import type { Json } from "../values.js";
import { ControlError } from "./errors.js";

/** The control API's OpenAPI document, shipped with the package. */
export const CONTROL_DOCUMENT = join(packageRoot, "src/sandbox/openapi.yaml");
export const CONTROL_PREFIX = "/_sandbox";

/** The control document, parsed (once per process: loadDocument keeps it). */
export const controlDocument = (): Doc => loadDocument(CONTROL_DOCUMENT);

let documentText: string | undefined;
/** The control document's text, as served. */
export const controlDocumentText = (): string => (documentText ??= readFileSync(CONTROL_DOCUMENT, "utf8"));

/** One validator of the control document for every sandbox of the process (its schemas compiled once). */
let sharedValidator: { doc: Doc; validator: ContractValidator } | undefined;
function controlValidator(): ContractValidator {
  const doc = controlDocument();
  if (sharedValidator?.doc !== doc) sharedValidator = { doc, validator: validatorForDocument("sandbox control API", doc) };
  return sharedValidator.validator;
}

/** The query parameters against the control document (their schemas' limits): 400 naming the parameter. */
export function checkQuery(operationId: string, url: URL): void {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] ??= value;
  const { violations } = controlValidator().validateRequest({ operationId, params: { query }, body: undefined });
  const wrong = violations.filter((v) => v.in === "query");
  if (wrong.length > 0) {
    throw new ControlError(400, wrong.map((v) => `${v.path.slice("query.".length)}: ${v.message}`).join("; "), wrong[0].path.slice(6));
  }
}

/** A control call's body: at most LIMITS.controlBodyBytes of JSON, checked against the operation's schema. */
/** Keywords of a schema's alternatives and conditions: what they report is a member missing for another branch, not a wrong value. */
const ALTERNATIVES = new Set(["required", "anyOf", "oneOf", "if", "then", "else", "not"]);

export function parseBody(contentType: string | undefined, raw: Buffer, operationId: string): Json {
  if (raw.length > LIMITS.controlBodyBytes)
    throw new ControlError(413, `the body exceeds ${LIMITS.controlBodyBytes} bytes`, undefined, undefined, "Content Too Large");
  const essence = contentType?.split(";")[0].trim().toLowerCase();
  if (raw.length > 0 && essence !== undefined && essence !== "application/json" && !/^application\/[\w.+-]+\+json$/.test(essence)) {
    throw new ControlError(415, `the control API takes application/json bodies, got ${essence}`);
  }
  let body: Json;
  if (raw.length === 0) body = undefined;
  else {
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      throw new ControlError(400, `the body is not valid JSON: ${(error as Error).message}`);
    }
  }
  const { violations } = controlValidator().validateRequest({ operationId, body, contentType: "application/json" });
  if (violations.length > 0) {
    // The member named is the first whose own value is wrong, where there is one: a value the
    // schema refuses says more than a member an alternative of the schema would have wanted.
    const first = violations.find((v) => v.path.startsWith("$.") && !ALTERNATIVES.has(v.keyword ?? "")) ?? violations[0];
    const field = first.path.startsWith("$.") ? first.path.slice(2) : undefined;
    const detail = violations.map((v) => (v.path === "$" ? `the body ${v.message}` : `${v.path.slice(2)}: ${v.message}`)).join("; ");
    throw new ControlError(400, detail, field);
  }
  return body;
}
