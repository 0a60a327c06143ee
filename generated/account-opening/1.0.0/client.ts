// Generated from specs/account-opening/1.0.0/openapi.yaml (account-opening@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.

import { createApiClient, type ApiClient, type ClientOptions } from "../../../src/client/index.js";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export const api = {
  "alias": "account-opening@1.0.0",
  "service": "account-opening",
  "release": "1.0.0"
} as const;

/** The spec's servers; `environment` is each server's x-environment. */
export const servers = [
  {
    "environment": "sandbox",
    "url": "https://sandbox.{account_opening_domain}",
    "variables": {
      "account_opening_domain": {
        "default": "account-opening.example.com"
      }
    }
  },
  {
    "environment": "live",
    "url": "https://{account_opening_domain}",
    "variables": {
      "account_opening_domain": {
        "default": "account-opening.example.com"
      }
    }
  }
] as const;

/** The credential the client sends, from the spec's security scheme. */
export const auth = {
  "kind": "apiKey",
  "scheme": "apiKeyAuth",
  "header": "x-api-key",
  "option": "apiKey"
} as const;

/**
 * The operations whose contract declares an `Idempotency-Key` request header: the provider deduplicates
 * them, so a POST or PATCH of one that sends the key is retried; no other POST or PATCH ever is.
 */
export const deduplicated: readonly string[] = [];

export type AccountOpeningV100ClientOptions = ClientOptions<typeof servers, typeof auth>;
export type AccountOpeningV100Client = ApiClient<paths>;

/** Creates a typed client for account-opening@1.0.0. */
export function createAccountOpeningV100Client(options: AccountOpeningV100ClientOptions): AccountOpeningV100Client {
  return createApiClient<paths>({ name: "createAccountOpeningV100Client", servers, auth, deduplicated }, options);
}

export type AccountOpeningClientOptions = AccountOpeningV100ClientOptions;
export type AccountOpeningClient = AccountOpeningV100Client;

/** Creates a typed client for account-opening@1.0.0 (the newest account-opening release in the registry). */
export function createAccountOpeningClient(options: AccountOpeningClientOptions): AccountOpeningClient {
  return createApiClient<paths>({ name: "createAccountOpeningClient", servers, auth, deduplicated }, options);
}
