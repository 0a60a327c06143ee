/**
 * The control API's operations on a credential's state (src/sandbox/control/index.ts, operations/,
 * handler.ts), each as the control document (src/sandbox/openapi.yaml) says: what they do (the
 * clock's moves and their callbacks, the credential a call carries, a body read only where the
 * operation takes one) and what they refuse, as a problem+json answer whose `detail` says why and
 * whose `field` names the member. Over the fixture
 * shop@1.0.0 (its order's lifecycle, its `orderPaid` webhook registered through the control API),
 * vault@1.0.0 (no webhooks, no declaration) and Pay 1.3.0 (its invoices' callbacks go to the
 * merchant's `webhook_url`; its merchant has no status and no lifecycle).
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMock } from "../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { call } from "../../../helpers/sandbox.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop, vault] = loadRegistry(registryPath);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");

/** The control document's limits (ClockAdvance: at most 400 days a call, 10 years in all; 10 years of 366 days). */
const MAX_SECONDS_A_CALL = 400 * 24 * 3600;
const TEN_YEARS_SECONDS = 10 * 366 * 24 * 3600;

/** The operator's token of the shop sandbox (GET /_sandbox/state/all). */
const OPERATOR = "operator-token-of-the-credential-operation-tests";

let shopMock: MockServer;
let vaultMock: MockServer;
let payMock: MockServer;

