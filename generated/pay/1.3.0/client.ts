// Generated from specs/pay/1.3.0/openapi.yaml (pay@1.3.0) by `npm run generate` (scripts/generate.ts). Do not edit.

import { createApiClient, type ApiClient, type ClientOptions } from "../../../src/client/index.js";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export const api = {
  "alias": "pay@1.3.0",
  "service": "pay",
  "release": "1.3.0"
} as const;

/** The spec's servers; `environment` is each server's x-environment. */
export const servers = [
  {
    "environment": "sandbox",
    "url": "https://sandbox.{pay_domain}",
    "variables": {
      "pay_domain": {
        "default": "pay.example.com"
      }
    }
  },
  {
    "environment": "live",
    "url": "https://{pay_domain}",
    "variables": {
      "pay_domain": {
        "default": "pay.example.com"
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

export type PayV130ClientOptions = ClientOptions<typeof servers, typeof auth>;
export type PayV130Client = ApiClient<paths>;

/** Creates a typed client for pay@1.3.0. */
export function createPayV130Client(options: PayV130ClientOptions): PayV130Client {
  return createApiClient<paths>({ name: "createPayV130Client", servers, auth, deduplicated }, options);
}

export type PayClientOptions = PayV130ClientOptions;
export type PayClient = PayV130Client;

/** Creates a typed client for pay@1.3.0 (the newest pay release in the registry). */
export function createPayClient(options: PayClientOptions): PayClient {
  return createApiClient<paths>({ name: "createPayClient", servers, auth, deduplicated }, options);
}
