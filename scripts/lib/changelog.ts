/**
 * Release changelogs: for each service of the registry, every pair of consecutive releases is
 * compared with Optic (offline, as a library: the same diff and breaking-change rules as
 * `optic diff a b --check`), and the result is rendered as specs/<service>/CHANGELOG.md: added,
 * removed, deprecated and changed operations and fields, each classified breaking or not, with the
 * reason; a new field, parameter or webhook that takes enum values (or holds fields that do) lists
 * them. Corrections recorded in releases.lock.yaml are listed under their release.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pointer, requestContents, webhooks } from "../../src/document/index.js";
import { type ApiEntry, repoRoot } from "../../src/registry.js";
import type { ReleaseLock } from "./release-lock.js";

process.env.OPTIC_TELEMETRY_LEVEL = "off"; // Optic reports usage to Segment and Sentry unless told not to

const require = createRequire(import.meta.url);

type Json = any;

interface OpticResult {
  name: string;
  where: string;
  error?: string;
  passed: boolean;
  exempted?: boolean;
  location: { jsonPath: string; spec: "before" | "after" };
}

interface OpticAttribute {
  key: string;
  change: "added" | "removed" | "changed";
  before?: Json;
  after?: Json;
}

interface OpticContent {
  name: string;
  change: string;
  attributes: OpticAttribute[];
}

interface OpticOperation {
  name: string; // "GET /v1/invoice"
  change: "added" | "removed" | "changed";
  attributes: OpticAttribute[];
  parameters: Array<{ name: string; change: string; attributes: OpticAttribute[] }>;
  requestBody?: { change: string; attributes: OpticAttribute[]; contentTypes: OpticContent[] };
  responses: Array<{
    name: string;
    change: string;
    attributes: OpticAttribute[];
    contentTypes: OpticContent[];
    headers?: Array<{ name: string; change: string; attributes: OpticAttribute[] }>;
  }>;
}

export interface Change {
  /** `GET /v1/invoice` */
  operation: string;
  operationId?: string;
  kind: "added" | "removed" | "deprecated" | "changed";
  /** What changed, e.g. `response 200 field urls[].start: type string → object`. */
  what: string;
  breaking: boolean;
  reason: string;
}

export interface ReleaseDiff {
  from: ApiEntry;
  to: ApiEntry;
  changes: Change[];
  /** Changes to descriptions, summaries and examples only: counted, not listed. */
  documentationOnly: number;
  webhooks: { added: string[]; removed: string[] };
  /** For each added webhook, the enum values its payloads hold (see enumsUnder), rendered; "" when none. */
  webhookValues: Record<string, string>;
}

/** `/schema/properties/urls/items/properties/start` -> `urls[].start` */
function fieldName(key: string): string {
  const segments = key
    .replace(/^\/schema/, "")
    .split("/")
    .filter(Boolean);
  let out = "";
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s === "properties" && segments[i + 1] !== undefined) out += (out ? "." : "") + segments[++i];
    else if (s === "items") out += "[]";
    else if (s === "additionalProperties" || s === "unevaluatedProperties") out += "{*}";
    else if (/^(oneOf|anyOf|allOf)$/.test(s)) out += `(${s}${segments[i + 1] !== undefined ? ` ${segments[++i]}` : ""})`;
    else out += (out ? "." : "") + s;
  }
  return out || "body";
}

const short = (value: Json) => {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Distinct types of a schema, its oneOf/anyOf branches included: `string`, `integer|string`. */
function typeOf(schema: Json): string | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const types = new Set<string>();
  const visit = (s: Json) => {
    if (!s || typeof s !== "object") return;
    if (s.type) for (const t of [s.type].flat()) types.add(t);
    else if (s.properties) types.add("object");
    for (const k of ["oneOf", "anyOf", "allOf"]) if (Array.isArray(s[k])) s[k].forEach(visit);
  };
  visit(schema);
  return types.size ? [...types].sort().join("|") : undefined;
}

/** `string (date-time)`, `object {seconds, nanos}`. */
function shape(schema: Json): string {
  const type = typeOf(schema) ?? "(untyped)";
  if (type === "object" && schema?.properties) return `object {${Object.keys(schema.properties).join(", ")}}`;
  return schema?.format ? `${type} (${schema.format})` : type;
}

