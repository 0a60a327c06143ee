/**
 * The sandbox declaration of an API: `specs/<service>/<release>/sandbox.yaml`, beside the API's root
 * spec. It says, as data, what the sandbox keeps and does for that API (the format is in
 * src/sandbox/README.md and DECLARATION_SCHEMA below):
 *
 * - `resources`: what is stored (id member and prefix, the schema a record is shaped by, its status
 *   member with the initial status, its expiry rule, what happens when it enters a status, which
 *   webhook fires and where the URL comes from);
 * - `operations`: by operationId, what each operation does to a resource (create, read, list,
 *   update, delete, or `action`: only checks that the record exists), where the id comes from, how
 *   the record is built from the request and how the answer is built (templates, ./template.ts).
 *
 * Every resource, status rule, expiry rule, callback and operation names the source it comes from
 * (`source: <seed file>:<line>`); a choice the sources do not make is marked `convention:` with the
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
import { bytesHash, declarationPath } from "./start.js";
import { checkTemplate, type Json } from "./template.js";

export const KINDS = ["create", "read", "list", "update", "delete", "action", "answer"] as const;
export type Kind = (typeof KINDS)[number];

export interface CallbackDeclaration {
  webhook: string;
  /** Statuses whose entry fires it; `"*"`: any status change. */
  when: string[] | "*";
  /** Where it goes: a template, e.g. `$callbackUrl` (registered through the control API) or `$resource.merchant.webhook_url`. */
  url: Json;
  /** Status -> the webhook's status code (its `x-status-codes`), available to the payload as `$event.code` and `$event.codeStatus`. */
  codes?: Record<string, number | string>;
  payload: Json;
  source: string;
  convention?: string;
}

/**
 * A named move of a resource's lifecycle (an action: `pay`, `fail`, `expire`, `cancel`...): from
 * which statuses (`"*"`: every status that is not final) to which, what it sets besides the
 * status (template), and where it comes from. The event it raises is `<resource>.<name>`.
 */
export interface MoveDeclaration {
  name: string;
  from: string[] | "*";
  to: string;
  set?: Json;
  description?: string;
  source?: string;
  convention?: string;
}

/** A resource's status member and, when `moves` is declared, its lifecycle (enforced everywhere). */
export interface StatusDeclaration {
  field: string;
  initial: string;
  values?: string[];
  /** Statuses no move leaves. */
  final?: string[];
  /** The lifecycle: the only status changes allowed (absent: any status to any other). */
  moves?: Record<string, MoveDeclaration>;
  source: string;
  convention?: string;
}

/**
 * A test value: a request for which `when` (a template) is truthy makes the new record take the
 * move `move` at once, or `after` seconds later on the sandbox clock. The sandbox's own convention,
 * documented in docs/guides/sandbox.md.
 */
export interface TestValueDeclaration {
  name: string;
  when: Json;
  move: string;
  after?: number;
  description: string;
  convention?: string;
  source?: string;
}

export interface ResourceDeclaration {
  name: string;
  source: string;
  convention?: string;
  /** Pointer of the schema a record is shaped and checked by, e.g. `#/components/schemas/Invoice`. */
  schema: string;
  singleton: boolean;
  /** The id member; new ids are `prefix` and 16 random base32 characters (`digits`: decimal digits). */
  id: { field: string; prefix: string; digits: boolean };
  /** A singleton's record when the credential first touches it (template). */
  initial?: Json;
  status?: StatusDeclaration;
  expiry?: { at?: Json; hours?: Json; to: string; from: string[]; source: string; convention?: string };
  /** Members set when the record enters a status (`"*"`: any status change), templates. */
  on?: Record<string, { set: Json; source?: string; convention?: string }>;
  callbacks: CallbackDeclaration[];
  /** Test values: request values that produce an outcome (./engine.ts applies them on create). */
  testValues: TestValueDeclaration[];
}

