// Generated from specs/payment-initiation/1.0.0/openapi.yaml (payment-initiation@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.

import { createApiClient, type ApiClient, type ClientOptions } from "../../../src/client/index.js";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export const api = {
  "alias": "payment-initiation@1.0.0",
  "service": "payment-initiation",
  "release": "1.0.0"
} as const;

/** The spec's servers; `environment` is each server's x-environment. */
export const servers = [
  {
    "environment": "sandbox",
    "url": "https://sandbox.{direct_domain}",
    "variables": {
      "direct_domain": {
        "default": "direct.example.com"
      }
    }
  },
  {
    "environment": "live",
    "url": "https://{direct_domain}",
    "variables": {
      "direct_domain": {
        "default": "direct.example.com"
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

export type PaymentInitiationV100ClientOptions = ClientOptions<typeof servers, typeof auth>;
export type PaymentInitiationV100Client = ApiClient<paths>;

/** Creates a typed client for payment-initiation@1.0.0. */
export function createPaymentInitiationV100Client(options: PaymentInitiationV100ClientOptions): PaymentInitiationV100Client {
  return createApiClient<paths>({ name: "createPaymentInitiationV100Client", servers, auth, deduplicated }, options);
}

export type PaymentInitiationClientOptions = PaymentInitiationV100ClientOptions;
export type PaymentInitiationClient = PaymentInitiationV100Client;

/** Creates a typed client for payment-initiation@1.0.0 (the newest payment-initiation release in the registry). */
export function createPaymentInitiationClient(options: PaymentInitiationClientOptions): PaymentInitiationClient {
  return createApiClient<paths>({ name: "createPaymentInitiationClient", servers, auth, deduplicated }, options);
}
