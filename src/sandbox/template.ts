/**
 * The small template language of the sandbox declarations (specs/<service>/<release>/sandbox.yaml):
 * how a record is built from a request, how an answer or a callback payload is built from records.
 * A template is plain YAML/JSON data; these forms are evaluated, everything else is literal:
 *
 * - `$name` or `$name.path.to.member` (a string starting with `$`): a value of the context:
 *   `$id`, `$record`, `$records`, `$count`, `$view`, `$request`, `$params`, `$item`, `$index`,
 *   `$now`, `$expiry`, `$status`, `$event`, `$shared`, `$callbackUrl`, `$next`, `$resource.<name>` (a
 *   singleton's record), `$all.<name>` (every record of a resource);
 * - `"text {$id} text"`: a string with references interpolated;
 * - `{ "...": ref, other: ... }`: the members of an object spread in, then the others;
 * - `{ $each: ref, as: template, key?: member }`: one element per item of a list (`$item`, `$index`),
 *   or with `key` an object keyed by that member of each element;
 * - `{ $first: [template, ...] }`: the first value that is defined (not undefined, null or "");
 * - `{ $if: template, value: template, otherwise?: template }`: `value` when `$if` is truthy;
 * - `{ $mask: template, keep: n }`: a string with all but its last n characters replaced by `*`;
 * - `{ $newId: "prefix_" }`: a fresh id;
 * - `{ $eq: [template, template] }`: true when both values are equal as strings (case-insensitive
 *   when `ci: true`), else false; `{ $in: template, values: [...] }`: true when the value (as a
 *   string) is one of `values` (a list, or a template giving one), or when any element of a list
 *   value is; `{ $not: template }`; `{ $any: ref, where: template }`: true when `where` holds for
 *   some element (`$item`) of the list; `{ $match: template, pattern: "^ID_" }`: true when the value
 *   is a string the regular expression matches; `{ $add: [template, ...] }`: the sum of integers
 *   (or integer strings, e.g. amounts in minor units) as a string, `$sub` the first minus the others;
 *   `{ $percent: [amount, rate] }`: `rate` percent (at most 2 decimal digits) of a non-negative integer
 *   amount, rounded half up, as a string (undefined when either is not so); `{ $size: ref }`: a list's
 *   length; `{ $lookup: template, in: { key: value }, otherwise?: template }`: the value for a key
 *   (the key itself when absent and no `otherwise`); `{ $date: template, end?: true }`: the instant a
 *   `{year, month, day}` object names (its day's start, or its last millisecond with `end`).
 *
 * An undefined value leaves its member out. Times are `Instant`s until an answer is shaped
 * (./shape.ts renders them as the schema at their place asks: `{seconds, nanos}` or ISO 8601).
 */
import { newId } from "./ids.js";

export { newId };

/** A point in time inside a record; rendered by ./shape.ts. */
export class Instant {
  #iso: string | undefined; // rendered once: records, answers and sizes all render the same instant
  constructor(readonly ms: number) {}
  toISOString(): string {
    this.#iso ??= new Date(this.ms).toISOString();
    return this.#iso;
  }
  toJSON(): string {
    return this.toISOString();
  }
}

export type Json = any;

/** The values a template can reference. */
export interface TemplateContext {
  id?: string;
  record?: Json;
  records?: Json[];
  /** The record rendered by the resource's schema (for callback payloads). */
  view?: Json;
  request?: Json;
  params?: Record<string, unknown>;
  item?: Json;
  index?: number;
  now?: Instant;
  expiry?: Instant;
  status?: string;
  event?: Record<string, unknown>;
  shared?: Record<string, unknown>;
  callbackUrl?: string;
  /** list: the id of the first record a `limit` left out. */
  next?: string;
  /** A singleton resource's record, by resource name. */
  resource?: (name: string) => Json;
  /** Every record of a resource, by resource name. */
  all?: (name: string) => Json[] | undefined;
}

/** The references a template may start with (`$<root>`). */
export const ROOTS = [
  "id",
  "record",
  "records",
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
const ROOT_SET: ReadonlySet<string> = new Set(ROOTS);

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
] as const;
const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);

const isPlainObject = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Instant);

const REF = /^\$([A-Za-z]+)((?:\.[^.\s{}]+)*)$/;
const INTERPOLATION = /\{(\$[A-Za-z]+(?:\.[^.\s{}]+)*)\}/g;

/** True when `value` is a reference string (`$root` or `$root.path`). */
export function isReference(value: unknown): boolean {
  return typeof value === "string" && REF.test(value);
}

function member(value: Json, token: string): Json {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value) && /^\d+$/.test(token)) return value[Number(token)];
  if (isPlainObject(value) && Object.hasOwn(value, token)) return value[token];
  return undefined;
}

