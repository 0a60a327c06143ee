// Generated from specs/disbursement/1.0.0/openapi.yaml (disbursement@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.

import { createApiClient, type ApiClient, type ClientOptions } from "../../../src/client/index.js";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export const api = {
  "alias": "disbursement@1.0.0",
  "service": "disbursement",
  "release": "1.0.0"
} as const;

/** The spec's servers; `environment` is each server's x-environment. */
export const servers = [
  {
    "environment": "sandbox",
    "url": "https://sandbox.{disburse_domain}",
    "variables": {
      "disburse_domain": {
        "default": "disburse.example.com"
      }
    }
  },
  {
    "environment": "live",
    "url": "https://{disburse_domain}",
    "variables": {
      "disburse_domain": {
        "default": "disburse.example.com"
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

export type DisbursementV100ClientOptions = ClientOptions<typeof servers, typeof auth>;
export type DisbursementV100Client = ApiClient<paths>;

/** Creates a typed client for disbursement@1.0.0. */
export function createDisbursementV100Client(options: DisbursementV100ClientOptions): DisbursementV100Client {
  return createApiClient<paths>({ name: "createDisbursementV100Client", servers, auth, deduplicated }, options);
}

export type DisbursementClientOptions = DisbursementV100ClientOptions;
export type DisbursementClient = DisbursementV100Client;

/** Creates a typed client for disbursement@1.0.0 (the newest disbursement release in the registry). */
export function createDisbursementClient(options: DisbursementClientOptions): DisbursementClient {
  return createApiClient<paths>({ name: "createDisbursementClient", servers, auth, deduplicated }, options);
}
