/**
 * The format of a sandbox declaration (`specs/<service>/<release>/sandbox.yaml`, described in
 * src/sandbox/README.md): its types once read (Declaration, ResourceDeclaration,
 * OperationDeclaration...) and its JSON Schema (DECLARATION_SCHEMA), which ./declaration.ts checks
 * a file against before checking it against the API's document.
 */
import type { Json } from "./values.js";
import { SOURCE_PATTERN } from "../sources.js";

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
 * A test value: a request whose `member` equals `value` (compared as text without regard to case, the
 * one rule of every test value: `when` is built from them, never declared) gets one outcome: the new
 * record takes the move `move` at once or `after` seconds later on the sandbox clock; or it is
 * created in `status` (no event); or the request is refused `refuse` with `detail`. The sandbox's own
 * convention, listed by GET /_sandbox and documented in docs/guides/sandbox-test-values.md.
 */
export interface TestValueDeclaration {
  name: string;
  /** The operation whose requests it reads (one of the declaration's operations on this resource). */
  operation: string;
  /** Where the value is: `$request.<path>`, or `$item.<path>` for an item of a create with `each`. */
  member: string;
  value: string;
  move?: string;
  after?: number;
  status?: string;
  refuse?: number;
  detail?: string;
  description: string;
  convention?: string;
  source?: string;
  /** `{ $eq: [member, value], ci: true }`, made by the declaration's reader. */
  when: Json;
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
  /** Test values: request values that produce an outcome (./engine/apply.ts applies them). */
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
  /**
   * create with `each`: items the service does not create, each with its error: the first rule whose
   * `when` holds for an item (`$item`, evaluated after the order's earlier items were created) makes
   * its outcome `{ item, error: { code, message: detail } }` in `$outcomes`; the other items are created.
   */
  reject?: RejectDeclaration[];
  /** The resource's test values that name this operation (made by the declaration's reader). */
  testValues?: TestValueDeclaration[];
  /** list: each record listed takes this action (a template, `$item` the record) where its lifecycle allows it. */
  advance?: Json;
  answer?: Json;
}

/** A rule of single items of a create with `each` (./engine/apply.ts): an item for which `when` holds is not created. */
export interface RejectDeclaration {
  when: Json;
  /** The error's code in the item's outcome. */
  code: string;
  /** The error's message: the rule. */
  detail: string;
  source?: string;
  convention?: string;
}

export interface Declaration {
  /** Absolute path of the file. */
  path: string;
  resources: Record<string, ResourceDeclaration>;
  operations: Record<string, OperationDeclaration>;
  /** `file:line:col` of a member, by dotted path (`operations.createInvoice.record`). */
  where(path: string): string;
}

const SOURCE = {
  type: "string",
  pattern: SOURCE_PATTERN,
  description: "the provider's document by its title, and a line: Pay Service Interface, line 147",
};
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
              required: ["name", "operation", "member", "value", "description", "convention"],
              additionalProperties: false,
              properties: {
                name: { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
                operation: { type: "string" },
                member: { type: "string", pattern: "^\\$(request|item)(\\.[^.\\s{}]+)+$" },
                value: { type: "string", minLength: 1 },
                move: { type: "string" },
                after: { type: "integer", minimum: 0, maximum: 86_400 },
                status: { type: "string" },
                refuse: { type: "integer", minimum: 400, maximum: 599 },
                detail: { type: "string" },
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
          reject: {
            type: "array",
            items: {
              type: "object",
              required: ["when", "code", "detail"],
              anyOf: [{ required: ["source"] }, { required: ["convention"] }],
              additionalProperties: false,
              properties: {
                when: TEMPLATE,
                code: { type: "string", minLength: 1 },
                detail: { type: "string", minLength: 1 },
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