/** Every enum or const value of a schema and of its oneOf/anyOf branches; undefined when it has none. */
function enumValues(schema: Json): Json[] | undefined {
  const values: Json[] = [];
  let found = false;
  const visit = (s: Json) => {
    if (!s || typeof s !== "object") return;
    if (Array.isArray(s.enum)) {
      found = true;
      values.push(...s.enum);
    }
    if ("const" in s) {
      found = true;
      values.push(s.const);
    }
    for (const k of ["oneOf", "anyOf", "allOf"]) if (Array.isArray(s[k])) s[k].forEach(visit);
  };
  visit(schema);
  return found ? values : undefined;
}

/**
 * The enum and const values of a new schema and of the fields under it (properties, array items,
 * the members of allOf/anyOf/oneOf branches), as `[path, values]`: `["", [...]]` for the schema's
 * own values, `["fee_type", [...]]`, `["[].status", [...]]` for nested ones. Depth-bounded.
 */
export function enumsUnder(schema: Json, path = "", depth = 0): Array<[string, Json[]]> {
  if (!schema || typeof schema !== "object" || depth > 6) return [];
  const found: Array<[string, Json[]]> = [];
  const own = enumValues(schema);
  if (own) found.push([path, own]);
  const nested = (s: Json) => {
    if (!s || typeof s !== "object") return;
    if (s.items) found.push(...enumsUnder(s.items, `${path}[]`, depth + 1));
    for (const [name, prop] of Object.entries<Json>(s.properties ?? {})) {
      found.push(...enumsUnder(prop, path ? `${path}.${name}` : name, depth + 1));
    }
    for (const k of ["oneOf", "anyOf", "allOf"]) if (Array.isArray(s[k])) s[k].forEach(nested);
  };
  nested(schema);
  return found;
}