// A declaration's templates are fixed once loaded: what a string is (a reference, its root and path)
// and which operator an object names are worked out once per string or object and kept, not on
// every request. The strings kept are the declarations' own (bounded: cleared past REFERENCES_KEPT).
interface ParsedReference {
  root: string;
  path: string[];
}
const REFERENCES_KEPT = 10_000;
const references = new Map<string, ParsedReference | null>();
const operatorByTemplate = new WeakMap<object, string | undefined>();

/** The root and path of a reference string; null when the string is not one. */
function parseReference(ref: string): ParsedReference | null {
  let parsed = references.get(ref);
  if (parsed === undefined) {
    const match = REF.exec(ref);
    parsed = match ? { root: match[1], path: match[2] ? match[2].slice(1).split(".") : [] } : null;
    if (references.size >= REFERENCES_KEPT) references.clear();
    references.set(ref, parsed);
  }
  return parsed;
}

/** The operator an object template names (the first of its keys that is one). */
function operatorOf(template: Record<string, Json>): string | undefined {
  if (operatorByTemplate.has(template)) return operatorByTemplate.get(template);
  const operator = Object.keys(template).find((k) => OPERATOR_SET.has(k));
  operatorByTemplate.set(template, operator);
  return operator;
}

/** The value of a reference in the context. */
export function resolveReference(ref: string, ctx: TemplateContext): Json {
  const parsed = parseReference(ref);
  if (!parsed) throw new Error(`not a reference: ${JSON.stringify(ref)}`);
  const root = parsed.root;
  const tokens = parsed.path.slice();
  let value: Json;
  switch (root) {
    case "count":
      value = ctx.records?.length;
      break;
    case "resource":
      value = tokens.length > 0 ? ctx.resource?.(tokens.shift()!) : undefined;
      break;
    case "all":
      value = tokens.length > 0 ? ctx.all?.(tokens.shift()!) : undefined;
      break;
    default:
      if (!ROOT_SET.has(root)) throw new Error(`unknown reference $${root} (known: ${ROOTS.map((r) => `$${r}`).join(", ")})`);
      value = (ctx as Record<string, Json>)[root];
  }
  for (const token of tokens) value = member(value, token);
  return value;
}

const patterns = new Map<string, RegExp>();
const matcherOf = (pattern: string): RegExp => {
  let regex = patterns.get(pattern);
  if (!regex) patterns.set(pattern, (regex = new RegExp(pattern)));
  return regex;
};

/** A scalar as text for comparisons (undefined for objects, lists and missing values). */
function scalarText(value: unknown, ci: boolean): string | undefined {
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
  return ci ? String(value).toLowerCase() : String(value);
}

const defined = (value: unknown) => value !== undefined && value !== null && value !== "";

