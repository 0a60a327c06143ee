/**
 * Every schema property has a non-empty `description`.
 * A property written as `$ref` counts as described when the `$ref` has a sibling `description`
 * (OpenAPI 3.1 allows it and it overrides the target's) or the referenced schema has one; such a
 * property is reported at its parent's `properties:` key, naming it.
 * Given: the document root.
 */
import { forEachProperty, isObject } from "./lib.js";

const described = (schema) => typeof schema?.description === "string" && schema.description.trim() !== "";

export default function propertyDescription(document, _options, context) {
  const results = [];
  forEachProperty(document, context, ({ name, property, raw, path }) => {
    if (!isObject(property) || described(raw) || described(property)) return;
    const message = typeof raw?.$ref === "string"
      ? `Property "${name}" ($ref ${raw.$ref}) has no description, and neither has the schema it references`
      : `Property "${name}" has no description`;
    results.push({ message, path });
  });
  return results;
}
