/**
 * A client's options checked once (src/client/options.ts), in process: the base URL given or built
 * from the server template of an environment (its variables, their defaults and enums), a URL's
 * userinfo refused without quoting it, and the credential option (missing, empty, not a header
 * value; a fixed value or a function's, with the bearer prefix for a bearer scheme). Every refusal is
 * a TypeError naming the factory and the option; the expected messages are written out by hand.
 */
import { describe, expect, it } from "vitest";
import { baseUrlOf, credentialOf } from "../../../../src/client/options.js";
import type { ApiDefinition } from "../../../../src/client/types.js";

const servers: ApiDefinition["servers"] = [
  { environment: "sandbox", url: "https://sandbox.keys.test/{base_path}", variables: { base_path: { default: "v1" } } },
  {
    environment: "live",
    url: "https://{region}.keys.test/{base_path}",
    variables: { region: { default: "eu", enum: ["eu", "us"] }, base_path: { default: "v1" } },
  },
  { url: "https://unnamed.keys.test", variables: {} },
];
const keys: ApiDefinition = {
  name: "createKeysClient",
  servers,
  auth: { kind: "apiKey", scheme: "key", header: "x-api-key", option: "apiKey" },
};
const bearer: ApiDefinition = {
  name: "createShopClient",
  servers: [],
  auth: { kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" },
};

const refusal = (run: () => unknown): TypeError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return error as TypeError;
  }
  throw new Error("expected a refusal");
};

describe("baseUrlOf", () => {
  it("a base URL given is used as it is", () => {
    expect(baseUrlOf(keys, { baseUrl: "http://127.0.0.1:4010/x" })).toBe("http://127.0.0.1:4010/x");
  });

  it("an environment's server URL with its variables' defaults", () => {
    expect(baseUrlOf(keys, { environment: "sandbox" })).toBe("https://sandbox.keys.test/v1");
    expect(baseUrlOf(keys, { environment: "live" })).toBe("https://eu.keys.test/v1");
  });

  it("variables given replace the defaults", () => {
    expect(baseUrlOf(keys, { environment: "live", variables: { region: "us", base_path: "v2" } })).toBe("https://us.keys.test/v2");
  });

  it.each([
    [{ baseUrl: "http://x.test", environment: "live" }, `createKeysClient: pass either "baseUrl" or "environment", not both`],
    [{ baseUrl: "" }, `createKeysClient: option "baseUrl" must be a non-empty string`],
    [{ baseUrl: 42 }, `createKeysClient: option "baseUrl" must be a non-empty string`],
    [{}, `createKeysClient: missing option "baseUrl" or "environment" ("sandbox" or "live")`],
    [{ environment: "staging" }, `createKeysClient: unknown environment "staging"; known: sandbox, live`],
    [
      { environment: "live", variables: { zone: "x" } },
      `createKeysClient: unknown server variable "zone" for environment "live"; known: region, base_path`,
    ],
    [{ environment: "live", variables: { region: "ap" } }, `createKeysClient: server variable "region" must be one of eu, us; got "ap"`],
    [{ environment: "live", variables: { region: "" } }, `createKeysClient: server variable "region" must be a non-empty string`],
    [{ environment: "live", variables: { base_path: 2 } }, `createKeysClient: server variable "base_path" must be a non-empty string`],
  ])("%j -> %s", (options, message) => {
    expect(refusal(() => baseUrlOf(keys, options)).message).toBe(message);
  });

  it("a spec without environments says so", () => {
    const none: ApiDefinition = { ...keys, servers: [{ url: "https://x.test", variables: {} }] };
    expect(refusal(() => baseUrlOf(none, {})).message).toBe(
      `createKeysClient: missing option "baseUrl" or "environment" (the spec names no environments)`,
    );
  });

  it("a server URL naming a variable it does not declare", () => {
    const broken: ApiDefinition = { ...keys, servers: [{ environment: "live", url: "https://{host}/x", variables: {} }] };
    expect(refusal(() => baseUrlOf(broken, { environment: "live" })).message).toBe(
      `createKeysClient: server URL https://{host}/x uses undeclared variable "host"`,
    );
  });

  it.each([
    ["a user and a password", "https://user:pw-s3cret@h.test/api"],
    ["a user name only", "https://user-s3cret@h.test/api"],
    ["a password only", "https://:pw-s3cret@h.test/api"],
  ])("a base URL with %s is refused without quoting it", (_, baseUrl) => {
    const error = refusal(() => baseUrlOf(keys, { baseUrl }));
    expect(error.message).toBe(
      `createKeysClient: the base URL must not carry a user name or password ("user:password@"); pass the credential in its own option, never in the URL`,
    );
    expect(`${error.message}${error.stack}`).not.toContain("s3cret");
  });

  it("a server variable that puts userinfo in the URL is refused too", () => {
    const hosted: ApiDefinition = {
      ...keys,
      servers: [{ environment: "live", url: "https://{host}/x", variables: { host: { default: "h.test" } } }],
    };
    expect(baseUrlOf(hosted, { environment: "live" })).toBe("https://h.test/x");
    const error = refusal(() => baseUrlOf(hosted, { environment: "live", variables: { host: "u:s3cret@h.test" } }));
    expect(error.message).toMatch(/must not carry a user name or password/);
    expect(`${error.message}${error.stack}`).not.toContain("s3cret");
  });
});

