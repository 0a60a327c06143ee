/**
 * The generated factories and the shared runtime (src/client/): credentials (a fixed one set as each request is built, a function by middleware), base URL
 * from `baseUrl` or from the spec's server template, no credential leaks, ApiError/unwrap.
 * A fake `fetch` is injected into each client; nothing global is patched.
 */
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, parseViolations, unwrap } from "../../../src/client/index.js";
import { loadRegistry } from "../../../src/registry.js";
import { deduplicatedOperations } from "../../../scripts/generate.js";
import { generateFixture, type Fixture } from "./generate-fixture.js";
import { SOURCE_AUTH } from "../../helpers/auth.js";

const TOKEN = "tok_SECRET_4f9a1c";
const KEY = "key_SECRET_77e0b2";

/** A fetch that records each Request and answers with `respond` (default: 200 `{}`). */
function fakeFetch(respond: (request: Request) => Response = () => Response.json({})) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request);
    return respond(request);
  };
  return { fetch, requests };
}

let fx: Fixture;
let shop: Record<string, any>;
let keys: Record<string, any>;

beforeAll(async () => {
  fx = await generateFixture();
  shop = await fx.load("shop/1.1.0/client.ts");
  keys = await fx.load("key-store/1.0.0/client.ts");
});
afterAll(() => fx?.remove());

describe("credentials", () => {
  it("sets Authorization: Bearer for an http bearer scheme, keeping the caller's headers", async () => {
    const { fetch, requests } = fakeFetch();
    const client = shop.createShopClient({
      baseUrl: "http://localhost:4010",
      accessToken: TOKEN,
      fetch,
      headers: { "x-request-id": "r1" },
    });
    await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "it_1" } } });
    expect(requests).toHaveLength(1);
    expect(requests[0].headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(requests[0].headers.get("x-request-id")).toBe("r1");
  });

  it("sends the credential over an Authorization the client's or the call's own headers carry", async () => {
    const { fetch, requests } = fakeFetch();
    const client = shop.createShopClient({
      baseUrl: "http://localhost:4010",
      accessToken: TOKEN,
      fetch,
      headers: { authorization: "Bearer other" },
    });
    await client.GET("/v1/items/{item_id}", {
      params: { path: { item_id: "it_1" } },
      headers: { Authorization: "Bearer mine", "x-call": "1" },
    });
    await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "it_1" } } });
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(requests[0].headers.get("x-call")).toBe("1");
  });

  it("sets the spec's header for an apiKey scheme", async () => {
    const { fetch, requests } = fakeFetch(() => Response.json(["k1"]));
    const client = keys.createKeyStoreClient({ baseUrl: "http://localhost:4012", apiKey: KEY, fetch });
    const { data } = await client.GET("/keys");
    expect(data).toEqual(["k1"]);
    expect(requests[0].headers.get("x-api-key")).toBe(KEY);
    expect(requests[0].headers.get("authorization")).toBeNull();
  });

  it("calls a credential function on every request (token refresh), sync or async", async () => {
    const { fetch, requests } = fakeFetch();
    const tokens = ["first", "second"];
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: async () => tokens.shift()!, fetch });
    await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "a" } } });
    await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "b" } } });
    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer first", "Bearer second"]);

    const sync = keys.createKeyStoreClient({ baseUrl: "http://localhost", apiKey: () => KEY, fetch });
    await sync.GET("/keys");
    expect(requests[2].headers.get("x-api-key")).toBe(KEY);
  });

  it("throws a TypeError naming the option when the credential is missing", () => {
    expect(() => shop.createShopClient({ baseUrl: "http://localhost" })).toThrow(
      new TypeError(`createShopClient: missing option "accessToken" (the bearer access token, or a function returning it)`),
    );
    expect(() => keys.createKeyStoreV100Client({ baseUrl: "http://localhost" })).toThrow(
      /createKeyStoreV100Client: missing option "apiKey"/,
    );
    expect(() => shop.createShopClient({ baseUrl: "http://localhost", accessToken: "" })).toThrow(TypeError);
    expect(() => shop.createShopClient({ baseUrl: "http://localhost", accessToken: 42 })).toThrow(/"accessToken" is a number/);
  });
});

