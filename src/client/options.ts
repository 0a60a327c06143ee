/**
 * A client's options, checked once when it is created, each refusal a TypeError naming the factory
 * and the option, never quoting a credential or a URL's userinfo: the base URL (given, or built from
 * the spec's server template for an environment), the credential (a fixed one checked here, a
 * function's value checked on every request by a middleware).
 */
import type { Middleware } from "openapi-fetch";
import type { ApiDefinition } from "./types.js";

export function fail(definition: ApiDefinition, message: string): never {
  throw new TypeError(`${definition.name}: ${message}`);
}

/** Header values must be visible ASCII/Latin-1 without CR/LF/NUL; checked here so that fetch's own error, which quotes the value, never sees a bad credential. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]+$/;

function checkCredential(definition: ApiDefinition, option: string, value: unknown, from: "is" | "returned"): string {
  if (typeof value !== "string" || value.trim() === "") {
    fail(
      definition,
      `option "${option}" ${from} ${typeof value === "string" ? "an empty string" : `a ${typeof value}`}; expected a non-empty string`,
    );
  }
  if (!HEADER_VALUE.test(value)) fail(definition, `option "${option}" ${from} a value that is not a valid HTTP header value`);
  return value;
}

/**
 * The base URL of a client (see baseUrlFrom), refused when it carries a user name or password
 * (`https://user:pass@host`): fetch refuses such a URL on every call, quoting it, and the client's
 * credential goes in its own option. The message never quotes the URL.
 */
export function baseUrlOf(definition: ApiDefinition, options: Record<string, unknown>): string {
  const url = baseUrlFrom(definition, options);
  if (URL.canParse(url)) {
    const { username, password } = new URL(url);
    if (username !== "" || password !== "") {
      fail(
        definition,
        `the base URL must not carry a user name or password ("user:password@"); pass the credential in its own option, never in the URL`,
      );
    }
  }
  return url;
}

function baseUrlFrom(definition: ApiDefinition, options: Record<string, unknown>): string {
  const { baseUrl, environment, variables } = options;
  if (baseUrl !== undefined && environment !== undefined) fail(definition, `pass either "baseUrl" or "environment", not both`);
  if (typeof baseUrl === "string" && baseUrl !== "") return baseUrl;
  if (baseUrl !== undefined) fail(definition, `option "baseUrl" must be a non-empty string`);
  const environments = definition.servers.flatMap((s) => (s.environment ? [s.environment] : []));
  if (environment === undefined) {
    fail(
      definition,
      `missing option "baseUrl" or "environment" (${environments.map((e) => `"${e}"`).join(" or ") || "the spec names no environments"})`,
    );
  }
  const server = definition.servers.find((s) => s.environment === environment);
  if (!server) fail(definition, `unknown environment ${JSON.stringify(environment)}; known: ${environments.join(", ")}`);
  const given = (variables ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(name in server.variables))
      fail(
        definition,
        `unknown server variable "${name}" for environment "${server.environment}"; known: ${Object.keys(server.variables).join(", ")}`,
      );
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

/** How a client sets its credential: a fixed header value (set as its requests are built), or a middleware calling the function; neither without auth. */
export interface CredentialSetting {
  fixed?: { header: string; value: string };
  middleware?: Middleware;
}

/** The credential option of the API's scheme, checked: missing, empty or not a header value, a TypeError naming the option. */
export function credentialOf(definition: ApiDefinition, opts: Record<string, unknown>): CredentialSetting {
  const { auth } = definition;
  if (auth.kind === "none") return {};
  const { option, header } = auth;
  const credential = opts[option];
  if (credential === undefined || credential === null) {
    fail(
      definition,
      `missing option "${option}" (${auth.kind === "bearer" ? "the bearer access token" : `the API key, sent as ${header}`}, or a function returning it)`,
    );
  }
  const prefix = auth.kind === "bearer" ? "Bearer " : "";
  // A fixed credential is checked once, here; setting it needs no await, and so no middleware.
  if (typeof credential !== "function") return { fixed: { header, value: prefix + checkCredential(definition, option, credential, "is") } };
  const get = credential as () => unknown;
  // A credential function is called (and awaited) for every request, before the caller's own middleware.
  return {
    middleware: {
      async onRequest({ request }) {
        const checked = checkCredential(definition, option, await get(), "returned");
        request.headers.set(header, prefix + checked);
        return request;
      },
    },
  };
}
