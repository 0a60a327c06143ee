/**
 * The provider's open questions: every `x-unspecified` in a spec, with where it sits and what it says.
 * Read from the bundled specs (generated/<service>/<release>/openapi.yaml), where each shared component
 * appears once, so a gap recorded on a component is listed once, at the component.
 *
 * Used by the docs site's "Open questions" page (scripts/docs) and by the gap report.
 */
import { isHttpMethod, loadDocument, pointer } from "../../src/document/index.js";
import type { ApiEntry } from "../../src/registry.js";

export const GAP_KEY = "x-unspecified";

export interface Gap {
  /** RFC 6901 JSON pointer of the node carrying `x-unspecified`, e.g. `/paths/~1v1~1invoice/get`. */
  pointer: string;
  /** What the source does not give (the extension's value; a non-string value is shown as JSON). */
  text: string;
  /**
   * A reader's name for the place: `GET /v1/invoice (listInvoices)`, `webhook invoicePaid`,
   * `schema Invoice`, `server https://{pay_domain}`, `info`, ... with the rest of the path after it.
   */
  where: string;
}

export interface ApiGaps {
  alias: string;
  service: string;
  release: string;
  gaps: Gap[];
}

type Json = unknown;
type Node = Record<string, Json>;
const isNode = (value: Json): value is Node => typeof value === "object" && value !== null;

/** Names the place a pointer's segments lead to, from the document's own names. */
function describe(doc: Node, segments: string[]): string {
  const [section, ...rest] = segments;
  const tail = (from: string[]) => (from.length > 0 ? ` › ${from.join(" › ")}` : "");
  const get = (...path: string[]) => path.reduce<Json>((node, key) => (isNode(node) ? node[key] : undefined), doc);

  if ((section === "paths" || section === "webhooks") && rest.length > 0) {
    const [name, method, ...more] = rest;
    const label = section === "paths" ? name : `webhook ${name}`;
    if (method && isHttpMethod(method)) {
      const operationId = get(section, name, method, "operationId");
      const id = typeof operationId === "string" ? ` (${operationId})` : "";
      return `${method.toUpperCase()} ${label}${id}${tail(more)}`;
    }
    return `${label}${tail(rest.slice(1))}`;
  }
  if (section === "components" && rest.length >= 2) {
    const [kind, name, ...more] = rest;
    const singular: Record<string, string> = {
      schemas: "schema",
      responses: "response",
      parameters: "parameter",
      examples: "example",
      requestBodies: "request body",
      headers: "header",
      securitySchemes: "security scheme",
      links: "link",
      callbacks: "callback",
      pathItems: "path item",
    };
    return `${singular[kind] ?? kind} ${name}${tail(more)}`;
  }
  if (section === "servers" && rest.length > 0) {
    const url = get("servers", rest[0], "url");
    return `server ${typeof url === "string" ? url : rest[0]}${tail(rest.slice(1))}`;
  }
  if (section === "tags" && rest.length > 0) {
    const name = get("tags", rest[0], "name");
    return `tag ${typeof name === "string" ? name : rest[0]}${tail(rest.slice(1))}`;
  }
  if (section === undefined) return "document root";
  return `${section}${tail(rest)}`;
}

/**
 * Every `x-unspecified` in an OpenAPI document, in document order (depth first, keys in the order
 * the document lists them). `$ref`s are not followed: each gap is reported where it is written.
 */
export function collectGaps(doc: unknown): Gap[] {
  if (!isNode(doc)) return [];
  const gaps: Gap[] = [];
  const walk = (node: Json, segments: string[]) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...segments, String(i)]));
      return;
    }
    if (!isNode(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === GAP_KEY) {
        gaps.push({
          pointer: pointer(...segments),
          text: typeof value === "string" ? value.trim() : JSON.stringify(value),
          where: describe(doc, segments),
        });
      } else {
        walk(value, [...segments, key]);
      }
    }
  };
  walk(doc, []);
  return gaps;
}

/** The gaps of one API, read from its bundled spec; the error names the file when it is missing or unreadable. */
export function collectApiGaps(entry: ApiEntry): ApiGaps {
  let doc: unknown;
  try {
    doc = loadDocument(entry.bundlePath);
  } catch (error) {
    throw new Error(`${entry.alias}: cannot read the bundled spec ${(error as Error).message}`);
  }
  return { alias: entry.alias, service: entry.service, release: entry.release, gaps: collectGaps(doc) };
}

/** The gaps of every API given (the whole registry, typically), in registry order. */
export function collectRegistryGaps(entries: readonly ApiEntry[]): ApiGaps[] {
  return entries.map(collectApiGaps);
}
