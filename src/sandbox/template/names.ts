/**
 * The names of the template language (./index.ts describes it): the roots a reference may start
 * with, the operators of object templates, and the forms of a reference and of text with references
 * in it. Read by the compiler (./compile.ts) and by the form check (./check.ts); imports nothing.
 */

/** The references a template may start with (`$<root>`). */
export const ROOTS = [
  "id",
  "record",
  "records",
  "outcomes",
  "count",
  "view",
  "request",
  "params",
  "item",
  "index",
  "now",
  "expiry",
  "status",
  "event",
  "shared",
  "callbackUrl",
  "next",
  "resource",
  "all",
] as const;
export const ROOT_SET: ReadonlySet<string> = new Set(ROOTS);

/** The operators of object templates. */
export const OPERATORS = [
  "$each",
  "$first",
  "$if",
  "$mask",
  "$newId",
  "$eq",
  "$in",
  "$not",
  "$any",
  "$match",
  "$add",
  "$sub",
  "$percent",
  "$size",
  "$lookup",
  "$date",
  "$before",
] as const;
export const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);

/** A reference: `$root` or `$root.path.to.member`. */
export const REF = /^\$([A-Za-z]+)((?:\.[^.\s{}]+)*)$/;
/** A reference inside text: `{$root.path}`. */
export const INTERPOLATION = /\{(\$[A-Za-z]+(?:\.[^.\s{}]+)*)\}/g;

/** True when `value` is a reference string (`$root` or `$root.path`). */
export function isReference(value: unknown): boolean {
  return typeof value === "string" && REF.test(value);
}

/** The operator an object template names (the first of its keys that is one). */
export const operatorOf = (template: Record<string, unknown>): string | undefined => Object.keys(template).find((k) => OPERATOR_SET.has(k));
