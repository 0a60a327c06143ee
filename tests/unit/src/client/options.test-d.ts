/**
 * Compile-time checks of the shared runtime's option and result types, independent of any one API
 * (the servers and auth objects below have the shape every generated client.ts exports).
 * Checked by `npm run typecheck`.
 */
import { expectTypeOf } from "vitest";
import { unwrap, type ClientOptions, type Credential, type DataOf, type RetryEvent } from "../../../../src/client/index.js";

const servers = [
  { environment: "sandbox", url: "https://{region}.sandbox.example.com", variables: { region: { default: "eu", enum: ["eu", "us"] } } },
  {
    environment: "live",
    url: "https://{region}.example.com/{base}",
    variables: { region: { default: "eu", enum: ["eu", "us"] }, base: { default: "v1" } },
  },
] as const;
const bearer = { kind: "bearer", scheme: "bearerAuth", header: "Authorization", option: "accessToken" } as const;
const apiKey = { kind: "apiKey", scheme: "apiKeyAuth", header: "x-api-key", option: "apiKey" } as const;
const none = { kind: "none" } as const;

type Bearer = ClientOptions<typeof servers, typeof bearer>;
type ApiKey = ClientOptions<typeof servers, typeof apiKey>;
type NoAuth = ClientOptions<typeof servers, typeof none>;

export function targets() {
  const ok: Bearer[] = [
    { baseUrl: "http://localhost:4010", accessToken: "t" },
    { environment: "sandbox", accessToken: "t" },
    { environment: "live", variables: { region: "us", base: "v2" }, accessToken: "t" },
  ];
  // @ts-expect-error: baseUrl and environment exclude each other
  const both: Bearer = { baseUrl: "http://localhost:4010", environment: "sandbox", accessToken: "t" };
  // @ts-expect-error: one of baseUrl or environment is required
  const neither: Bearer = { accessToken: "t" };
  // @ts-expect-error: "staging" is not an environment of these servers
  const unknownEnvironment: Bearer = { environment: "staging", accessToken: "t" };
  // @ts-expect-error: the region variable is an enum
  const badEnum: Bearer = { environment: "sandbox", variables: { region: "ap" }, accessToken: "t" };
  // @ts-expect-error: variables go with an environment, not a baseUrl
  const variablesWithBaseUrl: Bearer = { baseUrl: "http://localhost:4010", variables: { region: "eu" }, accessToken: "t" };
  return [ok, both, neither, unknownEnvironment, badEnum, variablesWithBaseUrl];
}

export function credentials() {
  expectTypeOf<Credential>().toEqualTypeOf<string | (() => string | Promise<string>)>();
  expectTypeOf<Bearer["accessToken"]>().toEqualTypeOf<Credential>();
  expectTypeOf<ApiKey["apiKey"]>().toEqualTypeOf<Credential>();
  const ok: [Bearer, ApiKey, NoAuth] = [
    { baseUrl: "x", accessToken: () => "t" },
    { baseUrl: "x", apiKey: async () => "k" },
    { baseUrl: "x" },
  ];
  // @ts-expect-error: an API-key API takes apiKey, not accessToken
  const wrongKind: ApiKey = { baseUrl: "x", accessToken: "t" };
  // @ts-expect-error: the credential is a string or a function returning one
  const wrongType: Bearer = { baseUrl: "x", accessToken: 42 };
  return [ok, wrongKind, wrongType];
}

export function unwrapping() {
  type Result =
    | { data: { id: string }; error?: never; response: Response }
    | { data?: never; error: { title: string }; response: Response };
  expectTypeOf<DataOf<Result>>().toEqualTypeOf<{ id: string }>();
  expectTypeOf(unwrap({} as Result)).toEqualTypeOf<{ id: string }>();
}

export function retriesAndTimeouts() {
  const ok: Bearer[] = [
    { baseUrl: "x", accessToken: "t", timeoutMs: 10_000 },
    { baseUrl: "x", accessToken: "t", retry: false },
    {
      baseUrl: "x",
      accessToken: "t",
      retry: { attempts: 5, baseDelayMs: 100, maxDelayMs: 2000, statuses: [503], onRetry: (e) => void e.attempt },
    },
  ];
  expectTypeOf<RetryEvent["reason"]>().toEqualTypeOf<"status" | "network">();
  // @ts-expect-error: attempts is a number
  const badAttempts: Bearer = { baseUrl: "x", accessToken: "t", retry: { attempts: "3" } };
  // @ts-expect-error: retry is an object or false
  const retryTrue: Bearer = { baseUrl: "x", accessToken: "t", retry: true };
  // @ts-expect-error: timeoutMs is a number of milliseconds
  const badTimeout: Bearer = { baseUrl: "x", accessToken: "t", timeoutMs: "5s" };
  // @ts-expect-error: no option repeats a POST or PATCH the provider does not deduplicate (see retry.ts)
  const unsafe: Bearer = { baseUrl: "x", accessToken: "t", retry: { unsafe: true } };
  return [ok, badAttempts, retryTrue, badTimeout, unsafe];
}
