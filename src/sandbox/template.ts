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
import type { IndexKey, RecordIndex } from "./store.js";

export { newId };

/** The last instant rendered, and its text: requests within one millisecond render the same. */
let lastRenderedMs = Number.NaN;
let lastRendered = "";

/** A point in time inside a record; rendered by ./shape.ts. */
export class Instant {
  #iso: string | undefined; // rendered once: records, answers and sizes all render the same instant
  constructor(readonly ms: number) {}
  toISOString(): string {
    if (this.#iso === undefined) {
      // NaN is never equal to itself: an invalid instant throws, as Date's toISOString does.
      if (this.ms !== lastRenderedMs) {
        lastRendered = new Date(this.ms).toISOString();
        lastRenderedMs = this.ms;
      }
      this.#iso = lastRendered;
    }
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
  /** An index of every record of a resource (store.ts CredentialState.index); undefined: none kept. */
  recordIndex?: (resource: string, name: string, keyOf: IndexKey) => RecordIndex | undefined;
}

/**
 * A context with every member of TemplateContext, in one order (those not given undefined).
 * Contexts are derived by spreading (`{ ...ctx, item, index }`): Node 20's V8 copies an object
 * spread with members it does not already have on a slow path (microseconds a copy); a context
 * that has them all is copied on the fast path.
 */
export function fullContext(values: TemplateContext): TemplateContext {
  return {
    id: values.id,
    record: values.record,
    records: values.records,
    view: values.view,
    request: values.request,
    params: values.params,
    item: values.item,
    index: values.index,
    now: values.now,
    expiry: values.expiry,
    status: values.status,
    event: values.event,
    shared: values.shared,
    callbackUrl: values.callbackUrl,
    next: values.next,
    resource: values.resource,
    all: values.all,
    recordIndex: values.recordIndex,
  };
}

/**
 * `{ ...a, ...b }`: the same own members in the same order (a member named `__proto__` kept as a
 * member), copied one by one: Node 20's V8 spreads an object followed by other members on a slow path.
 */
export function merged(...sources: Json[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const source of sources) assignMembers(out, source);
  return out;
}

/** `{ ...out, ...source }` into `out` itself (see merged). */
export function assignMembers(out: Record<string, Json>, source: Json): Record<string, Json> {
  if (source === undefined || source === null) return out;
  for (const key of Object.keys(source)) {
    if (key === "__proto__") Object.defineProperty(out, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    else out[key] = source[key];
  }
  return out;
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

// A declaration's templates are fixed once loaded, so each is compiled once into a function of the
// context (kept per template object, and per string for the strings): what a string is (a reference,
// its root and path, or text with references in it), which operator an object names, its members'
// and operands' compiled forms. Evaluating a template then only runs that function: no parsing, no
// lookup of the operator, no walk of the template's keys per request. The strings kept are the
// declarations' own (bounded: cleared past REFERENCES_KEPT). References, plain objects, text with
// references and the simple operators are compiled to JavaScript source (ownFunction): the names they
// read and write, and the literal text, are written into it as JSON string literals, nothing else.
interface ParsedReference {
  root: string;
  path: string[];
}
type Compiled = (ctx: TemplateContext) => Json;
const REFERENCES_KEPT = 10_000;
const references = new Map<string, ParsedReference | null>();
const compiledStrings = new Map<string, Compiled>();
const compiledObjects = new WeakMap<object, Compiled>();

/**
 * A function compiled from `body` (JavaScript source that returns it), given `args` by the names
 * `params`. Each is compiled anew, with V8's feedback of its own: a template's parts call each other
 * at call sites that meet one callee each, so that V8 can inline a template's evaluation, where the
 * closures of one operator shared their call sites with every template's. The comment
 * numbers the source, since V8 keeps one compiled function, feedback and all, per source text.
 */
let ownFunctions = 0;
function ownFunction(params: string[], body: string, args: unknown[]): Compiled {
  ownFunctions += 1;
  return new Function(...params, `// template part ${ownFunctions}\n${body}`)(...args) as Compiled;
}

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
const operatorOf = (template: Record<string, Json>): string | undefined => Object.keys(template).find((k) => OPERATOR_SET.has(k));

/** The value of a reference in the context. */
export function resolveReference(ref: string, ctx: TemplateContext): Json {
  const parsed = parseReference(ref);
  if (!parsed) throw new Error(`not a reference: ${JSON.stringify(ref)}`);
  return compiled(ref)(ctx);
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
function memberPath(path: string[]): (value: Json) => Json {
  return ownFunction(["isArray", "Instant", "hasOwn"], `return function path(v) {\n  ${pathSource(path)}\n  return v;\n};`, [
    Array.isArray,
    Instant,
    Object.hasOwn,
  ]);
}

function compileReference({ root, path }: ParsedReference): Compiled {
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

/** The context of an element of `$each` and `$any`: the outer one with `$item` and `$index` set. */
const itemContext = (ctx: TemplateContext, item: Json, index: number): TemplateContext => ({ ...ctx, item, index });

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

/** The compiled form of a template (see above), compiled on first use. */
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

function compileObject(template: Record<string, Json>): Compiled {
  const operator = operatorOf(template);
  switch (operator) {
    case "$each": {
      const list = compiled(template.$each);
      const as = compiled(template.as ?? "$item");
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
    }
    case "$first": {
      const candidates = (template.$first as Json[]).map(compiled);
      // The first candidate that is defined (not undefined, null or ""), one statement per candidate.
      const lines = candidates.map((_, i) => `v = c[${i}](ctx); if (v !== undefined && v !== null && v !== "") return v;`);
      return ownFunction(["c"], `return function $first(ctx) {\n  let v;\n  ${lines.join("\n  ")}\n  return undefined;\n};`, [candidates]);
    }
    case "$if": {
      const condition = compiled(template.$if);
      const value = compiled(template.value);
      const otherwise = template.otherwise === undefined ? undefined : compiled(template.otherwise);
      const body = otherwise
        ? "return function $if(ctx) { return condition(ctx) ? value(ctx) : otherwise(ctx); };"
        : "return function $if(ctx) { return condition(ctx) ? value(ctx) : undefined; };";
      return ownFunction(["condition", "value", "otherwise"], body, [condition, value, otherwise]);
    }
    case "$mask": {
      const masked = compiled(template.$mask);
      return (ctx) => {
        const value = masked(ctx);
        if (typeof value !== "string") return value;
        const keep = Math.max(0, Math.min(value.length, Number(template.keep ?? 4)));
        return "*".repeat(value.length - keep) + value.slice(value.length - keep);
      };
    }
    case "$newId": {
      const prefix = String(template.$newId ?? "");
      return () => newId(prefix);
    }
    case "$eq": {
      const ci = template.ci === true;
      const [a, b] = (template.$eq as Json[]).map(compiled);
      const side = (name: string, operand: Compiled | undefined) =>
        operand ? `scalarText(${name}(ctx), ci)` : "scalarText(undefined, ci)";
      return ownFunction(
        ["a", "b", "scalarText", "ci"],
        `return function $eq(ctx) {\n  const left = ${side("a", a)};\n  const right = ${side("b", b)};\n  return left !== undefined && left === right;\n};`,
        [a, b, scalarText, ci],
      );
    }
    case "$in": {
      const ci = template.ci === true;
      const value = compiled(template.$in);
      const fixed = Array.isArray(template.values) ? setOf(template.values, ci) : undefined;
      const values = fixed ? undefined : compiled(template.values);
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
    }
    case "$not": {
      const negated = compiled(template.$not);
      return ownFunction(["negated"], "return function $not(ctx) { return !negated(ctx); };", [negated]);
    }
    case "$add":
    case "$sub": {
      // Integer strings or numbers (amounts in minor units): their sum (or the first minus the others) as a string; undefined if one is not an integer.
      const operands = (template[operator] as Json[]).map(compiled);
      return (ctx) => {
        const parts = operands.map((operand) => operand(ctx));
        if (!parts.every((p) => (typeof p === "number" && Number.isInteger(p)) || (typeof p === "string" && /^-?\d+$/.test(p))))
          return undefined;
        const values = parts.map((p) => BigInt(p));
        const [head = 0n, ...rest] = values;
        return String(operator === "$add" ? values.reduce((sum, v) => sum + v, 0n) : rest.reduce((out, v) => out - v, head));
      };
    }
    case "$percent": {
      const operands = (template.$percent as Json[]).map(compiled);
      return (ctx) => {
        const [amount, rate] = operands.map((operand) => String(operand(ctx) ?? ""));
        const parts = /^(\d+)(?:\.(\d{1,2}))?$/.exec(rate);
        if (!parts || !/^\d+$/.test(amount)) return undefined;
        const hundredths = BigInt(parts[1]) * 100n + BigInt((parts[2] ?? "").padEnd(2, "0"));
        return String((BigInt(amount) * hundredths + 5000n) / 10000n);
      };
    }
    case "$date": {
      // { year, month, day } (numbers or strings): the start of that day (UTC), or its last millisecond with `end: true`.
      const dated = compiled(template.$date);
      return (ctx) => {
        const date = dated(ctx);
        if (!isPlainObject(date)) return undefined;
        const [year, month, day] = [date.year, date.month ?? 1, date.day ?? 1].map(Number);
        if (![year, month, day].every(Number.isInteger) || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
        const start = Date.UTC(year, month - 1, day);
        return Number.isFinite(start) ? new Instant(template.end === true ? start + 86_399_999 : start) : undefined;
      };
    }
    case "$size": {
      const sized = compiled(template.$size);
      return (ctx) => {
        const value = sized(ctx);
        return Array.isArray(value) ? value.length : 0;
      };
    }
    case "$lookup": {
      const looked = compiled(template.$lookup);
      const table = template.in as Record<string, Json>;
      const otherwise = template.otherwise === undefined ? undefined : compiled(template.otherwise);
      return (ctx) => {
        const key = looked(ctx);
        return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : otherwise === undefined ? key : otherwise(ctx);
      };
    }
    case "$match": {
      const matched = compiled(template.$match);
      const pattern = String(template.pattern);
      return ownFunction(
        ["matched", "matcherOf", "pattern"],
        `return function $match(ctx) {\n  const value = matched(ctx);\n  return typeof value === "string" && matcherOf(pattern).test(value);\n};`,
        [matched, matcherOf, pattern],
      );
    }
    case "$any": {
      const list = compiled(template.$any);
      const where = compiled(template.where);
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
    }
  }
  return compilePlainObject(template);
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

/** Evaluates a template against a context (see the module header). */
export function evaluate(template: Json, ctx: TemplateContext): Json {
  return compiled(template)(ctx);
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

/** A character JSON does not write as it is, one byte: outside printable ASCII, or `"` or `\`. */
const WRITTEN_OTHERWISE = /[^ !#-[\]-~]/;

/**
 * The JSON size of a string in bytes: its length and two quotes when JSON writes it as it is
 * (printable ASCII but `"` and `\`, one byte a character), else what JSON.stringify writes. One
 * search for a character that is written otherwise: the store measures every string of every record
 * it keeps, and under bench:instructions this search cost less than a loop over the characters
 * (369k against 391k instructions a disbursement create) and than a match of the whole string.
 */
function stringSize(value: string): number {
  return WRITTEN_OTHERWISE.test(value) ? Buffer.byteLength(JSON.stringify(value)) : value.length + 2;
}

/** The size of a value's JSON form in bytes (what `JSON.stringify` writes), without writing it. */
export function sizeOf(value: unknown): number {
  // The store measures every member of every record it keeps: plain JSON values are counted as
  // JSON.stringify would write them; anything else (an object with toJSON, a class) is written.
  if (typeof value === "string") return stringSize(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  // An instant's text is printable ASCII without quotes (digits, signs, T, Z, colons, a dot).
  if (value instanceof Instant) return value.toISOString().length + 2;
  if (Array.isArray(value)) {
    let bytes = 2 + Math.max(0, value.length - 1);
    for (const item of value) bytes += item === undefined || typeof item === "function" || typeof item === "symbol" ? 4 : sizeOf(item);
    return bytes;
  }
  if (typeof value === "object" && isPlainPrototype(value) && typeof (value as { toJSON?: unknown }).toJSON !== "function") {
    let bytes = 2;
    let members = 0;
    // for...in: the own members (a plain or null prototype adds none), without making a list of them.
    for (const key in value) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      bytes += keySize(key) + 1 + sizeOf(member);
      members++;
    }
    return bytes + Math.max(0, members - 1);
  }
  return Buffer.byteLength(JSON.stringify(value) ?? "");
}

const isPlainPrototype = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** Member names seen, with their JSON size: records of a resource repeat the same few names. */
const keySizes = new Map<string, number>();
const KEY_SIZES_KEPT = 4096;

/** The JSON size of a member's name with its quotes. */
export const keySize = (key: string): number => {
  let size = keySizes.get(key);
  if (size === undefined) {
    size = stringSize(key);
    if (keySizes.size < KEY_SIZES_KEPT) keySizes.set(key, size);
  }
  return size;
};

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
