/**
 * Compile-time checks of the testing entry's names (checked by `npm run typecheck`): aliases and
 * operationIds are the registry's literal types, so a typo in `startMock`, `createValidator`,
 * `toMatchContract` or the matcher's declaration fails to compile; plain strings pass only with a
 * registry of one's own (`createValidator(alias, { registry })`). The expected aliases are the
 * registry's aliases (redocly.yaml), written out by hand.
 */
import { expectTypeOf } from "vitest";
import {
  type AnyContractValidator,
  type ApiAlias,
  type ContractMatchers,
  type ContractValidator,
  createValidator,
  listApis,
  type OperationId,
  startMock,
  toMatchContract,
} from "../../../../src/testing/index.js";

export function aliases() {
  expectTypeOf<ApiAlias>().toEqualTypeOf<
    | "pay@1.3.0"
    | "pay@1.2.0"
    | "payment-initiation@1.0.0"
    | "statement@1.0.0"
    | "balance@1.0.0"
    | "disbursement@1.0.0"
    | "account-opening@1.0.0"
  >();
  expectTypeOf(listApis()[0].alias).toEqualTypeOf<ApiAlias>();
  // operationIds are each API's own, webhooks included
  expectTypeOf<"getMerchant" | "createInvoice" | "notifyInvoicePaid">().toExtend<OperationId<"pay@1.3.0">>();
  expectTypeOf<"listBalances">().toExtend<OperationId<"balance@1.0.0">>();
  expectTypeOf<"listBalances">().not.toExtend<OperationId<"pay@1.3.0">>();
  expectTypeOf<OperationId<"pay@1.3.0">>().not.toEqualTypeOf<string>();
}

export async function mocks() {
  const mock = await startMock("pay@1.3.0", { sandbox: true });
  expectTypeOf(mock.alias).toEqualTypeOf<"pay@1.3.0">();
  // @ts-expect-error: "pay@1.3" is not an alias (the release is 1.3.0)
  await startMock("pay@1.3");
  // @ts-expect-error: there is no pay 1.4.0 in the registry
  await startMock("pay@1.4.0");
  // @ts-expect-error: an alias names the release
  await startMock("balance");
}

export function validators(body: unknown) {
  const pay = createValidator("pay@1.3.0");
  expectTypeOf(pay).toEqualTypeOf<ContractValidator<"pay@1.3.0">>();
  expectTypeOf(pay.operationIds).toEqualTypeOf<readonly OperationId<"pay@1.3.0">[]>();
  pay.validateResponse({ operationId: "getMerchant", status: 200, body });
  pay.validateRequest({ operationId: "notifyInvoicePaid", body });
  // @ts-expect-error: a misspelt operationId
  pay.validateResponse({ operationId: "getMerchnt", status: 200, body });
  // @ts-expect-error: listBalances is a balance operation, not a Pay one
  pay.validateRequest({ operationId: "listBalances", body });
  // @ts-expect-error: a misspelt alias
  createValidator("pay@1.3.O");

  // A registry of one's own: names the types cannot know, so plain strings.
  const own = createValidator("shop@1.0.0", { registry: "./redocly.yaml" });
  expectTypeOf(own).toEqualTypeOf<AnyContractValidator>();
  own.validateResponse({ operationId: "anyOperation", status: 200, body });
  // @ts-expect-error: without a registry, the alias must be one of the package's
  createValidator("shop@1.0.0");
}

export function matchers(body: unknown) {
  toMatchContract.call(undefined, body, "statement@1.0.0", "submitStatementTfa", 200);
  // @ts-expect-error: a misspelt operationId
  toMatchContract.call(undefined, body, "pay@1.3.0", "getMerchnt", 200);

  const expectLike = {} as ContractMatchers<void>;
  expectLike.toMatchContract("pay@1.3.0", "getMerchant", 200);
  expectLike.toMatchContract("balance@1.0.0", "listBalances");
  // @ts-expect-error: a misspelt operationId
  expectLike.toMatchContract("pay@1.3.0", "getMerchnt", 200);
  // @ts-expect-error: a misspelt alias
  expectLike.toMatchContract("pay@1.3", "getMerchant", 200);
  // @ts-expect-error: getMerchant is a Pay operation, not a balance one
  expectLike.toMatchContract("balance@1.0.0", "getMerchant", 200);
}
