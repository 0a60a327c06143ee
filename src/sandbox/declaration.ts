/**
 * The sandbox declaration of an API: `specs/<service>/<release>/sandbox.yaml`, beside the API's root
 * spec. It says, as data, what the sandbox keeps and does for that API (the format is in
 * src/sandbox/README.md and ./declaration-schema.ts):
 *
 * - `resources`: what is stored (id member and prefix, the schema a record is shaped by, its status
 *   member with the initial status, its expiry rule, what happens when it enters a status, which
 *   webhook fires and where the URL comes from);
 * - `operations`: by operationId, what each operation does to a resource (create, read, list,
 *   update, delete, or `action`: only checks that the record exists), where the id comes from, how
 *   the record is built from the request and how the answer is built (templates, ./template/).
 *
 * Every resource, status rule, expiry rule, callback and operation names the source it comes from
 * (`source: "<the provider's document by title>, line <n>"`); a choice the sources do not make is marked `convention:` with the
 * reason. `loadDeclaration` checks the file against the schema and against the API's document
 * (operations, webhooks, statuses and schemas exist; templates are well formed) and names the file,
 * line and member of each problem.
 */
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { type Doc, findOperation, locate, parsePointer, refPointer, unescapeToken, webhooks } from "../document/index.js";
import { type ApiEntry, packageRoot } from "../registry.js";
import { type SpecValidator, specValidator } from "../validation/spec.js";
import { bytesHash, declarationPath } from "./declaration-file.js";
import { DECLARATION_SCHEMA, type Declaration, type OperationDeclaration, type ResourceDeclaration } from "./declaration-schema.js";
import { checkTemplate } from "./template/check.js";
import type { Json } from "./values.js";

export {
  type CallbackDeclaration,
  DECLARATION_SCHEMA,
  type Declaration,
  KINDS,
  type Kind,
  type MoveDeclaration,
  type OperationDeclaration,
  type RejectDeclaration,
  type ResourceDeclaration,
  type StatusDeclaration,
  type TestValueDeclaration,
} from "./declaration-schema.js";
export { declarationPath };

/** A declaration that cannot be used: the message names the file, line and member. */
export class DeclarationError extends Error {
  override readonly name = "DeclarationError";
}

/** Line and column of a dotted path in a parsed YAML document (the deepest node that exists). */
function positionFinder(document: ReturnType<typeof parseDocument>, lineCounter: LineCounter) {
  return (path: string): { line: number; col: number } => {
    let node: unknown = document.contents;
    let at: any = node;
    for (const key of path === "" ? [] : path.split(".")) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
        if (!pair) break;
        at = pair.key as never;
        node = pair.value;
      } else if (isSeq(node) && node.items[Number(key)]) {
        at = node = node.items[Number(key)] as never;
      } else break;
    }
    return at?.range ? lineCounter.linePos(at.range[0]) : { line: 1, col: 1 };
  };
}

/** The declaration schema, compiled once per process. */
let schemaValidator: ValidateFunction<Json> | undefined;
const declarationSchema = () => (schemaValidator ??= new Ajv2020({ allErrors: true, strict: false }).compile<Json>(DECLARATION_SCHEMA));

const statusSchemaPointer = (resource: ResourceDeclaration) => `${refPointer(resource.schema)}/properties/${resource.status!.field}`;

/** Per document: declaration paths and the hash of the bytes whose check passed against it (`trustDeclaration`). */
const trusted = new WeakMap<Doc, Map<string, string>>();

/**
 * Notes that the declaration at `path` with these bytes (./declaration-file.ts `bytesHash`) passed its
 * check against `doc` (./start.ts knows it from a mark kept between starts): `loadDeclaration` then
 * reads it without checking it again, as long as its bytes are these. Other bytes are checked as always.
 */
export function trustDeclaration(doc: Doc, path: string, hash: string): void {
  let paths = trusted.get(doc);
  if (!paths) trusted.set(doc, (paths = new Map()));
  paths.set(path, hash);
}

/** The status check of a trusted declaration: it passed already. */
const PASSED: SpecValidator = { check: () => [], test: () => true, validate: () => ({ valid: true, errors: "" }) };

