/**
 * The control API's router, built from the control document's operations (./document.ts): each
 * operation's method and path template, matched with or without a trailing slash, HEAD answered as
 * GET. A path no operation has answers 404; a method its path does not take answers 405 with the
 * methods it takes (`allowed`, sent as `Allow`). A path parameter is percent-decoded when its
 * handler reads it (400 naming the parameter when it cannot be).
 */
import { type Doc, operations } from "../../document/index.js";
import { ControlError } from "./errors.js";

export interface ControlRoute {
  method: string;
  operationId: string;
  pattern: RegExp;
  /** The path parameters' names, in the order of their segments. */
  params: string[];
}

/** What a request's method and path go to: the route and its path parameters as they are in the path. */
export interface Routed {
  route: ControlRoute;
  segments: Record<string, string>;
}

/** The routes of the document's operations, in the document's order. */
export function controlRoutes(doc: Doc): ControlRoute[] {
  return operations(doc).map((op) => {
    const params: string[] = [];
    const source = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        params.push(name);
        return "([^/]+)";
      })
      .join("");
    return { method: op.method.toUpperCase(), operationId: op.operationId, pattern: new RegExp(`^${source}/?$`), params };
  });
}

/** A path parameter percent-decoded; a ControlError 400 naming it when it cannot be. */
export function decodeParam(segment: string, field: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ControlError(400, `the ${field} in the path is not valid percent-encoding`, field);
  }
}

/** The methods the routes take at a path. */
export const allowedAt = (routes: ControlRoute[], pathname: string): string[] =>
  routes.filter((r) => r.pattern.test(pathname)).map((r) => r.method);

/** The route of a method and path, with its path parameters; a ControlError 404 or 405 when there is none. */
export function routeOf(routes: ControlRoute[], method: string, pathname: string, documentPath: string): Routed {
  const candidates = routes.filter((r) => r.pattern.test(pathname));
  if (candidates.length === 0) {
    throw new ControlError(404, `no control operation at ${pathname}; the control API is described at ${documentPath}`);
  }
  const route = candidates.find((r) => r.method === method || (method === "HEAD" && r.method === "GET"));
  if (!route)
    throw new ControlError(405, `${method} is not allowed on ${pathname}; allowed: ${candidates.map((r) => r.method).join(", ")}`);
  const match = route.pattern.exec(pathname)!;
  const segments: Record<string, string> = {};
  route.params.forEach((name, i) => {
    segments[name] = match[i + 1];
  });
  return { route, segments };
}