export interface OperationDeclaration {
  operationId: string;
  source: string;
  convention?: string;
  resource: string;
  kind: Kind;
  /** Where the id comes from (a reference, e.g. `$params.invoice_id`). */
  id?: string;
  /** create: one record per item of this list (`$item`, `$index`). */
  each?: string;
  /** create: values computed once per request (`$shared.<name>`). */
  shared?: Record<string, Json>;
  record?: Json;
  status?: { value: Json; from?: string[]; refuse?: number; source?: string; convention?: string };
  /** list: keep the records whose `field` equals `value` (one of, for a list), or whose time lies in [from, to]. */
  filter?: Array<{ field: string; value?: Json; from?: Json; to?: Json; notFound?: boolean }>;
  order?: "oldest" | "newest";
  limit?: Json;
  effects?: Array<{ when?: Json; resource: string; set?: Json; unset?: string[] }>;
  /** Requests the service refuses: the first rule whose `when` holds answers `status` (nothing is stored). */
  refuse?: Array<{ when: Json; status: number; detail: string; source?: string; convention?: string }>;
  /** list: each record listed takes this action (a template, `$item` the record) where its lifecycle allows it. */
  advance?: Json;
  answer?: Json;
}

export interface Declaration {
  /** Absolute path of the file. */
  path: string;
  resources: Record<string, ResourceDeclaration>;
  operations: Record<string, OperationDeclaration>;
  /** `file:line:col` of a member, by dotted path (`operations.createInvoice.record`). */
  where(path: string): string;
}

export { declarationPath };

const SOURCE = { type: "string", pattern: "^[\\w.-]+\\.txt:\\d+(-\\d+)?$", description: "seed file and line, e.g. 000_x.txt:147" };
const TEMPLATE = {};
const STATUS_LIST = { type: "array", items: { type: "string" }, minItems: 1 };

