/**
 * The small template language of the sandbox declarations (specs/<service>/<release>/sandbox.yaml):
 * how a record is built from a request, how an answer or a callback payload is built from records.
 * A template is plain YAML/JSON data; these forms are evaluated, everything else is literal:
 *
 * - `$name` or `$name.path.to.member` (a string starting with `$`): a value of the context:
 *   `$id`, `$record`, `$records`, `$outcomes`, `$count`, `$view`, `$request`, `$params`, `$item`, `$index`,
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
 *   `{year, month, day}` object names (its day's start, or its last millisecond with `end`);
 *   `{ $before: [template, template] }`: true when both values are times (an instant, `{seconds,
 *   nanos}` or ISO 8601) and the first is earlier, else false (a missing time is before nothing).
 *
 * An undefined value leaves its member out. Times are `Instant`s until an answer is shaped
 * (../shape.ts renders them as the schema at their place asks: `{seconds, nanos}` or ISO 8601).
 *
 * The modules: ./names.ts (roots and operators), ./check.ts (the form check), ./compile.ts
 * (evaluation: each template compiled once), ./operators.ts (one compiler per operator),
 * ./source.ts (references and compiled source), ./context.ts (what a template reads).
 */
export { Instant, isPlainObject, type Json, merged, assignMembers, copy, toInstant } from "../values.js";
export { newId } from "../ids.js";
export { checkTemplate } from "./check.js";
export { evaluate, resolveReference } from "./compile.js";
export { type Compiled, fullContext, type TemplateContext } from "./context.js";
export { isReference, OPERATORS, ROOTS } from "./names.js";
