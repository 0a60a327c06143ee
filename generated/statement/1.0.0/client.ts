// Generated from specs/statement/1.0.0/openapi.yaml (statement@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.

import { createApiClient, type ApiClient, type ClientOptions } from "../../../src/client/index.js";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export const api = {
  "alias": "statement@1.0.0",
  "service": "statement",
  "release": "1.0.0"
} as const;

/** The spec's servers; `environment` is each server's x-environment. */
export const servers = [
  {
    "environment": "sandbox",
    "url": "https://sandbox.{statement_domain}",
    "variables": {
      "statement_domain": {
        "default": "statement.example.com"
      }
    }
  },
  {
    "environment": "live",
    "url": "https://{statement_domain}",
    "variables": {
      "statement_domain": {
        "default": "statement.example.com"
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

export type StatementV100ClientOptions = ClientOptions<typeof servers, typeof auth>;
export type StatementV100Client = ApiClient<paths>;

/** Creates a typed client for statement@1.0.0. */
export function createStatementV100Client(options: StatementV100ClientOptions): StatementV100Client {
  return createApiClient<paths>({ name: "createStatementV100Client", servers, auth, deduplicated }, options);
}

export type StatementClientOptions = StatementV100ClientOptions;
export type StatementClient = StatementV100Client;

/** Creates a typed client for statement@1.0.0 (the newest statement release in the registry). */
export function createStatementClient(options: StatementClientOptions): StatementClient {
  return createApiClient<paths>({ name: "createStatementClient", servers, auth, deduplicated }, options);
}
