/**
 * GET /_sandbox: what this sandbox simulates, as the control document's SandboxDescription: the
 * declaration's resources (id member, statuses, lifecycle, expiry, test values, callbacks, each with
 * the source it comes from), what the sandbox does for each operation and the error statuses it
 * declares, the webhooks, the bounds, the memory in use and the retry policy; the operator's
 * settings only for a call with the operator's token.
 */
import { relative } from "node:path";
import { responseKey } from "../../document/index.js";
import { packageRoot } from "../../registry.js";
import { KINDS, type OperationDeclaration, type TestValueDeclaration } from "../declaration.js";
import type { EngineContext } from "../engine/context.js";
import { movesOnlyFrom } from "../engine/apply.js";
import { statusValues } from "../engine/lifecycle.js";
import { LIMITS } from "../store/limits.js";

/** LIMITS members that are the operator's settings (options of the sandbox): shown in GET /_sandbox's `settings`, to the operator. */
const OPERATOR_SETTINGS = new Set(["evictIdleSeconds", "memoryBytes", "deliveryQueue", "deliveryQueueLocal", "deliveryQueueTotal"]);
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The error statuses (400-599) an operation declares; a range (`4XX`) or `default` stands for each status it covers. */
export function errorStatuses(engine: EngineContext, operationId: string): number[] {
  const op = engine.operation(operationId);
  if (!op) return [];
  const out: number[] = [];
  for (let status = 400; status <= 599; status++) {
    const key = responseKey(op, status);
    if (key === undefined) continue;
    if (key === String(status) || /^[45]XX$/i.test(key) || key === "default") {
      // Name the codes a partner can expect: exact ones, and for a range or default only the common ones.
      if (key === String(status) || [400, 401, 403, 404, 409, 422, 429, 500, 502, 503].includes(status)) out.push(status);
    }
  }
  return out;
}

/**
 * A test value's member as a partner writes it in the request: `item_id`, `customer.email`, and for
 * an item of a create with `each` the list and the item's member (`disbursements[].description`).
 */
function memberName(engine: EngineContext, value: TestValueDeclaration): string {
  const path = value.member.slice(value.member.indexOf(".") + 1);
  if (!value.member.startsWith("$item.")) return path;
  const each = engine.declaration?.operations[value.operation]?.each ?? "";
  return `${each.slice(each.indexOf(".") + 1)}[].${path}`;
}

/** A rule's reason and where it comes from, as partners read them (the documents by title). */
const ruleView = (rule: { detail: string; source?: string; convention?: string }) => ({
  detail: rule.detail,
  ...(rule.source ? { source: rule.source } : {}),
  ...(rule.convention ? { convention: rule.convention } : {}),
});

/**
 * An operation's convention and the rules a partner meets before meeting them: the refusals of a
 * whole request in the order the engine tries them (`refuse`, the refusing test values, an update's
 * `status.from`), and the errors of single items (`reject`).
 */
function rulesOf(declared: OperationDeclaration) {
  const refusals = [
    ...(declared.refuse ?? []).map((r) => ({ status: r.status, ...ruleView({ ...r, source: r.source ?? declared.source }) })),
    ...(declared.testValues ?? [])
      .filter((v) => v.refuse !== undefined)
      .map((v) => ({
        status: v.refuse!,
        ...ruleView({ detail: v.detail!, source: v.source ?? declared.source, convention: v.convention }),
      })),
    ...(declared.status?.from
      ? [
          {
            status: declared.status.refuse ?? 409,
            ...ruleView({
              detail: movesOnlyFrom(declared, declared.status.from),
              source: declared.status.source ?? declared.source,
              convention: declared.status.convention,
            }),
          },
        ]
      : []),
  ];
  return {
    ...(declared.convention ? { convention: declared.convention } : {}),
    ...(refusals.length > 0 ? { refusals } : {}),
    ...(declared.reject?.length ? { item_errors: declared.reject.map((r) => ({ code: r.code, ...ruleView(r) })) } : {}),
  };
}

