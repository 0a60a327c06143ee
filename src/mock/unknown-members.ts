/**
 * DEVIATIONS unknownMember (./validate.ts): the members of a JSON request body that its schema does
 * not name, reported as Warnings (at most MAX_UNKNOWN_MEMBERS, then one Information entry). What a
 * body schema names is planned once per schema (`memberPlan`); `unknownIn` walks a body by its plan.
 */
import { MAX_UNKNOWN_MEMBERS } from "./limits.js";
import { INFORMATION, WARNING } from "./prism-parts.js";
import type { Diagnostic } from "./types.js";

/**
 * What a body schema names, place by place (DEVIATIONS unknownMember), worked out once per schema:
 * `reports` where an object's schema names its members and says nothing of others, `members` and
 * `items` where something below is checked. A schema's parts (`allOf`, `anyOf`, `oneOf`, `then`,
 * `else`, `dependentSchemas`, `$ref`s into Prism's bundle) together name what any of them names.
 */
export interface MemberPlan {
  /** True where a member the schema does not name is reported. */
  reports?: boolean;
  /** The names the schema gives (where it `reports`), each with the plan of its value (LEAF: nothing to check there). */
  members?: Map<string, MemberPlan>;
  items?: MemberPlan;
}

/** The plan of a named member below which nothing is checked. */
const LEAF: MemberPlan = Object.freeze({});

type SchemaNode = Record<string, unknown>;
export const isNode = (value: unknown): value is SchemaNode => typeof value === "object" && value !== null && !Array.isArray(value);
const BUNDLE_REF = "#/__bundled__/";

/** The target of a `$ref` into Prism's bundle (`#/__bundled__/<key>/...`); undefined for any other. */
function bundleTarget(ref: string, bundle: unknown): SchemaNode | undefined {
  if (!ref.startsWith(BUNDLE_REF)) return undefined;
  let here: unknown = bundle;
  for (const token of ref.slice(BUNDLE_REF.length).split("/")) {
    if (!isNode(here)) return undefined;
    here = here[decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return isNode(here) ? here : undefined;
}

/** Whether an object valid against `node` may hold members it does not name (an `anyOf` branch like `{ type: object }`). */
function namesNothing(node: SchemaNode, bundle: unknown): boolean {
  const parts = new Set<SchemaNode>();
  partsOf(node, bundle, parts);
  for (const part of parts) {
    const { type } = part;
    if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object"))) return false;
    if (isNode(part.properties) || part.additionalProperties === false) return false;
  }
  return true;
}

/** `node` and the schemas that apply with it to the same value; `open` is set when an alternative names nothing. */
function partsOf(node: SchemaNode, bundle: unknown, out: Set<SchemaNode>, flags?: { open: boolean }): void {
  if (out.has(node)) return;
  out.add(node);
  if (typeof node.$ref === "string") {
    const target = bundleTarget(node.$ref, bundle);
    if (target) partsOf(target, bundle, out, flags);
    else if (flags) flags.open = true; // a reference this reading does not follow: it may name anything
  }
  if (Array.isArray(node.allOf)) for (const part of node.allOf) if (isNode(part)) partsOf(part, bundle, out, flags);
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (!isNode(branch)) continue;
      if (flags && namesNothing(branch, bundle)) flags.open = true;
      partsOf(branch, bundle, out, flags);
    }
  }
  for (const key of ["then", "else"] as const) if (isNode(node[key])) partsOf(node[key] as SchemaNode, bundle, out, flags);
  if (isNode(node.dependentSchemas)) {
    for (const part of Object.values(node.dependentSchemas)) if (isNode(part)) partsOf(part, bundle, out, flags);
  }
}

/** Plans by body schema object (undefined: nothing to check anywhere below it). */
const memberPlans = new WeakMap<object, { plan: MemberPlan | undefined }>();

export function memberPlan(schema: SchemaNode, bundle: unknown): MemberPlan | undefined {
  let found = memberPlans.get(schema);
  if (!found) {
    found = { plan: planOf(schema, bundle) };
    memberPlans.set(schema, found);
  }
  return found.plan;
}

