/**
 * When an operation has 2xx responses with JSON content, at least one of those media types carries
 * a named example (`examples:` map). Operations whose 2xx responses have no JSON body pass.
 * Given: an operation object under `paths`.
 */
import { hasNamedExample, isJsonMediaType } from "./lib.js";

export default function successResponseExample(operation, _options, context) {
  const candidates = Object.entries(operation?.responses ?? {})
    .filter(([status]) => /^2(?:\d\d|XX)$/.test(status))
    .flatMap(([status, response]) =>
      Object.entries(response?.content ?? {})
        .filter(([type]) => isJsonMediaType(type))
        .map(([type, media]) => ({ status, type, media })),
    );
  if (candidates.length === 0 || candidates.some((c) => hasNamedExample(c.media))) return [];
  const { status, type } = candidates[0];
  return [
    {
      message: `No 2xx JSON response has a named example (first candidate: ${status} ${type})`,
      path: [...context.path, "responses", status, "content", type],
    },
  ];
}