/** The declaration's resources, as the description lists them. */
function resourcesOf(engine: EngineContext) {
  return Object.values(engine.declaration?.resources ?? {}).map((r) => ({
    name: r.name,
    source: r.source,
    ...(r.convention ? { convention: r.convention } : {}),
    singleton: r.singleton,
    id_field: r.id.field,
    ...(r.status ? { status_field: r.status.field, initial_status: r.status.initial } : {}),
    ...(r.status && statusValues(engine, r) ? { statuses: statusValues(engine, r) } : {}),
    ...(r.expiry ? { expiry: { to: r.expiry.to, from: r.expiry.from, source: r.expiry.source } } : {}),
    ...(r.status?.moves
      ? {
          lifecycle: {
            final: r.status.final ?? [],
            actions: Object.values(r.status.moves).map((m) => ({
              action: m.name,
              from: m.from === "*" ? "*" : m.from,
              to: m.to,
              ...(m.source ? { source: m.source } : {}),
              ...(m.convention ? { convention: m.convention } : {}),
            })),
          },
        }
      : {}),
    ...(r.testValues.length > 0
      ? {
          test_values: r.testValues.map((v) => ({
            name: v.name,
            operation_id: v.operation,
            member: memberName(engine, v),
            value: v.value,
            ...(v.move === undefined ? {} : { action: v.move }),
            ...(v.after ? { after_seconds: v.after } : {}),
            ...(v.status === undefined ? {} : { status: v.status }),
            ...(v.refuse === undefined ? {} : { refuse: v.refuse }),
            description: v.description,
          })),
        }
      : {}),
    callbacks: r.callbacks.map((c) => ({
      webhook: c.webhook,
      when: c.when,
      url: c.url,
      registrable: JSON.stringify(c.url).includes("$callbackUrl"),
      source: c.source,
      ...(c.convention ? { convention: c.convention } : {}),
    })),
  }));
}

/**
 * GET /_sandbox: the declaration and the API's operations, as the control document's
 * SandboxDescription; the operator's settings (`settings`: the callback allow-list, the eviction
 * window, the queue bounds, the memory budget) only for a call with the operator's token.
 */
export function describe(engine: EngineContext, operator = false) {
  const declaration = engine.declaration;
  const operations = engine.operations.map((op) => {
    const declared = declaration?.operations[op.operationId];
    return {
      operation_id: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      sandbox: declared && (KINDS as readonly string[]).includes(declared.kind) ? declared.kind : "static",
      ...(declared ? { resource: declared.resource, source: declared.source } : {}),
      error_statuses: errorStatuses(engine, op.operationId),
      ...(declared ? rulesOf(declared) : {}),
    };
  });
  const limits = Object.fromEntries(
    Object.entries(LIMITS)
      .filter(([k]) => !OPERATOR_SETTINGS.has(k))
      .map(([k, v]) => [snake(k), v]),
  );
  const policy = engine.deliverer.policy;
  const store = engine.store;
  return {
    alias: engine.entry.alias,
    ...(declaration ? { declaration: relative(packageRoot, declaration.path) } : {}),
    resources: resourcesOf(engine),
    operations,
    webhooks: Object.keys(engine.doc.webhooks ?? {}),
    limits,
    memory: {
      budget_bytes: store.budget.limit,
      used_bytes: store.budget.used,
      credentials: store.size,
      queued_callbacks: engine.deliverer.queued(),
    },
    sharing: {
      mode: engine.deliverer.targets.describe().mode,
      operator_token: engine.operator !== undefined,
    },
    ...(operator
      ? {
          settings: {
            callback_allow: engine.deliverer.targets.describe().callback_allow,
            memory_budget_bytes: store.budget.limit,
            evict_idle_seconds: store.evictIdleSeconds,
            delivery_queue: engine.deliverer.queue.perCredential,
            delivery_queue_total: engine.deliverer.queue.total,
          },
        }
      : {}),
    retry: {
      attempts: policy.attempts,
      base_delay_ms: policy.baseDelayMs,
      max_delay_ms: policy.maxDelayMs,
      timeout_ms: policy.timeoutMs,
    },
  };
}
