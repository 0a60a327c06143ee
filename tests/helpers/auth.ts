/**
 * Shared by the credential tests (the per-API auth.test.ts files, tests/e2e/contract/auth.test.ts): a fetch to inject into a generated client that
 * records what the client sends, and one API's mock running for a describe block with a raw sender
 * for the requests the typed client cannot express.
 */
import { afterAll, beforeAll } from "vitest";
import { type MockServer, startMock } from "../../src/mock/index.js";

/** How an API's client authenticates: the factory option, the header it fills, the header's value for a credential. */
export interface SourceAuth {
  option: "accessToken" | "apiKey";
  header: "authorization" | "x-api-key";
  value: (credential: string) => string;
}

const BEARER: SourceAuth = { option: "accessToken", header: "authorization", value: (t) => `Bearer ${t}` };
const API_KEY: SourceAuth = { option: "apiKey", header: "x-api-key", value: (k) => k };

/**
 * Every API's generated client factories and how each authenticates, written by hand from the source
 * documents (Pay and balance retrieval use `Authorization: Bearer`, the
 * others the `x-api-key` header), so that no test takes them from the generated code.
 */
export const SOURCE_AUTH: Array<[alias: string, factories: string[], auth: SourceAuth]> = [
  ["pay@1.3.0", ["createPayV130Client", "createPayClient"], BEARER],
  ["pay@1.2.0", ["createPayV120Client"], BEARER],
  ["payment-initiation@1.0.0", ["createPaymentInitiationV100Client", "createPaymentInitiationClient"], API_KEY],
  ["statement@1.0.0", ["createStatementV100Client", "createStatementClient"], API_KEY],
  ["balance@1.0.0", ["createBalanceV100Client", "createBalanceClient"], BEARER],
  ["disbursement@1.0.0", ["createDisbursementV100Client", "createDisbursementClient"], API_KEY],
  ["account-opening@1.0.0", ["createAccountOpeningV100Client", "createAccountOpeningClient"], API_KEY],
];

/** A fetch for a client's `fetch` option that records each Request and answers 200 `{}`; nothing global is patched. */
export function recordingFetch() {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return Response.json({});
  };
  return { fetch, requests };
}

/** A raw request: method, path (with any query), JSON body text or none. */
export type Raw = [method: string, path: string, body: string | undefined];

/**
 * Starts the mock of `alias` on a free port before the enclosing describe block's tests and closes
 * it after them. `mock` is the running server; `send` makes a raw request to it (with
 * `content-type: application/json` when there is a body, then `headers`).
 */
export function mockForSuite(alias: string) {
  let server: MockServer | undefined;
  beforeAll(async () => {
    server = await startMock(alias, { port: 0 });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  const running = (): MockServer => {
    if (!server) throw new Error(`the ${alias} mock is not running (mockForSuite is used inside a describe block)`);
    return server;
  };
  return {
    get mock() {
      return running();
    },
    send: (method: string, path: string, body: string | undefined, headers: Record<string, string> = {}) =>
      fetch(running().url + path, { method, body, headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers } }),
  };
}
