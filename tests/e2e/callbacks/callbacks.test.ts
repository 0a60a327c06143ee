/**
 * Callbacks, for every webhook of every API of the registry (generic: a webhook added to a spec is
 * tested here with no edit), in both forms of the handler (node:http and the Fetch API):
 * a valid callback is delivered once; the same Idempotency-Key sent 5 times at once reaches
 * onEvent exactly once; an invalid payload gets 400 with its violations and onEvent is not called.
 * Every handler verifies as a partner's would: where the webhook can be confirmed against the API,
 * by fetching the record from the API's contract mock (port 0) through its generated client; else
 * with a verify hook checking a shared secret the test's deliveries carry.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildCallbackPayload,
  type CallbackHandlerOptions,
  confirmationOf,
  createCallbackHandler,
  type CallbackEvent,
  type CallbackHandler,
  IDEMPOTENCY_HEADER,
  listWebhooks,
  sendCallback,
  type WebhookInfo,
} from "../../../src/callbacks/index.js";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { bundled, createTestClient } from "../../helpers/registry.js";

const webhooks = listWebhooks();
const SECRET = { "x-test-secret": "callbacks-e2e-shared-secret" };

/** How a partner's handler verifies this webhook: confirm against the API (its mock), else a shared secret. */
async function verification(webhook: WebhookInfo, mocks: MockServer[]): Promise<CallbackHandlerOptions> {
  const entry = findApi(webhook.alias);
  if (!confirmationOf(entry, webhook.name)) return { verify: ({ headers }) => headers["x-test-secret"] === SECRET["x-test-secret"] };
  const mock = await startMock(entry, { port: 0 });
  mocks.push(mock);
  const client = await createTestClient(bundled.find((b) => b.entry.alias === webhook.alias)!.entry, mock.url);
  return { confirm: { client: client as never } };
}

interface Receiver {
  events: CallbackEvent[];
  handler: CallbackHandler;
  /** Sends one request to the handler in this form; resolves to status and parsed JSON body. */
  post(init: { body?: string; headers?: Record<string, string>; method?: string }): Promise<{ status: number; body: any }>;
  /** Where sendCallback delivers, for the node form; undefined for the Fetch form (a fetch function is injected). */
  url: string;
  fetch: typeof fetch;
}

type Form = "node:http" | "fetch";

async function receiver(webhook: WebhookInfo, form: Form, servers: Server[], mocks: MockServer[]): Promise<Receiver> {
  const events: CallbackEvent[] = [];
  const handler = createCallbackHandler(
    webhook.alias,
    webhook.name,
    async (event) => {
      // A little work with an await in it, so that concurrent deliveries really overlap.
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push(event);
    },
    await verification(webhook, mocks),
  );
  /** Every delivery of the test carries the shared secret (ignored where the handler confirms against the API). */
  const signed = (init?: RequestInit): RequestInit => ({
    ...init,
    headers: { ...Object.fromEntries(new Headers(init?.headers)), ...SECRET },
  });
  if (form === "node:http") {
    const server = createServer(handler);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
    return {
      events,
      handler,
      url,
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, signed(init))) as typeof fetch,
      async post({ body, headers = {}, method = webhook.method }) {
        const response = await fetch(url, signed({ method, headers, body }));
        return { status: response.status, body: await response.json() };
      },
    };
  }
  const url = "https://partner.example.test/callbacks";
  // The Fetch form: Request in, Response out, no server at all.
  const viaFetch = ((input: RequestInfo | URL, init?: RequestInit) => handler.fetch(new Request(input, signed(init)))) as typeof fetch;
  return {
    events,
    handler,
    url,
    fetch: viaFetch,
    async post({ body, headers = {}, method = webhook.method }) {
      const response = await handler.fetch(new Request(url, signed({ method, headers, body })));
      return { status: response.status, body: await response.json() };
    },
  };
}

it("the registry declares webhooks (so that the tests below run)", () => {
  expect(webhooks.length).toBeGreaterThan(0);
  for (const webhook of webhooks) expect(webhook.method).toBe("POST");
});

