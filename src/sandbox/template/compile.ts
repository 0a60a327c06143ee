/**
 * Evaluating a template: each is compiled once into a function of the context (kept per template
 * object, and per string for the strings): what a string is (a reference, its root and path, or
 * text with references in it), which operator an object names (./operators.ts), its members' and
 * operands' compiled forms. A declaration's templates are fixed once loaded, so evaluating one then
 * only runs that function: no parsing, no lookup of the operator, no walk of the template's keys per
 * request. The strings kept are the declarations' own (bounded: cleared past REFERENCES_KEPT).
 * References, plain objects, text with references and the simple operators are compiled to
 * JavaScript source of their own (./source.ts `ownFunction`).
 */
import { Instant, isPlainObject, type Json } from "../values.js";
import type { Compiled, TemplateContext } from "./context.js";
import { INTERPOLATION, operatorOf } from "./names.js";
import { OPERATOR_COMPILERS } from "./operators.js";
import { compileReference, ownFunction, parseReference, REFERENCES_KEPT } from "./source.js";

const compiledStrings = new Map<string, Compiled>();
const compiledObjects = new WeakMap<object, Compiled>();

/** Evaluates a template against a context (see ./index.ts). */
export function evaluate(template: Json, ctx: TemplateContext): Json {
  return compiled(template)(ctx);
}

/** The value of a reference in the context. */
export function resolveReference(ref: string, ctx: TemplateContext): Json {
  const parsed = parseReference(ref);
  if (!parsed) throw new Error(`not a reference: ${JSON.stringify(ref)}`);
  return compiled(ref)(ctx);
}

/** The compiled form of a template, compiled on first use. */
function compiled(template: Json): Compiled {
  if (typeof template === "string") {
    let fn = compiledStrings.get(template);
    if (!fn) {
      fn = compileString(template);
      if (compiledStrings.size >= REFERENCES_KEPT) compiledStrings.clear();
      compiledStrings.set(template, fn);
    }
    return fn;
  }
  if (typeof template !== "object" || template === null || !(Array.isArray(template) || isPlainObject(template))) return () => template;
  let fn = compiledObjects.get(template);
  if (!fn) {
    fn = Array.isArray(template) ? compileList(template) : compileObject(template);
    compiledObjects.set(template, fn);
  }
  return fn;
}

function compileString(template: string): Compiled {
  const parsed = parseReference(template);
  if (parsed) return compileReference(parsed);
  if (!template.includes("{$")) return () => template;
  // Text with references: the literal parts and the references, in order.
  const parts: Array<string | Compiled> = [];
  let last = 0;
  for (const match of template.matchAll(INTERPOLATION)) {
    parts.push(template.slice(last, match.index));
    const ref = parseReference(match[1]);
    parts.push(ref ? compileReference(ref) : () => resolveReference(match[1], {}));
    last = match.index! + match[0].length;
  }
  parts.push(template.slice(last));
  // One statement per part: a literal part written in the source as a JSON string, a reference's value as text.
  const lines = parts.map((part, i) =>
    typeof part === "string"
      ? `out += ${JSON.stringify(part)};`
      : `v = p[${i}](ctx); out += v === undefined || v === null ? "" : v instanceof Instant ? v.toISOString() : String(v);`,
  );
  return ownFunction(
    ["p", "Instant"],
    `return function text(ctx) {\n  let out = "";\n  let v;\n  ${lines.join("\n  ")}\n  return out;\n};`,
    [parts, Instant],
  );
}

function compileList(template: Json[]): Compiled {
  const elements = template.map(compiled);
  return (ctx) => {
    const out: Json[] = [];
    for (const element of elements) {
      const value = element(ctx);
      if (value !== undefined) out.push(value);
    }
    return out;
  };
}

/** An object template: by the operator it names, else a plain object. */
function compileObject(template: Record<string, Json>): Compiled {
  const operator = operatorOf(template);
  return operator === undefined ? compilePlainObject(template) : OPERATOR_COMPILERS[operator](template, compiled);
}

/**
 * A plain object template: its members, `...` spreading an object's members in. Compiled to the
 * source of a function of its own, one statement per member with the member's name written in it:
 * each store then meets one name and its own few object shapes, where one loop over the members
 * of every template stored every name through one site that V8 gave up specialising.
 * The names are written as JSON string literals, which JavaScript reads as the same strings.
 */
function compilePlainObject(template: Record<string, Json>): Compiled {
  const entries = Object.entries(template);
  const values = entries.map(([, sub]) => compiled(sub));
  const lines = entries.map(([key], i) => {
    if (key === "...")
      return `v = m[${i}](ctx); if (isPlainObject(v)) for (const k of Object.keys(v)) if (v[k] !== undefined) out[k] = v[k];`;
    const name = JSON.stringify(key);
    // A member spread in and left out by this one (undefined) is deleted.
    return `v = m[${i}](ctx); if (v !== undefined) out[${name}] = v; else if (hasOwn(out, ${name})) delete out[${name}];`;
  });
  const source = `return function plainObject(ctx) {\n  const out = {};\n  let v;\n  ${lines.join("\n  ")}\n  return out;\n};`;
  return ownFunction(["m", "isPlainObject", "hasOwn"], source, [values, isPlainObject, Object.hasOwn]);
}
