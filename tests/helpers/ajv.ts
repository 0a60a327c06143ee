/**
 * Validation independent of Prism: Ajv (JSON Schema 2020-12) + ajv-formats over the whole bundled
 * document, added once as schema "spec"; any schema in it is then addressed by its pointer,
 * e.g. `/paths/~1v1~1invoice/post/responses/200/content/application~1json/schema`.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import type { Doc } from "./openapi.js";

// ajv-formats is CommonJS; its default export is the plugin at runtime, typed as the module here.
const addFormats = ((formats as unknown as { default?: unknown }).default ?? formats) as unknown as (ajv: Ajv2020) => Ajv2020;

export interface SpecValidator {
  /** Validates `data` against the schema at `at` (a canonical pointer into the document). */
  validate(at: string, data: unknown): { valid: boolean; errors: string };
}

export function specValidator(doc: Doc): SpecValidator {
  // strict: false ignores unknown keywords, among them the `x-` extensions.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's annotation keywords (`deprecated` is already a 2020-12 annotation).
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  ajv.addSchema(doc, "spec");
  const compiled = new Map<string, ValidateFunction>();
  return {
    validate(at, data) {
      let validate = compiled.get(at);
      if (!validate) {
        const ref = "spec#" + at.split("/").map(encodeURIComponent).join("/");
        validate = ajv.getSchema(ref);
        if (!validate) throw new Error(`no schema at ${at}`);
        compiled.set(at, validate);
      }
      const valid = validate(data) as boolean;
      return { valid, errors: valid ? "" : ajv.errorsText(validate.errors, { dataVar: "data" }) };
    },
  };
}
