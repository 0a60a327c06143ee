/**
 * The operators of object templates (./names.ts OPERATORS), each compiled once into a function of
 * the context: one compiler per operator, given the template and the compiler of its operands
 * (./compile.ts `compiled`). What each operator does is in ./index.ts.
 */
import { newId } from "../ids.js";
import { Instant, isPlainObject, type Json, toInstant } from "../values.js";
import type { Compiled } from "./context.js";
import { INTERPOLATION, operatorOf } from "./names.js";
import { itemContext, memberPath, ownFunction, parseReference, scalarText } from "./source.js";

/** Compiles an operand (a template) of an operator. */
export type Compile = (template: Json) => Compiled;
type OperatorCompiler = (template: Record<string, Json>, compile: Compile) => Compiled;

/**
 * Whether a template's value depends on `$item` and `$index` alone (no other reference, no fresh id):
 * the same list then always maps to the same elements, so `$each` keeps its result per list.
 */
function itemOnly(template: Json): boolean {
  if (typeof template === "string") {
    const refs = parseReference(template) ? [template] : [...template.matchAll(INTERPOLATION)].map((m) => m[1]);
    return refs.every((ref) => {
      const root = parseReference(ref)?.root;
      return root === "item" || root === "index";
    });
  }
  if (Array.isArray(template)) return template.every(itemOnly);
  if (!isPlainObject(template)) return true;
  if (Object.hasOwn(template, "$newId")) return false;
  return Object.values(template).every(itemOnly);
}

/**
 * Whether a list reference gives a list made anew for each request, never seen twice: the request's
 * (`$request`, `$params`, `$shared` and their members) and `$records` itself (a record's own lists are kept).
 */
const FRESH_ROOTS = new Set(["request", "params", "shared"]);
const freshList = (list: Json): boolean => {
  const parsed = typeof list === "string" ? parseReference(list) : null;
  return parsed !== null && (FRESH_ROOTS.has(parsed.root) || (parsed.root === "records" && parsed.path.length === 0));
};

/** Lists `$in` compared against, as sets of their scalars' text (case-sensitive, case-insensitive), kept per list. */
const listSets = new WeakMap<Json[], { exact?: Set<string | undefined>; ci?: Set<string | undefined> }>();
function setOf(list: Json[], ci: boolean): Set<string | undefined> {
  let sets = listSets.get(list);
  if (!sets) listSets.set(list, (sets = {}));
  const key = ci ? "ci" : "exact";
  let set = sets[key];
  if (!set) {
    set = sets[key] = new Set();
    for (const v of list) set.add(typeof v === "string" && !ci ? v : scalarText(v, ci));
  }
  return set;
}

/** The key of a value that is not a scalar in a record index (scalarText gives undefined for it). */
const NOT_SCALAR = Symbol("not a scalar");

/**
 * `$in`'s `values` when it is a member of every record of a resource (`{ $each: $all.<resource>, as:
 * $item.<path> }`): the index of the credential's records that gives the same answer without
 * walking them (the store keeps it as records change). Undefined for any other `values`.
 */
function indexedValues(values: Json, ci: boolean): { resource: string; name: string; keyOf: (data: Json) => unknown } | undefined {
  if (!isPlainObject(values) || operatorOf(values) !== "$each" || values.key !== undefined) return undefined;
  if (Object.keys(values).some((k) => k !== "$each" && k !== "as")) return undefined;
  const list = typeof values.$each === "string" ? parseReference(values.$each) : null;
  const as = values.as ?? "$item";
  const member = typeof as === "string" ? parseReference(as) : null;
  if (list?.root !== "all" || list.path.length !== 1 || member?.root !== "item") return undefined;
  const pick = memberPath(member.path);
  return {
    resource: list.path[0],
    name: `$in ${ci ? "ci" : "exact"} ${JSON.stringify(member.path)}`,
    keyOf: (data) => {
      const picked = pick(data);
      return picked === undefined ? undefined : (scalarText(picked, ci) ?? NOT_SCALAR);
    },
  };
}

