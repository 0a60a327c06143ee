/**
 * The built-in confirmation, against the real contract mock of each API (in process, port 0),
 * through the API's generated client, in both forms of the handler: a genuine callback (the
 * spec's example, whose record the API knows) is processed with the API's record as
 * `event.record`; a forged one (no id, or an id the API does not know) is answered 403 and never
 * reaches the store or onEvent; when the API cannot be asked, 503, and the provider's retry is
 * processed once the API answers. Which webhooks can be confirmed is checked against a table
 * written here from the sources.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CallbackHandler,
  confirmationOf,
  createCallbackHandler,
  createMemoryStore,
  type CallbackEvent,
  IDEMPOTENCY_HEADER,
  listWebhooks,
  sendCallback,
} from "../../../src/callbacks/index.js";
import { resolveConfirmation } from "../../../src/callbacks/confirm.js";
import { type MockServer, startMock } from "../../../src/mock/index.js";
import { findApi } from "../../../src/registry.js";
import { operations } from "../../../src/document/index.js";
import { credentialHeaders, TEST_API_KEY } from "../../../src/testing/requests.js";
import { bundled, createTestClient } from "../../helpers/registry.js";

/**
 * From the Payment Initiation, Statement Retrieval and Balance Retrieval Interface: a transaction's full record is fetched by its id
 * (line 251, GET /v1/transaction, line 198); a statement's latest status by polling
 * /v1/statements?statement_ids=<id> (line 215). Pay's invoice webhook has no fetch by id
 * (Pay Service Interface, line 236; GET /v1/invoice takes no documented parameters, line 197).
 * `records` finds the records in the operation's answer, `id` names the payload's identity.
 */
const EXPECTED: Record<string, { operationId: string; path: string; parameter: string; id: string; records: (body: any) => any[] } | null> =
  {
    "pay@1.3.0 invoicePaid": null,
    "payment-initiation@1.0.0 transactionCompleted": {
      operationId: "listTransactions",
      path: "/v1/transaction",
      parameter: "transaction_id",
      id: "transaction_id",
      records: (body) => body.transactions,
    },
    "statement@1.0.0 statementStatusChanged": {
      operationId: "listStatements",
      path: "/v1/statements",
      parameter: "statement_ids",
      id: "statement_id",
      records: (body) => (Array.isArray(body) ? body : [body]),
    },
  };

const webhooks = listWebhooks();
const confirmable = webhooks.filter((w) => EXPECTED[`${w.alias} ${w.name}`]);