/** `values \`A\`, \`B\`` for a field's own values, `values of \`fee_type\`: ...` for nested ones. */
function enumListing(schema: Json): string {
  return enumsUnder(schema)
    .map(([path, values]) => `${path ? `values of \`${path}\`:` : "values"} ${values.map((v) => `\`${v}\``).join(", ")}`)
    .join("; ");
}

const CONSTRAINTS = [
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "multipleOf",
  "default",
  "readOnly",
  "writeOnly",
  "propertyNames",
];

/**
 * Human summary of a changed schema attribute. Changes below it (properties, items) are reported by
 * Optic as separate attributes, so only this node's own keywords count here.
 */
function describeAttribute(attr: OpticAttribute): { text: string; deprecation: boolean; docOnly: boolean } {
  const before = (attr.before ?? {}) as Record<string, Json>;
  const after = (attr.after ?? {}) as Record<string, Json>;
  if (attr.change === "added") {
    // A new enum-typed field or parameter (or one holding enum-typed fields) names its values.
    const schema = typeof after?.in === "string" && after.schema ? after.schema : after;
    const values = enumListing(schema);
    const text = `${after?.deprecated ? "added, already deprecated" : "added"}${values ? `, ${values}` : ""}`;
    return { text, deprecation: after?.deprecated === true, docOnly: false };
  }
  if (attr.change === "removed" || typeof before !== "object" || typeof after !== "object")
    return { text: attr.change, deprecation: false, docOnly: false };
  const parts: string[] = [];
  let deprecation = false;
  const beforeType = typeOf(before);
  const afterType = typeOf(after);
  if (beforeType !== afterType) parts.push(`type ${shape(before)} → ${shape(after)}`);
  const beforeEnum = enumValues(before);
  const afterEnum = enumValues(after);
  if (beforeEnum || afterEnum) {
    const added = (afterEnum ?? []).filter((v) => !(beforeEnum ?? []).includes(v));
    const removed = (beforeEnum ?? []).filter((v) => !(afterEnum ?? []).includes(v));
    if (!beforeEnum) parts.push(`now limited to ${afterEnum!.map((v) => `\`${v}\``).join(", ")}`);
    else if (!afterEnum) parts.push("no longer limited to a list of values");
    else {
      if (added.length) parts.push(`values added: ${added.map((v) => `\`${v}\``).join(", ")}`);
      if (removed.length) parts.push(`values removed: ${removed.map((v) => `\`${v}\``).join(", ")}`);
    }
  }
  if (before.deprecated !== after.deprecated) {
    deprecation = after.deprecated === true;
    parts.push(after.deprecated ? "deprecated" : "no longer deprecated");
  }
  const beforeRequired: string[] = before.required ?? [];
  const afterRequired: string[] = after.required ?? [];
  const nowRequired = afterRequired.filter((v) => !beforeRequired.includes(v));
  const noLonger = beforeRequired.filter((v) => !afterRequired.includes(v));
  if (nowRequired.length) parts.push(`now required: ${nowRequired.join(", ")}`);
  if (noLonger.length) parts.push(`no longer required: ${noLonger.join(", ")}`);
  if (beforeType === afterType) {
    for (const key of CONSTRAINTS) {
      if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
      parts.push(
        before[key] === undefined
          ? `${key} ${short(after[key])} added`
          : after[key] === undefined
            ? `${key} ${short(before[key])} removed`
            : `${key} ${short(before[key])} → ${short(after[key])}`,
      );
    }
  }
  return { text: parts.join("; "), deprecation, docOnly: parts.length === 0 };
}

function nonBreakingReason(
  place: "request" | "response" | "status" | "parameter" | "operation",
  kind: string,
  deprecation: boolean,
  docOnly: boolean,
): string {
  if (place === "status" && kind === "added")
    return "a newly documented response status; callers handle it like any other status of its class";
  if (deprecation) return "a deprecation only announces a future removal; the element is still served and accepted";
  if (docOnly) return "documentation only; what is sent and accepted is unchanged";
  if (kind === "added" && place === "response")
    return "a new response field, or a newly documented status; clients ignore what they do not read";
  if (kind === "added" && place === "request") return "a new optional request field; existing requests stay valid";
  if (kind === "added" && place === "parameter") return "a new optional parameter; existing requests stay valid";
  if (kind === "removed" && place === "request") return "a request field the server no longer reads; existing requests stay valid";
  if (kind === "removed" && place === "parameter")
    return "a parameter the contract no longer documents; requests that still send it stay valid";
  return "Optic's breaking-change rules accept it";
}

interface Loaded {
  jsonLike: Json;
}

async function opticDiff(
  from: string,
  to: string,
): Promise<{ operations: OpticOperation[]; results: OpticResult[]; before: Json; after: Json }> {
  const optic = join(repoRoot, "node_modules", "@useoptic", "optic", "build");
  const { loadSpec } = require(join(optic, "utils", "spec-loaders.js"));
  const { compute } = require(join(optic, "commands", "diff", "compute.js"));
  const { jsonChangelog } = require(join(optic, "commands", "diff", "changelog-renderers", "json-changelog.js"));
  const config = { root: repoRoot };
  // "loose": Optic's strict validator wrongly requires `unevaluatedProperties` to be a boolean.
  const options = { strict: false, denormalize: true };
  const before: Loaded = await loadSpec(from, config, options);
  const after: Loaded = await loadSpec(to, config, options);
  const computed = await compute([before, after], config, { check: true, path: to });
  const changelog = jsonChangelog({ from: before.jsonLike, to: after.jsonLike }, computed.changelogData) as {
    operations: OpticOperation[];
  };
  return { operations: changelog.operations, results: computed.specResults.results, before: before.jsonLike, after: after.jsonLike };
}

function operationId(doc: Json, name: string): string | undefined {
  const [method, path] = name.split(" ");
  return doc?.paths?.[path]?.[method.toLowerCase()]?.operationId;
}

function operationPointer(name: string): string {
  const [method, path] = name.split(" ");
  return pointer("paths", path, method.toLowerCase());
}

/** Compares two releases of one service. */
export async function diffReleases(from: ApiEntry, to: ApiEntry): Promise<ReleaseDiff> {
  const { operations, results, before, after } = await opticDiff(from.bundlePath, to.bundlePath);
  const failing = results.filter((r) => !r.passed && !r.exempted);
  const used = new Set<OpticResult>();
  const changes: Change[] = [];
  let documentationOnly = 0;
  const breakingAt = (pointer: string) => {
    const hits = failing.filter((r) => r.location.jsonPath === pointer);
    hits.forEach((h) => used.add(h));
    return hits;
  };

  for (const op of operations) {
    const id = operationId(op.change === "removed" ? before : after, op.name);
    const base = operationPointer(op.name);
    if (op.change === "added" || op.change === "removed") {
      const hits = failing.filter((r) => r.location.jsonPath.startsWith(base));
      hits.forEach((h) => used.add(h));
      const breaking = op.change === "removed";
      changes.push({
        operation: op.name,
        operationId: id,
        kind: op.change,
        what: op.change === "added" ? "new operation" : "operation removed",
        breaking,
        reason: breaking
          ? (hits.find((h) => /operation removal/.test(h.name))?.error ?? "callers of the operation get 404 or 405")
          : "a new operation; existing calls are unaffected",
      });
      continue;
    }
    const push = (
      pointer: string,
      label: string,
      place: "request" | "response" | "status" | "parameter" | "operation",
      attr: OpticAttribute,
    ) => {
      const hits = breakingAt(pointer);
      const documentation = /^\/(examples?|description|summary|title|externalDocs|x-[^/]*)(\/|$)/.test(attr.key);
      const { text, deprecation, docOnly } = documentation ? { text: "", deprecation: false, docOnly: true } : describeAttribute(attr);
      if (docOnly && hits.length === 0) {
        documentationOnly++;
        return;
      }
      changes.push({
        operation: op.name,
        operationId: id,
        kind: deprecation ? "deprecated" : attr.change,
        what: attr.change === "changed" ? `${label}: ${text}` : `${label} ${text}`,
        breaking: hits.length > 0,
        reason:
          hits.length > 0
            ? [...new Set(hits.map((h) => `${h.error} (Optic rule: ${h.name})`))].join("; ")
            : nonBreakingReason(place, attr.change, deprecation, docOnly),
      });
    };
    for (const attr of op.attributes)
      push(
        base + attr.key,
        attr.key === "/deprecated" ? "operation" : `operation ${attr.key.slice(1)}`,
        "operation",
        attr.key === "/deprecated" ? { ...attr, change: "changed", before: {}, after: { deprecated: attr.after } } : attr,
      );
    for (const param of op.parameters) {
      for (const attr of param.attributes.length ? param.attributes : [{ key: "", change: param.change as OpticAttribute["change"] }]) {
        push(
          `${base}/parameters`,
          `${param.name.replace(/'([^']+)'/, "`$1`")}${attr.key ? ` ${attr.key.slice(1)}` : ""}`,
          "parameter",
          attr,
        );
      }
    }
    for (const content of op.requestBody?.contentTypes ?? []) {
      for (const attr of content.attributes) {
        push(
          `${base}${pointer("requestBody", "content", content.name)}${attr.key}`,
          `request field \`${fieldName(attr.key)}\``,
          "request",
          attr,
        );
      }
    }
    for (const response of op.responses) {
      const status = response.name.replace(/ response$/, "");
      if (response.change === "added" || response.change === "removed") {
        push(`${base}/responses/${status}`, `response ${status}`, "status", {
          key: "",
          change: response.change as OpticAttribute["change"],
        });
      }
      for (const content of response.contentTypes) {
        for (const attr of content.attributes) {
          push(
            `${base}${pointer("responses", status, "content", content.name)}${attr.key}`,
            `response ${status} field \`${fieldName(attr.key)}\``,
            "response",
            attr,
          );
        }
      }
    }
  }
  // Breaking findings Optic made that no listed change accounts for (e.g. a parameter rule).
  for (const result of failing.filter((r) => !used.has(r))) {
    const name = result.where.split(" ").slice(0, 2).join(" ");
    changes.push({
      operation: name,
      operationId: operationId(after, name) ?? operationId(before, name),
      kind: "changed",
      what: result.where.slice(name.length).trim() || "operation",
      breaking: true,
      reason: `${result.error} (Optic rule: ${result.name})`,
    });
  }
  const beforeHooks = Object.keys(before.webhooks ?? {});
  const afterHooks = Object.keys(after.webhooks ?? {});
  const added = afterHooks.filter((h) => !beforeHooks.includes(h));
  const webhookValues = Object.fromEntries(
    added.map((hook) => {
      const schemas = webhooks(after)
        .filter((op) => op.path === hook)
        .flatMap((op) => requestContents(after, op).map((media) => media.schema?.value));
      return [hook, schemas.map(enumListing).filter(Boolean).join("; ")];
    }),
  );
  return {
    from,
    to,
    changes,
    documentationOnly,
    webhooks: { added, removed: beforeHooks.filter((h) => !afterHooks.includes(h)) },
    webhookValues,
  };
}

