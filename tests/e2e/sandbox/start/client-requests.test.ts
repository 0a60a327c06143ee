/**
 * The sandbox control client (src/sandbox/client.ts) as the control API (src/sandbox/openapi.yaml)
 * receives it: each method's method, path, query, headers and body, and what an answer that is not
 * 2xx becomes. In memory: a hand-written `fetch` records each request and answers from a table, so
 * no server is started.
 */
import { describe, expect, it } from "vitest";
import { SandboxControlError, sandboxControl } from "../../../../src/sandbox/client.js";

interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

/** A fetch that records what it is sent and answers `status` with `body` (JSON when not a string). */
function recorder(status = 200, body: unknown = {}) {
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    sent.push({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: text === "" ? undefined : JSON.parse(text),
    });
    const payload = typeof body === "string" ? body : JSON.stringify(body);
    const type = typeof body === "string" ? "text/plain" : "application/json";
    return new Response(payload, { status, headers: { "content-type": type } });
  };
  return { sent, fetch: fetch as typeof globalThis.fetch };
}

const BASE = "http://sandbox.test/mock";

describe("sandboxControl: the credential", () => {
  it("refuses an empty or missing credential with a TypeError naming it", () => {
    for (const credential of ["", undefined, 42]) {
      expect(() => sandboxControl(BASE, credential as string), String(credential)).toThrow(
        new TypeError("sandboxControl: credential must be a non-empty string"),
      );
    }
  });

  it("sends the credential as a bearer token, through the fetch given, to the base URL without its trailing slashes", async () => {
    const { sent, fetch } = recorder(200, { resources: [] });
    await sandboxControl(`${BASE}//`, "test-token", { fetch }).describe();
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe("GET");
    expect(sent[0].url.href).toBe(`${BASE}/_sandbox`);
    expect(sent[0].headers.get("authorization")).toBe("Bearer test-token");
  });
});