it("declares a confirmation for exactly the webhooks whose record the sources say can be fetched", () => {
  expect(webhooks.map((w) => `${w.alias} ${w.name}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  for (const w of webhooks) {
    const declared = confirmationOf(findApi(w.alias), w.name);
    expect(declared?.operationId ?? null, `${w.alias} ${w.name}`).toBe(EXPECTED[`${w.alias} ${w.name}`]?.operationId ?? null);
    if (declared) {
      expect(declared.source).toMatch(/^Payment Initiation, Statement Retrieval and Balance Retrieval Interface, line \d+/);
      const resolved = resolveConfirmation(findApi(w.alias), w.name, declared);
      expect(resolved).toMatchObject({ method: "GET", path: EXPECTED[`${w.alias} ${w.name}`]!.path });
      expect(resolved.parameters).toEqual([
        { name: EXPECTED[`${w.alias} ${w.name}`]!.parameter, in: "query", from: `/${EXPECTED[`${w.alias} ${w.name}`]!.id}` },
      ]);
    }
  }
  expect(confirmable).toHaveLength(2);
});

it("a webhook the API cannot confirm needs a verify hook or an explicit opt-out, and says so", () => {
  const pay = webhooks.find((w) => EXPECTED[`${w.alias} ${w.name}`] === null)!;
  expect(() => createCallbackHandler(pay.alias, pay.name, () => {})).toThrow(
    /cannot be confirmed against the API .*Pass verify: \(delivery\) => boolean .*acceptUnverified: true/,
  );
  expect(() =>
    createCallbackHandler(pay.alias, pay.name, () => {}, { confirm: { client: { request: async () => ({ response: new Response() }) } } }),
  ).toThrow(/cannot be confirmed against the API/);
  for (const w of confirmable) {
    expect(() => createCallbackHandler(w.alias, w.name, () => {})).toThrow(
      new RegExp(
        `Pass confirm: \\{ client \\} to confirm each event by fetching its record with ${EXPECTED[`${w.alias} ${w.name}`]!.operationId}`,
      ),
    );
  }
});

describe.each(confirmable.map((w) => [`${w.alias} ${w.name}`, w] as const))("%s confirmed against its mock", (label, webhook) => {
  const expected = EXPECTED[label]!;
  const api = bundled.find((b) => b.entry.alias === webhook.alias)!;
  let mock: MockServer;
  let mockRecords: any[];
  beforeAll(async () => {
    mock = await startMock(webhook.alias, { port: 0 });
    // What the API answers for the operation, read here with a plain fetch and the credential.
    const op = operations(api.doc).find((o) => o.operationId === expected.operationId)!;
    const answer = await fetch(`${mock.url}${expected.path}?${expected.parameter}=x`, { headers: credentialHeaders(api.doc, op) });
    expect(answer.status).toBe(200);
    mockRecords = expected.records(await answer.json());
    expect(mockRecords.length).toBeGreaterThan(0);
  });
  afterAll(() => mock.close());

  describe.each(["node:http", "fetch"] as const)("%s form", (form) => {
    const events: CallbackEvent[] = [];
    const store = createMemoryStore();
    let handler: CallbackHandler;
    beforeAll(async () => {
      const client = await createTestClient(api.entry, mock.url);
      handler = createCallbackHandler(webhook.alias, webhook.name, (e) => void events.push(e), {
        confirm: { client: client as never },
        store,
      });
    });
    const post = async (payload: unknown, key: string, h = handler) => {
      const init = {
        method: "POST",
        headers: { "content-type": "application/json", [IDEMPOTENCY_HEADER]: key },
        body: JSON.stringify(payload),
      };
      if (form === "fetch") return h.fetch(new Request("https://partner.example.test/cb", init));
      const { createServer } = await import("node:http");
      const server = createServer(h);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const response = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/cb`, init);
        return new Response(await response.text(), { status: response.status, headers: response.headers });
      } finally {
        server.close();
      }
    };

    it("processes a genuine callback (the spec's example) once, with the API's record as event.record", async () => {
      events.length = 0;
      const result = await sendCallback(webhook.alias, webhook.name, {
        to: "https://partner.example.test/cb",
        fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
          form === "fetch"
            ? handler.fetch(new Request(input, init))
            : post(JSON.parse(String(init!.body)), new Headers(init!.headers).get(IDEMPOTENCY_HEADER)!)) as typeof fetch,
        repeat: 1,
      });
      expect(result.deliveries.map((d) => d.status)).toEqual([200, 200]);
      expect(result.deliveries.map((d) => JSON.parse(d.body).duplicate)).toEqual([false, true]);
      expect(events).toHaveLength(1);
      const id = (result.payload as Record<string, unknown>)[expected.id];
      expect(events[0].record).toEqual(mockRecords.find((r) => r[expected.id] === id));
      expect(events[0].record).toBeDefined();
    });

    it.each([
      ["a payload naming no record", { status: "SUCCESS" }, /the payload has no .+ to look the record up with/],
      ["an id the API does not know", { [expected.id]: "forged_0000000001", status: "SUCCESS" }, /returned no record with/],
    ])("answers 403 to a forged callback (%s): never stored, never acted on", async (_, payload, reason) => {
      events.length = 0;
      const sizeBefore = store.size;
      const response = await post(payload, `forged-${Date.now()}-${Math.random()}`);
      expect(response.status).toBe(403);
      expect((await response.json()).error).toMatch(reason);
      expect(events).toEqual([]);
      expect(store.size).toBe(sizeBefore);
    });

    it("answers 503 while the API cannot be asked; the provider's retry is processed once it answers", async () => {
      events.length = 0;
      const closed = await startMock(webhook.alias, { port: 0 });
      await closed.close(); // a port where nothing listens now
      const offline = createCallbackHandler(webhook.alias, webhook.name, (e) => void events.push(e), {
        confirm: { client: (await createTestClient(api.entry, closed.url)) as never },
        store,
        onError: () => {},
      });
      const payload = { [expected.id]: mockRecords[0][expected.id] };
      const key = `retry-${form}-${Date.now()}`;
      const first = await post(payload, key, offline);
      expect(first.status).toBe(503);
      expect(first.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(events).toEqual([]);
      const retry = await post(payload, key);
      expect(retry.status).toBe(200);
      expect(events).toHaveLength(1);
      expect(events[0].record).toEqual(mockRecords[0]);
    });
  });

  it("the test credential is what the client sends (the mock refuses a call without it)", () => {
    expect(Object.values(credentialHeaders(api.doc, operations(api.doc).find((o) => o.operationId === expected.operationId)!))).toContain(
      TEST_API_KEY,
    );
  });
});