const compileEach: OperatorCompiler = (template, compile) => {
  const list = compile(template.$each);
  const as = compile(template.as ?? "$item");
  const key = template.key;
  // An element built from $item and $index alone: the result is kept per list (a list of records is
  // the same list until they change), unless the list is made anew for each request.
  const kept = itemOnly(template.as ?? "$item") && !freshList(template.$each) ? new WeakMap<Json[], Json>() : undefined;
  // `as` a member of the item (`$item.reference_id`): read from each item, no context made per item.
  const asRef = typeof (template.as ?? "$item") === "string" ? parseReference(template.as ?? "$item") : null;
  const pick = asRef?.root === "item" ? memberPath(asRef.path) : undefined;
  return (ctx) => {
    const items = list(ctx);
    if (!Array.isArray(items)) return undefined;
    if (kept?.has(items)) return kept.get(items);
    const built: Json[] = [];
    let missing = false;
    if (pick) for (const item of items) built.push(pick(item));
    else {
      // One context for every element, its $item and $index set in turn (evaluation keeps no context).
      const inner = itemContext(ctx, undefined, 0);
      for (let index = 0; index < items.length; index++) {
        inner.item = items[index];
        inner.index = index;
        const element = as(inner);
        if (element === undefined) missing = true;
        built.push(element);
      }
    }
    let result: Json;
    if (key === undefined) result = pick || missing ? built.filter((v) => v !== undefined) : built;
    else {
      const keyed: Record<string, Json> = {};
      for (const item of built) {
        const k = isPlainObject(item) ? item[key] : undefined;
        if (typeof k === "string" || typeof k === "number") keyed[String(k)] = item;
      }
      result = keyed;
    }
    kept?.set(items, result);
    return result;
  };
};

const compileFirst: OperatorCompiler = (template, compile) => {
  const candidates = (template.$first as Json[]).map((candidate) => compile(candidate));
  // The first candidate that is defined (not undefined, null or ""), one statement per candidate.
  const lines = candidates.map((_, i) => `v = c[${i}](ctx); if (v !== undefined && v !== null && v !== "") return v;`);
  return ownFunction(["c"], `return function $first(ctx) {\n  let v;\n  ${lines.join("\n  ")}\n  return undefined;\n};`, [candidates]);
};

const compileIf: OperatorCompiler = (template, compile) => {
  const condition = compile(template.$if);
  const value = compile(template.value);
  const otherwise = template.otherwise === undefined ? undefined : compile(template.otherwise);
  const body = otherwise
    ? "return function $if(ctx) { return condition(ctx) ? value(ctx) : otherwise(ctx); };"
    : "return function $if(ctx) { return condition(ctx) ? value(ctx) : undefined; };";
  return ownFunction(["condition", "value", "otherwise"], body, [condition, value, otherwise]);
};

const compileMask: OperatorCompiler = (template, compile) => {
  const masked = compile(template.$mask);
  return (ctx) => {
    const value = masked(ctx);
    if (typeof value !== "string") return value;
    const keep = Math.max(0, Math.min(value.length, Number(template.keep ?? 4)));
    return "*".repeat(value.length - keep) + value.slice(value.length - keep);
  };
};

const compileNewId: OperatorCompiler = (template) => {
  const prefix = String(template.$newId ?? "");
  return () => newId(prefix);
};

const compileEq: OperatorCompiler = (template, compile) => {
  const ci = template.ci === true;
  const [a, b] = (template.$eq as Json[]).map((operand) => compile(operand));
  const side = (name: string, operand: Compiled | undefined) => (operand ? `scalarText(${name}(ctx), ci)` : "scalarText(undefined, ci)");
  return ownFunction(
    ["a", "b", "scalarText", "ci"],
    `return function $eq(ctx) {\n  const left = ${side("a", a)};\n  const right = ${side("b", b)};\n  return left !== undefined && left === right;\n};`,
    [a, b, scalarText, ci],
  );
};

const compileIn: OperatorCompiler = (template, compile) => {
  const ci = template.ci === true;
  const value = compile(template.$in);
  const fixed = Array.isArray(template.values) ? setOf(template.values, ci) : undefined;
  const values = fixed ? undefined : compile(template.values);
  const indexed = fixed ? undefined : indexedValues(template.values, ci);
  return (ctx) => {
    const v = value(ctx);
    const index = indexed && ctx.recordIndex?.(indexed.resource, indexed.name, indexed.keyOf);
    if (index) {
      if (!Array.isArray(v)) return index.has(scalarText(v, ci) ?? NOT_SCALAR);
      for (const element of v) if (index.has(scalarText(element, ci) ?? NOT_SCALAR)) return true;
      return false;
    }
    let wanted = fixed;
    if (!wanted) {
      const list = values!(ctx);
      wanted = setOf(Array.isArray(list) ? list : [], ci);
    }
    if (!Array.isArray(v)) return wanted.has(scalarText(v, ci));
    for (const element of v) if (wanted.has(scalarText(element, ci))) return true;
    return false;
  };
};

const compileNot: OperatorCompiler = (template, compile) => {
  const negated = compile(template.$not);
  return ownFunction(["negated"], "return function $not(ctx) { return !negated(ctx); };", [negated]);
};

