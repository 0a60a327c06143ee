// Generated from specs/balance/1.0.0/openapi.yaml (balance@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.

import { createApiClient, type ApiClient, type ClientOptions } from "../../../src/client/index.js";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export const api = {
  "alias": "balance@1.0.0",
  "service": "balance",
  "release": "1.0.0"
} as const;

/** The spec's servers; `environment` is each server's x-environment. */
export const servers = [
  {
    "environment": "sandbox",
    "url": "https://{balance_sandbox_domain}",
    "variables": {
      "balance_sandbox_domain": {
        "default": "sandbox.balance.example.com"
      }
    }
  },
  {
    "environment": "live",
    "url": "https://{balance_domain}",
    "variables": {
      "balance_domain": {
        "default": "balance.example.com"
      }
    }
  }
] as const;

/** The credential the client sends, from the spec's security scheme. */
export const auth = {
  "kind": "bearer",
  "scheme": "bearerAuth",
  "header": "Authorization",
  "option": "accessToken"
} as const;

/**
 * The operations whose contract declares an `Idempotency-Key` request header: the provider deduplicates
 * them, so a POST or PATCH of one that sends the key is retried; no other POST or PATCH ever is.
 */
export const deduplicated: readonly string[] = [];

export type BalanceV100ClientOptions = ClientOptions<typeof servers, typeof auth>;
export type BalanceV100Client = ApiClient<paths>;

/** Creates a typed client for balance@1.0.0. */
export function createBalanceV100Client(options: BalanceV100ClientOptions): BalanceV100Client {
  return createApiClient<paths>({ name: "createBalanceV100Client", servers, auth, deduplicated }, options);
}

export type BalanceClientOptions = BalanceV100ClientOptions;
export type BalanceClient = BalanceV100Client;

/** Creates a typed client for balance@1.0.0 (the newest balance release in the registry). */
export function createBalanceClient(options: BalanceClientOptions): BalanceClient {
  return createApiClient<paths>({ name: "createBalanceClient", servers, auth, deduplicated }, options);
}