/** What the checks of one declaration share: the document, its status check, and where problems go. */
interface Checking {
  doc: Doc;
  statuses: SpecValidator;
  webhookNames: string[];
  /** Records a problem of the member at a dotted path. */
  problem(member: string, message: string): void;
}

/**
 * Reads and checks the declaration at `path` against `doc` (the API's bundled document); `given`
 * is a validator over `doc` to reuse (one is made otherwise). Throws a DeclarationError listing
 * every problem as `file:line:col member: message`. A declaration whose check already passed on the
 * same bytes (`trustDeclaration`) is read without the schema's and the statuses' checks.
 */
export function loadDeclaration(path: string, doc: Doc, given?: SpecValidator): Declaration {
  const shown = relative(packageRoot, path).startsWith("..") ? path : relative(packageRoot, path);
  const bytes = readFileSync(path);
  const passed = trusted.get(doc)?.get(path) === bytesHash(bytes);
  const lineCounter = new LineCounter();
  const parsed = parseDocument(bytes.toString("utf8"), { lineCounter });
  if (parsed.errors.length > 0) throw new DeclarationError(`${shown}: not valid YAML: ${parsed.errors[0].message}`);
  const position = positionFinder(parsed, lineCounter);
  const where = (member: string) => {
    const { line, col } = position(member);
    return `${shown}:${line}:${col}`;
  };
  const raw: Json = parsed.toJS();
  const problems: string[] = [];
  const checking: Checking = {
    doc,
    statuses: passed ? PASSED : (given ?? specValidator(doc)),
    webhookNames: webhooks(doc).map((w) => w.path),
    problem: (member, message) => problems.push(`${where(member)} ${member || "(root)"}: ${message}`),
  };
  if (!passed) checkFormat(raw, checking);
  if (problems.length > 0) throw new DeclarationError(`${shown}: invalid sandbox declaration:\n  ${[...new Set(problems)].join("\n  ")}`);
  const resources: Record<string, ResourceDeclaration> = {};
  for (const [name, r] of Object.entries<Json>(raw.resources)) resources[name] = readResource(name, r, checking);
  const operations: Record<string, OperationDeclaration> = {};
  for (const [operationId, o] of Object.entries<Json>(raw.operations))
    operations[operationId] = readOperation(operationId, o, resources, checking);
  linkTestValues(resources, operations, checking);
  if (problems.length > 0) throw new DeclarationError(`${shown}: invalid sandbox declaration:\n  ${problems.join("\n  ")}`);
  return { path, resources, operations, where };
}

/** The file against the declaration's schema: a problem per schema error. */
function checkFormat(raw: Json, { problem }: Checking): void {
  const validate = declarationSchema();
  if (validate(raw)) return;
  for (const error of validate.errors ?? []) {
    const tokens = error.instancePath.split("/").slice(1).map(unescapeToken);
    const params = error.params as Record<string, unknown>;
    if (error.keyword === "required") tokens.push(String(params.missingProperty));
    if (error.keyword === "additionalProperties") tokens.push(String(params.additionalProperty));
    const message =
      error.keyword === "required"
        ? "is required"
        : error.keyword === "additionalProperties"
          ? "is not a member of a sandbox declaration (see src/sandbox/README.md)"
          : error.keyword === "enum"
            ? `must be one of ${(params.allowedValues as string[]).join(", ")}`
            : (error.message ?? error.keyword);
    problem(tokens.join("."), message);
  }
}

/** The problems of a template at a member, each at the path inside it. */
function checkTemplateAt(template: Json, at: string, { problem }: Checking): void {
  for (const [path, message] of checkTemplate(template)) problem(`${at}${path ? `.${path}` : ""}`, message);
}

