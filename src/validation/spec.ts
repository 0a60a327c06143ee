/**
 * Validation independent of Prism: Ajv (JSON Schema 2020-12) + ajv-formats over a whole bundled
 * OpenAPI 3.1 document, added once as schema "spec"; any schema in it is then addressed by its
 * pointer, e.g. `/paths/~1v1~1invoice/post/responses/200/content/application~1json/schema`, and
 * compiled on first use (once per pointer and document).
 *
 * The Ajv options follow Prism's validator (allErrors, union types, not strict, unknown formats such
 * as int32 or byte ignored silently), so that this validator and the mock agree.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";

// ajv-formats is CommonJS; its default export is the plugin at runtime, typed as the module here.
const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as unknown as (ajv: Ajv2020) => Ajv2020;

/** Prism's logger for Ajv: OpenAPI formats Ajv does not know (int32, int64, float, byte, ...) pass quietly. */
const logger = {
  log: console.log,
  warn(...args: unknown[]) {
    if (typeof args[0] === "string" && args[0].startsWith("unknown format")) return;
    console.warn(...args);
  },
  error: console.error,
};

export interface SpecValidatorOptions {
  /** Coerce strings to the schema's type first (for parameters, which arrive as strings). Default false. */
  coerceTypes?: boolean;
}

export interface SpecValidator {
  /** Validates `data` against the schema at `at` (a canonical pointer into the document). */
  validate(at: string, data: unknown): { valid: boolean; errors: string };
  /** Ajv's findings for `data` against the schema at `at`; an empty array when it is valid. */
  check(at: string, data: unknown): ErrorObject[];
}

/** `/a/b~1c` -> the Ajv reference of that node in the document added as "spec". */
const schemaRef = (at: string) => `spec#${at.split("/").map(encodeURIComponent).join("/")}`;

export function specValidator(doc: object, options: SpecValidatorOptions = {}): SpecValidator {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    coerceTypes: options.coerceTypes ?? false,
    logger,
  });
  addFormats(ajv);
  // OpenAPI's annotation keywords (`deprecated` is already a 2020-12 annotation).
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  ajv.addSchema(doc, "spec");
  const compiled = new Map<string, ValidateFunction>();
  const compile = (at: string): ValidateFunction => {
    let validate = compiled.get(at);
    if (!validate) {
      validate = ajv.getSchema(schemaRef(at));
      if (!validate) throw new Error(`no schema at ${at}`);
      compiled.set(at, validate);
    }
    return validate;
  };
  const check = (at: string, data: unknown): ErrorObject[] => {
    const validate = compile(at);
    return validate(data) ? [] : [...(validate.errors ?? [])];
  };
  return {
    check,
    validate(at, data) {
      const errors = check(at, data);
      return { valid: errors.length === 0, errors: errors.length === 0 ? "" : ajv.errorsText(errors, { dataVar: "data" }) };
    },
  };
}
