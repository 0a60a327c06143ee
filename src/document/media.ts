/**
 * Media types (RFC 9110 §8.3.1): parsing a Content-Type or Accept value without throwing, telling
 * JSON from the rest, and choosing which of an operation's declared media types a value matches.
 */

export interface MediaType {
  /** `type/subtype`, lower case, e.g. `application/json`. */
  essence: string;
  type: string;
  subtype: string;
  /** Parameter names in lower case, e.g. `{ charset: "utf-8" }`. */
  parameters: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses `type/subtype; name=value; ...`. Returns undefined for a value that is not a media type
 * (`a`, `/`, `;`, `text/`): callers answer that with a 4xx, never an exception.
 */
export function parseMediaType(value: string | undefined | null): MediaType | undefined {
  if (typeof value !== "string") return undefined;
  const [head, ...rest] = value.split(";");
  const slash = head.indexOf("/");
  if (slash < 0) return undefined;
  const type = head.slice(0, slash).trim().toLowerCase();
  const subtype = head
    .slice(slash + 1)
    .trim()
    .toLowerCase();
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const parameters: Record<string, string> = {};
  for (const part of rest) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) return undefined;
    const name = part.slice(0, eq).trim().toLowerCase();
    let text = part.slice(eq + 1).trim();
    if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) text = text.slice(1, -1);
    if (!TOKEN.test(name)) return undefined;
    parameters[name] = text;
  }
  return { essence: `${type}/${subtype}`, type, subtype, parameters };
}

/** `application/json` and any `application/<x>+json`, parameters ignored. */
export function isJsonMediaType(value: string | undefined | null): boolean {
  const media = parseMediaType(value);
  return media !== undefined && media.type === "application" && (media.subtype === "json" || media.subtype.endsWith("+json"));
}

/**
 * The declared media type (a key of a `content` map) that `contentType` falls under: the same
 * essence, else a `type/*` range, else `*\/*`. Undefined when none does or the value is malformed.
 */
export function matchMediaType(declared: readonly string[], contentType: string): string | undefined {
  const wanted = parseMediaType(contentType);
  if (!wanted) return undefined;
  return (
    declared.find((name) => parseMediaType(name)?.essence === wanted.essence) ??
    declared.find((name) => {
      const range = parseMediaType(name);
      return range?.subtype === "*" && range.type === wanted.type;
    }) ??
    declared.find((name) => name === "*/*")
  );
}

/** The JSON media type of a `content` map, else its only one; undefined when there are several and none is JSON. */
export function defaultMediaType(declared: readonly string[]): string | undefined {
  return declared.find((name) => isJsonMediaType(name)) ?? (declared.length === 1 ? declared[0] : undefined);
}
