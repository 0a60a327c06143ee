/**
 * The sandbox of every API of the registry, end to end (mock in sandbox mode on a free port, the
 * package's callback receiver): create then read back, isolation between two credentials, a status
 * change whose callback createCallbackHandler processes once even when delivered twice, expiry by
 * the credential's clock, and a forced error status. What is expected is in ./cases.ts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type MockServer } from "../../../src/mock/index.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { registry } from "../../helpers/registry.js";
import { startReceiver } from "../../helpers/sandbox.js";
import { type ApiCase, api, CASES, exampleBody, send } from "./cases.js";

it("the table covers every API of the registry", () => {
  expect(CASES).toHaveLength(7);
  expect(CASES.map((c) => c.alias)).toEqual(registry.map((e) => e.alias));
});

describe.each(CASES.map((c) => [c.alias, c] as const))("%s", (alias, c: ApiCase) => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock(alias, { port: 0, sandbox: { retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } } });
  });
  afterAll(() => mock.close());

  const { doc, op } = api(alias);
  const request = (body?: (example: unknown) => unknown) => {
    const example = exampleBody(doc, op(c.create.operationId));
    return body ? body(example) : c.create.body ? c.create.body(example) : example;
  };
  const create = async (credential: string, body?: (example: unknown) => unknown) => {
    const sent = request(body);
    const answer = await send(mock.url, alias, c.create.operationId, { credential, body: sent });
    expect(answer.status).toBe(200);
    expect(answer.violations).toEqual([]);
    return { id: c.create.id(answer), sent };
  };
  const readBack = async (credential: string, id: string) => {
    const answer = await send(mock.url, alias, c.readBack.operationId, {
      credential,
      ...(c.readBack.params?.(id) ?? {}),
      body: c.readBack.body?.(id) ?? exampleBody(doc, op(c.readBack.operationId)),
    });
    if (answer.status === 200) expect(answer.violations).toEqual([]);
    return c.readBack.find(answer, id);
  };
  const status = (record: Record<string, unknown>) => record.status;

  it("reads back what was created, with the request's values and the first status", async () => {
    const credential = `cred-${randomUUID()}`;
    const { id, sent } = await create(credential);
    const record = await readBack(credential, id);
    expect(record).toBeDefined();
    expect(() => c.echo(record, sent)).not.toThrow();
    expect(status(record)).toBe(c.initialStatus);
  });

  it("keeps two credentials apart", async () => {
    const [a, b] = [`cred-${randomUUID()}`, `cred-${randomUUID()}`];
    const { id } = await create(a);
    expect(await readBack(b, id)).toBeUndefined();
    const { id: other } = await create(b);
    expect(await readBack(a, other)).toBeUndefined();
    expect(await readBack(a, id)).toBeDefined();
    expect(
      await sandboxControl(mock.url, b)
        .record(c.resource, id)
        .catch((e: Error) => e.message),
    ).toMatch(/this credential has no/);
  });

  it(
    c.callback
      ? `moves the status and sends ${c.callback.webhook}, processed once when delivered twice`
      : "moves the status; the sources show no event, so nothing is sent",
    async () => {
      const credential = `cred-${randomUUID()}`;
      const control = sandboxControl(mock.url, credential);
      const receiver = c.callback ? await startReceiver(alias, c.callback.webhook) : undefined;
      try {
        if (c.callback && receiver) {
          if (c.callback.register === "control") await control.registerCallback(c.callback.webhook, receiver.url);
          else {
            const set = await send(mock.url, alias, c.callback.register.operationId, {
              credential,
              body: c.callback.register.body(receiver.url),
            });
            expect(set.status).toBe(200);
          }
        }
        const { id } = await create(credential);
        const move = await control.setStatus(c.resource, id, c.moveTo, { deliverTwice: true });
        expect(move).toMatchObject({ from: c.initialStatus, to: c.moveTo, changed: true });
        expect(status(await readBack(credential, id))).toBe(c.moveTo);
        if (c.callback && receiver) {
          expect(move.deliveries).toEqual([expect.objectContaining({ times: 2 })]);
          const key = move.deliveries[0].idempotency_key;
          // A later event of the same credential marks the end: its key arrives after every delivery of the first.
          const { id: later } = await create(credential);
          const markerKey = (await control.setStatus(c.resource, later, c.moveTo)).deliveries[0].idempotency_key!;
          const deliveries = await receiver.deliveriesThrough(markerKey);
          expect(deliveries.map((d) => [d.key, d.status])).toEqual([
            [key, 200],
            [key, 200],
            [markerKey, 200],
          ]);
          await receiver.eventCount(2);
          expect(receiver.events).toHaveLength(2);
          expect(receiver.events[0].payload).toMatchObject(c.callback.payload(id) as object);
        } else {
          expect(move.deliveries).toEqual([]);
          expect(await control.deliveries()).toEqual([]);
        }
      } finally {
        await receiver?.close();
      }
    },
  );

  if (c.expiry.length === 0) {
    it("makes no transition by itself when the clock moves (the sources show none)", async () => {
      const credential = `cred-${randomUUID()}`;
      const { id } = await create(credential);
      const advanced = await sandboxControl(mock.url, credential).advanceClock(400 * 24 * 3600);
      expect(advanced.expired).toEqual([]);
      expect(status(await readBack(credential, id))).toBe(c.initialStatus);
    });
  }

  for (const rule of c.expiry) {
    it(`expires ${rule.name}, by the clock`, async () => {
      const credential = `cred-${randomUUID()}`;
      const control = sandboxControl(mock.url, credential);
      const receiver = rule.payload && c.callback ? await startReceiver(alias, c.callback.webhook) : undefined;
      try {
        if (receiver && c.callback?.register === "control") await control.registerCallback(c.callback.webhook, receiver.url);
        if (rule.setup)
          expect((await send(mock.url, alias, rule.setup.operationId, { credential, body: rule.setup.body })).status).toBe(200);
        const { id } = await create(credential, rule.body);
        expect((await control.advanceClock(rule.seconds - 5)).expired).toEqual([]);
        expect(status(await readBack(credential, id))).toBe(c.initialStatus);
        const due = await control.advanceClock(10);
        expect(due.expired).toEqual([expect.objectContaining({ resource: c.resource, id, from: c.initialStatus, to: rule.to })]);
        expect(status(await readBack(credential, id))).toBe(rule.to);
        if (receiver && rule.payload) {
          const [event] = await receiver.eventCount(1);
          expect(event.payload).toMatchObject(rule.payload(id) as object);
        }
      } finally {
        await receiver?.close();
      }
    });
  }

  it(`answers ${c.error.status} to the next ${c.error.operationId} when asked`, async () => {
    const credential = `cred-${randomUUID()}`;
    const control = sandboxControl(mock.url, credential);
    await control.queueError(c.error.operationId, c.error.status);
    const forced = await send(mock.url, alias, c.error.operationId, { credential, body: request() });
    expect(forced.status).toBe(c.error.status);
    expect(forced.violations).toEqual([]);
    const next = await send(mock.url, alias, c.error.operationId, { credential, body: request() });
    expect(next.status).toBe(200);
  });
});
