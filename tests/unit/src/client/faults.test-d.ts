/**
 * Compile-time checks of the fault result type (checked by `npm run typecheck`): a call's result
 * carries `fault?: ApiError`; narrowing on it leaves no data and no error body; the success data
 * keeps openapi-fetch's type, and `error` is the declared error body or an ApiError (an answer
 * without a body).
 */
import { expectTypeOf } from "vitest";
import { type ApiClient, ApiError, type FaultKind, type FaultResult, unwrap } from "../../../../src/client/index.js";

interface paths {
  "/items/{id}": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { "application/json": { id: string; price: number } } };
        404: { headers: { [name: string]: unknown }; content: { "application/json": { code: string } } };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}

declare const client: ApiClient<paths>;

export async function faults() {
  const result = await client.GET("/items/{id}", { params: { path: { id: "it_1" } } });
  expectTypeOf(result.fault).toEqualTypeOf<ApiError | undefined>();
  expectTypeOf(result.response).toEqualTypeOf<Response>();
  if (result.fault) {
    expectTypeOf(result).toEqualTypeOf<FaultResult>();
    expectTypeOf(result.fault.kind).toEqualTypeOf<FaultKind>();
    expectTypeOf(result.data).toEqualTypeOf<undefined>();
  } else if (result.error instanceof ApiError) {
    // a non-2xx answer without a body
    expectTypeOf(result.error.status).toEqualTypeOf<number>();
  } else if (result.error) {
    expectTypeOf(result.error).toEqualTypeOf<{ code: string }>();
  } else {
    expectTypeOf(result.data).toEqualTypeOf<{ id: string; price: number }>();
  }
  expectTypeOf(unwrap(result)).toEqualTypeOf<{ id: string; price: number }>();
  expectTypeOf<FaultKind>().toEqualTypeOf<"http" | "network" | "timeout" | "aborted" | "invalid-body" | "too-large">();
  // @ts-expect-error: the path parameter is still required
  await client.GET("/items/{id}", {});
}

export async function callOptions() {
  const params = { path: { id: "it_1" } };
  await client.GET("/items/{id}", { params, timeoutMs: 5000, retry: { attempts: 2 } });
  // @ts-expect-error: no option repeats a POST or PATCH the provider does not deduplicate
  await client.GET("/items/{id}", { params, retry: { unsafe: true } });
  await client.GET("/items/{id}", { params, retry: false });
  // @ts-expect-error: attempts is a number
  await client.GET("/items/{id}", { params, retry: { attempts: "2" } });
  // @ts-expect-error: timeoutMs is a number of milliseconds
  await client.GET("/items/{id}", { params, timeoutMs: "5s" });
}

export async function answerTypeFollowsParseAs() {
  const params = { path: { id: "it_1" } };
  // The init is checked field by field, and `parseAs` still decides the type of `data`.
  const text = await client.GET("/items/{id}", { params, parseAs: "text" });
  if (!text.fault && !text.error) expectTypeOf(text.data).toEqualTypeOf<string>();
  const stream = await client.GET("/items/{id}", { params, parseAs: "stream" });
  if (!stream.fault && !stream.error) expectTypeOf(stream.data).toEqualTypeOf<Response["body"]>();
  const json = await client.request("get", "/items/{id}", { params });
  if (!json.fault && !json.error) expectTypeOf(json.data).toEqualTypeOf<{ id: string; price: number }>();
  // @ts-expect-error: "parseas" is not an option (parseAs is)
  await client.GET("/items/{id}", { params, parseas: "text" });
  // @ts-expect-error: "Id" is not a path parameter (id is), also through request()
  await client.request("get", "/items/{id}", { params: { path: { Id: "it_1" } } });
  // @ts-expect-error: "blob2" is not a way to read the answer
  await client.GET("/items/{id}", { params, parseAs: "blob2" });
}
