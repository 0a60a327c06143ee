/**
 * `sandboxControl(mockUrl, credential)`: a typed client of the sandbox control API
 * (./openapi.yaml, types in generated/sandbox/schema.ts), exported by the testing entry. Each method
 * resolves to the answer's body, or rejects with a SandboxControlError carrying the problem's
 * `detail`, `field` and status. The credential (the same value the test's API requests carry) is
 * sent as `Authorization: Bearer <value>`, which the control API accepts for every API.
 *
 *     const control = sandboxControl(mock.url, "test-token");
 *     await control.act("invoice", invoiceId, "pay", { deliverTwice: true });
 *     await control.setStatus("invoice", invoiceId, "Success"); // refused 409 once it is paid
 *     await control.advanceClock(24 * 3600);
 *     await control.queueError("createInvoice", 500);
 */
import createClient, { type Client } from "openapi-fetch";
import type { ApiAlias, OperationId } from "../../generated/registry-types.js";
import type { SandboxDeclarations } from "../../generated/sandbox/declarations.js";
import type { components, paths } from "../../generated/sandbox/schema.js";

export type SandboxSchemas = components["schemas"];

/** The API a control client is typed for (`{ api: "pay@1.3.0" }`), or `undefined`: any string goes. */
type Api = ApiAlias | undefined;
/** The resources of `A`'s sandbox declaration. */
export type SandboxResource<A extends Api> = A extends ApiAlias ? keyof SandboxDeclarations[A] & string : string;
/** The `K` names (statuses or actions) of resource `R` of `A`'s declaration; any string without an API. */
type DeclaredNames<A extends Api, R extends string, K extends "statuses" | "actions"> = A extends ApiAlias
  ? R extends keyof SandboxDeclarations[A]
    ? SandboxDeclarations[A][R] extends Record<K, infer S>
      ? S
      : never
    : never
  : string;
/** The statuses the lifecycle of resource `R` of `A` names. */
export type SandboxStatus<A extends Api, R extends string> = DeclaredNames<A, R, "statuses">;
/** The actions of the lifecycle of resource `R` of `A`. */
export type SandboxAction<A extends Api, R extends string> = DeclaredNames<A, R, "actions">;
/** The operationIds of `A`. */
export type SandboxOperation<A extends Api> = A extends ApiAlias ? OperationId<A> : string;

