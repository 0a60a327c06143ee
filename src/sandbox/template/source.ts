/**
 * The pieces the template compiler (./compile.ts) and its operators (./operators.ts) share: reading
 * a reference string (its root and path, kept per string), and writing a compiled part as
 * JavaScript source of its own (`ownFunction`). The names a part reads and writes, and its literal
 * text, are written into the source as JSON string literals, nothing else.
 */
import { Instant, type Json } from "../values.js";
import type { Compiled, TemplateContext } from "./context.js";
import { REF, ROOT_SET, ROOTS } from "./names.js";

export interface ParsedReference {
  root: string;
  path: string[];
}

/** Strings kept per cache (the declarations' own templates): each cache is cleared past this many. */
export const REFERENCES_KEPT = 10_000;
const references = new Map<string, ParsedReference | null>();

/**
 * A function compiled from `body` (JavaScript source that returns it), given `args` by the names
 * `params`. Each is compiled anew, with V8's feedback of its own: a template's parts call each other
 * at call sites that meet one callee each, so that V8 can inline a template's evaluation, where the
 * closures of one operator shared their call sites with every template's. The comment
 * numbers the source, since V8 keeps one compiled function, feedback and all, per source text.
 */
let ownFunctions = 0;
export function ownFunction(params: string[], body: string, args: unknown[]): Compiled {
  ownFunctions += 1;
  return new Function(...params, `// template part ${ownFunctions}\n${body}`)(...args) as Compiled;
}

/** The root and path of a reference string; null when the string is not one. */
export function parseReference(ref: string): ParsedReference | null {
  let parsed = references.get(ref);
  if (parsed === undefined) {
    const match = REF.exec(ref);
    parsed = match ? { root: match[1], path: match[2] ? match[2].slice(1).split(".") : [] } : null;
    if (references.size >= REFERENCES_KEPT) references.clear();
    references.set(ref, parsed);
  }
  return parsed;
}

/**
 * The statements that walk `v` down a reference's path, one per member: an index of a list (digits)
 * or an own member of a plain object; anything else, or a missing value, gives undefined. Each name
 * is written into the source as a JSON string literal (see ownFunction).
 */
function pathSource(path: string[]): string {
  const lines = path.map((token) => {
    const name = JSON.stringify(token);
    const member = `if (typeof v === "object" && !isArray(v) && !(v instanceof Instant) && hasOwn(v, ${name})) v = v[${name}]; else return undefined;`;
    const index = /^\d+$/.test(token) ? `if (isArray(v)) v = v[${Number(token)}]; else ` : "if (isArray(v)) return undefined; ";
    return `if (v === null || v === undefined) return undefined;\n  ${index}${member}`;
  });
  return lines.join("\n  ");
}

/** The value at a path of members (`["a", "0", "b"]`) of a value. */
export function memberPath(path: string[]): (value: Json) => Json {
  return ownFunction(["isArray", "Instant", "hasOwn"], `return function path(v) {\n  ${pathSource(path)}\n  return v;\n};`, [
    Array.isArray,
    Instant,
    Object.hasOwn,
  ]);
}

/** A reference compiled: its root read from the context, then its path walked. */
export function compileReference({ root, path }: ParsedReference): Compiled {
  const tokens = path.slice();
  let head: Compiled;
  switch (root) {
    case "count":
      head = (ctx) => ctx.records?.length;
      break;
    case "resource": {
      const name = tokens.shift();
      head = name === undefined ? () => undefined : (ctx) => ctx.resource?.(name);
      break;
    }
    case "all": {
      const name = tokens.shift();
      head = name === undefined ? () => undefined : (ctx) => ctx.all?.(name);
      break;
    }
    default:
      if (!ROOT_SET.has(root))
        return () => {
          throw new Error(`unknown reference $${root} (known: ${ROOTS.map((r) => `$${r}`).join(", ")})`);
        };
      head = (ctx) => (ctx as Record<string, Json>)[root];
  }
  if (tokens.length === 0) return head;
  // Compiled to the source of a function of its own (see ownFunction): the root's member and the path's names written in it.
  const first = root === "count" || root === "resource" || root === "all" ? "head(ctx)" : `ctx[${JSON.stringify(root)}]`;
  const source = `return function reference(ctx) {\n  let v = ${first};\n  ${pathSource(tokens)}\n  return v;\n};`;
  return ownFunction(["head", "isArray", "Instant", "hasOwn"], source, [head, Array.isArray, Instant, Object.hasOwn]);
}

/** A scalar as text for comparisons (undefined for objects, lists and missing values). */
export function scalarText(value: unknown, ci: boolean): string | undefined {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
  return ci ? String(value).toLowerCase() : String(value);
}

/** The context of an element of `$each` and `$any`: the outer one with `$item` and `$index` set. */
export const itemContext = (ctx: TemplateContext, item: Json, index: number): TemplateContext => ({ ...ctx, item, index });