describe("base URL", () => {
  const call = async (factory: (o: object) => any, options: object, path = "/keys") => {
    const { fetch, requests } = fakeFetch();
    await factory({ ...options, fetch }).GET(path, { params: { path: { item_id: "it_1" } } });
    return requests[0].url;
  };

  it("honours baseUrl, including a path prefix", async () => {
    expect(await call(shop.createShopClient, { baseUrl: "http://localhost:4010/prefix/", accessToken: TOKEN }, "/v1/items/{item_id}")).toBe(
      "http://localhost:4010/prefix/v1/items/it_1",
    );
  });

  it("builds the URL from the environment's server template and its variable defaults", async () => {
    expect(await call(shop.createShopClient, { environment: "sandbox", accessToken: TOKEN }, "/v1/items/{item_id}")).toBe(
      "https://sandbox.shop.example.com/api/v1/items/it_1",
    );
    expect(await call(keys.createKeyStoreClient, { environment: "sandbox", apiKey: KEY })).toBe(
      "https://eu.sandbox.keys.example.com/v1/keys",
    );
  });

  it("substitutes the given variables", async () => {
    expect(
      await call(
        shop.createShopClient,
        { environment: "live", variables: { shop_domain: "shop.example.org" }, accessToken: TOKEN },
        "/v1/items/{item_id}",
      ),
    ).toBe("https://shop.example.org/api/v1/items/it_1");
    expect(await call(keys.createKeyStoreClient, { environment: "live", variables: { region: "us", base_path: "v2" }, apiKey: KEY })).toBe(
      "https://us.keys.example.com/v2/keys",
    );
  });

  it("rejects unknown environments, unknown variables, values outside an enum, and baseUrl with environment", () => {
    const make = (options: object) => () => keys.createKeyStoreClient({ apiKey: KEY, ...options });
    expect(make({ environment: "staging" })).toThrow(/unknown environment "staging"; known: sandbox, live/);
    expect(make({ environment: "live", variables: { zone: "x" } })).toThrow(/unknown server variable "zone".*known: region, base_path/);
    expect(make({ environment: "live", variables: { region: "ap" } })).toThrow(/"region" must be one of eu, us/);
    expect(make({ baseUrl: "http://x", environment: "live" })).toThrow(/either "baseUrl" or "environment"/);
    expect(make({})).toThrow(/missing option "baseUrl" or "environment" \("sandbox" or "live"\)/);
  });
});

describe("no credential leaks", () => {
  it("keeps the token out of the client's string, JSON and inspect forms, and out of the options openapi-fetch sees", async () => {
    const { fetch } = fakeFetch();
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: TOKEN, fetch });
    let seenOptions: unknown;
    client.use({ onRequest: ({ options }: { options: unknown }) => void (seenOptions = options) });
    await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "x" } } });
    const forms = [
      String(client),
      JSON.stringify(client),
      inspect(client, { depth: 5, showHidden: true }),
      JSON.stringify(seenOptions),
      inspect(seenOptions, { depth: 5 }),
    ];
    for (const form of forms) expect(form).not.toContain(TOKEN);
  });

  it("keeps invalid credentials out of error messages", async () => {
    const bad = `${TOKEN}\r\nX-Injected: 1`;
    const thrown = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error as Error;
      }
      throw new Error("did not throw");
    };
    const atConstruction = thrown(() => shop.createShopClient({ baseUrl: "http://localhost", accessToken: bad }));
    expect(atConstruction).toBeInstanceOf(TypeError);
    expect(`${atConstruction.message}${atConstruction.stack}`).not.toContain(TOKEN);

    const { fetch, requests } = fakeFetch();
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: () => bad, fetch });
    const atRequest = await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "x" } } }).catch((e: Error) => e);
    expect(atRequest).toBeInstanceOf(TypeError);
    expect(atRequest.message).toMatch(/option "accessToken" returned a value that is not a valid HTTP header value/);
    expect(`${atRequest.message}${atRequest.stack}`).not.toContain(TOKEN);
    expect(requests).toHaveLength(0);
  });

  it("keeps the token out of ApiError", async () => {
    const { fetch } = fakeFetch(() => Response.json({ title: "Unauthorized" }, { status: 401, statusText: "Unauthorized" }));
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: TOKEN, fetch });
    const error = await client
      .GET("/v1/items/{item_id}", { params: { path: { item_id: "x" } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    for (const form of [String(error), (error as Error).stack, JSON.stringify(error), inspect(error, { depth: 5 })])
      expect(form).not.toContain(TOKEN);
  });
});