/** Every element a release marks `deprecated: true`, named readably (`schemas/Merchant.accounts`). */
export function deprecatedElements(doc: Json): string[] {
  const found: string[] = [];
  const walk = (node: Json, path: string[]) => {
    if (!node || typeof node !== "object") return;
    if (node.deprecated === true && path.length) found.push(readable(path));
    for (const [key, value] of Object.entries(node)) if (key !== "examples" && key !== "example") walk(value, [...path, key]);
  };
  walk({ paths: doc.paths, webhooks: doc.webhooks, components: doc.components }, []);
  return [...new Set(found)];
}

function readable(path: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const s = path[i];
    if (s === "properties" || s === "components") continue;
    if (s === "items") out.push("[]");
    else if (s === "parameters" && /^\d+$/.test(path[i + 1] ?? "")) {
      out.push("parameter");
      i++;
    } else out.push(s);
  }
  return out
    .join(".")
    .replace(/\.\[\]/g, "[]")
    .replace(/^paths\.([^.]*)\.(\w+)/, (_, p, m) => `${m.toUpperCase()} ${p}`);
}

const count = (doc: Json) =>
  Object.values<Json>(doc.paths ?? {}).reduce(
    (n, item) => n + Object.keys(item).filter((k) => /^(get|put|post|delete|patch|head|options|trace)$/.test(k)).length,
    0,
  );

