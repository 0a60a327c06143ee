/**
 * Which webhooks take a URL through the control API (src/sandbox/control/handler.ts
 * `requireWebhook`, behind PUT and DELETE /_sandbox/callbacks/{webhook}), on hand-written APIs of two
 * webhooks: one whose URL the sources say is registered in the provider's dashboard (`$callbackUrl`),
 * one whose URL comes from a record (as Pay's invoicePaid goes to the merchant's `webhook_url`). Each
 * webhook is judged by its own rule; an unknown one is refused naming every webhook there is; an API
 * without a declaration takes a URL for each of its webhooks.
 */
import { describe, expect, it } from "vitest";
import { ControlError } from "../../../../src/sandbox/control/errors.js";
import { requireWebhook } from "../../../../src/sandbox/control/handler.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";

/** What requireWebhook reads of an engine: the API's alias, its webhooks, its declaration's callback rules. */
function engineOf(callbacks: Array<{ webhook: string; url: unknown }> | undefined): EngineContext {
  return {
    entry: { alias: "two-hooks@1.0.0" },
    doc: { webhooks: { orderPaid: {}, orderRefunded: {} } },
    declaration:
      callbacks === undefined
        ? undefined
        : { resources: { order: { name: "order", callbacks: callbacks.map((c, i) => ({ ...c, source: `Fixture, line ${i + 1}` })) } } },
  } as unknown as EngineContext;
}

/** The refusal requireWebhook throws for `name`, or undefined when it takes the webhook. */
function refusal(engine: EngineContext, name: string): ControlError | undefined {
  try {
    expect(requireWebhook(engine, name)).toBe(name);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ControlError);
    return error as ControlError;
  }
}

describe("a webhook of an API whose rules say where each URL comes from", () => {
  // The record's rule first: each webhook must be judged by its own rule, not by the first one.
  const engine = engineOf([
    { webhook: "orderRefunded", url: "$resource.merchant.refund_url" },
    { webhook: "orderPaid", url: "$callbackUrl" },
  ]);

  it("takes a URL for the webhook registered in the dashboard", () => {
    expect(refusal(engine, "orderPaid")).toBeUndefined();
  });

  it("refuses 400 the webhook whose URL comes from a record, naming the rule's source", () => {
    const refused = refusal(engine, "orderRefunded");
    expect(refused?.status).toBe(400);
    expect(refused?.field).toBe("webhook");
    expect(refused?.message).toContain('"$resource.merchant.refund_url" (Fixture, line 1)');
  });

  it("refuses 404 a webhook the API does not declare, naming every one it does", () => {
    const refused = refusal(engine, "orderShipped");
    expect(refused?.status).toBe(404);
    expect(refused?.field).toBe("webhook");
    expect(refused?.message).toBe('two-hooks@1.0.0 has no webhook "orderShipped"; webhooks: orderPaid, orderRefunded');
  });
});

describe("a webhook of an API without a declaration", () => {
  it("takes a URL: no rule says it comes from elsewhere", () => {
    const engine = engineOf(undefined);
    expect(refusal(engine, "orderPaid")).toBeUndefined();
    expect(refusal(engine, "orderRefunded")).toBeUndefined();
  });
});