/** Integer strings or numbers (amounts in minor units): their sum (or the first minus the others) as a string; undefined if one is not an integer. */
const compileSum =
  (operator: "$add" | "$sub"): OperatorCompiler =>
  (template, compile) => {
    const operands = (template[operator] as Json[]).map((operand) => compile(operand));
    return (ctx) => {
      const parts = operands.map((operand) => operand(ctx));
      if (!parts.every((p) => (typeof p === "number" && Number.isInteger(p)) || (typeof p === "string" && /^-?\d+$/.test(p))))
        return undefined;
      const values = parts.map((p) => BigInt(p));
      const [head = 0n, ...rest] = values;
      return String(operator === "$add" ? values.reduce((sum, v) => sum + v, 0n) : rest.reduce((out, v) => out - v, head));
    };
  };

const compilePercent: OperatorCompiler = (template, compile) => {
  const operands = (template.$percent as Json[]).map((operand) => compile(operand));
  return (ctx) => {
    const [amount, rate] = operands.map((operand) => String(operand(ctx) ?? ""));
    const parts = /^(\d+)(?:\.(\d{1,2}))?$/.exec(rate);
    if (!parts || !/^\d+$/.test(amount)) return undefined;
    const hundredths = BigInt(parts[1]) * 100n + BigInt((parts[2] ?? "").padEnd(2, "0"));
    return String((BigInt(amount) * hundredths + 5000n) / 10000n);
  };
};

/** { year, month, day } (numbers or strings): the start of that day (UTC), or its last millisecond with `end: true`. */
const compileDate: OperatorCompiler = (template, compile) => {
  const dated = compile(template.$date);
  return (ctx) => {
    const date = dated(ctx);
    if (!isPlainObject(date)) return undefined;
    const [year, month, day] = [date.year, date.month ?? 1, date.day ?? 1].map(Number);
    if (![year, month, day].every(Number.isInteger) || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
    const start = Date.UTC(year, month - 1, day);
    return Number.isFinite(start) ? new Instant(template.end === true ? start + 86_399_999 : start) : undefined;
  };
};

/** Two times (Instants, `{seconds, nanos}`, ISO 8601): true when the first is earlier than the second; false when either is no time. */
const compileBefore: OperatorCompiler = (template, compile) => {
  const [a, b] = (template.$before as Json[]).map((operand) => compile(operand));
  return (ctx) => {
    const first = toInstant(a(ctx));
    const second = first === undefined ? undefined : toInstant(b(ctx));
    return first !== undefined && second !== undefined && first.ms < second.ms;
  };
};

const compileSize: OperatorCompiler = (template, compile) => {
  const sized = compile(template.$size);
  return (ctx) => {
    const value = sized(ctx);
    return Array.isArray(value) ? value.length : 0;
  };
};

const compileLookup: OperatorCompiler = (template, compile) => {
  const looked = compile(template.$lookup);
  const table = template.in as Record<string, Json>;
  const otherwise = template.otherwise === undefined ? undefined : compile(template.otherwise);
  return (ctx) => {
    const key = looked(ctx);
    return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : otherwise === undefined ? key : otherwise(ctx);
  };
};

const patterns = new Map<string, RegExp>();
const matcherOf = (pattern: string): RegExp => {
  let regex = patterns.get(pattern);
  if (!regex) patterns.set(pattern, (regex = new RegExp(pattern)));
  return regex;
};

const compileMatch: OperatorCompiler = (template, compile) => {
  const matched = compile(template.$match);
  const pattern = String(template.pattern);
  return ownFunction(
    ["matched", "matcherOf", "pattern"],
    `return function $match(ctx) {\n  const value = matched(ctx);\n  return typeof value === "string" && matcherOf(pattern).test(value);\n};`,
    [matched, matcherOf, pattern],
  );
};

const compileAny: OperatorCompiler = (template, compile) => {
  const list = compile(template.$any);
  const where = compile(template.where);
  return ownFunction(
    ["list", "where", "itemContext", "isArray"],
    `return function $any(ctx) {
  const items = list(ctx);
  if (!isArray(items)) return false;
  const inner = itemContext(ctx, undefined, 0);
  for (let index = 0; index < items.length; index++) {
    inner.item = items[index];
    inner.index = index;
    if (where(inner)) return true;
  }
  return false;
};`,
    [list, where, itemContext, Array.isArray],
  );
};

/** The compiler of each operator. */
export const OPERATOR_COMPILERS: Readonly<Record<string, OperatorCompiler>> = {
  $each: compileEach,
  $first: compileFirst,
  $if: compileIf,
  $mask: compileMask,
  $newId: compileNewId,
  $eq: compileEq,
  $in: compileIn,
  $not: compileNot,
  $add: compileSum("$add"),
  $sub: compileSum("$sub"),
  $percent: compilePercent,
  $date: compileDate,
  $before: compileBefore,
  $size: compileSize,
  $lookup: compileLookup,
  $match: compileMatch,
  $any: compileAny,
};