function line(change: Change): string {
  const id = change.operationId ? ` (\`${change.operationId}\`)` : "";
  const verdict = change.breaking ? "**Breaking**" : "Not breaking";
  return `- \`${change.operation}\`${id}: ${change.what}. ${verdict}: ${change.reason}.`.replace(/\.\.( |$)/g, ".$1");
}

/** Markdown changelog of one service, newest release first. */
export function renderChangelog(
  service: string,
  releases: ApiEntry[],
  diffs: ReleaseDiff[],
  lock: ReleaseLock,
  docs: Map<string, Json>,
): string {
  const out: string[] = [
    "<!-- Generated by `npm run changelog` from the bundled specs and releases.lock.yaml. Do not edit. -->",
    `# Changelog: ${service}`,
    "",
    "Each release is compared with the one before it by Optic's diff and breaking-change rules (run offline).",
    "A change is breaking when a client or a server built against the earlier release can fail against the new one.",
    "",
  ];
  for (const entry of [...releases].reverse()) {
    const diff = diffs.find((d) => d.to.alias === entry.alias);
    out.push(`## ${entry.release}`, "");
    const doc = docs.get(entry.alias);
    if (!diff) {
      out.push(`First release in this package: ${count(doc)} operations, ${Object.keys(doc?.webhooks ?? {}).length} webhooks.`, "");
    } else {
      const breaking = diff.changes.filter((c) => c.breaking);
      const sections: Array<[string, Change[]]> = [
        ["Added operations", diff.changes.filter((c) => c.what === "new operation")],
        ["Deprecated", diff.changes.filter((c) => !c.breaking && c.kind === "deprecated")],
        [
          "Other changes",
          diff.changes.filter((c) => !c.breaking && !["new operation", "operation removed"].includes(c.what) && c.kind !== "deprecated"),
        ],
      ];
      out.push(
        `Compared with ${diff.from.release}: ${sections[0][1].length} operations added, ` +
          `${diff.changes.filter((c) => c.what === "operation removed").length} removed (listed under breaking changes), ` +
          `${breaking.length} breaking changes of ${diff.changes.length}.`,
        "",
      );
      if (breaking.length) {
        out.push("### Breaking changes", "", ...breaking.map(line), "");
      }
      for (const [title, list] of sections) {
        if (list.length) out.push(`### ${title}`, "", ...list.map(line), "");
      }
      if (diff.documentationOnly) {
        out.push(
          `${diff.documentationOnly} further changes touch descriptions, summaries or examples only (not breaking; not listed).`,
          "",
        );
      }
      if (diff.webhooks.added.length || diff.webhooks.removed.length) {
        out.push("### Webhooks", "");
        for (const h of diff.webhooks.added) {
          const values = diff.webhookValues?.[h] ? ` (payload ${diff.webhookValues[h]})` : "";
          out.push(
            `- \`${h}\` added${values}. Not breaking: a new callback the provider sends; receivers that do not subscribe are unaffected.`,
          );
        }
        for (const h of diff.webhooks.removed) out.push(`- \`${h}\` removed. **Breaking**: receivers no longer get it.`);
        out.push("");
      }
    }
    const deprecated = deprecatedElements(doc);
    if (deprecated.length) {
      out.push(`### Deprecated in ${entry.release} (still served)`, "", ...deprecated.map((d) => `- \`${d}\``), "");
    }
    const corrections = lock.releases[entry.alias]?.corrections ?? [];
    if (corrections.length) {
      out.push("### Corrections to this release", "");
      for (const c of corrections) out.push(`- ${c.date}: ${c.reason} (contract ${c.from.slice(7, 19)} → ${c.to.slice(7, 19)})`);
      out.push("");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
