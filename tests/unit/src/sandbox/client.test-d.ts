/**
 * Compile-time checks of `sandboxControl` (checked by `npm run typecheck`): typed for an API with
 * `{ api }`, its resources, each resource's statuses and actions, and the API's operationIds are
 * literal types from the declarations (generated/sandbox/declarations.ts) and the registry, so an
 * unknown one fails to compile; without `api`, any string goes.
 */
import { expectTypeOf } from "vitest";
import { sandboxControl } from "../../../../src/testing/index.js";

export async function typedForAnApi() {
  const control = sandboxControl("http://127.0.0.1:4010", "token", { api: "pay@1.3.0" });
  await control.act("invoice", "inv_1", "pay");
  await control.setStatus("invoice", "inv_1", "Flagged");
  await control.record("signupRequest", "req_1");
  await control.queueError("createInvoice", 503);
  await control.force({ operation_id: "listInvoices", latency_ms: 100 });
  // @ts-expect-error an action invoice's lifecycle does not have
  await control.act("invoice", "inv_1", "refund");
  // @ts-expect-error a status invoice does not have (1.2.0's spelling)
  await control.setStatus("invoice", "inv_1", "SUCCESS");
  // @ts-expect-error a resource pay@1.3.0's declaration does not have
  await control.record("order", "o_1");
  // @ts-expect-error an operation pay@1.3.0 does not have
  await control.queueError("createCheckout", 500);
  // @ts-expect-error an operation pay@1.3.0 does not have
  await control.force({ operation_id: "createCheckout", drop: true });
  // @ts-expect-error actions are per resource: approve is signupRequest's, not invoice's
  await control.act("invoice", "inv_1", "approve");
  await control.act("signupRequest", "req_1", "approve");
}

export async function anotherApi() {
  const control = sandboxControl("http://127.0.0.1:4012", "key", { api: "payment-initiation@1.0.0" });
  await control.act("transaction", "txn_1", "settle");
  // @ts-expect-error pay's action, not the transaction's
  await control.act("transaction", "txn_1", "pay");
  expectTypeOf(control.setStatus<"transaction">)
    .parameter(2)
    .toEqualTypeOf<
      | "TransferStatus_AWAITING_ACCOUNT_SELECT"
      | "TransferStatus_AWAITING_LOGIN"
      | "TransferStatus_AWAITING_LOGIN_TFA"
      | "TransferStatus_AWAITING_TRANSFER_TFA"
      | "TransferStatus_CANCELLED"
      | "TransferStatus_COMPLETED"
      | "TransferStatus_CREATED"
      | "TransferStatus_DENIED"
      | "TransferStatus_ERROR"
      | "TransferStatus_EXPIRED"
      | "TransferStatus_FAILED"
      | "TransferStatus_FLAGGED"
      | "TransferStatus_INVOICE_CREATED"
      | "TransferStatus_IN_PROGRESS"
      | "TransferStatus_LOGIN_ERROR"
      | "TransferStatus_TFA_AWAIT"
    >();
}

export async function untyped() {
  const control = sandboxControl("http://127.0.0.1:4010", "token");
  await control.act("anything", "id", "any-action");
  await control.setStatus("anything", "id", "ANY");
  await control.queueError("anyOperation", 500);
}