describe("ApiError and unwrap", () => {
  const violations = [
    { location: ["request", "body", "price"], severity: "Error", code: "type", message: "must be integer" },
    { location: ["request", "body"], severity: "Error", code: "required", message: "must have required property 'name'" },
  ];

  it("unwrap returns the data of a 2xx response", async () => {
    const { fetch } = fakeFetch(() => Response.json({ item_id: "it_1", name: "Lamp", status: "Listed" }));
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: TOKEN, fetch });
    expect(unwrap(await client.GET("/v1/items/{item_id}", { params: { path: { item_id: "it_1" } } }))).toEqual({
      item_id: "it_1",
      name: "Lamp",
      status: "Listed",
    });
  });

  it("unwrap throws ApiError with status, operation, parsed body and Prism's sl-violations", async () => {
    const problem = { type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY", title: "Invalid request", status: 422 };
    const { fetch } = fakeFetch(
      () =>
        new Response(JSON.stringify(problem), {
          status: 422,
          statusText: "Unprocessable Entity",
          headers: { "content-type": "application/problem+json", "sl-violations": JSON.stringify(violations) },
        }),
    );
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: TOKEN, fetch });
    const error = (await client
      .POST("/v1/items", { body: { price: "x" } })
      .then(unwrap)
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe("ApiError");
    expect(error).toMatchObject({ status: 422, method: "POST", path: "/v1/items", body: problem, violations });
    expect(error.message).toBe(
      "POST /v1/items responded 422 Unprocessable Entity (request.body.price: must be integer; request.body: must have required property 'name')",
    );
  });

  it("names the path template, not the filled-in URL, and falls back to a problem body's validation array", async () => {
    const { fetch } = fakeFetch(() => Response.json({ title: "Invalid", validation: violations.slice(0, 1) }, { status: 400 }));
    const client = shop.createShopClient({ baseUrl: "http://localhost", accessToken: TOKEN, fetch });
    const error = (await client
      .GET("/v1/items/{item_id}", { params: { path: { item_id: "it_9" } } })
      .then(unwrap)
      .catch((e: unknown) => e)) as ApiError;
    expect(error.path).toBe("/v1/items/{item_id}");
    expect(error.violations).toEqual(violations.slice(0, 1));
  });

  it("parseViolations tolerates absent or malformed headers", () => {
    expect(parseViolations(null)).toEqual([]);
    expect(parseViolations("not json")).toEqual([]);
    expect(parseViolations('{"location":[]}')).toEqual([]);
    expect(parseViolations(JSON.stringify([...violations, { nope: 1 }]))).toEqual(violations);
  });
});

describe("every API in the registry", () => {
  it("has a row in the hand-written table, and the table no extra row", () => {
    expect(SOURCE_AUTH.map(([alias]) => alias).sort()).toEqual(
      loadRegistry()
        .map((e) => e.alias)
        .sort(),
    );
  });

  it.each(SOURCE_AUTH)("%s: its factories send the credential in its header and reject a missing one", async (alias, names, auth) => {
    const entry = loadRegistry().find((e) => e.alias === alias)!;
    const mod = await import(entry.clientPath);
    expect(
      Object.keys(mod)
        .filter((k) => k.startsWith("create"))
        .sort(),
    ).toEqual([...names].sort());
    for (const name of names) {
      const factory = mod[name];
      const { fetch, requests } = fakeFetch();
      const client = factory({ baseUrl: "http://localhost:4010", fetch, [auth.option]: TOKEN });
      await client.GET("/probe");
      expect(requests[0].url).toBe("http://localhost:4010/probe");
      expect(requests[0].headers.get(auth.header)).toBe(auth.value(TOKEN));
      expect([...requests[0].headers.keys()].filter((h) => h === "authorization" || h === "x-api-key")).toEqual([auth.header]);
      expect(() => factory({ baseUrl: "http://localhost:4010" })).toThrow(new RegExp(`${name}: missing option "${auth.option}"`));
    }
  });
});

describe("the operations the provider deduplicates", () => {
  it("are those whose contract declares an Idempotency-Key request header (any case, on the operation or its path item, by $ref too)", () => {
    const doc = {
      openapi: "3.1.0",
      paths: {
        "/a": { post: { parameters: [{ in: "header", name: "idempotency-key" }] }, get: {} },
        "/b": { parameters: [{ $ref: "#/components/parameters/Key" }], patch: {} },
        "/c": { post: { parameters: [{ in: "query", name: "Idempotency-Key" }] } },
        "/d": { post: { parameters: [{ in: "header", name: "X-Request-Id" }] } },
      },
      components: { parameters: { Key: { in: "header", name: "Idempotency-Key" } } },
    };
    expect(deduplicatedOperations(doc)).toEqual(["POST /a", "PATCH /b"]);
  });

  it("are listed in each generated client (none of the registry's operations declares the header today)", async () => {
    for (const entry of loadRegistry()) {
      const module = (await import(pathToFileURL(entry.clientPath).href)) as { deduplicated: readonly string[] };
      expect(module.deduplicated, entry.alias).toEqual([]);
    }
  });
});
