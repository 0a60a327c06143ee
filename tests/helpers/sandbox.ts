/**
 * Shared by the sandbox tests: JSON calls with the sl-violations header parsed, a callback receiver
 * (createCallbackHandler behind a node:http server) whose deliveries and events are awaited as
 * promises (no sleeps), and the control document's validator.
 */
import { createServer } from "node:http";
import { type CallbackEvent, createCallbackHandler } from "../../src/callbacks/index.js";
import { loadDocument } from "../../src/document/index.js";
import { CONTROL_DOCUMENT } from "../../src/sandbox/control/index.js";
import { validatorForDocument } from "../../src/validation/contract.js";

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, the text when it is not JSON, undefined when empty. */
  body: any;
  /** The sl-violations header, parsed; [] when absent. */
  violations: Array<{ location: string[]; severity: string; code?: unknown; message: string }>;
}

export async function call(
  base: string,
  method: string,
  path: string,
  { body, headers = {}, raw }: { body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (raw !== undefined) init.body = raw;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const response = await fetch(base + path, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  const header = response.headers.get("sl-violations");
  return { status: response.status, headers: response.headers, body: parsed, violations: header ? JSON.parse(header) : [] };
}

export interface Receiver {
  url: string;
  events: CallbackEvent[];
  /** Every delivery that reached the server: its Idempotency-Key and the status it got. */
  deliveries: Array<{ key?: string; status: number }>;
  /** Resolves when `n` events have been processed by onEvent. */
  eventCount(n: number): Promise<CallbackEvent[]>;
  /** Resolves when `n` deliveries have been answered. */
  deliveryCount(n: number): Promise<Array<{ key?: string; status: number }>>;
  /**
   * Resolves with every delivery answered so far once one carrying `key` has been answered. The
   * sandbox delivers a credential's events one after the other, in order: once a later event's key
   * arrives, every delivery of the earlier ones has too, so a test asserts on their number at once
   * (a missing second delivery fails by name instead of waiting for the test's timeout).
   */
  deliveriesThrough(key: string): Promise<Array<{ key?: string; status: number }>>;
  close(): Promise<void>;
}

/**
 * A receiver for one webhook: createCallbackHandler (validation, Idempotency-Key dedupe) behind a
 * node:http server on a free port. The first `failFirst` deliveries are answered 503 without
 * reaching the handler (a receiver that is down).
 */
export async function startReceiver(
  alias: string,
  webhook: string,
  options: { registry?: string; failFirst?: number } = {},
): Promise<Receiver> {
  const events: CallbackEvent[] = [];
  const deliveries: Array<{ key?: string; status: number }> = [];
  const waiters: Array<() => void> = [];
  const notify = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const handler = createCallbackHandler(
    alias,
    webhook,
    (event) => {
      events.push(event);
      notify();
    },
    // The receiver under test here is the sandbox's delivery; verification before acting is tested in
    // tests/e2e/callbacks, so this test receiver opts out of it explicitly.
    { registry: options.registry, acceptUnverified: true },
  );
  let failures = options.failFirst ?? 0;
  const server = createServer(async (req, res) => {
    const key = req.headers["idempotency-key"] as string | undefined;
    if (failures > 0) {
      failures--;
      req.resume();
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":"down"}');
      deliveries.push({ key, status: 503 });
      notify();
      return;
    }
    await handler(req, res);
    deliveries.push({ key, status: res.statusCode });
    notify();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  const until = <T>(ready: () => boolean, value: () => T) =>
    new Promise<T>((resolve) => {
      const check = () => {
        if (ready()) resolve(value());
        else waiters.push(check);
      };
      check();
    });
  return {
    url: `http://127.0.0.1:${address.port}/callback`,
    events,
    deliveries,
    eventCount: (n) =>
      until(
        () => events.length >= n,
        () => events,
      ),
    deliveryCount: (n) =>
      until(
        () => deliveries.length >= n,
        () => deliveries,
      ),
    deliveriesThrough: (key) =>
      until(
        () => deliveries.some((d) => d.key === key),
        () => deliveries,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The control API's validator (its OpenAPI document, Ajv). */
export const controlValidator = validatorForDocument("sandbox control API", loadDocument(CONTROL_DOCUMENT));

/** Violations of a control answer against the control document. */
export function controlViolations(operationId: string, answer: Answer) {
  return controlValidator.validateResponse({
    operationId,
    status: answer.status,
    body: answer.body,
    contentType: answer.headers.get("content-type") ?? undefined,
  }).violations;
}