/** A resource as read, with the problems of its statuses, lifecycle, expiry, test values, status rules, callbacks and templates. */
function readResource(name: string, r: Json, checking: Checking): ResourceDeclaration {
  const member = `resources.${name}`;
  const resource: ResourceDeclaration = {
    name,
    source: r.source,
    convention: r.convention,
    schema: r.schema,
    singleton: r.singleton === true,
    id: { field: r.id.field, prefix: r.id.prefix ?? "", digits: r.id.digits === true },
    initial: r.initial,
    status: r.status,
    expiry: r.expiry,
    on: r.on,
    callbacks: r.callbacks ?? [],
    // The one rule of every test value: the member equals the value, compared without regard to case.
    testValues: (r.testValues ?? []).map((value: Json) => ({ ...value, when: { $eq: [value.member, value.value], ci: true } })),
  };
  if (r.status?.moves)
    resource.status = {
      ...r.status,
      moves: Object.fromEntries(Object.entries<Json>(r.status.moves).map(([moveName, m]) => [moveName, { name: moveName, ...m }])),
    };
  const target = refPointer(resource.schema);
  const schema = target === undefined ? undefined : locate(checking.doc, ...parsePointer(target)).value;
  if (!schema) {
    checking.problem(`${member}.schema`, `${resource.schema} is not a schema of the API's document`);
    return resource;
  }
  if (resource.singleton && resource.expiry) checking.problem(`${member}.expiry`, "a singleton does not expire");
  const checkStatus = statusCheck(resource, checking);
  if (resource.status) {
    try {
      checking.statuses.check(statusSchemaPointer(resource), resource.status.initial);
    } catch {
      checking.problem(`${member}.status.field`, `${resource.schema} has no member "${resource.status.field}"`);
      return resource;
    }
    for (const [i, value] of (resource.status.values ?? []).entries()) checkStatus(value, `${member}.status.values.${i}`);
    checkStatus(resource.status.initial, `${member}.status.initial`);
  }
  checkLifecycle(resource, member, checkStatus, checking);
  checkExpiry(resource, member, checkStatus, checking);
  resource.testValues.forEach((value, i) => {
    const at = `${member}.testValues.${i}`;
    const outcomes = (["move", "status", "refuse"] as const).filter((key) => value[key] !== undefined);
    if (outcomes.length !== 1)
      checking.problem(
        at,
        `a test value has one outcome: move (and after), status, or refuse (and detail); got ${outcomes.join(", ") || "none"}`,
      );
    if (value.move !== undefined && !resource.status?.moves?.[value.move])
      checking.problem(`${at}.move`, `"${value.move}" is not a move of status.moves`);
    if (value.after !== undefined && value.move === undefined) checking.problem(`${at}.after`, "only a move waits `after` seconds");
    if (value.status !== undefined) checkStatus(value.status, `${at}.status`);
    if ((value.refuse === undefined) !== (value.detail === undefined))
      checking.problem(
        `${at}.${value.refuse === undefined ? "refuse" : "detail"}`,
        "a refusing test value gives both `refuse` and `detail`",
      );
  });
  for (const [status, rule] of Object.entries(resource.on ?? {})) {
    if (!resource.status) checking.problem(`${member}.on`, "status rules need a status");
    else if (status !== "*") checkStatus(status, `${member}.on.${status}`);
    checkTemplateAt(rule.set, `${member}.on.${status}.set`, checking);
  }
  checkCallbacks(resource, member, checkStatus, checking);
  checkTemplateAt(resource.initial, `${member}.initial`, checking);
  if (resource.expiry)
    for (const key of ["at", "hours"] as const) checkTemplateAt(resource.expiry[key], `${member}.expiry.${key}`, checking);
  return resource;
}

type StatusCheck = (value: string, at: string) => void;

/** The check of a status a resource names: one of its declared values, and one its schema allows. */
function statusCheck(resource: ResourceDeclaration, { statuses, problem }: Checking): StatusCheck {
  return (value, at) => {
    if (!resource.status) return;
    if (resource.status.values && !resource.status.values.includes(value)) {
      problem(at, `"${value}" is not one of status.values (${resource.status.values.join(", ")})`);
    } else if (statuses.check(statusSchemaPointer(resource), value).length > 0) {
      problem(at, `"${value}" is not a status ${resource.schema} allows`);
    }
  };
}