/** A receiver that holds every request it gets (the delivery stays in flight, so pending) until released. */
const held: ServerResponse[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  held.push(res);
});
let receiverUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`;
  [shopMock, vaultMock, payMock] = await Promise.all([
    startMock(shop, { port: 0, sandbox: { declarationPath, registry: registryPath, operatorToken: OPERATOR } }),
    startMock(vault, { port: 0, sandbox: { registry: registryPath } }),
    startMock("pay@1.3.0", { port: 0, sandbox: true }),
  ]);
}, 60_000);

afterAll(async () => {
  for (const res of held.splice(0)) res.writeHead(200).end();
  await Promise.all([shopMock?.close(), vaultMock?.close(), payMock?.close()]);
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const as = (credential: string) => ({ headers: { authorization: `Bearer ${credential}` } });

async function createOrder(credential: string, merchantId: string): Promise<string> {
  const created = await call(shopMock.url, "POST", "/v1/order", {
    ...as(credential),
    body: { merchant_id: merchantId, amount: { cur: "PHP", amt: "1.00" } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.order_id;
}

describe("a method a control path does not have", () => {
  it("is answered 405 with Allow naming each method the control document gives the path (RFC 9110)", async () => {
    const refused = await call(shopMock.url, "PUT", "/_sandbox/errors", as("allow-credential"));
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "POST"]);
  });

  it("while any other refusal carries no Allow (a path it does not have: 404 naming where the control API is described)", async () => {
    const missing = await call(shopMock.url, "GET", "/_sandbox/nowhere", as("allow-credential"));
    expect(missing.status).toBe(404);
    expect(missing.headers.has("allow")).toBe(false);
    // The hint: where the control API is described.
    expect(missing.body.detail).toBe("no control operation at /_sandbox/nowhere; the control API is described at /_sandbox/openapi.yaml");
  });
});

describe("the credential of a control call", () => {
  const clockWith = (authorization: string) => call(shopMock.url, "GET", "/_sandbox/clock", { headers: { authorization } });

  it("is carried by the Bearer scheme, in any case (RFC 6750)", async () => {
    expect((await clockWith("Bearer scheme-credential")).status).toBe(200);
    expect((await clockWith("bearer scheme-credential")).status).toBe(200);
  });

  it("is not carried by another scheme, one whose name only ends in bearer included: 401", async () => {
    for (const authorization of ["Basic dXNlcjpwYXNzd29yZA==", "Xbearer scheme-credential"]) {
      const refused = await clockWith(authorization);
      expect(refused.status, authorization).toBe(401);
      expect(refused.body.detail).toContain("Authorization: Bearer <value>");
    }
  });
});

describe("a body sent to an operation that takes none", () => {
  it("is not read: DELETE /_sandbox/state with a text body resets the state", async () => {
    const answer = await call(shopMock.url, "DELETE", "/_sandbox/state", {
      headers: { authorization: "Bearer stray-body-credential", "content-type": "text/plain" },
      raw: "not the control API's",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ reset: 1 });
  });
});

describe("advancing the clock", () => {
  const advance = (credential: string, seconds: number, deliverTwice?: boolean) =>
    call(shopMock.url, "POST", "/_sandbox/clock/advance", {
      ...as(credential),
      body: { seconds, ...(deliverTwice === undefined ? {} : { deliver_twice: deliverTwice }) },
    });

  it("expires what falls due by then, each move's cause `clock`", async () => {
    const credential = "clock-expiry-credential";
    const orderId = await createOrder(credential, "m-1");
    // The fixture's order expires 2 hours after its creation, to Created.
    const advanced = await advance(credential, 2 * 3600 + 1);
    expect(advanced.status).toBe(200);
    expect(advanced.body.expired).toEqual([{ resource: "order", id: orderId, from: "CREATED", to: "Created", deliveries: [] }]);
    const events = (await call(shopMock.url, "GET", `/_sandbox/events?resource_id=${orderId}`, as(credential))).body.events;
    expect(events.map((e: { cause: string; to: string }) => [e.cause, e.to])).toEqual([["clock", "Created"]]);
  });

  it("delivers the callbacks of what it moves once, or twice with deliver_twice", async () => {
    for (const [credential, deliverTwice, times] of [
      ["clock-once-credential", undefined, 1],
      ["clock-twice-credential", true, 2],
    ] as const) {
      expect(
        (await call(shopMock.url, "PUT", "/_sandbox/callbacks/orderPaid", { ...as(credential), body: { url: receiverUrl } })).status,
      ).toBe(200);
      // The fixture's test value m-paid-later pays the order 5 seconds after its creation.
      const orderId = await createOrder(credential, "m-paid-later");
      const advanced = await advance(credential, 6, deliverTwice);
      expect(advanced.body.expired).toMatchObject([{ resource: "order", id: orderId, to: "PAID" }]);
      expect(advanced.body.expired[0].deliveries).toHaveLength(1);
      const [delivery] = (await call(shopMock.url, "GET", "/_sandbox/deliveries", as(credential))).body.deliveries;
      expect(delivery.id).toBe(advanced.body.expired[0].deliveries[0]);
      expect(delivery.times, credential).toBe(times);
    }
  });

  it("goes up to ten years ahead of the real time in all, and refuses a second more naming `seconds`", async () => {
    const credential = "clock-limit-credential";
    let total = 0;
    while (total + MAX_SECONDS_A_CALL <= TEN_YEARS_SECONDS) {
      expect((await advance(credential, MAX_SECONDS_A_CALL)).status).toBe(200);
      total += MAX_SECONDS_A_CALL;
    }
    const toTheLimit = await advance(credential, TEN_YEARS_SECONDS - total);
    expect(toTheLimit.status).toBe(200);
    expect(toTheLimit.body.clock.offset_seconds).toBe(TEN_YEARS_SECONDS);

    const beyond = await advance(credential, 1);
    expect(beyond.status).toBe(400);
    expect(beyond.body).toMatchObject({ status: 400, field: "seconds" });
    expect(beyond.body.detail).toContain(`${TEN_YEARS_SECONDS} seconds ahead of the real time`);
    // Refused whole: the clock did not move.
    expect((await call(shopMock.url, "GET", "/_sandbox/clock", as(credential))).body.offset_seconds).toBe(TEN_YEARS_SECONDS);
  });
});

describe("queueing an error", () => {
  it("names the rule err_ and 16 characters, as the control document's examples and the sandbox's ids are, and lists it", async () => {
    const credential = "error-rule-credential";
    const created = await call(shopMock.url, "POST", "/_sandbox/errors", {
      ...as(credential),
      body: { operation_id: "getOrder", status: 503 },
    });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^err_[0-9A-Za-z]{16}$/);
    const listed = (await call(shopMock.url, "GET", "/_sandbox/errors", as(credential))).body.errors;
    expect(listed.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
  });
});

describe("resending an event", () => {
  const resend = (credential: string, id: string) => call(shopMock.url, "POST", `/_sandbox/events/${id}/resend`, as(credential));
  const eventsOf = async (credential: string, orderId: string) =>
    (await call(shopMock.url, "GET", `/_sandbox/events?resource=order&resource_id=${orderId}`, as(credential))).body.events;

  it("is refused 409 naming the event when it raised no callback (the order's expiry fires none)", async () => {
    const credential = "resend-no-callback-credential";
    const orderId = await createOrder(credential, "m-1");
    expect((await call(shopMock.url, "POST", `/_sandbox/resources/order/${orderId}/actions/expire`, as(credential))).status).toBe(200);
    const [event] = await eventsOf(credential, orderId);
    expect(event.webhooks).toEqual([]);
    const refused = await resend(credential, event.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 409, field: "id" });
    expect(refused.body.detail).toContain(`event ${event.id} raised no callback`);
  });

  it("is refused 404 naming an event the credential does not have", async () => {
    const refused = await resend("resend-unknown-credential", "evt_0000000000000000");
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 404, field: "id", detail: 'this credential has no event "evt_0000000000000000"' });
  });

  it("is refused 409 naming the event while its delivery is pending, whatever the other events' deliveries", async () => {
    const credential = "resend-pending-credential";
    expect(
      (await call(shopMock.url, "PUT", "/_sandbox/callbacks/orderPaid", { ...as(credential), body: { url: receiverUrl } })).status,
    ).toBe(200);
    const orderId = await createOrder(credential, "m-paid");
    await createOrder(credential, "m-paid");
    const [event] = await eventsOf(credential, orderId);
    expect(event.webhooks).toEqual(["orderPaid"]);
    const refused = await resend(credential, event.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 409, field: "id" });
    expect(refused.body.detail).toContain(`a delivery of event ${event.id} is still pending`);
  });
});

describe("resending an event whose callback had no URL (skipped, not pending)", () => {
  it("delivers each callback once, or twice with deliver_twice", async () => {
    const credential = "resend-skipped-credential";
    const orderId = await createOrder(credential, "m-paid");
    const events = (await call(shopMock.url, "GET", `/_sandbox/events?resource_id=${orderId}`, as(credential))).body.events;
    expect(events).toHaveLength(1);
    const once = await call(shopMock.url, "POST", `/_sandbox/events/${events[0].id}/resend`, as(credential));
    expect(once.status).toBe(200);
    expect(once.body.deliveries.map((d: { times: number }) => d.times)).toEqual([1]);
    const twice = await call(shopMock.url, "POST", `/_sandbox/events/${events[0].id}/resend`, {
      ...as(credential),
      body: { deliver_twice: true },
    });
    expect(twice.status).toBe(200);
    expect(twice.body.deliveries.map((d: { times: number }) => d.times)).toEqual([2]);
  });
});

describe("moving a record through the control API", () => {
  const paidBy = async (credential: string, path: (orderId: string) => string, body: object) => {
    expect(
      (await call(shopMock.url, "PUT", "/_sandbox/callbacks/orderPaid", { ...as(credential), body: { url: receiverUrl } })).status,
    ).toBe(200);
    const orderId = await createOrder(credential, "m-1");
    const moved = await call(shopMock.url, "POST", path(orderId), { ...as(credential), body });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    return moved.body;
  };

  it("to a status delivers its callbacks once, or twice with deliver_twice; the event's cause is control", async () => {
    const toStatus = (orderId: string) => `/_sandbox/resources/order/${orderId}/status`;
    const once = await paidBy("status-once-credential", toStatus, { status: "PAID" });
    expect(once.event).toMatchObject({ to: "PAID", cause: "control" });
    expect(once.deliveries.map((d: { times: number }) => d.times)).toEqual([1]);
    const twice = await paidBy("status-twice-credential", toStatus, { status: "PAID", deliver_twice: true });
    expect(twice.deliveries.map((d: { times: number }) => d.times)).toEqual([2]);
  });

  it("by an action delivers its callbacks once, or twice with deliver_twice; the event's cause is control", async () => {
    const pay = (orderId: string) => `/_sandbox/resources/order/${orderId}/actions/pay`;
    const once = await paidBy("action-once-credential", pay, {});
    expect(once.event).toMatchObject({ to: "PAID", action: "pay", cause: "control" });
    expect(once.deliveries.map((d: { times: number }) => d.times)).toEqual([1]);
    const twice = await paidBy("action-twice-credential", pay, { deliver_twice: true });
    expect(twice.deliveries.map((d: { times: number }) => d.times)).toEqual([2]);
  });
});

describe("the event list", () => {
  it("holds only the events of the resource asked for", async () => {
    const credential = "event-list-credential";
    await createOrder(credential, "m-paid");
    const list = async (query: string) => (await call(shopMock.url, "GET", `/_sandbox/events${query}`, as(credential))).body.events;
    expect(await list("?resource=order")).toHaveLength(1);
    expect(await list("?resource=invoice")).toEqual([]);
  });
});

describe("the operator's list of states", () => {
  it("gives each credential's clock offset in seconds", async () => {
    const credential = "listed-clock-credential";
    expect((await call(shopMock.url, "POST", "/_sandbox/clock/advance", { ...as(credential), body: { seconds: 90 } })).status).toBe(200);
    const label = (await call(shopMock.url, "GET", "/_sandbox/state", as(credential))).body.credential;
    const all = await call(shopMock.url, "GET", "/_sandbox/state/all", { headers: { "x-sandbox-operator-token": OPERATOR } });
    expect(all.status).toBe(200);
    expect(all.body.credentials.find((c: { credential: string }) => c.credential === label)).toMatchObject({ clock_offset_seconds: 90 });
  });
});

describe("the delivery log", () => {
  it("lists only the deliveries of the webhook asked for", async () => {
    const credential = "delivery-log-credential";
    expect(
      (await call(shopMock.url, "PUT", "/_sandbox/callbacks/orderPaid", { ...as(credential), body: { url: receiverUrl } })).status,
    ).toBe(200);
    await createOrder(credential, "m-paid");
    const list = async (query: string) => (await call(shopMock.url, "GET", `/_sandbox/deliveries${query}`, as(credential))).body.deliveries;
    expect(await list("")).toHaveLength(1);
    const ofOrderPaid = await list("?webhook=orderPaid");
    expect(ofOrderPaid).toHaveLength(1);
    expect(ofOrderPaid[0].webhook).toBe("orderPaid");
    expect(await list("?webhook=orderRefunded")).toEqual([]);
  });
});

describe("registering a callback URL", () => {
  it("takes a URL of 2048 characters, the control document's bound", async () => {
    const url = `http://127.0.0.1:9/${"a".repeat(2048 - "http://127.0.0.1:9/".length)}`;
    expect(url).toHaveLength(2048);
    const registered = await call(shopMock.url, "PUT", "/_sandbox/callbacks/orderPaid", { ...as("long-url-credential"), body: { url } });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body).toEqual({ webhook: "orderPaid", url });
  });

  it("refuses 400 a URL that is not http(s), quoting its first 100 characters without their userinfo", async () => {
    const prefix = "ftp://partner:secret-password@files.example/";
    const url = `${prefix}${"b".repeat(150)}`;
    const refused = await call(shopMock.url, "PUT", "/_sandbox/callbacks/orderPaid", { ...as("ftp-url-credential"), body: { url } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, field: "url" });
    expect(refused.body.detail).toBe(
      `url must be an absolute http(s) URL, got ${JSON.stringify(`ftp://files.example/${"b".repeat(100 - prefix.length)}`)}`,
    );
    expect(refused.body.detail).not.toContain("secret-password");
  });

  it("is refused 404 naming the webhook when the API declares none", async () => {
    const refused = await call(vaultMock.url, "PUT", "/_sandbox/callbacks/secretRotated", {
      ...as("vault-credential"),
      body: { url: receiverUrl },
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 404, field: "webhook" });
    expect(refused.body.detail).toBe('vault@1.0.0 has no webhook "secretRotated" (it declares none)');
  });

  it("is refused 400 for Pay's invoicePaid, whose URL is the merchant's webhook_url, naming where it comes from", async () => {
    const refused = await call(payMock.url, "PUT", "/_sandbox/callbacks/invoicePaid", {
      ...as("pay-credential"),
      body: { url: receiverUrl },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, field: "webhook" });
    expect(refused.body.detail).toContain("$resource.merchant.webhook_url");
    expect(refused.body.detail).toContain("set it through the API");
    // Nothing was registered.
    expect((await call(payMock.url, "GET", "/_sandbox/callbacks", as("pay-credential"))).body.callbacks).toEqual([]);
  });
});