describe("sandboxControl: each operation's request", () => {
  const TOKEN = "operator-secret-1";
  // Method, path and query of each operation, as src/sandbox/openapi.yaml declares them.
  const cases: Array<
    [string, (c: ReturnType<typeof sandboxControl>) => Promise<unknown>, string, string, unknown?, Record<string, string>?]
  > = [
    ["state", (c) => c.state(), "GET", "/_sandbox/state"],
    ["reset", (c) => c.reset(), "DELETE", "/_sandbox/state"],
    ["listStates", (c) => c.listStates(TOKEN), "GET", "/_sandbox/state/all", undefined, { "x-sandbox-operator-token": TOKEN }],
    ["resetAll", (c) => c.resetAll(TOKEN), "DELETE", "/_sandbox/state/all", undefined, { "x-sandbox-operator-token": TOKEN }],
    ["record", (c) => c.record("invoice", "inv_1"), "GET", "/_sandbox/resources/invoice/inv_1"],
    [
      "setStatus",
      (c) => c.setStatus("invoice", "inv_1", "Success"),
      "POST",
      "/_sandbox/resources/invoice/inv_1/status",
      { status: "Success" },
    ],
    [
      "setStatus twice",
      (c) => c.setStatus("invoice", "inv_1", "Success", { deliverTwice: true }),
      "POST",
      "/_sandbox/resources/invoice/inv_1/status",
      { status: "Success", deliver_twice: true },
    ],
    ["act", (c) => c.act("invoice", "inv_1", "pay"), "POST", "/_sandbox/resources/invoice/inv_1/actions/pay", {}],
    [
      "act twice",
      (c) => c.act("invoice", "inv_1", "pay", { deliverTwice: false }),
      "POST",
      "/_sandbox/resources/invoice/inv_1/actions/pay",
      { deliver_twice: false },
    ],
    ["events", (c) => c.events(), "GET", "/_sandbox/events"],
    ["events of a resource", (c) => c.events({ resource: "invoice" }), "GET", "/_sandbox/events?resource=invoice"],
    ["events of a record", (c) => c.events({ resourceId: "inv_1" }), "GET", "/_sandbox/events?resource_id=inv_1"],
    ["resendEvent", (c) => c.resendEvent("evt_1"), "POST", "/_sandbox/events/evt_1/resend"],
    [
      "resendEvent twice",
      (c) => c.resendEvent("evt_1", { deliverTwice: true }),
      "POST",
      "/_sandbox/events/evt_1/resend",
      { deliver_twice: true },
    ],
    [
      "registerCallback",
      (c) => c.registerCallback("invoiceStatus", "https://partner.test/hook"),
      "PUT",
      "/_sandbox/callbacks/invoiceStatus",
      { url: "https://partner.test/hook" },
    ],
    ["callbacks", (c) => c.callbacks(), "GET", "/_sandbox/callbacks"],
    ["forgetCallback", (c) => c.forgetCallback("invoiceStatus"), "DELETE", "/_sandbox/callbacks/invoiceStatus"],
    ["deliveries", (c) => c.deliveries(), "GET", "/_sandbox/deliveries"],
    ["deliveries of a webhook", (c) => c.deliveries("invoiceStatus"), "GET", "/_sandbox/deliveries?webhook=invoiceStatus"],
    ["clock", (c) => c.clock(), "GET", "/_sandbox/clock"],
    ["advanceClock", (c) => c.advanceClock(3600), "POST", "/_sandbox/clock/advance", { seconds: 3600 }],
    [
      "advanceClock twice",
      (c) => c.advanceClock(60, { deliverTwice: true }),
      "POST",
      "/_sandbox/clock/advance",
      { seconds: 60, deliver_twice: true },
    ],
    ["queueError", (c) => c.queueError("createInvoice", 500), "POST", "/_sandbox/errors", { operation_id: "createInvoice", status: 500 }],
    [
      "queueError counted",
      (c) => c.queueError("createInvoice", 503, 2),
      "POST",
      "/_sandbox/errors",
      { operation_id: "createInvoice", status: 503, count: 2 },
    ],
    [
      "force",
      (c) => c.force({ operation_id: "createInvoice", status: 429, retry_after: 5 }),
      "POST",
      "/_sandbox/errors",
      { operation_id: "createInvoice", status: 429, retry_after: 5 },
    ],
    ["errors", (c) => c.errors(), "GET", "/_sandbox/errors"],
    ["clearErrors", (c) => c.clearErrors(), "DELETE", "/_sandbox/errors"],
  ];
  it("covers the table's 27 requests", () => expect(cases).toHaveLength(27));

  it.each(cases)("%s: %s %s", async (_name, run, method, target, body, headers = {}) => {
    const { sent, fetch } = recorder(200, { events: [], deliveries: [] });
    await run(sandboxControl(BASE, "test-token", { fetch }));
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request.method).toBe(method);
    expect(`${request.url.pathname.slice("/mock".length)}${request.url.search}`).toBe(target);
    expect(request.body).toEqual(body);
    expect(request.headers.get("authorization")).toBe("Bearer test-token");
    for (const [name, value] of Object.entries(headers)) expect(request.headers.get(name)).toBe(value);
    if (!("x-sandbox-operator-token" in headers)) expect(request.headers.has("x-sandbox-operator-token")).toBe(false);
  });

  it("resolves to the answer's body; events and deliveries to their lists", async () => {
    const event = { id: "evt_1" };
    const delivery = { event_id: "evt_1" };
    const { fetch } = recorder(200, { events: [event], deliveries: [delivery], now: "2026-01-01T00:00:00Z" });
    const control = sandboxControl(BASE, "t", { fetch });
    expect(await control.events()).toEqual([event]);
    expect(await control.deliveries()).toEqual([delivery]);
    expect(await control.clock()).toEqual({ events: [event], deliveries: [delivery], now: "2026-01-01T00:00:00Z" });
  });
});

describe("sandboxControl: an answer that is not 2xx", () => {
  it("rejects with a SandboxControlError carrying the problem's status, detail and field", async () => {
    const { fetch } = recorder(409, { status: 409, detail: "the invoice is paid already", field: "status" });
    const error = await sandboxControl(BASE, "t", { fetch })
      .setStatus("invoice", "inv_1", "Success")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxControlError);
    expect(error).toMatchObject({ name: "SandboxControlError", status: 409, message: "the invoice is paid already", field: "status" });
  });

  it("names the status when the answer carries no problem", async () => {
    const { fetch } = recorder(502, "Bad Gateway");
    const error = await sandboxControl(BASE, "t", { fetch })
      .state()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxControlError);
    expect(error).toMatchObject({ name: "SandboxControlError", status: 502, message: "the control API answered 502", field: undefined });
  });
});