function checkLifecycle(resource: ResourceDeclaration, member: string, checkStatus: StatusCheck, checking: Checking): void {
  for (const [i, value] of (resource.status?.final ?? []).entries()) checkStatus(value, `${member}.status.final.${i}`);
  for (const move of Object.values(resource.status?.moves ?? {})) {
    const at = `${member}.status.moves.${move.name}`;
    checkStatus(move.to, `${at}.to`);
    if (Array.isArray(move.from)) move.from.forEach((value, i) => checkStatus(value, `${at}.from.${i}`));
    if (Array.isArray(move.from) && move.from.some((value) => resource.status?.final?.includes(value)))
      checking.problem(`${at}.from`, "a final status is left by no move");
    checkTemplateAt(move.set, `${at}.set`, checking);
  }
}

function checkExpiry(resource: ResourceDeclaration, member: string, checkStatus: StatusCheck, { problem }: Checking): void {
  const expiry = resource.expiry;
  if (!expiry) return;
  if (!resource.status) problem(`${member}.expiry`, "an expiry rule needs a status (the status it moves the record to)");
  checkStatus(expiry.to, `${member}.expiry.to`);
  expiry.from.forEach((value, i) => checkStatus(value, `${member}.expiry.from.${i}`));
  const lifecycle = resource.status?.moves;
  if (!lifecycle) return;
  for (const from of expiry.from) {
    const moved = Object.values(lifecycle).some(
      (m) => m.to === expiry.to && (m.from === "*" ? !resource.status!.final?.includes(from) : m.from.includes(from)),
    );
    if (!moved) problem(`${member}.expiry.from`, `no move of status.moves goes from ${from} to ${expiry.to}`);
  }
}

function checkCallbacks(resource: ResourceDeclaration, member: string, checkStatus: StatusCheck, checking: Checking): void {
  const { doc, webhookNames, problem } = checking;
  resource.callbacks.forEach((callback, i) => {
    const at = `${member}.callbacks.${i}`;
    if (!resource.status) problem(at, "callbacks fire on status changes: the resource needs a status");
    if (!webhookNames.includes(callback.webhook)) {
      problem(
        `${at}.webhook`,
        `"${callback.webhook}" is not a webhook of the API (${webhookNames.length > 0 ? webhookNames.join(", ") : "it declares none"})`,
      );
    } else if (callback.codes) {
      const declared = (locate(doc, "webhooks", callback.webhook).value?.post?.["x-status-codes"] ?? []) as Array<{ code: unknown }>;
      for (const [status, code] of Object.entries(callback.codes)) {
        checkStatus(status, `${at}.codes.${status}`);
        if (!declared.some((d) => String(d.code) === String(code)))
          problem(`${at}.codes.${status}`, `${code} is not one of the webhook's x-status-codes`);
      }
    }
    if (Array.isArray(callback.when)) callback.when.forEach((value, j) => checkStatus(value, `${at}.when.${j}`));
    for (const key of ["url", "payload"] as const) checkTemplateAt(callback[key], `${at}.${key}`, checking);
  });
}

