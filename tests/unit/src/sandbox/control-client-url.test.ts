/**
 * The control client's base URL (src/sandbox/client.ts `sandboxControl`): a mock URL given with
 * trailing slashes (`http://host:port/`, or several, as a URL joined by hand gives it) is the same
 * mock, so every call goes to `/_sandbox/...` at its root, never to a path starting `//`. The fetch is
 * a stand-in that records the request and answers the clock's body.
 */
import { describe, expect, it } from "vitest";
import { sandboxControl } from "../../../../src/sandbox/client.js";

const clock = { now: "2026-01-01T00:00:00.000Z", offset_seconds: 0 };

/** The URLs a control client for `mockUrl` sends its clock call to. */
async function sentTo(mockUrl: string): Promise<string[]> {
  const urls: string[] = [];
  const fetch = async (input: Request | string | URL) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return Response.json(clock);
  };
  await sandboxControl(mockUrl, "test-token", { fetch: fetch as typeof globalThis.fetch }).clock();
  return urls;
}

describe("a control client's mock URL", () => {
  it.each(["http://sandbox.test", "http://sandbox.test/", "http://sandbox.test//", "http://sandbox.test:8080///"])(
    "%s: the call goes to /_sandbox/clock at the mock's root",
    async (mockUrl) => {
      const origin = new URL(mockUrl).origin;
      expect(await sentTo(mockUrl)).toEqual([`${origin}/_sandbox/clock`]);
    },
  );
});
