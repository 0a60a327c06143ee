/**
 * Every JSON media type of an operation's request body carries a named example (`examples:` map).
 * Given: an operation object under `paths`.
 */
import { hasNamedExample, isJsonMediaType } from "./lib.js";

export default function requestBodyExample(operation, _options, context) {
  const content = operation?.requestBody?.content ?? {};
  return Object.entries(content)
    .filter(([type, media]) => isJsonMediaType(type) && !hasNamedExample(media))
    .map(([type, media]) => ({
      message: `The ${type} request body has ${media?.example === undefined ? "no example" : "only an unnamed `example:`"}`,
      path: [...context.path, "requestBody", "content", type],
    }));
}
