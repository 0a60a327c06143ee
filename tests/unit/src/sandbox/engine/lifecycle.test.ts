/**
 * Lifecycles and events (src/sandbox/engine/lifecycle.ts, events.ts) through the mock's HTTP layer, over the fixture
 * API shop@1.0.0 and its declaration (tests/fixtures/sandbox/shop.sandbox.yaml: CREATED -> PAID by
 * `pay`, CREATED -> Created by `expire`, both final): named actions and status moves go only where
 * the lifecycle allows, a refused move answers 409 naming the moves allowed, one change is one event
 * whose deliveries (resends included) carry one Idempotency-Key, test values move a new record, a
 * forced latency delays and a forced drop closes the connection.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../../src/registry.js";
import { sandboxControl } from "../../../../../src/testing/index.js";
import { call, controlViolations, startReceiver } from "../../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(shop, {
    port: 0,
    sandbox: { declarationPath, registry: registryPath, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 } },
  });
});
afterAll(() => mock.close());

const fresh = () => {
  const token = `lifecycle-${randomUUID()}`;
  return { headers: { authorization: `Bearer ${token}` }, control: sandboxControl(mock.url, token) };
};
const createOrder = (headers: Record<string, string>, merchant = "m-1") =>
  call(mock.url, "POST", "/v1/order", { headers, body: { merchant_id: merchant, amount: { cur: "PHP", amt: "1.00" } } });

describe("moves go only where the lifecycle allows", () => {
  it("pays by the named action; a paid order is final: paying again or moving it back answers 409 naming no move", async () => {
    const { headers } = fresh();
    const id = (await createOrder(headers)).body.order_id;
    const paid = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/actions/pay`, { headers });
    expect(paid.status).toBe(200);
    expect(controlViolations("updateResourceWithAction", paid)).toEqual([]);
    expect(paid.body).toMatchObject({
      from: "CREATED",
      to: "PAID",
      changed: true,
      event: { type: "order.pay", action: "pay" },
      next_actions: [],
    });

    const again = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/actions/pay`, { headers });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    expect(again.body).toMatchObject({ status: 409, allowed: [], final: true, detail: expect.stringMatching(/PAID is final/) });
    expect(controlViolations("updateResourceWithAction", again)).toEqual([]);

    const back = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, { headers, body: { status: "CREATED" } });
    expect(back).toMatchObject({ status: 409, body: { allowed: [], final: true } });
    expect((await call(mock.url, "GET", `/v1/order/${id}`, { headers })).body.status).toBe("PAID");
  });

  it("a status the lifecycle does not reach from here answers 409 with the actions allowed from here", async () => {
    const { headers } = fresh();
    const id = (await createOrder(headers)).body.order_id;
    // Created (the expired status) is reached by `expire`; a status move there is that move.
    const expired = await call(mock.url, "POST", `/_sandbox/resources/order/${id}/status`, { headers, body: { status: "Created" } });
    expect(expired.body).toMatchObject({ to: "Created", event: { action: "expire" } });
    const other = (await createOrder(headers)).body.order_id;
    const unknown = await call(mock.url, "POST", `/_sandbox/resources/order/${other}/actions/refund`, { headers });
    expect(unknown).toMatchObject({ status: 404, body: { field: "action", detail: expect.stringMatching(/actions: pay, expire/) } });
  });

  it("the clock's expiry goes through the lifecycle too: a paid order does not expire", async () => {
    const { headers, control } = fresh();
    const id = (await createOrder(headers)).body.order_id;
    await control.act("order", id, "pay");
    const advanced = await control.advanceClock(3 * 3600);
    expect(advanced.expired).toEqual([]);
    expect((await control.record("order", id)).status).toBe("PAID");
  });
});

describe("events", () => {
  it("one change is one event; every delivery of it, resends included, carries its Idempotency-Key; the receiver processes it once", async () => {
    const { headers, control } = fresh();
    const receiver = await startReceiver("shop@1.0.0", "orderPaid", { registry: registryPath });
    try {
      await control.registerCallback("orderPaid", receiver.url);
      const id = (await createOrder(headers)).body.order_id;
      const move = await control.act("order", id, "pay");
      await receiver.deliveryCount(1);
      const events = await control.events({ resource: "order", resourceId: id });
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event).toMatchObject({ id: move.event!.id, type: "order.pay", from: "CREATED", to: "PAID", webhooks: ["orderPaid"] });
      const listed = await call(mock.url, "GET", "/_sandbox/events", { headers });
      expect(controlViolations("listEvents", listed)).toEqual([]);

      await expect.poll(async () => (await control.deliveries())[0]?.state).toBe("delivered");
      const resent = await call(mock.url, "POST", `/_sandbox/events/${event.id}/resend`, { headers });
      expect(resent.status).toBe(200);
      expect(controlViolations("sendEventAgain", resent)).toEqual([]);
      const deliveries = await receiver.deliveryCount(2);
      expect(deliveries.map((d) => d.key)).toEqual([event.idempotency_key, event.idempotency_key]);
      expect(receiver.events).toHaveLength(1);
      expect((await control.events()).filter((e) => e.resource_id === id)).toHaveLength(1);
      expect((await control.events())[0].deliveries).toHaveLength(2);

      const unknown = await call(mock.url, "POST", "/_sandbox/events/evt_unknown/resend", { headers });
      expect(unknown).toMatchObject({ status: 404, body: { field: "id" } });
    } finally {
      await receiver.close();
    }
  });

  it("a move to the status a record has raises no event", async () => {
    const { headers, control } = fresh();
    const id = (await createOrder(headers)).body.order_id;
    const same = await control.setStatus("order", id, "CREATED");
    expect(same.changed).toBe(false);
    expect(await control.events()).toEqual([]);
  });
});

describe("test values", () => {
  it("a create with a test value takes its move at once, as an event with the test value as cause", async () => {
    const { headers, control } = fresh();
    const created = await createOrder(headers, "m-paid");
    expect(created.body.status).toBe("PAID");
    expect(await control.events()).toEqual([expect.objectContaining({ action: "pay", cause: "test value paid_at_once" })]);
  });

  it("a delayed test value moves the record when the sandbox clock reaches it", async () => {
    const { headers, control } = fresh();
    const id = (await createOrder(headers, "m-paid-later")).body.order_id;
    expect((await control.record("order", id)).status).toBe("CREATED");
    await control.advanceClock(6);
    expect((await control.record("order", id)).status).toBe("PAID");
  });
});

describe("forced latency and drops", () => {
  it("drops the connection of the next call before it is processed (drop: true is before), then answers normally", async () => {
    const { headers, control } = fresh();
    expect(await control.force({ operation_id: "createOrder", drop: true })).toMatchObject({ drop: "before", remaining: 1 });
    await expect(createOrder(headers)).rejects.toThrow();
    expect((await control.state()).resources.order ?? []).toEqual([]);
    expect((await createOrder(headers)).status).toBe(200);
    expect((await control.state()).resources.order).toHaveLength(1);
  });

  it("drops the connection of the next call after it is processed: the order is stored, its answer lost, its event raised", async () => {
    const { headers, control } = fresh();
    expect(await control.force({ operation_id: "createOrder", drop: "after" })).toMatchObject({ drop: "after", remaining: 1 });
    await expect(createOrder(headers, "m-paid")).rejects.toThrow();
    const [order] = (await control.state()).resources.order!;
    // The test value m-paid paid it at once: the request ran whole, its event included.
    expect(order.status).toBe("PAID");
    expect((await control.events({ resource: "order", resourceId: order.id })).map((e) => e.to)).toEqual(["PAID"]);
    expect((await control.errors()).errors).toEqual([]);
    expect((await createOrder(headers)).status).toBe(200);
    expect((await control.state()).resources.order).toHaveLength(2);
  });

  it("delays the next call by the latency asked", async () => {
    const { headers, control } = fresh();
    const rule = await control.force({ operation_id: "createOrder", latency_ms: 300 });
    expect(rule).toMatchObject({ latency_ms: 300, remaining: 1 });
    const started = performance.now();
    expect((await createOrder(headers)).status).toBe(200);
    // A lower bound only (the delay is a minimum): no timing assertion on speed.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect((await control.errors()).errors).toEqual([]);
  });
});
