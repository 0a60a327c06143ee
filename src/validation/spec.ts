/**
 * Validation independent of Prism: Ajv (JSON Schema 2020-12) + ajv-formats over a whole bundled
 * OpenAPI 3.1 document, added once as schema "spec"; any schema in it is then addressed by its
 * pointer, e.g. `/paths/~1v1~1invoice/post/responses/200/content/application~1json/schema`, and
 * compiled on first use (once per pointer and document).
 *
 * The Ajv options follow Prism's validator (allErrors, union types, not strict, OpenAPI formats Ajv
 * does not know ignored silently), so that this validator and the mock agree. Two changes keep its
 * time linear in the size of the body, whatever the body:
 *
 * - A schema is compiled with every non-recursive `$ref` replaced by its target. Ajv merges the
 *   findings of a referenced schema's own function with `concat`, which made the time quadratic in
 *   the number of findings (a list of tens of thousands of wrong items took seconds); inlined, each
 *   is one push.
 * - `format: byte` is checked by a linear test (the length a multiple of 4, the base64 alphabet,
 *   at most two `=` at the end) instead of ajv-formats' regular expression, whose backtracking
 *   overflowed the stack on a 4.5 MB string. What it accepts is unchanged.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { refPointer, valueAt } from "../document/pointer.js";

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
  /**
   * Whether `data` is valid against the schema at `at`: check's verdict, by a validator that stops
   * at the first finding and words none (Ajv without `allErrors`: the findings of every branch of
   * an `anyOf` a valid value does not take are not made). For the sandbox's checks of its own
   * answers and statuses, which are almost always valid.
   */
  test(at: string, data: unknown): boolean;
}

/** `/a/b~1c` -> the Ajv reference of that node in the document added as "spec". */
const schemaRef = (at: string) => `spec#${at.split("/").map(encodeURIComponent).join("/")}`;

/** Base64 as ajv-formats' `byte` accepts it (either letter case), tested in linear time. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/** Members whose values are data, not schemas: a `$ref` in them is not a reference. */
const DATA_KEYWORDS = new Set(["example", "examples", "enum", "const", "default"]);

/**
 * The schema at `at` with each `$ref` to a schema of the document replaced by (a copy of) its target,
 * in an `allOf` beside the node's other keywords; a reference back into a schema being inlined
 * (recursion) stays a reference, to the document added to Ajv as "spec".
 */
function inlineRefs(doc: object, at: string): unknown {
  const walk = (node: unknown, stack: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, stack));
    if (node === null || typeof node !== "object") return node;
    const own = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(own)) {
      if (key === "$ref" && typeof value === "string") continue;
      out[key] = DATA_KEYWORDS.has(key) || key.startsWith("x-") ? value : walk(value, stack);
    }
    const ref = own.$ref;
    if (typeof ref !== "string") return out;
    const target = refPointer(ref);
    if (target === undefined) return { ...out, $ref: ref };
    if (stack.includes(target)) return { ...out, $ref: schemaRef(target) };
    const resolved = walk(valueAt(doc, target), [...stack, target]);
    if (Object.keys(out).length === 0) return resolved;
    return { ...out, allOf: [...(Array.isArray(out.allOf) ? out.allOf : []), resolved] };
  };
  return walk(valueAt(doc, at), [at]);
}

/**
 * Ajv over `doc` (added as "spec") with Prism's options; `allErrors` as asked. Without it (`test`'s
 * instance), schemas are not checked against the meta-schema again: the instance with it has checked
 * the same document, and compiles (checks) each schema before `test`'s instance does (specValidator).
 */
function specAjv(doc: object, options: SpecValidatorOptions, allErrors: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors,
    validateSchema: allErrors,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    coerceTypes: options.coerceTypes ?? false,
    logger,
  });
  addFormats(ajv);
  ajv.addFormat("byte", { type: "string", validate: isBase64 });
  // OpenAPI's annotation keywords (`deprecated` is already a 2020-12 annotation).
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"]);
  if (!allErrors) rememberLastFormatChecks(ajv);
  ajv.addSchema(doc, "spec");
  return ajv;
}

/**
 * `test`'s instance: each format checked by a function (ajv-formats' date-time splits the string and
 * runs two regular expressions) remembers its last string and verdict. Format checks are pure, so the
 * verdict is the same; an answer repeats the same time in several members (a record's created,
 * updated and processed), checked once.
 */
function rememberLastFormatChecks(ajv: Ajv2020): void {
  for (const [name, format] of Object.entries(ajv.formats)) {
    const check = typeof format === "function" ? format : isPlainFormat(format) ? format.validate : undefined;
    if (typeof check !== "function") continue;
    let last: unknown;
    let verdict = false;
    const remembered = (value: never) => {
      if (value !== last) {
        verdict = (check as (value: never) => boolean)(value);
        last = value;
      }
      return verdict;
    };
    ajv.addFormat(name, (typeof format === "function" ? remembered : { ...(format as object), validate: remembered }) as never);
  }
}

const isPlainFormat = (format: unknown): format is { validate: unknown; async?: boolean } =>
  typeof format === "object" && format !== null && !(format instanceof RegExp) && (format as { async?: boolean }).async !== true;

/** The schema at a pointer of `doc` compiled by `ajv` on first use (after `before`, if given), then kept. */
function compiler(doc: object, ajv: Ajv2020, before?: (at: string) => unknown): (at: string) => ValidateFunction {
  const compiled = new Map<string, ValidateFunction>();
  return (at) => {
    let validate = compiled.get(at);
    if (!validate) {
      before?.(at);
      if (valueAt(doc, at) === undefined) throw new Error(`no schema at ${at}`);
      validate = ajv.compile(inlineRefs(doc, at) as object);
      compiled.set(at, validate);
    }
    return validate;
  };
}

export function specValidator(doc: object, options: SpecValidatorOptions = {}): SpecValidator {
  const ajv = specAjv(doc, options, true);
  const compile = compiler(doc, ajv);
  let compileTest: ((at: string) => ValidateFunction) | undefined; // made on the first test
  const check = (at: string, data: unknown): ErrorObject[] => {
    const validate = compile(at);
    return validate(data) ? [] : [...(validate.errors ?? [])];
  };
  return {
    check,
    test: (at, data) => (compileTest ??= compiler(doc, specAjv(doc, options, false), compile))(at)(data) === true,
    validate(at, data) {
      const errors = check(at, data);
      return { valid: errors.length === 0, errors: errors.length === 0 ? "" : ajv.errorsText(errors, { dataVar: "data" }) };
    },
  };
}

const shared = new WeakMap<object, SpecValidator>();

/**
 * The validator of a document with the default options, one per document object for the process:
 * what it compiled is kept for every user of the same document (the contract validator and the
 * sandbox's status checks of an API), and the document is added to Ajv once.
 */
export function sharedSpecValidator(doc: object): SpecValidator {
  let validator = shared.get(doc);
  if (!validator) shared.set(doc, (validator = specValidator(doc)));
  return validator;
}
