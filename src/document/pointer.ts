/**
 * JSON Pointers (RFC 6901): the one place that escapes and unescapes their tokens. A pointer is
 * `""` for the root, else `/`-separated tokens with `~` written `~0` and `/` written `~1`; in a
 * `$ref` it follows `#` and may be percent-encoded (RFC 3986 fragment).
 */

/** `a/b~c` -> `a~1b~0c`. */
export const escapeToken = (token: string | number): string => String(token).replace(/~/g, "~0").replace(/\//g, "~1");

/** `a~1b~0c` -> `a/b~c`. */
export const unescapeToken = (token: string): string => token.replace(/~1/g, "/").replace(/~0/g, "~");

/** `["paths", "/v1/x", "get"]` -> `/paths/~1v1~1x/get`; no tokens is the root, `""`. */
export function pointer(...tokens: Array<string | number>): string {
  let out = "";
  for (const token of tokens) out += `/${escapeToken(token)}`;
  return out;
}

/** `/paths/~1v1~1x/get` -> `["paths", "/v1/x", "get"]`; `""` -> `[]`. Throws on a pointer that does not start with `/`. */
export function parsePointer(at: string): string[] {
  if (at === "") return [];
  if (!at.startsWith("/")) throw new SyntaxError(`not a JSON pointer: ${JSON.stringify(at)} (must be empty or start with "/")`);
  return at.slice(1).split("/").map(unescapeToken);
}

/** The pointer of a local `$ref` (`#/components/schemas/A%20B` -> `/components/schemas/A B`); undefined for another document's. */
export function refPointer(ref: string): string | undefined {
  if (!ref.startsWith("#")) return undefined;
  return decodeURIComponent(ref.slice(1));
}

/**
 * The value at `at` in `root`, or undefined when a token on the way is missing (own members only:
 * `/constructor` finds nothing). `$ref`s are not followed.
 */
export function valueAt(root: unknown, at: string): any {
  let node: any = root;
  for (const token of parsePointer(at)) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = node[token];
  }
  return node;
}
