/**
 * Stage 1, resolve: what a request Prism judged valid is to the sandbox: its operation (of the API's
 * paths), the credential it carries (the value of the bearer token or API key the operation's
 * security scheme names) and that credential's key in the store, what the declaration says of the
 * operation, and the request's parameters (path and query, dotted names nested). Reads no state.
 */
import { type Operation, securitySchemes } from "../../document/index.js";
import type { OperationDeclaration } from "../declaration.js";
import { credentialKey } from "../store/state.js";
import { isPlainObject, merged } from "../values.js";
import type { EngineContext } from "./context.js";

/** What the mock's HTTP layer gives the engine for a request Prism judged valid. */
export interface SandboxRequest {
  operationId: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** The 2xx status Prism chose. */
  status: number;
}

/** A request resolved: everything the later stages need but the state. */
export interface Resolved {
  request: SandboxRequest;
  op: Operation;
  /** The credential's key in the store (SHA-256 of the credential's value). */
  key: string;
  /** What the declaration says of the operation; undefined: Prism's answer is kept (unless an error is forced). */
  declared: OperationDeclaration | undefined;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The request's operation and credential, or undefined when the operation is none of the API's paths. */
export function resolve(engine: EngineContext, request: SandboxRequest): Resolved | undefined {
  const op = engine.operation(request.operationId);
  if (!op) return undefined;
  return {
    request,
    op,
    key: credentialKey(credentialOf(engine, op, request.headers, request.query)),
    declared: engine.declaration?.operations[op.operationId],
  };
}

/** The credential value a request carries for `op` (any scheme the operation accepts); "" when it has none. */
export function credentialOf(
  engine: EngineContext,
  op: Operation | undefined,
  headers: SandboxRequest["headers"],
  query: SandboxRequest["query"] = {},
): string {
  const schemes = op ? securitySchemes(engine.doc, op) : [];
  for (const scheme of schemes) {
    if (scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect") {
      const value = first(headers.authorization);
      const space = value?.indexOf(" ") ?? -1;
      if (value && space > 0 && value.slice(space + 1).trim()) return value.slice(space + 1).trim();
    } else if (scheme.type === "apiKey" && scheme.parameter) {
      const value =
        scheme.in === "header"
          ? first(headers[scheme.parameter.toLowerCase()])
          : scheme.in === "query"
            ? first(query[scheme.parameter])
            : undefined;
      if (value) return value;
    }
  }
  return "";
}

/** The credential of a control call: Authorization's value, else any apiKey header of the API (and x-api-key). */
export function controlCredential(engine: EngineContext, headers: SandboxRequest["headers"]): string | undefined {
  const authorization = first(headers.authorization);
  const space = authorization?.indexOf(" ") ?? -1;
  if (authorization && space > 0 && authorization.slice(space + 1).trim()) return authorization.slice(space + 1).trim();
  const names = new Set(["x-api-key"]);
  for (const op of engine.operations)
    for (const scheme of securitySchemes(engine.doc, op))
      if (scheme.type === "apiKey" && scheme.in === "header" && scheme.parameter) names.add(scheme.parameter.toLowerCase());
  for (const name of names) {
    const value = first(headers[name]);
    if (value) return value;
  }
  return undefined;
}

/** The request's parameters: the query's and the path's (by the operation's template), dotted names nested. */
export function paramsOf(engine: EngineContext, resolved: Resolved): Record<string, unknown> {
  return nestDotted(merged(resolved.request.query, matcher(engine, resolved.op.path)(resolved.request.path)));
}

/** The operation a request's method and path go to (the transport rules' requests, before Prism routes them). */
export function operationAt(engine: EngineContext, method: string, path: string): Operation | undefined {
  return engine.operations.find((o) => o.method.toUpperCase() === method.toUpperCase() && matcher(engine, o.path)(path));
}

/** The matcher of a path template, made once per template. */
function matcher(engine: EngineContext, template: string): (path: string) => Record<string, string> | undefined {
  let match = engine.matchers.get(template);
  if (!match) {
    match = pathMatcher(template);
    engine.matchers.set(template, match);
  }
  return match;
}

function pathMatcher(template: string): (path: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name) {
        names.push(name);
        return "([^/]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  // A path without parameters matches itself alone: no regular expression, no match to read.
  if (names.length === 0) return (path) => (path === template ? {} : undefined);
  const regex = new RegExp(`^${source}$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return undefined;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1]);
      } catch {
        params[name] = match[i + 1];
      }
    });
    return params;
  };
}

/**
 * Query parameters named with dots (`start_date.year`) are also readable as members
 * (`$params.start_date.year`): each is kept under its own name and nested under its first part.
 */
function nestDotted(params: Record<string, unknown>): Record<string, unknown> {
  for (const name of Object.keys(params)) {
    const dot = name.indexOf(".");
    if (dot <= 0) continue;
    const value = params[name];
    const [head, ...rest] = name.split(".");
    let node = (params[head] ??= {}) as Record<string, unknown>;
    if (!isPlainObject(node)) continue;
    for (const part of rest.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[rest.at(-1)!] = value;
  }
  return params;
}
