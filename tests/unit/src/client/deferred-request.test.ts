/**
 * The request openapi-fetch builds for each call (src/client/deferred-request.ts) on its own: it
 * keeps what it was given (method upper-cased, GET by default; headers; the signal) and always says
 * `redirect: "manual"`; it passes for a Request; the members it does not define come from a real
 * Request built once; and it sends through the global fetch, from the real Request once built,
 * always with `redirect: "manual"`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeferredRequest, deferredWith } from "../../../../src/client/deferred-request.js";

const URL_ = "http://api.test/items?x=1";

afterEach(() => {
  vi.restoreAllMocks();
});

/** The global fetch replaced by a recorder for the test. */
function recordFetch() {
  const calls: Array<{ input: unknown; init: RequestInit | undefined }> = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    calls.push({ input, init });
    return new Response("{}");
  });
  return calls;
}

describe("what it keeps", () => {
  it("the method upper-cased, GET when none is given", () => {
    expect(new DeferredRequest(URL_).method).toBe("GET");
    expect(new DeferredRequest(URL_, { method: "post" }).method).toBe("POST");
  });

  it("the signal given, without building the real Request; none when none was given", () => {
    const signal = new AbortController().signal;
    expect(new DeferredRequest(URL_, { signal }).initSignal).toBe(signal);
    expect(new DeferredRequest(URL_).initSignal).toBeUndefined();
    expect(new DeferredRequest(URL_, { signal: null }).initSignal).toBeUndefined();
  });

  it("the body given, until the real Request is built (which takes it)", () => {
    const request = new DeferredRequest(URL_, { method: "POST", body: '{"a":1}' });
    expect(request.bodyInit).toBe('{"a":1}');
    request.materialize();
    expect(request.bodyInit).toBeUndefined();
  });

  it("the members it does not define from the real Request: redirect manual, the rest the defaults", async () => {
    // Typed as the Request it stands for (its other members come from the real one).
    const request = new DeferredRequest(URL_, { method: "POST", body: '{"a":1}', headers: { "x-a": "1" } }) as unknown as Request;
    expect(request.redirect).toBe("manual");
    expect(request.cache).toBe("default");
    expect(request.keepalive).toBe(false);
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(await request.text()).toBe('{"a":1}');
    expect(request.headers.get("x-a")).toBe("1");
  });
});

describe("DeferredRequest.is and instanceof", () => {
  it.each([
    ["null", null, false],
    ["undefined", undefined, false],
    ["a string", "http://api.test/", false],
    ["a plain object", { url: URL_ }, false],
    ["a real Request", new Request(URL_), false],
    ["a DeferredRequest", new DeferredRequest(URL_), true],
    ["one of a credential's class", new (deferredWith("x-api-key", "k"))(URL_), true],
  ])("is(%s) -> %s", (_, value, expected) => {
    expect(DeferredRequest.is(value)).toBe(expected);
  });

  it("any Request passes instanceof, as openapi-fetch checks what a middleware returns", () => {
    expect(new Request(URL_) instanceof DeferredRequest).toBe(true);
    expect(new DeferredRequest(URL_) instanceof Request).toBe(true);
    expect({} instanceof DeferredRequest).toBe(false);
  });
});

describe("send", () => {
  it("from what was given, never following redirects", async () => {
    const calls = recordFetch();
    await new DeferredRequest(URL_, { method: "put", body: "b", headers: { "x-a": "1" } }).send();
    expect(calls).toHaveLength(1);
    expect(calls[0].input).toBe(URL_);
    expect(calls[0].init).toMatchObject({ method: "PUT", body: "b", redirect: "manual" });
    expect(new Headers(calls[0].init?.headers).get("x-a")).toBe("1");
  });

  it("with an extension of the init: its members added, the redirect still manual", async () => {
    const calls = recordFetch();
    const signal = new AbortController().signal;
    await new DeferredRequest(URL_, { method: "GET" }).send({ signal, redirect: "follow" });
    expect(calls[0].input).toBe(URL_);
    expect(calls[0].init).toMatchObject({ method: "GET", signal, redirect: "manual" });
  });

  it("once the real Request is built, that Request, with the extension and the redirect manual", async () => {
    const calls = recordFetch();
    const request = new DeferredRequest(URL_, { method: "POST", body: "b" });
    const real = request.materialize();
    expect(request.materialize()).toBe(real);
    const signal = new AbortController().signal;
    await request.send({ signal, redirect: "follow" });
    expect(calls[0].input).toBe(real);
    expect(calls[0].init).toEqual({ signal, redirect: "manual" });
  });
});

describe("deferredWith", () => {
  it("sets the credential header over the call's own header of that name", () => {
    const Keyed = deferredWith("x-api-key", "k-1");
    expect(new Keyed(URL_, { headers: { "x-api-key": "not-this", "x-b": "2" } }).headers.get("x-api-key")).toBe("k-1");
    expect(new Keyed(URL_).headers.get("x-api-key")).toBe("k-1");
  });
});
