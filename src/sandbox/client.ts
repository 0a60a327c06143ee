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
import type { components, paths } from "../../generated/sandbox/schema.js";

export type SandboxSchemas = components["schemas"];

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

export interface SandboxControl {
  /** The underlying openapi-fetch client (paths of the control API). */
  readonly client: Client<paths>;
  describe(): Promise<SandboxSchemas["SandboxDescription"]>;
  state(): Promise<SandboxSchemas["State"]>;
  reset(): Promise<SandboxSchemas["ResetResult"]>;
  /** Every credential's state in summary: the sandbox operator's call, with the operator token (X-Sandbox-Operator-Token). */
  listStates(operatorToken: string): Promise<SandboxSchemas["StateSummary"]>;
  /** Resets every credential's state: the sandbox operator's call, with the operator token. */
  resetAll(operatorToken: string): Promise<SandboxSchemas["ResetResult"]>;
  record(resource: string, id: string): Promise<SandboxSchemas["Record"]>;
  setStatus(resource: string, id: string, status: string, options?: { deliverTwice?: boolean }): Promise<SandboxSchemas["StatusMove"]>;
  /** Takes a named action of the record's lifecycle (`pay`, `fail`, `expire`, `cancel`...). */
  act(resource: string, id: string, action: string, options?: { deliverTwice?: boolean }): Promise<SandboxSchemas["StatusMove"]>;
  /** The credential's events (one per status change), optionally of one resource or record. */
  events(filter?: { resource?: string; resourceId?: string }): Promise<SandboxSchemas["Event"][]>;
  /** Delivers an event's callbacks again, with its Idempotency-Key. */
  resendEvent(eventId: string): Promise<SandboxSchemas["Resend"]>;
  registerCallback(webhook: string, url: string): Promise<SandboxSchemas["Callback"]>;
  callbacks(): Promise<SandboxSchemas["CallbackList"]>;
  forgetCallback(webhook: string): Promise<SandboxSchemas["ResetResult"]>;
  deliveries(webhook?: string): Promise<SandboxSchemas["Delivery"][]>;
  clock(): Promise<SandboxSchemas["Clock"]>;
  advanceClock(seconds: number, options?: { deliverTwice?: boolean }): Promise<SandboxSchemas["ClockAdvanceResult"]>;
  queueError(operationId: string, status: number, count?: number): Promise<SandboxSchemas["ErrorRule"]>;
  /** Queues any forced answer: a status (declared or not) with Retry-After, a latency, a dropped connection. */
  force(rule: SandboxSchemas["ErrorRuleRequest"]): Promise<SandboxSchemas["ErrorRule"]>;
  errors(): Promise<SandboxSchemas["ErrorRuleList"]>;
  clearErrors(): Promise<SandboxSchemas["ResetResult"]>;
}

async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const problem = (error ?? {}) as { detail?: string; field?: string };
  throw new SandboxControlError(response.status, problem.detail ?? `the control API answered ${response.status}`, problem.field);
}

/** A control client for the sandbox mock at `mockUrl`, acting on `credential`'s state. */
export function sandboxControl(mockUrl: string, credential: string, options: { fetch?: typeof fetch } = {}): SandboxControl {
  if (typeof credential !== "string" || credential === "") throw new TypeError("sandboxControl: credential must be a non-empty string");
  const client = createClient<paths>({
    baseUrl: mockUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${credential}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const path = (resource: string, id: string) => ({ path: { resource, id } });
  return {
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
    resendEvent: (eventId) => unwrap(client.POST("/_sandbox/events/{id}/resend", { params: { path: { id: eventId } } })),
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
}
