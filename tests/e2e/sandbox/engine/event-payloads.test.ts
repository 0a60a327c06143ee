/**
 * An event's callbacks and the move that raises them (src/sandbox/engine/events.ts `eventOf`,
 * src/sandbox/engine/move.ts `moveStatus`), on a hand-written document and declaration and an
 * engine reduced to what the two read (the document, the declaration, a resource by name, the
 * deferred events of a request), without HTTP:
 * - a payload is shaped by its own webhook's request schema (src/sandbox/README.md: "payload:
 *   template"; OpenAPI 3.1 `webhooks`): not another webhook's, not the schema of a path that bears
 *   the webhook's name, and as built where the webhook declares no request body; a webhook
 *   declared with another method than POST (no x-status-codes to read) is shaped by its own;
 * - a callback with `codes` fires only on the statuses its codes name, even when `when` is "*";
 * - a resource whose status has no `moves` moves freely (lifecycle.ts: "A resource without `moves`
 *   moves freely"), its event typed `<resource>.status` with no action;
 * - within a request the event is kept only once the request succeeded (./run.ts runs the deferred
 *   work after the stages): nothing is kept while the move's deferred work waits.
 */
import { describe, expect, it } from "vitest";
import type { Declaration, ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { type Change, eventOf } from "../../../../src/sandbox/engine/events.js";
import { moveStatus } from "../../../../src/sandbox/engine/move.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const object = (...names: string[]) => ({
  type: "object",
  properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
});
const hook = (schema: unknown, codes?: unknown) => ({
  post: {
    ...(codes ? { "x-status-codes": codes } : {}),
    ...(schema ? { requestBody: { content: { "application/json": { schema } } } } : {}),
    responses: { "200": { description: "ok" } },
  },
});
const doc = {
  openapi: "3.1.0",
  info: { title: "Event payloads (test)", version: "1.0.0" },
  // A path named as the first webhook is: its request schema takes members the webhook's does not.
  paths: {
    "/orders": {
      post: {
        operationId: "postOrders",
        requestBody: { content: { "application/json": { schema: object("order_id", "status", "internal_note") } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  webhooks: {
    "/orders": hook(object("order_id", "status"), [
      { code: 1, status: "ORDER_PAID" },
      { code: 2, status: "ORDER_CANCELLED" },
    ]),
    refunds: hook(object("refund_id", "status")),
    pings: hook(undefined),
    // A webhook the provider calls with PUT: no POST, so no x-status-codes to read.
    audits: {
      put: {
        requestBody: { content: { "application/json": { schema: object("order_id") } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
  components: { schemas: { Order: object("order_id", "status", "internal_note") } },
};
/** Every payload carries every member: what the webhook's schema does not declare is left out. */
const payload = { order_id: "$record.order_id", refund_id: "$record.order_id", status: "$status", internal_note: "kept inside" };
const URL = "http://127.0.0.1:9/hook";

const order: ResourceDeclaration = {
  name: "order",
  source: "test",
  schema: "#/components/schemas/Order",
  singleton: false,
  id: { field: "order_id", prefix: "ord_", digits: false },
  testValues: [],
  // No moves: any status change is allowed.
  status: { field: "status", initial: "CREATED", source: "test" },
  callbacks: [
    { webhook: "/orders", when: "*", url: URL, codes: { PAID: 1, CANCELLED: 2 }, payload, source: "test" },
    { webhook: "refunds", when: ["REFUNDED"], url: URL, payload, source: "test" },
    { webhook: "pings", when: ["PINGED"], url: URL, payload, source: "test" },
    { webhook: "audits", when: ["AUDITED"], url: URL, payload, source: "test" },
  ],
};
const declaration = { path: "orders.sandbox.yaml", resources: { order }, operations: {}, where: () => "" } as unknown as Declaration;
const engineWith = (deferred?: Array<() => void>) =>
  ({ doc, declaration, resource: (name: string) => declaration.resources[name], deferred }) as unknown as EngineContext;
const engine = engineWith();

function eventTo(to: string) {
  const state = new CredentialState("event-payloads");
  const record = state.add("order", "ord_1", { order_id: "ord_1", status: "CREATED" });
  const change: Change = {
    resource: order,
    record,
    data: { ...(record.data as object), status: to },
    from: "CREATED",
    to,
    move: undefined,
    cause: "control",
    ctx: { status: to },
  };
  return eventOf(engine, state, change);
}

describe("a callback's payload", () => {
  it("is shaped by its own webhook's request schema, not by a path's of the same name", () => {
    expect(eventTo("PAID").callbacks).toEqual([{ webhook: "/orders", url: URL, payload: { order_id: "ord_1", status: "PAID" } }]);
  });

  it("is shaped by the schema of the webhook it names, not by another webhook's", () => {
    expect(eventTo("REFUNDED").callbacks).toEqual([{ webhook: "refunds", url: URL, payload: { refund_id: "ord_1", status: "REFUNDED" } }]);
  });

  it("is sent as built where its webhook declares no request body", () => {
    expect(eventTo("PINGED").callbacks).toEqual([
      { webhook: "pings", url: URL, payload: { ...payload, order_id: "ord_1", refund_id: "ord_1", status: "PINGED" } },
    ]);
  });
});

describe("a callback to a webhook declared without POST", () => {
  it("is built, its payload shaped by the webhook's request schema", () => {
    expect(eventTo("AUDITED").callbacks).toEqual([{ webhook: "audits", url: URL, payload: { order_id: "ord_1" } }]);
  });
});

describe("a callback with codes", () => {
  it('fires on each status its codes name, even with `when: "*"`', () => {
    expect(eventTo("CANCELLED").callbacks.map((c) => c.webhook)).toEqual(["/orders"]);
  });

  it("does not fire on a status its codes do not name", () => {
    // REFUNDED meets the "*" of /orders' rule, which has no code for it: only refunds' rule fires.
    expect(eventTo("REFUNDED").callbacks.map((c) => c.webhook)).toEqual(["refunds"]);
    expect(eventTo("SHIPPED").callbacks).toEqual([]);
  });
});

describe("a resource without moves", () => {
  it("moves to any status asked, its event typed <resource>.status, with no action", () => {
    const state = new CredentialState("event-payloads-moves");
    const record = state.add("order", "ord_1", { order_id: "ord_1", status: "CREATED" });
    const moved = moveStatus(engine, state, record, "SHIPPED", { cause: "control" });
    expect(moved).toMatchObject({ from: "CREATED", to: "SHIPPED", changed: true });
    expect(state.get("order", "ord_1")?.data).toEqual({ order_id: "ord_1", status: "SHIPPED" });
    expect(moved.event).toMatchObject({ type: "order.status", from: "CREATED", to: "SHIPPED", cause: "control" });
    expect(moved.event).not.toHaveProperty("action");
  });
});

describe("a move within a request", () => {
  it("keeps its event only when the request's deferred work runs", () => {
    const deferred: Array<() => void> = [];
    const state = new CredentialState("event-payloads-deferred");
    const record = state.add("order", "ord_1", { order_id: "ord_1", status: "CREATED" });
    const moved = moveStatus(engineWith(deferred), state, record, "SHIPPED", { cause: "shipOrder" });
    expect(state.events).toHaveLength(0);
    expect(deferred).toHaveLength(1);
    for (const work of deferred) work();
    expect(state.events.map((kept) => kept.event.id)).toEqual([moved.event?.id]);
  });

  it("keeps its event at once outside a request (the control API, the clock)", () => {
    const state = new CredentialState("event-payloads-at-once");
    const record = state.add("order", "ord_1", { order_id: "ord_1", status: "CREATED" });
    const moved = moveStatus(engine, state, record, "SHIPPED", { cause: "control" });
    expect(state.events.map((kept) => kept.event.id)).toEqual([moved.event?.id]);
  });
});
