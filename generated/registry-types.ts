// Generated from the registry (redocly.yaml `apis:`) by `npm run generate` (scripts/generate.ts). Do not edit.

import type { operations as PayV130Operations } from "./pay/1.3.0/schema.js";
import type { operations as PayV120Operations } from "./pay/1.2.0/schema.js";
import type { operations as PaymentInitiationV100Operations } from "./payment-initiation/1.0.0/schema.js";
import type { operations as StatementV100Operations } from "./statement/1.0.0/schema.js";
import type { operations as BalanceV100Operations } from "./balance/1.0.0/schema.js";
import type { operations as DisbursementV100Operations } from "./disbursement/1.0.0/schema.js";
import type { operations as AccountOpeningV100Operations } from "./account-opening/1.0.0/schema.js";

/** Each API of the registry, by alias, with its operationIds (webhooks included). */
export interface RegistryOperations {
  "pay@1.3.0": keyof PayV130Operations & string;
  "pay@1.2.0": keyof PayV120Operations & string;
  "payment-initiation@1.0.0": keyof PaymentInitiationV100Operations & string;
  "statement@1.0.0": keyof StatementV100Operations & string;
  "balance@1.0.0": keyof BalanceV100Operations & string;
  "disbursement@1.0.0": keyof DisbursementV100Operations & string;
  "account-opening@1.0.0": keyof AccountOpeningV100Operations & string;
}

/** An API alias of the registry, e.g. `pay@1.3.0`. */
export type ApiAlias = keyof RegistryOperations;

/** The operationIds of the API `A` (webhooks included). */
export type OperationId<A extends ApiAlias> = RegistryOperations[A];
