/**
 * Property names match the pattern in the options (snake_case in spectral/ruleset.yaml).
 * Exception: a schema with `x-name-exception: "<reason>"` (a non-empty string) keeps the API's own
 * names for the properties it declares directly; nested schemas are still checked.
 * Given: the document root. Options: { match: string } (a regular expression).
 */
import { forEachProperty } from "./lib.js";

const hasException = (schema) =>
  typeof schema["x-name-exception"] === "string" && schema["x-name-exception"].trim() !== "";

export default function propertyNameCase(document, options, context) {
  const pattern = new RegExp(options.match);
  const results = [];
  forEachProperty(document, context, ({ name, parent, path }) => {
    if (!pattern.test(name) && !hasException(parent)) {
      results.push({ message: `Property name "${name}" is not snake_case`, path });
    }
  });
  return results;
}