/** The plan of a body schema: each set of schemas that applies at a place is planned once (recursive schemas included). */
function planOf(schema: SchemaNode, bundle: unknown): MemberPlan | undefined {
  const ids = new Map<SchemaNode, number>();
  const plans = new Map<string, MemberPlan | null>();
  const idOf = (node: SchemaNode) => {
    let id = ids.get(node);
    if (id === undefined) ids.set(node, (id = ids.size));
    return id;
  };
  const build = (nodes: SchemaNode[]): MemberPlan | undefined => {
    const flags = { open: false };
    const parts = new Set<SchemaNode>();
    for (const node of nodes) partsOf(node, bundle, parts, flags);
    const key = `${flags.open}:${[...parts]
      .map(idOf)
      .sort((a, b) => a - b)
      .join(",")}`;
    const known = plans.get(key);
    if (known !== undefined) return known ?? undefined;
    const plan: MemberPlan = {};
    plans.set(key, plan); // before its members: a recursive schema finds it
    // Other members are stated (a map, a pattern, a closed object) or may be named elsewhere: none is reported here.
    let silent = flags.open;
    const names = new Set<string>();
    const byName = new Map<string, SchemaNode[]>();
    const items: SchemaNode[] = [];
    for (const part of parts) {
      const { additionalProperties: other, unevaluatedProperties: unevaluated } = part;
      if ((other !== undefined && other !== true) || (unevaluated !== undefined && unevaluated !== true)) silent = true;
      if (part.patternProperties !== undefined || part.propertyNames !== undefined) silent = true;
      if (isNode(part.properties)) {
        for (const [name, value] of Object.entries(part.properties)) {
          names.add(name);
          if (!isNode(value)) continue;
          const list = byName.get(name);
          if (list) list.push(value);
          else byName.set(name, [value]);
        }
      }
      if (isNode(part.items)) items.push(part.items);
    }
    if (!silent && names.size > 0) {
      plan.reports = true;
      plan.members = new Map([...names].map((name) => [name, LEAF]));
    }
    for (const [name, values] of byName) {
      const member = build(values);
      if (member) (plan.members ??= new Map()).set(name, member);
    }
    if (items.length > 0) plan.items = build(items);
    if (plan.reports || plan.members || plan.items) return plan;
    plans.set(key, null);
    return undefined;
  };
  return build([schema]);
}

/** The finding that ends a list of MAX_UNKNOWN_MEMBERS unknown members when there are more. */
const MORE_UNKNOWN_MEMBERS: Diagnostic = Object.freeze({
  path: ["body"],
  code: "unknown-members-capped",
  message: `Request body has more members its schema does not name; the first ${MAX_UNKNOWN_MEMBERS} are listed`,
  severity: INFORMATION,
}) as Diagnostic;

/** Where the walk is in the body (reused: the walk is synchronous), and what it found so far (made on the first finding). */
const walkPath: Array<string | number> = [];
let walkFound: Diagnostic[] | undefined;

/** Adds to walkFound the members of `value` that `plan` does not name; true once the list is full. */
function collectUnknown(plan: MemberPlan, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) {
    const { items } = plan;
    if (!items) return false;
    for (let i = 0; i < value.length; i++) {
      walkPath.push(i);
      const full = collectUnknown(items, value[i]);
      walkPath.pop();
      if (full) return true;
    }
    return false;
  }
  const { reports, members } = plan;
  if (!members) return false;
  // One pass over the value's own members (a parsed JSON object has no inherited enumerable ones).
  for (const name in value) {
    const member = members.get(name);
    if (member === LEAF) continue;
    if (member) {
      walkPath.push(name);
      const full = collectUnknown(member, (value as Record<string, unknown>)[name]);
      walkPath.pop();
      if (full) return true;
    } else if (reports) {
      const found = (walkFound ??= []);
      if (found.length === MAX_UNKNOWN_MEMBERS) {
        found.push(MORE_UNKNOWN_MEMBERS);
        return true;
      }
      const path = [...walkPath.map(String), name];
      found.push({
        path: ["body", ...path],
        code: "unknown-member",
        message: `Request body property ${path.join(".")} is not a member its schema names (misspelt?)`,
        severity: WARNING,
      });
    }
  }
  return false;
}

/** The Warnings of the members of `body` that `plan` does not name; undefined when there are none. */
export function unknownIn(plan: MemberPlan, body: unknown): Diagnostic[] | undefined {
  walkPath.length = 0;
  walkFound = undefined;
  collectUnknown(plan, body);
  const found = walkFound;
  walkFound = undefined;
  return found;
}
