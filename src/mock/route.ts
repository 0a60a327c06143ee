/**
 * Stage 2 of a request's way through the mock (server.ts): read the request as Prism's components
 * see it (method, path and query of its target as prism-http-server reads them, headers, the body's
 * size) and find its operation: the fast path's routing where it decides alone, else Prism's router
 * (its result kept per method, server URL and path).
 */
import type { IHttpRequest } from "@stoplight/prism-http";
import type { FastPath } from "./fast-path.js";
import { ROUTES_KEPT } from "./limits.js";
import { MATCH_NONE, matchPath, prismRoute } from "./prism-parts.js";
import { BODY_BYTES, type Either, type Element, type Operation, type RouteFunction } from "./types.js";

const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /(^|\/)(\.|%2e)(\.|%2e)?(\/|$)/i;

/**
 * The path and query of a request target, as `new URL(target, "http://example.com")` gives them
 * (prism-http-server's reading); a plain path (no dot segment, no character URL would encode) is
 * taken as it is, anything else goes through URL.
 */
function parseTarget(target: string): { pathname: string; searchParams: URLSearchParams } {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path) || target.includes("#")) return new URL(target, "http://example.com");
  return { pathname: path, searchParams: new URLSearchParams(q < 0 ? "" : target.slice(q + 1)) };
}

function queryOf(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  if (searchParams.size === 0) return query;
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

/**
 * A request as Prism's components see it, without its body: the method, the path and query of its
 * target (read as prism-http-server reads them), its headers (names in lower case, as Node gives
 * them) and its body's size.
 */
export function requestElement(
  method: string | undefined,
  target: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  bodyBytes: number,
): Omit<Element, "body"> {
  const { searchParams, pathname } = parseTarget(target ?? "/");
  return {
    method: method ? method.toLowerCase() : "get",
    url: { path: pathname, baseUrl: searchParams.get("__server") || undefined, query: queryOf(searchParams) },
    headers,
    [BODY_BYTES]: bodyBytes,
  };
}

/** Query parameters by which a request chooses its answer or server (prism-http-server). */
const CHOOSING = ["__code", "__dynamic", "__seed", "__example", "__server"];

/** Whether a request chooses its answer (`Prefer`, `__code`...): Prism's pipeline then answers it. */
export function choosesAnswer(input: Omit<Element, "body">): boolean {
  const query = input.url.query!;
  return input.headers?.prefer !== undefined || CHOOSING.some((name) => query[name] !== undefined);
}

/** Whether Prism runs callbacks for the operation (its pipeline then answers, with the body). */
export const hasCallbacks = (operation: Operation | undefined) =>
  ((operation as { callbacks?: unknown[] } | undefined)?.callbacks?.length ?? 0) > 0;

/** Prism's routing over one server's operations, its results kept (the operations are fixed). */
export interface Router {
  /** Prism's router as its `route` component: scores every operation against the request. */
  prism: RouteFunction;
  /** The operation Prism routes `input` to, or undefined where it answers 404 or 405. */
  operation(input: Element | Omit<Element, "body">): Operation | undefined;
  /** DEVIATIONS allow: the methods of the operations whose path fits, for a 405. */
  allowed(path: string): string;
}

export function createRouter(operations: Operation[]): Router {
  // The route depends on the method, the path and the server URL only.
  const routes = new Map<string, Either<Error, Operation>>();
  const prism: Router["prism"] = ({ resources, input }) => {
    const key = `${input.method} ${input.url.baseUrl ?? ""} ${input.url.path}`;
    let found = routes.get(key);
    if (!found) {
      found = prismRoute({ resources, input });
      if (routes.size >= ROUTES_KEPT) routes.clear();
      routes.set(key, found);
    }
    return found;
  };
  return {
    prism,
    operation(input) {
      const routed = prism({ resources: operations, input: input as IHttpRequest });
      return routed._tag === "Right" ? routed.right : undefined;
    },
    allowed(path) {
      const methods = new Set<string>();
      for (const op of operations) {
        const match = matchPath(path, op.path);
        if (match._tag === "Right" && match.right !== MATCH_NONE) methods.add(op.method.toUpperCase());
      }
      return [...methods].join(", ");
    },
  };
}

/**
 * The route stage: the operation the fast path may answer for (undefined when the request chooses
 * its answer, or where the fast path leaves routing to Prism's pipeline).
 */
export function fastRoute(fast: FastPath, input: Omit<Element, "body">): Operation | undefined {
  return choosesAnswer(input) ? undefined : fast.route(input.method, input.url.path);
}
