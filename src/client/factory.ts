/**
 * The shared runtime behind every generated `create<Service>Client`: it picks the base URL (given,
 * or built from the spec's server template for an environment), sets the credential header by
 * middleware and records each response's operation for `unwrap`/ApiError. The generated client.ts
 * files only pass their data (servers, auth) and their `paths` type to `createApiClient`.
 */
import createClient, { type Client, type ClientOptions as FetchClientOptions, type HeadersOptions } from "openapi-fetch";
import { recordOperation } from "./errors.js";

export interface ServerVariable {
  readonly default: string;
  readonly enum?: readonly string[];
}

/** A server object of the spec; `environment` is its `x-environment`. */
export interface ServerDefinition {
  readonly environment?: string;
  readonly url: string;
  readonly variables: { readonly [name: string]: ServerVariable };
}

/** How the API authenticates, derived from its security scheme. */
export type AuthDefinition =
  | { readonly kind: "bearer"; readonly scheme: string; readonly header: "Authorization"; readonly option: "accessToken" }
  | { readonly kind: "apiKey"; readonly scheme: string; readonly header: string; readonly option: "apiKey" }
  | { readonly kind: "none" };

export interface ApiDefinition {
  /** The factory's name, used in error messages. */
  readonly name: string;
  readonly servers: readonly ServerDefinition[];
  readonly auth: AuthDefinition;
}

/** A credential: the value itself, or a function returning it (called on every request, e.g. to refresh). */
export type Credential = string | (() => string | Promise<string>);

type EnvironmentOf<S extends readonly ServerDefinition[]> = NonNullable<S[number]["environment"]>;

type VariableNames<S extends readonly ServerDefinition[]> =
  S[number] extends infer T ? (T extends ServerDefinition ? keyof T["variables"] & string : never) : never;

type VariableValue<S extends readonly ServerDefinition[], K extends string> =
  S[number] extends infer T
    ? T extends { variables: { [P in K]: infer V } }
      ? V extends { enum: readonly (infer E)[] }
        ? E
        : string
      : never
    : never;

/** Values for the server template's variables; each omitted one takes its default from the spec. */
export type ServerVariables<S extends readonly ServerDefinition[]> = { [K in VariableNames<S>]?: VariableValue<S, K> };

/** Where the client sends requests: a base URL, or an environment of the spec's servers. */
export type ClientTarget<S extends readonly ServerDefinition[]> =
  | { baseUrl: string; environment?: never; variables?: never }
  | { environment: EnvironmentOf<S>; variables?: ServerVariables<S>; baseUrl?: never };

export type CredentialOptions<A extends AuthDefinition> = A extends { kind: "bearer" }
  ? { /** Bearer token, sent as `Authorization: Bearer <token>`. */ accessToken: Credential }
  : A extends { kind: "apiKey" }
    ? { /** API key, sent in the header the spec names. */ apiKey: Credential }
    : {};

export interface CommonOptions {
  /** Replaces globalThis.fetch (tests inject one; no global patching needed). */
  fetch?: FetchClientOptions["fetch"];
  /** Headers sent with every request. */
  headers?: HeadersOptions;
}

export type ClientOptions<S extends readonly ServerDefinition[], A extends AuthDefinition> = ClientTarget<S> &
  CredentialOptions<A> &
  CommonOptions;

export type ApiClient<Paths extends {}> = Client<Paths>;

function fail(definition: ApiDefinition, message: string): never {
  throw new TypeError(`${definition.name}: ${message}`);
}

/** Header values must be visible ASCII/Latin-1 without CR/LF/NUL; checked here so that fetch's own error, which quotes the value, never sees a bad credential. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

function checkCredential(definition: ApiDefinition, option: string, value: unknown, from: "is" | "returned"): string {
  if (typeof value !== "string" || value.trim() === "") {
    fail(definition, `option "${option}" ${from} ${typeof value === "string" ? "an empty string" : `a ${typeof value}`}; expected a non-empty string`);
  }
  if (!HEADER_VALUE.test(value)) fail(definition, `option "${option}" ${from} a value that is not a valid HTTP header value`);
  return value;
}

export function baseUrlOf(definition: ApiDefinition, options: Record<string, unknown>): string {
  const { baseUrl, environment, variables } = options;
  if (baseUrl !== undefined && environment !== undefined) fail(definition, `pass either "baseUrl" or "environment", not both`);
  if (typeof baseUrl === "string" && baseUrl !== "") return baseUrl;
  if (baseUrl !== undefined) fail(definition, `option "baseUrl" must be a non-empty string`);
  const environments = definition.servers.flatMap((s) => (s.environment ? [s.environment] : []));
  if (environment === undefined) {
    fail(definition, `missing option "baseUrl" or "environment" (${environments.map((e) => `"${e}"`).join(" or ") || "the spec names no environments"})`);
  }
  const server = definition.servers.find((s) => s.environment === environment);
  if (!server) fail(definition, `unknown environment ${JSON.stringify(environment)}; known: ${environments.join(", ")}`);
  const given = (variables ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(name in server.variables)) fail(definition, `unknown server variable "${name}" for environment "${server.environment}"; known: ${Object.keys(server.variables).join(", ")}`);
  }
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = server.variables[name];
    if (!variable) fail(definition, `server URL ${server.url} uses undeclared variable "${name}"`);
    const value = given[name] ?? variable.default;
    if (typeof value !== "string" || value === "") fail(definition, `server variable "${name}" must be a non-empty string`);
    if (variable.enum && !variable.enum.includes(value)) {
      fail(definition, `server variable "${name}" must be one of ${variable.enum.join(", ")}; got ${JSON.stringify(value)}`);
    }
    return value;
  });
}

/**
 * Creates an openapi-fetch client for one API. The credential stays in this closure: it is not
 * passed to openapi-fetch's options, not stored on the client, and not put into any message.
 */
export function createApiClient<Paths extends {}>(definition: ApiDefinition, options: object): ApiClient<Paths> {
  if (typeof options !== "object" || options === null) fail(definition, "expected an options object");
  const opts = options as Record<string, unknown>;
  const baseUrl = baseUrlOf(definition, opts);
  const client = createClient<Paths>({
    baseUrl,
    fetch: opts.fetch as CommonOptions["fetch"],
    headers: opts.headers as HeadersOptions | undefined,
  });

  // Registered first, so its onResponse runs last and sees the response the caller gets.
  client.use({
    onResponse({ request, response, schemaPath }) {
      recordOperation(response, { method: request.method, path: schemaPath });
    },
  });

  const { auth } = definition;
  if (auth.kind !== "none") {
    const { option, header } = auth;
    const credential = opts[option];
    if (credential === undefined || credential === null) {
      fail(definition, `missing option "${option}" (${auth.kind === "bearer" ? "the bearer access token" : `the API key, sent as ${header}`}, or a function returning it)`);
    }
    if (typeof credential !== "function") checkCredential(definition, option, credential, "is");
    client.use({
      async onRequest({ request }) {
        const value = typeof credential === "function" ? await (credential as () => unknown)() : credential;
        const checked = checkCredential(definition, option, value, typeof credential === "function" ? "returned" : "is");
        request.headers.set(header, auth.kind === "bearer" ? `Bearer ${checked}` : checked);
        return request;
      },
    });
  }
  return client;
}
