/**
 * The form check of a template (the declaration's load, ../declaration.ts, runs it on every
 * template): every reference names a known root, every operator has its required members. Nothing
 * is evaluated.
 */
import { isPlainObject, type Json } from "../values.js";
import { isReference, OPERATOR_SET, OPERATORS, REF, INTERPOLATION, ROOT_SET, ROOTS } from "./names.js";

/**
 * Checks a template's form without evaluating it: every reference names a known root, every
 * operator has its required members. Returns problems as `[path, message]`, path in dotted form.
 */
export function checkTemplate(template: Json, path = ""): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  const checkRef = (ref: string, where: string) => {
    const root = REF.exec(ref)?.[1];
    if (root && root !== "count" && !ROOT_SET.has(root)) {
      problems.push([where, `unknown reference ${ref.split(".")[0]} (known: ${ROOTS.map((r) => `$${r}`).join(", ")})`]);
    }
  };
  if (typeof template === "string") {
    if (template.startsWith("$")) {
      if (!isReference(template)) problems.push([path, `${JSON.stringify(template)} is not a reference ($root or $root.path)`]);
      else checkRef(template, path);
    }
    for (const match of template.matchAll(INTERPOLATION)) checkRef(match[1], path);
    return problems;
  }
  if (Array.isArray(template)) {
    template.forEach((t, i) => problems.push(...checkTemplate(t, at(i))));
    return problems;
  }
  if (!isPlainObject(template)) return problems;
  const operators = Object.keys(template).filter((k) => OPERATOR_SET.has(k));
  if (operators.length > 1) problems.push([path, `one operator per object, got ${operators.join(", ")}`]);
  const unknownOperator = Object.keys(template).find((k) => k.startsWith("$") && !OPERATOR_SET.has(k));
  if (unknownOperator) problems.push([at(unknownOperator), `unknown operator ${unknownOperator} (known: ${OPERATORS.join(", ")})`]);
  if (operators[0] === "$first" && !Array.isArray(template.$first)) problems.push([at("$first"), "must be a list of templates"]);
  if (operators[0] === "$each" && !isReference(template.$each))
    problems.push([at("$each"), "must be a reference to a list, e.g. $request.items"]);
  if (operators[0] === "$eq" && !(Array.isArray(template.$eq) && template.$eq.length === 2))
    problems.push([at("$eq"), "must be a list of two templates"]);
  if (operators[0] === "$before" && !(Array.isArray(template.$before) && template.$before.length === 2))
    problems.push([at("$before"), "must be a list of two templates: two times"]);
  if ((operators[0] === "$add" || operators[0] === "$sub") && !Array.isArray(template[operators[0]]))
    problems.push([at(operators[0]), "must be a list of templates"]);
  if (operators[0] === "$percent" && !(Array.isArray(template.$percent) && template.$percent.length === 2))
    problems.push([at("$percent"), "must be a list of two templates: an amount and a rate"]);
  if (operators[0] === "$lookup" && !isPlainObject(template.in)) problems.push([path, "$lookup needs `in`, an object of values by key"]);
  if (operators[0] === "$match") {
    try {
      new RegExp(String(template.pattern));
      if (typeof template.pattern !== "string") throw new Error("missing");
    } catch {
      problems.push([path, "$match needs `pattern`, a regular expression"]);
    }
  }
  if (operators[0] === "$any" && (!isReference(template.$any) || template.where === undefined))
    problems.push([path, "$any needs a reference to a list and a `where` template ($item is each element)"]);
  if (operators[0] === "$in" && template.values === undefined)
    problems.push([path, "$in needs `values` (a list, or a template giving one)"]);
  if (operators[0] === "$if" && template.value === undefined) problems.push([path, "$if needs a `value` template"]);
  if (operators[0] === "$mask" && template.keep !== undefined && !(Number.isInteger(template.keep) && template.keep >= 0))
    problems.push([at("keep"), "must be a non-negative integer"]);
  for (const [key, sub] of Object.entries(template)) {
    if (key === "$newId") {
      if (typeof sub !== "string") problems.push([at(key), "must be the id's prefix, a string"]);
      continue;
    }
    if (key === "key" && operators[0] === "$each") continue;
    if (key === "keep" && operators[0] === "$mask") continue;
    if (key === "ci" && (operators[0] === "$eq" || operators[0] === "$in")) continue;
    if (key === "pattern" && operators[0] === "$match") continue;
    if (key === "in" && operators[0] === "$lookup") continue;
    if (key === "end" && operators[0] === "$date") continue;
    if (key === "values" && operators[0] === "$in" && Array.isArray(sub)) continue;
    if (key === "...") {
      if (!isReference(sub)) problems.push([at(key), "must be a reference to an object"]);
      else checkRef(sub, at(key));
      continue;
    }
    problems.push(...checkTemplate(sub, at(key)));
  }
  return problems;
}