/** Evaluates a template against a context (see the module header). */
export function evaluate(template: Json, ctx: TemplateContext): Json {
  if (typeof template === "string") {
    if (parseReference(template)) return resolveReference(template, ctx);
    if (!template.includes("{$")) return template;
    return template.replace(INTERPOLATION, (_, ref: string) => {
      const value = resolveReference(ref, ctx);
      return value === undefined || value === null ? "" : value instanceof Instant ? value.toISOString() : String(value);
    });
  }
  if (Array.isArray(template)) {
    return template.map((t) => evaluate(t, ctx)).filter((v) => v !== undefined);
  }
  if (!isPlainObject(template)) return template;
  const operator = operatorOf(template);
  if (operator === "$each") {
    const list = evaluate(template.$each, ctx);
    if (!Array.isArray(list)) return undefined;
    const items = list.map((item, index) => evaluate(template.as ?? "$item", { ...ctx, item, index }));
    if (template.key === undefined) return items.filter((v) => v !== undefined);
    const keyed: Record<string, Json> = {};
    for (const item of items) {
      const key = isPlainObject(item) ? item[template.key] : undefined;
      if (typeof key === "string" || typeof key === "number") keyed[String(key)] = item;
    }
    return keyed;
  }
  if (operator === "$first") {
    for (const candidate of template.$first as Json[]) {
      const value = evaluate(candidate, ctx);
      if (defined(value)) return value;
    }
    return undefined;
  }
  if (operator === "$if") {
    if (evaluate(template.$if, ctx)) return evaluate(template.value, ctx);
    return template.otherwise === undefined ? undefined : evaluate(template.otherwise, ctx);
  }
  if (operator === "$mask") {
    const value = evaluate(template.$mask, ctx);
    if (typeof value !== "string") return value;
    const keep = Math.max(0, Math.min(value.length, Number(template.keep ?? 4)));
    return "*".repeat(value.length - keep) + value.slice(value.length - keep);
  }
  if (operator === "$newId") return newId(String(template.$newId ?? ""));
  if (operator === "$eq") {
    const [a, b] = (template.$eq as Json[]).map((t) => scalarText(evaluate(t, ctx), template.ci === true));
    return a !== undefined && a === b;
  }
  if (operator === "$in") {
    const value = evaluate(template.$in, ctx);
    const values = Array.isArray(template.values) ? template.values : evaluate(template.values, ctx);
    const wanted = new Set((Array.isArray(values) ? values : []).map((v: Json) => scalarText(v, template.ci === true)));
    return (Array.isArray(value) ? value : [value]).some((v) => wanted.has(scalarText(v, template.ci === true)));
  }
  if (operator === "$not") return !evaluate(template.$not, ctx);
  if (operator === "$add" || operator === "$sub") {
    // Integer strings or numbers (amounts in minor units): their sum (or the first minus the others) as a string; undefined if one is not an integer.
    const parts = (template[operator] as Json[]).map((t) => evaluate(t, ctx));
    if (!parts.every((p) => (typeof p === "number" && Number.isInteger(p)) || (typeof p === "string" && /^-?\d+$/.test(p))))
      return undefined;
    const values = parts.map((p) => BigInt(p));
    const [head = 0n, ...rest] = values;
    return String(operator === "$add" ? values.reduce((sum, v) => sum + v, 0n) : rest.reduce((out, v) => out - v, head));
  }
  if (operator === "$percent") {
    const [amount, rate] = (template.$percent as Json[]).map((t) => String(evaluate(t, ctx) ?? ""));
    const parts = /^(\d+)(?:\.(\d{1,2}))?$/.exec(rate);
    if (!parts || !/^\d+$/.test(amount)) return undefined;
    const hundredths = BigInt(parts[1]) * 100n + BigInt((parts[2] ?? "").padEnd(2, "0"));
    return String((BigInt(amount) * hundredths + 5000n) / 10000n);
  }
  if (operator === "$date") {
    // { year, month, day } (numbers or strings): the start of that day (UTC), or its last millisecond with `end: true`.
    const date = evaluate(template.$date, ctx);
    if (!isPlainObject(date)) return undefined;
    const [year, month, day] = [date.year, date.month ?? 1, date.day ?? 1].map(Number);
    if (![year, month, day].every(Number.isInteger) || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
    const start = Date.UTC(year, month - 1, day);
    return Number.isFinite(start) ? new Instant(template.end === true ? start + 86_399_999 : start) : undefined;
  }
  if (operator === "$size") {
    const value = evaluate(template.$size, ctx);
    return Array.isArray(value) ? value.length : 0;
  }
  if (operator === "$lookup") {
    const key = evaluate(template.$lookup, ctx);
    const table = template.in as Record<string, Json>;
    return typeof key === "string" && Object.hasOwn(table, key)
      ? table[key]
      : template.otherwise === undefined
        ? key
        : evaluate(template.otherwise, ctx);
  }
  if (operator === "$match") {
    const value = evaluate(template.$match, ctx);
    return typeof value === "string" && matcherOf(String(template.pattern)).test(value);
  }
  if (operator === "$any") {
    const list = evaluate(template.$any, ctx);
    return Array.isArray(list) && list.some((item, index) => Boolean(evaluate(template.where, { ...ctx, item, index })));
  }
  const out: Record<string, Json> = {};
  for (const [key, sub] of Object.entries(template)) {
    if (key === "...") {
      const spread = evaluate(sub, ctx);
      if (isPlainObject(spread)) for (const [k, v] of Object.entries(spread)) if (v !== undefined) out[k] = v;
      continue;
    }
    const value = evaluate(sub, ctx);
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

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

/** A deep copy of a record (plain JSON values and Instants). */
export function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as T;
  if (isPlainObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = copy(v);
    return out as T;
  }
  return value;
}

const PLAIN_ASCII = /^[ !#-[\]-~]*$/; // printable ASCII but `"` and `\`: JSON writes it as is, one byte a character

/** Approximate size of a record in bytes (its JSON form). */
export function sizeOf(value: unknown): number {
  // The JSON of a scalar without writing it (the store measures every member of every record it keeps).
  if (typeof value === "string" && PLAIN_ASCII.test(value)) return value.length + 2;
  if (typeof value === "number" && Number.isFinite(value)) return String(value).length;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  if (value instanceof Instant) return sizeOf(value.toISOString());
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}

/** An Instant from a `{seconds, nanos}` object, an ISO 8601 string, epoch milliseconds or an Instant; undefined otherwise. */
export function toInstant(value: unknown): Instant | undefined {
  if (value instanceof Instant) return value;
  if (isPlainObject(value) && (typeof value.seconds === "number" || typeof value.seconds === "string")) {
    const seconds = Number(value.seconds);
    const nanos = Number(value.nanos ?? 0);
    if (Number.isFinite(seconds) && Number.isFinite(nanos)) return new Instant(seconds * 1000 + Math.floor(nanos / 1e6));
    return undefined;
  }
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? new Instant(ms) : undefined;
  }
  return undefined;
}

export { isPlainObject };
