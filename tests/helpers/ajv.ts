/**
 * The tests' judge of "is this value valid against this schema": plain Ajv (JSON Schema 2020-12)
 * with every format the specs use enforced, configured here and nowhere else. It is deliberately
 * independent of the product's validator (src/validation/spec.ts, which follows Prism's options),
 * so that a test never takes its verdict from the code it tests: where the two would disagree, the
 * test using this judge fails.
 *
 * Formats: ajv-formats' full set (date-time, date, byte, float, ...) plus int32 and int64 checked
 * as ranges of whole numbers (a JSON number at or beyond 2^63 is not an int64, though it parses to
 * a float). An unknown format is an error (`strict` formats), so a new one cannot pass unchecked.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";

const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as unknown as (ajv: Ajv2020) => Ajv2020;

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

export interface SpecValidator {
  /** Validates `data` against the schema at `at` (a JSON pointer into the document). */
  validate(at: string, data: unknown): { valid: boolean; errors: string };
  /** Ajv's findings; an empty array when the value is valid. */
  check(at: string, data: unknown): ErrorObject[];
}

/** A judge over a whole OpenAPI document; schemas are addressed by their pointer and compiled once. */
export function specValidator(doc: object): SpecValidator {
  const logger = {
    log: console.log,
    error: console.error,
    // With strictSchema off (the specs carry x- keywords), Ajv only warns about an unknown format: make it an error.
    warn(...args: unknown[]) {
      if (typeof args[0] === "string" && args[0].startsWith("unknown format")) throw new Error(`tests/helpers/ajv.ts: ${args[0]}`);
      console.warn(...args);
    },
  };
  const ajv = new Ajv2020({ strict: false, validateFormats: true, allErrors: true, allowUnionTypes: true, logger });
  addFormats(ajv);
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -INT64 && n < INT64 });
  // OpenAPI's own keywords: annotations for validation.
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  ajv.addSchema(doc, "doc");
  const compiled = new Map<string, ValidateFunction>();
  const check = (at: string, data: unknown): ErrorObject[] => {
    let validate = compiled.get(at);
    if (!validate) {
      validate = ajv.getSchema(`doc#${at.split("/").map(encodeURIComponent).join("/")}`);
      if (!validate) throw new Error(`no schema at ${at}`);
      compiled.set(at, validate);
    }
    return validate(data) ? [] : [...(validate.errors ?? [])];
  };
  return {
    check,
    validate(at, data) {
      const errors = check(at, data);
      return { valid: errors.length === 0, errors: ajv.errorsText(errors, { dataVar: "data" }) };
    },
  };
}