/** The format of a declaration file (JSON Schema 2020-12). */
export const DECLARATION_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["sandbox", "resources", "operations"],
  additionalProperties: false,
  properties: {
    sandbox: { const: 1, description: "format version" },
    description: { type: "string" },
    resources: {
      type: "object",
      minProperties: 1,
      propertyNames: { pattern: "^[a-z][A-Za-z0-9]*$" },
      additionalProperties: {
        type: "object",
        required: ["source", "schema", "id"],
        additionalProperties: false,
        properties: {
          source: SOURCE,
          convention: { type: "string" },
          description: { type: "string" },
          schema: { type: "string", pattern: "^#/" },
          singleton: { type: "boolean" },
          id: {
            type: "object",
            required: ["field"],
            additionalProperties: false,
            properties: {
              field: { type: "string", minLength: 1 },
              prefix: { type: "string", pattern: "^[A-Za-z0-9_-]*$" },
              digits: { type: "boolean" },
            },
          },
          initial: TEMPLATE,
          status: {
            type: "object",
            required: ["field", "initial", "source"],
            additionalProperties: false,
            properties: {
              field: { type: "string" },
              initial: { type: "string" },
              values: STATUS_LIST,
              final: { type: "array", items: { type: "string" } },
              moves: {
                type: "object",
                propertyNames: { pattern: "^[a-z][a-z0-9_]*$" },
                additionalProperties: {
                  type: "object",
                  required: ["from", "to"],
                  anyOf: [{ required: ["source"] }, { required: ["convention"] }],
                  additionalProperties: false,
                  properties: {
                    from: { anyOf: [STATUS_LIST, { const: "*" }] },
                    to: { type: "string" },
                    set: { type: "object" },
                    description: { type: "string" },
                    source: SOURCE,
                    convention: { type: "string" },
                  },
                },
              },
              source: SOURCE,
              convention: { type: "string" },
            },
          },
          testValues: {
            type: "array",
            items: {
              type: "object",
              required: ["name", "when", "move", "description", "convention"],
              additionalProperties: false,
              properties: {
                name: { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
                when: TEMPLATE,
                move: { type: "string" },
                after: { type: "integer", minimum: 0, maximum: 86_400 },
                description: { type: "string" },
                source: SOURCE,
                convention: { type: "string" },
              },
            },
          },
          expiry: {
            type: "object",
            required: ["to", "from", "source"],
            anyOf: [{ required: ["at"] }, { required: ["hours"] }],
            additionalProperties: false,
            properties: {
              at: TEMPLATE,
              hours: TEMPLATE,
              to: { type: "string" },
              from: STATUS_LIST,
              source: SOURCE,
              convention: { type: "string" },
            },
          },
          on: {
            type: "object",
            additionalProperties: {
              type: "object",
              required: ["set"],
              additionalProperties: false,
              properties: { set: { type: "object" }, source: SOURCE, convention: { type: "string" } },
            },
          },
          callbacks: {
            type: "array",
            items: {
              type: "object",
              required: ["webhook", "when", "url", "payload", "source"],
              additionalProperties: false,
              properties: {
                webhook: { type: "string" },
                when: { anyOf: [STATUS_LIST, { const: "*" }] },
                url: TEMPLATE,
                codes: { type: "object", additionalProperties: { type: ["integer", "string"] } },
                payload: TEMPLATE,
                source: SOURCE,
                convention: { type: "string" },
              },
            },
          },
        },
      },
    },
    operations: {
      type: "object",
      additionalProperties: {
        type: "object",
        required: ["source", "resource", "kind"],
        additionalProperties: false,
        properties: {
          source: SOURCE,
          convention: { type: "string" },
          description: { type: "string" },
          resource: { type: "string" },
          kind: { enum: [...KINDS] },
          id: { type: "string", pattern: "^\\$" },
          each: { type: "string", pattern: "^\\$" },
          shared: { type: "object" },
          record: TEMPLATE,
          status: {
            type: "object",
            required: ["value"],
            additionalProperties: false,
            properties: {
              value: TEMPLATE,
              from: STATUS_LIST,
              refuse: { type: "integer", minimum: 400, maximum: 599 },
              source: SOURCE,
              convention: { type: "string" },
            },
          },
          filter: {
            type: "array",
            items: {
              type: "object",
              required: ["field"],
              anyOf: [{ required: ["value"] }, { required: ["from"] }, { required: ["to"] }],
              additionalProperties: false,
              properties: { field: { type: "string" }, value: TEMPLATE, from: TEMPLATE, to: TEMPLATE, notFound: { type: "boolean" } },
            },
          },
          order: { enum: ["oldest", "newest"] },
          limit: TEMPLATE,
          effects: {
            type: "array",
            items: {
              type: "object",
              required: ["resource"],
              anyOf: [{ required: ["set"] }, { required: ["unset"] }],
              additionalProperties: false,
              properties: {
                when: TEMPLATE,
                resource: { type: "string" },
                set: { type: "object" },
                unset: { type: "array", items: { type: "string" } },
              },
            },
          },
          refuse: {
            type: "array",
            items: {
              type: "object",
              required: ["when", "status", "detail"],
              anyOf: [{ required: ["source"] }, { required: ["convention"] }],
              additionalProperties: false,
              properties: {
                when: TEMPLATE,
                status: { type: "integer", minimum: 400, maximum: 599 },
                detail: { type: "string" },
                source: SOURCE,
                convention: { type: "string" },
              },
            },
          },
          advance: TEMPLATE,
          answer: TEMPLATE,
        },
      },
    },
  },
} as const;

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
 * Notes that the declaration at `path` with these bytes (./start.ts `bytesHash`) passed its check against
 * `doc` (./start.ts knows it from a mark kept between starts): `loadDeclaration` then reads it without
 * checking it again, as long as its bytes are these. Other bytes are checked as always.
 */
export function trustDeclaration(doc: Doc, path: string, hash: string): void {
  let paths = trusted.get(doc);
  if (!paths) trusted.set(doc, (paths = new Map()));
  paths.set(path, hash);
}