/** An operation as read, with the problems of its kind, resource, status move, effects and templates. */
function readOperation(
  operationId: string,
  o: Json,
  resources: Record<string, ResourceDeclaration>,
  checking: Checking,
): OperationDeclaration {
  const { doc, problem } = checking;
  const member = `operations.${operationId}`;
  const operation: OperationDeclaration = { operationId, ...o };
  const op = findOperation(doc, operationId);
  if (op?.section !== "paths") {
    problem(member, `"${operationId}" is not an operationId of the API's paths`);
    return operation;
  }
  const resource = resources[operation.resource];
  if (!resource) {
    problem(`${member}.resource`, `"${operation.resource}" is not a resource of this declaration (${Object.keys(resources).join(", ")})`);
    return operation;
  }
  const needsId = ["read", "update", "delete", "action"].includes(operation.kind) && !resource.singleton;
  if (operation.kind === "answer" && operation.answer === undefined) problem(member, "an answer needs `answer` (built from the request)");
  if (needsId && operation.id === undefined)
    problem(member, `a ${operation.kind} of ${resource.name} needs \`id\` (where the id comes from)`);
  if (operation.kind === "create" && resource.singleton)
    problem(`${member}.kind`, `${resource.name} is a singleton: it always exists, use kind update`);
  if (operation.kind === "create" && operation.record === undefined) problem(member, "a create needs `record`");
  if (operation.kind === "delete" && resource.singleton) problem(`${member}.kind`, `${resource.name} is a singleton and cannot be deleted`);
  if (operation.each !== undefined && operation.kind !== "create") problem(`${member}.each`, "only a create makes one record per item");
  if (operation.reject !== undefined && (operation.kind !== "create" || operation.each === undefined))
    problem(`${member}.reject`, "only a create with `each` rejects single items (`refuse` refuses a whole request)");
  if (operation.advance !== undefined && operation.kind !== "list")
    problem(`${member}.advance`, "only a list advances the records it lists");
  if (operation.advance !== undefined && !resource.status?.moves)
    problem(`${member}.advance`, `${resource.name} has no lifecycle (status.moves): a list advances its records by a named move`);
  if (operation.status) {
    if (operation.kind !== "update") problem(`${member}.status`, "only an update moves a status");
    if (!resource.status) problem(`${member}.status`, `${resource.name} has no status`);
    for (const [i, value] of (operation.status.from ?? []).entries()) {
      if (resource.status?.values && !resource.status.values.includes(value))
        problem(`${member}.status.from.${i}`, `"${value}" is not a status of ${resource.name}`);
    }
  }
  for (const [i, effect] of (operation.effects ?? []).entries()) {
    if (!resources[effect.resource]?.singleton)
      problem(`${member}.effects.${i}.resource`, `"${effect.resource}" is not a singleton resource of this declaration`);
  }
  const templates: Array<[string, Json]> = [
    ["id", operation.id],
    ["each", operation.each],
    ["shared", operation.shared],
    ["record", operation.record],
    ["status.value", operation.status?.value],
    ["filter", operation.filter],
    ["limit", operation.limit],
    ["effects", operation.effects],
    ["refuse", operation.refuse],
    ["reject", operation.reject],
    ["advance", operation.advance],
    ["answer", operation.answer],
  ];
  for (const [key, template] of templates) checkTemplateAt(template, `${member}.${key}`, checking);
  return operation;
}

/**
 * Each test value given to the operation it names (`OperationDeclaration.testValues`), with the
 * problems of a value that does not fit it: an operation of another resource or none, a move or a
 * status on an operation that creates nothing, `$item` on an operation without `each`, a refusal
 * read from an item.
 */
function linkTestValues(
  resources: Record<string, ResourceDeclaration>,
  operations: Record<string, OperationDeclaration>,
  { problem }: Checking,
): void {
  for (const resource of Object.values(resources)) {
    resource.testValues.forEach((value, i) => {
      const at = `resources.${resource.name}.testValues.${i}`;
      const operation = Object.hasOwn(operations, value.operation) ? operations[value.operation] : undefined;
      if (operation?.resource !== resource.name) {
        const own = Object.values(operations).filter((o) => o.resource === resource.name);
        problem(
          `${at}.operation`,
          `"${value.operation}" is not an operation of ${resource.name} in this declaration (${own.map((o) => o.operationId).join(", ") || "none"})`,
        );
        return;
      }
      if ((value.move !== undefined || value.status !== undefined) && operation.kind !== "create")
        problem(at, `${value.operation} is a ${operation.kind}: only a create's new record takes a move or a status`);
      const fromItem = value.member.startsWith("$item.");
      if (fromItem && operation.each === undefined)
        problem(`${at}.member`, `${value.operation} has no \`each\`: read the value from $request`);
      if (fromItem && value.refuse !== undefined)
        problem(`${at}.member`, "a refusal answers the whole request: read its value from $request");
      (operation.testValues ??= []).push(value);
    });
  }
}

/** The declaration of an API, or undefined when it has none (then the sandbox keeps no resources for it). */
export function declarationOf(entry: ApiEntry, doc: Doc, path = declarationPath(entry), statuses?: SpecValidator): Declaration | undefined {
  return existsSync(path) ? loadDeclaration(path, doc, statuses) : undefined;
}
