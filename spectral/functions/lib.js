/** Helpers shared by the custom functions. */

/** application/json and every +json type (application/problem+json, ...). */
export const isJsonMediaType = (mediaType) => /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(mediaType);

export const isObject = (value) => value !== null && typeof value === "object";

/** A media type object with a non-empty `examples:` map (named examples, not a bare `example:`). */
export const hasNamedExample = (media) => isObject(media?.examples) && Object.keys(media.examples).length > 0;

const SCHEMA_MAPS = ["properties", "patternProperties", "dependentSchemas", "$defs"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_VALUES = [
  "items", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems",
  "propertyNames", "not", "if", "then", "else",
];
const entries = (node) => (Array.isArray(node) ? node.map((value, index) => [index, value]) : Object.entries(node));

/**
 * Calls visit(schema, path) once for every schema object of an OpenAPI document: components.schemas,
 * every `schema:` (parameters, headers, media types in paths, webhooks and components) and, inside
 * a schema, every subschema. Examples and `x-` extensions are data and are skipped.
 */
export function forEachSchema(document, visit) {
  const seen = new WeakSet();
  const walkSchema = (node, path) => {
    if (!isObject(node) || Array.isArray(node) || seen.has(node)) return;
    seen.add(node);
    visit(node, path);
    for (const key of SCHEMA_MAPS) {
      if (isObject(node[key])) for (const [name, sub] of entries(node[key])) walkSchema(sub, [...path, key, name]);
    }
    for (const key of SCHEMA_LISTS) {
      if (Array.isArray(node[key])) node[key].forEach((sub, index) => walkSchema(sub, [...path, key, index]));
    }
    for (const key of SCHEMA_VALUES) walkSchema(node[key], [...path, key]);
  };
  const walkOpenApi = (node, path) => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    for (const [key, value] of entries(node)) {
      if (key === "example" || key === "examples" || String(key).startsWith("x-")) continue;
      if (key === "schema") walkSchema(value, [...path, key]);
      else if (key === "schemas" && path.length === 1 && path[0] === "components" && isObject(value)) {
        for (const [name, schema] of entries(value)) walkSchema(schema, [...path, key, name]);
      } else walkOpenApi(value, [...path, key]);
    }
  };
  walkOpenApi(document, []);
}

/**
 * Calls visit({ name, property, raw, path, parent }) for every property of every schema.
 * `property` is the resolved property schema; `raw` is the property as written in its own file, so a
 * `$ref` property shows its `$ref` and its siblings (resolution drops them). `path` is where to report:
 * the property itself, or, for a `$ref` property, its parent's `properties` map, because Spectral
 * would map a path that ends on a `$ref` to the referenced schema's file.
 */
export function forEachProperty(document, context, visit) {
  forEachSchema(document, (parent, schemaPath) => {
    if (!isObject(parent.properties)) return;
    const mapPath = [...schemaPath, "properties"];
    const rawMap = unresolvedAt(context, mapPath) ?? parent.properties;
    for (const [name, property] of Object.entries(parent.properties)) {
      const raw = rawMap[name] ?? property;
      const isRef = isObject(raw) && typeof raw.$ref === "string";
      visit({ name, property, raw, parent, path: isRef ? mapPath : [...mapPath, name] });
    }
  });
}

/** The node at a path of the resolved document, as written in the file that holds it. */
function unresolvedAt(context, path) {
  const item = context.documentInventory.findAssociatedItemForPath(path, true);
  if (!item) return undefined;
  const node = item.path.reduce((value, key) => (isObject(value) ? value[key] : undefined), item.document.data);
  return isObject(node) ? node : undefined;
}
