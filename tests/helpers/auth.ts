/**
 * Shared by the credential tests (tests/auth): a fetch to inject into a generated client that
 * records what the client sends, and one API's mock running for a describe block with a raw sender
 * for the requests the typed client cannot express.
 */
import { afterAll, beforeAll } from "vitest";
import { type MockServer, startMock } from "../../src/mock/index.js";

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
