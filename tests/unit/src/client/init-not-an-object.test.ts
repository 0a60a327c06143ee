/**
 * A call's init that is not an object (src/client/call.ts `ClientCall`): a JavaScript caller's
 * `client.GET(path, 5)` holds no call option (`retry`, `timeoutMs`, `signal`, `body`), so the call goes
 * out as a call without options would, once, and resolves to its answer; looking for the call's
 * options in it never fails the call. The fetch is a stand-in that records each request.
 */
import { describe, expect, it } from "vitest";
import { createApiClient } from "../../../../src/client/index.js";

type Call = (path: string, init?: unknown) => Promise<{ data?: unknown; fault?: unknown; response: Response }>;

function recorded() {
  const sent: string[] = [];
  const fetch = async (request: Request) => {
    sent.push(`${request.method} ${request.url}`);
    return Response.json({ id: "i1" });
  };
  const client = createApiClient(
    { name: "createItemsClient", servers: [], auth: { kind: "none" } },
    { baseUrl: "http://api.test", fetch, retry: false },
  ) as unknown as Record<"GET", Call>;
  return { client, sent };
}

describe("a call's init that is not an object", () => {
  it.each([5, true, Symbol("init")])("%s: the call goes out once, as without options, and gives its answer", async (init) => {
    const { client, sent } = recorded();
    const result = await client.GET("/items", init);
    expect(result.fault).toBeUndefined();
    expect(result.data).toEqual({ id: "i1" });
    expect(sent).toEqual(["GET http://api.test/items"]);
  });
});