/** The status check of a trusted declaration: it passed already. */
const PASSED: SpecValidator = { check: () => [], test: () => true, validate: () => ({ valid: true, errors: "" }) };

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
  const statuses = passed ? PASSED : (given ?? specValidator(doc));
  const text = bytes.toString("utf8");
  const lineCounter = new LineCounter();
  const parsed = parseDocument(text, { lineCounter });
  if (parsed.errors.length > 0) throw new DeclarationError(`${shown}: not valid YAML: ${parsed.errors[0].message}`);
  const position = positionFinder(parsed, lineCounter);
  const where = (member: string) => {
    const { line, col } = position(member);
    return `${shown}:${line}:${col}`;
  };
  const raw: Json = parsed.toJS();
  const problems: string[] = [];
  const problem = (member: string, message: string) => problems.push(`${where(member)} ${member || "(root)"}: ${message}`);

  const validate = passed ? undefined : declarationSchema();
  if (validate && !validate(raw)) {
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
    throw new DeclarationError(`${shown}: invalid sandbox declaration:\n  ${[...new Set(problems)].join("\n  ")}`);
  }

  const webhookNames = webhooks(doc).map((w) => w.path);
  const resources: Record<string, ResourceDeclaration> = {};
  for (const [name, r] of Object.entries<Json>(raw.resources)) {
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
      testValues: r.testValues ?? [],
    };
    if (r.status?.moves)
      resource.status = {
        ...r.status,
        moves: Object.fromEntries(Object.entries<Json>(r.status.moves).map(([moveName, m]) => [moveName, { name: moveName, ...m }])),
      };
    resources[name] = resource;
    const target = refPointer(resource.schema);
    const schema = target === undefined ? undefined : locate(doc, ...parsePointer(target)).value;
    if (!schema) {
      problem(`${member}.schema`, `${resource.schema} is not a schema of the API's document`);
      continue;
    }
    if (resource.singleton && resource.expiry) problem(`${member}.expiry`, "a singleton does not expire");
    const checkStatus = (value: string, at: string) => {
      if (!resource.status) return;
      if (resource.status.values && !resource.status.values.includes(value)) {
        problem(at, `"${value}" is not one of status.values (${resource.status.values.join(", ")})`);
      } else if (statuses.check(statusSchemaPointer(resource), value).length > 0) {
        problem(at, `"${value}" is not a status ${resource.schema} allows`);
      }
    };
    if (resource.status) {
      try {
        statuses.check(statusSchemaPointer(resource), resource.status.initial);
      } catch {
        problem(`${member}.status.field`, `${resource.schema} has no member "${resource.status.field}"`);
        continue;
      }
      for (const [i, value] of (resource.status.values ?? []).entries()) checkStatus(value, `${member}.status.values.${i}`);
      checkStatus(resource.status.initial, `${member}.status.initial`);
    }
    const lifecycle = resource.status?.moves;
    for (const [i, value] of (resource.status?.final ?? []).entries()) checkStatus(value, `${member}.status.final.${i}`);
    for (const move of Object.values(lifecycle ?? {})) {
      const at = `${member}.status.moves.${move.name}`;
      checkStatus(move.to, `${at}.to`);
      if (Array.isArray(move.from)) move.from.forEach((value, i) => checkStatus(value, `${at}.from.${i}`));
      if (Array.isArray(move.from) && move.from.some((value) => resource.status?.final?.includes(value)))
        problem(`${at}.from`, "a final status is left by no move");
      for (const [path, message] of checkTemplate(move.set)) problem(`${at}.set${path ? `.${path}` : ""}`, message);
    }
    if (resource.expiry) {
      if (!resource.status) problem(`${member}.expiry`, "an expiry rule needs a status (the status it moves the record to)");
      checkStatus(resource.expiry.to, `${member}.expiry.to`);
      resource.expiry.from.forEach((value, i) => checkStatus(value, `${member}.expiry.from.${i}`));
      if (lifecycle)
        for (const from of resource.expiry.from)
          if (
            !Object.values(lifecycle).some(
              (m) => m.to === resource.expiry!.to && (m.from === "*" ? !resource.status!.final?.includes(from) : m.from.includes(from)),
            )
          )
            problem(`${member}.expiry.from`, `no move of status.moves goes from ${from} to ${resource.expiry.to}`);
    }
    resource.testValues.forEach((value, i) => {
      const at = `${member}.testValues.${i}`;
      if (!lifecycle?.[value.move]) problem(`${at}.move`, `"${value.move}" is not a move of status.moves`);
      for (const [path, message] of checkTemplate(value.when)) problem(`${at}.when${path ? `.${path}` : ""}`, message);
    });
    for (const [status, rule] of Object.entries(resource.on ?? {})) {
      if (!resource.status) problem(`${member}.on`, "status rules need a status");
      else if (status !== "*") checkStatus(status, `${member}.on.${status}`);
      for (const [path, message] of checkTemplate(rule.set)) problem(`${member}.on.${status}.set${path ? `.${path}` : ""}`, message);
    }
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
      for (const key of ["url", "payload"] as const)
        for (const [path, message] of checkTemplate(callback[key])) problem(`${at}.${key}${path ? `.${path}` : ""}`, message);
    });
    for (const key of ["initial"] as const)
      for (const [path, message] of checkTemplate(resource[key])) problem(`${member}.${key}${path ? `.${path}` : ""}`, message);
    if (resource.expiry)
      for (const key of ["at", "hours"] as const)
        for (const [path, message] of checkTemplate(resource.expiry[key]))
          problem(`${member}.expiry.${key}${path ? `.${path}` : ""}`, message);
  }

  const operations: Record<string, OperationDeclaration> = {};
  for (const [operationId, o] of Object.entries<Json>(raw.operations)) {
    const member = `operations.${operationId}`;
    const operation: OperationDeclaration = { operationId, ...o };
    operations[operationId] = operation;
    const op = findOperation(doc, operationId);
    if (op?.section !== "paths") {
      problem(member, `"${operationId}" is not an operationId of the API's paths`);
      continue;
    }
    const resource = resources[operation.resource];
    if (!resource) {
      problem(`${member}.resource`, `"${operation.resource}" is not a resource of this declaration (${Object.keys(resources).join(", ")})`);
      continue;
    }
    const needsId = ["read", "update", "delete", "action"].includes(operation.kind) && !resource.singleton;
    if (operation.kind === "answer" && operation.answer === undefined) problem(member, "an answer needs `answer` (built from the request)");
    if (needsId && operation.id === undefined)
      problem(member, `a ${operation.kind} of ${resource.name} needs \`id\` (where the id comes from)`);
    if (operation.kind === "create" && resource.singleton)
      problem(`${member}.kind`, `${resource.name} is a singleton: it always exists, use kind update`);
    if (operation.kind === "create" && operation.record === undefined) problem(member, "a create needs `record`");
    if (operation.kind === "delete" && resource.singleton)
      problem(`${member}.kind`, `${resource.name} is a singleton and cannot be deleted`);
    if (operation.each !== undefined && operation.kind !== "create") problem(`${member}.each`, "only a create makes one record per item");
    if (operation.advance !== undefined && operation.kind !== "list")
      problem(`${member}.advance`, "only a list advances the records it lists");
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
      ["advance", operation.advance],
      ["answer", operation.answer],
    ];
    for (const [key, template] of templates)
      for (const [path, message] of checkTemplate(template)) problem(`${member}.${key}${path ? `.${path}` : ""}`, message);
  }

  if (problems.length > 0) throw new DeclarationError(`${shown}: invalid sandbox declaration:\n  ${problems.join("\n  ")}`);
  return { path, resources, operations, where };
}

/** The declaration of an API, or undefined when it has none (then the sandbox keeps no resources for it). */
export function declarationOf(entry: ApiEntry, doc: Doc, path = declarationPath(entry), statuses?: SpecValidator): Declaration | undefined {
  return existsSync(path) ? loadDeclaration(path, doc, statuses) : undefined;
}