describe.each(webhooks.map((w) => [`${w.alias} ${w.name}`, w] as const))("%s", (_label, webhook) => {
  const servers: Server[] = [];
  const mocks: MockServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await Promise.all(mocks.map((m) => m.close()));
  });

  const expected = buildCallbackPayload(webhook.alias, webhook.name).payload;

  describe.each(["node:http", "fetch"] as const)("%s form", (form) => {
    let r: Receiver;
    beforeAll(async () => {
      r = await receiver(webhook, form, servers, mocks);
    });

    it("delivers a valid callback (the spec's example, a fresh Idempotency-Key) to onEvent once and answers 200", async () => {
      r.events.length = 0;
      const result = await sendCallback(webhook.alias, webhook.name, { to: r.url, fetch: r.fetch });
      expect(result.deliveries.map((d) => d.status)).toEqual([200]);
      expect(JSON.parse(result.deliveries[0].body)).toEqual({ received: true, duplicate: false });
      expect(r.events).toHaveLength(1);
      expect(r.events[0].payload).toEqual(expected);
      expect(r.events[0]).toMatchObject({ alias: webhook.alias, webhook: webhook.name, operationId: webhook.operationId });
      if (webhook.idempotencyKey) {
        expect(result.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(r.events[0].idempotencyKey).toBe(result.idempotencyKey);
      }
    });

    it("calls onEvent exactly once when the same Idempotency-Key arrives 5 times at once", async () => {
      r.events.length = 0;
      const key = `${form}-${webhook.name}-${Date.now()}`;
      const headers = { "content-type": "application/json", [IDEMPOTENCY_HEADER]: key };
      const answers = await Promise.all(Array.from({ length: 5 }, () => r.post({ body: JSON.stringify(expected), headers })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
      expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(4);
      expect(r.events).toHaveLength(1);
      expect(r.events[0].idempotencyKey).toBe(key);
      // A repeat later on (the provider retrying) is not processed either.
      const later = await r.post({ body: JSON.stringify(expected), headers });
      expect(later).toEqual({ status: 200, body: { received: true, duplicate: true } });
      expect(r.events).toHaveLength(1);
    });

    it("--repeat: the same callback delivered 3 times with one key reaches onEvent once", async () => {
      r.events.length = 0;
      const result = await sendCallback(webhook.alias, webhook.name, {
        to: r.url,
        fetch: r.fetch,
        repeat: 2,
        idempotencyKey: `repeat-${form}-${Date.now()}`,
      });
      expect(result.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
      expect(result.deliveries.map((d) => JSON.parse(d.body).duplicate)).toEqual([false, true, true]);
      expect(new Set(result.deliveries.map((d) => d.idempotencyKey)).size).toBe(1);
      expect(r.events).toHaveLength(1);
    });

    it("answers 400 with the violations to a body that is not JSON, and does not call onEvent", async () => {
      r.events.length = 0;
      const answer = await r.post({
        body: '{"status": ',
        headers: { "content-type": "application/json", [IDEMPOTENCY_HEADER]: `bad-${form}-${Date.now()}` },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.violations).toEqual([{ in: "body", path: "$", message: expect.stringMatching(/^is not valid JSON/) }]);
      expect(r.events).toHaveLength(0);
    });

    it("answers 400 to a body of an undeclared media type, and does not call onEvent", async () => {
      r.events.length = 0;
      const answer = await r.post({
        body: "status=COMPLETED",
        headers: { "content-type": "application/x-www-form-urlencoded", [IDEMPOTENCY_HEADER]: `form-${Date.now()}` },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.violations[0]).toMatchObject({
        in: "body",
        path: "$",
        message: expect.stringContaining("application/x-www-form-urlencoded"),
      });
      expect(r.events).toHaveLength(0);
    });

    it(
      webhook.idempotencyKey?.required
        ? "answers 400 naming the header when the required Idempotency-Key is missing"
        : "processes a delivery without Idempotency-Key (the spec does not require it) every time: nothing to deduplicate on",
      async () => {
        r.events.length = 0;
        const send = () => r.post({ body: JSON.stringify(expected), headers: { "content-type": "application/json" } });
        if (webhook.idempotencyKey?.required) {
          const answer = await send();
          expect(answer.status).toBe(400);
          expect(answer.body.violations).toContainEqual({
            in: "header",
            path: `header.${webhook.idempotencyKey.name}`,
            message: "is required",
          });
          expect(r.events).toHaveLength(0);
        } else {
          expect((await send()).status).toBe(200);
          expect((await send()).status).toBe(200);
          expect(r.events).toHaveLength(2);
          expect(r.events[0].idempotencyKey).toBeUndefined();
        }
      },
    );

    it("answers 405 to another method, naming the webhook's", async () => {
      const answer = await r.post({ method: "PUT", body: JSON.stringify(expected), headers: { "content-type": "application/json" } });
      expect(answer.status).toBe(405);
      expect(answer.body.error).toContain(webhook.method);
    });
  });
});