/** A 4xx/5xx answer of the control API. */
export class SandboxControlError extends Error {
  override readonly name = "SandboxControlError";
  constructor(
    readonly status: number,
    message: string,
    /** The member of the input concerned, when the control API names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * The control client. Typed for an API (`sandboxControl(url, credential, { api: "pay@1.3.0" })`), an
 * unknown operation, resource, status or action of that API fails to compile.
 */
export interface SandboxControl<A extends Api = undefined> {
  /** The underlying openapi-fetch client (paths of the control API). */
  readonly client: Client<paths>;
  describe(): Promise<SandboxSchemas["SandboxDescription"]>;
  state(): Promise<SandboxSchemas["State"]>;
  reset(): Promise<SandboxSchemas["ResetResult"]>;
  /** Every credential's state in summary: the sandbox operator's call, with the operator token (X-Sandbox-Operator-Token). */
  listStates(operatorToken: string): Promise<SandboxSchemas["StateSummary"]>;
  /** Resets every credential's state: the sandbox operator's call, with the operator token. */
  resetAll(operatorToken: string): Promise<SandboxSchemas["ResetResult"]>;
  record(resource: SandboxResource<A>, id: string): Promise<SandboxSchemas["Record"]>;
  setStatus<R extends SandboxResource<A>>(
    resource: R,
    id: string,
    status: SandboxStatus<A, R>,
    options?: { deliverTwice?: boolean },
  ): Promise<SandboxSchemas["StatusMove"]>;
  /** Takes a named action of the record's lifecycle (`pay`, `fail`, `expire`, `cancel`...). */
  act<R extends SandboxResource<A>>(
    resource: R,
    id: string,
    action: SandboxAction<A, R>,
    options?: { deliverTwice?: boolean },
  ): Promise<SandboxSchemas["StatusMove"]>;
  /** The credential's events (one per status change), optionally of one resource or record. */
  events(filter?: { resource?: SandboxResource<A>; resourceId?: string }): Promise<SandboxSchemas["Event"][]>;
  /** Delivers an event's callbacks again, with its payload and Idempotency-Key, to the URL registered now (`deliverTwice`: each twice). */
  resendEvent(eventId: string, options?: { deliverTwice?: boolean }): Promise<SandboxSchemas["Resend"]>;
  registerCallback(webhook: string, url: string): Promise<SandboxSchemas["Callback"]>;
  callbacks(): Promise<SandboxSchemas["CallbackList"]>;
  forgetCallback(webhook: string): Promise<SandboxSchemas["ResetResult"]>;
  deliveries(webhook?: string): Promise<SandboxSchemas["Delivery"][]>;
  clock(): Promise<SandboxSchemas["Clock"]>;
  advanceClock(seconds: number, options?: { deliverTwice?: boolean }): Promise<SandboxSchemas["ClockAdvanceResult"]>;
  queueError(operationId: SandboxOperation<A>, status: number, count?: number): Promise<SandboxSchemas["ErrorRule"]>;
  /** Queues any forced answer: a status (declared or not) with Retry-After, a latency, a dropped connection. */
  force(
    rule: Omit<SandboxSchemas["ErrorRuleRequest"], "operation_id"> & { operation_id: SandboxOperation<A> },
  ): Promise<SandboxSchemas["ErrorRule"]>;
  errors(): Promise<SandboxSchemas["ErrorRuleList"]>;
  clearErrors(): Promise<SandboxSchemas["ResetResult"]>;
}

async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const problem = (error ?? {}) as { detail?: string; field?: string };
  throw new SandboxControlError(response.status, problem.detail ?? `the control API answered ${response.status}`, problem.field);
}

/**
 * A control client for the sandbox mock at `mockUrl`, acting on `credential`'s state; with
 * `api` (the mock's alias), typed by that API's declaration: resources, statuses, actions and
 * operationIds are its literal types.
 */
export function sandboxControl<A extends Api = undefined>(
  mockUrl: string,
  credential: string,
  options: { fetch?: typeof fetch; api?: A } = {},
): SandboxControl<A> {
  if (typeof credential !== "string" || credential === "") throw new TypeError("sandboxControl: credential must be a non-empty string");
  const client = createClient<paths>({
    baseUrl: mockUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${credential}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const path = (resource: string, id: string) => ({ path: { resource, id } });
  const control: SandboxControl = {
    client,
    describe: () => unwrap(client.GET("/_sandbox")),
    state: () => unwrap(client.GET("/_sandbox/state")),
    reset: () => unwrap(client.DELETE("/_sandbox/state")),
    listStates: (operatorToken) => unwrap(client.GET("/_sandbox/state/all", { headers: { "x-sandbox-operator-token": operatorToken } })),
    resetAll: (operatorToken) => unwrap(client.DELETE("/_sandbox/state/all", { headers: { "x-sandbox-operator-token": operatorToken } })),
    record: (resource, id) => unwrap(client.GET("/_sandbox/resources/{resource}/{id}", { params: path(resource, id) })),
    setStatus: (resource, id, status, { deliverTwice } = {}) =>
      unwrap(
        client.POST("/_sandbox/resources/{resource}/{id}/status", {
          params: path(resource, id),
          body: { status, ...(deliverTwice === undefined ? {} : { deliver_twice: deliverTwice }) },
        }),
      ),
    act: (resource, id, action, { deliverTwice } = {}) =>
      unwrap(
        client.POST("/_sandbox/resources/{resource}/{id}/actions/{action}", {
          params: { path: { resource, id, action } },
          body: deliverTwice === undefined ? {} : { deliver_twice: deliverTwice },
        }),
      ),
    events: async ({ resource, resourceId } = {}) =>
      (
        await unwrap(
          client.GET("/_sandbox/events", {
            params: {
              query: { ...(resource === undefined ? {} : { resource }), ...(resourceId === undefined ? {} : { resource_id: resourceId }) },
            },
          }),
        )
      ).events,
    resendEvent: (eventId, { deliverTwice } = {}) =>
      unwrap(
        client.POST("/_sandbox/events/{id}/resend", {
          params: { path: { id: eventId } },
          ...(deliverTwice === undefined ? {} : { body: { deliver_twice: deliverTwice } }),
        }),
      ),
    registerCallback: (webhook, url) =>
      unwrap(client.PUT("/_sandbox/callbacks/{webhook}", { params: { path: { webhook } }, body: { url } })),
    callbacks: () => unwrap(client.GET("/_sandbox/callbacks")),
    forgetCallback: (webhook) => unwrap(client.DELETE("/_sandbox/callbacks/{webhook}", { params: { path: { webhook } } })),
    deliveries: async (webhook) =>
      (await unwrap(client.GET("/_sandbox/deliveries", { params: { query: webhook === undefined ? {} : { webhook } } }))).deliveries,
    clock: () => unwrap(client.GET("/_sandbox/clock")),
    advanceClock: (seconds, { deliverTwice } = {}) =>
      unwrap(
        client.POST("/_sandbox/clock/advance", {
          body: { seconds, ...(deliverTwice === undefined ? {} : { deliver_twice: deliverTwice }) },
        }),
      ),
    queueError: (operationId, status, count) =>
      unwrap(client.POST("/_sandbox/errors", { body: { operation_id: operationId, status, ...(count === undefined ? {} : { count }) } })),
    force: (rule) => unwrap(client.POST("/_sandbox/errors", { body: rule })),
    errors: () => unwrap(client.GET("/_sandbox/errors")),
    clearErrors: () => unwrap(client.DELETE("/_sandbox/errors")),
  };
  return control as unknown as SandboxControl<A>;
}