describe("credentialOf", () => {
  it("no auth: nothing to set", () => {
    expect(credentialOf({ ...keys, auth: { kind: "none" } }, { apiKey: "ignored" })).toEqual({});
  });

  it("a fixed API key: its header and value, no middleware", () => {
    expect(credentialOf(keys, { apiKey: "k-123" })).toEqual({ fixed: { header: "x-api-key", value: "k-123" } });
  });

  it("a fixed bearer token: `Bearer ` before it", () => {
    expect(credentialOf(bearer, { accessToken: "t-123" })).toEqual({ fixed: { header: "Authorization", value: "Bearer t-123" } });
  });

  it.each([
    [keys, undefined, `createKeysClient: missing option "apiKey" (the API key, sent as x-api-key, or a function returning it)`],
    [keys, null, `createKeysClient: missing option "apiKey" (the API key, sent as x-api-key, or a function returning it)`],
    [bearer, undefined, `createShopClient: missing option "accessToken" (the bearer access token, or a function returning it)`],
    [keys, "", `createKeysClient: option "apiKey" is an empty string; expected a non-empty string`],
    [keys, "   ", `createKeysClient: option "apiKey" is an empty string; expected a non-empty string`],
    [keys, 12, `createKeysClient: option "apiKey" is a number; expected a non-empty string`],
    [keys, "k\r\nX-Injected: 1", `createKeysClient: option "apiKey" is a value that is not a valid HTTP header value`],
    [keys, "k\u0000", `createKeysClient: option "apiKey" is a value that is not a valid HTTP header value`],
    [keys, "k\u20ac", `createKeysClient: option "apiKey" is a value that is not a valid HTTP header value`],
  ] as const)("%#: %j -> %s", (definition, value, message) => {
    const option = definition.auth.kind === "bearer" ? "accessToken" : "apiKey";
    expect(refusal(() => credentialOf(definition, { [option]: value })).message).toBe(message);
  });

  it("header values of visible ASCII, tabs and Latin-1 are taken", () => {
    expect(credentialOf(keys, { apiKey: "a\tb~ é" }).fixed?.value).toBe("a\tb~ é");
  });

  it("a function: a middleware that calls it for every request and sets the header with its value", async () => {
    let calls = 0;
    const setting = credentialOf(bearer, {
      accessToken: async () => {
        calls++;
        return `t-${calls}`;
      },
    });
    expect(setting.fixed).toBeUndefined();
    const onRequest = setting.middleware?.onRequest as (arg: { request: Request }) => Promise<Request>;
    const first = await onRequest({ request: new Request("http://h.test/x") });
    const second = await onRequest({ request: new Request("http://h.test/x", { headers: { authorization: "Bearer old" } }) });
    expect(first.headers.get("authorization")).toBe("Bearer t-1");
    expect(second.headers.get("authorization")).toBe("Bearer t-2");
  });

  it.each([
    ["", `createKeysClient: option "apiKey" returned an empty string; expected a non-empty string`],
    [undefined, `createKeysClient: option "apiKey" returned a undefined; expected a non-empty string`],
    ["k\nx", `createKeysClient: option "apiKey" returned a value that is not a valid HTTP header value`],
  ])("a function returning %j -> the request is refused: %s", async (value, message) => {
    const onRequest = credentialOf(keys, { apiKey: () => value }).middleware?.onRequest as (arg: { request: Request }) => Promise<Request>;
    await expect(onRequest({ request: new Request("http://h.test/x") })).rejects.toThrow(new TypeError(message));
  });
});