describe("reading a record", () => {
  it("of an API without a declaration is refused 404 naming the resource and why there is none", async () => {
    const refused = await call(vaultMock.url, "GET", "/_sandbox/resources/secret/sec_1", as("vault-credential"));
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      status: 404,
      field: "resource",
      detail: 'vault@1.0.0 has no sandbox resource "secret" (it has no sandbox declaration)',
    });
  });
});

describe("reading a record of a resource the API does not declare", () => {
  it("is refused 404 naming every resource Pay 1.3.0's declaration has", async () => {
    const refused = await call(payMock.url, "GET", "/_sandbox/resources/payout/pay_1", as("pay-credential"));
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      status: 404,
      field: "resource",
      detail: 'pay@1.3.0 has no sandbox resource "payout"; resources: merchant, depositAccount, template, invoice, signupRequest',
    });
  });
});

describe("moving a record that has no lifecycle (Pay's merchant)", () => {
  let merchantId: string;
  beforeAll(async () => {
    // The merchant exists from the credential's first call (Pay's declaration): its profile names its id.
    const profile = await call(payMock.url, "GET", "/v1/merchant", as("pay-merchant-credential"));
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    merchantId = profile.body.merchant_id;
  });

  it("to a status is refused 400: the merchant has no status", async () => {
    const refused = await call(payMock.url, "POST", `/_sandbox/resources/merchant/${merchantId}/status`, {
      ...as("pay-merchant-credential"),
      body: { status: "Active" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, field: "resource", detail: "merchant has no status to move" });
  });

  it("by an action is refused 404: it declares no lifecycle", async () => {
    const refused = await call(
      payMock.url,
      "POST",
      `/_sandbox/resources/merchant/${merchantId}/actions/pay`,
      as("pay-merchant-credential"),
    );
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 404, field: "action", detail: 'merchant has no action "pay" (it declares no lifecycle)' });
  });
});
