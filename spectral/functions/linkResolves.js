/**
 * Every OpenAPI link of a response leads somewhere: the link names its target with exactly one of
 * `operationId` (an operationId under `paths`) or `operationRef` (a local pointer,
 * `#/paths/<path with / as ~1>/<method>`); every key of its `parameters` is a parameter of that
 * operation (path-item parameters included), written `name` or `<in>.name` (`query.limit`); a
 * `requestBody` given as an object only sets properties of the target's JSON request body and holds
 * no runtime expression (OpenAPI 3.1 takes a literal or one expression: an expression inside an
 * object is sent as its literal text by a strict tool; use a parameter or a whole-body expression); and
 * every runtime expression in them is well formed (`$url`, `$method`, `$statusCode`,
 * `$request.<path|query|header>.<name>`, `$request.body#/<pointer>`, `$response.header.<name>`,
 * `$response.body#/<pointer>`, or `{...}` holding one inside a string), with a body pointer that
 * names properties the source's request or response schema declares (array items by index).
 * Given: an operation object under `paths`.
 */
import { isJsonMediaType, isObject } from "./lib.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const EXPRESSION =
  /^\$(?:url|method|statusCode|request\.(?:(?:path|query|header)\.[\w.-]+|body(?:#(?:\/[^/]*)*)?)|response\.(?:header\.[\w-]+|body(?:#(?:\/[^/]*)*)?))$/;

/** Every operation under `paths`: { operation, pathItem, path: [...] }. */
function operations(document) {
  const found = [];
  for (const [path, pathItem] of Object.entries(document?.paths ?? {})) {
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      if (isObject(pathItem[method])) found.push({ operation: pathItem[method], pathItem, path: ["paths", path, method] });
    }
  }
  return found;
}

/** `#/paths/~1v1~1x/get` -> the operation it points at, or undefined. */
function byRef(document, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  const segments = ref
    .slice(2)
    .split("/")
    .map((s) => decodeURIComponent(s).replaceAll("~1", "/").replaceAll("~0", "~"));
  if (segments.length !== 3 || segments[0] !== "paths" || !METHODS.includes(segments[2])) return undefined;
  return operations(document).find((o) => o.path[1] === segments[1] && o.path[2] === segments[2]);
}

const parametersOf = (target) =>
  [...(target.pathItem.parameters ?? []), ...(target.operation.parameters ?? [])].filter((p) => isObject(p) && p.name);

/** The JSON schema of a request body or response (its first JSON media type), or undefined. */
const jsonSchema = (holder) => {
  const media = Object.entries(holder?.content ?? {}).find(([type]) => isJsonMediaType(type));
  return media?.[1]?.schema;
};

/** The properties a schema declares, allOf/oneOf/anyOf branches included; `open` when others may appear. */
function declared(schema, seen = new Set()) {
  const names = new Map();
  let open = false;
  const walk = (node) => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    for (const [name, sub] of Object.entries(node.properties ?? {})) if (!names.has(name)) names.set(name, sub);
    if (node.additionalProperties === true || isObject(node.additionalProperties) || node.patternProperties) open = true;
    if (node.unevaluatedProperties === true || isObject(node.unevaluatedProperties)) open = true;
    for (const key of ["allOf", "oneOf", "anyOf"]) if (Array.isArray(node[key])) node[key].forEach(walk);
  };
  walk(schema);
  return { names, open, items: schema?.items ?? schema?.allOf?.find((s) => isObject(s?.items))?.items };
}

/** Why a JSON pointer names nothing the schema declares, or undefined when it does (or cannot be known). */
function pointerProblem(schema, pointer) {
  const segments = pointer
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  let node = schema;
  for (const [index, segment] of segments.entries()) {
    if (!isObject(node)) return undefined;
    const { names, open, items } = declared(node);
    if (/^\d+$/.test(segment) && items) node = items;
    else if (names.has(segment)) node = names.get(segment);
    else if (open || (names.size === 0 && !items)) return undefined;
    else return `"${segments.slice(0, index + 1).join("/")}" is not in the schema (it has ${[...names.keys()].join(", ") || "no properties"})`;
  }
  return undefined;
}

/** Where a literal object or array holds a string that reads as a runtime expression (sent as its text). */
function nestedExpressions(value, where) {
  if (typeof value === "string") return value.startsWith("$") || /\{\$[^}]*\}/.test(value) ? [where] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nestedExpressions(item, `${where}[${i}]`));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => nestedExpressions(v, `${where}.${k}`));
  return [];
}

/** Problems of one value (an expression, or a literal) set by a link; `where` names it. */
function expressionProblems(value, sources, where) {
  if (typeof value !== "string") {
    if (Array.isArray(value)) return value.flatMap((item, i) => expressionProblems(item, sources, `${where}[${i}]`));
    if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => expressionProblems(v, sources, `${where}.${k}`));
    return [];
  }
  const expressions = value.startsWith("$") ? [value] : [...value.matchAll(/\{(\$[^}]*)\}/g)].map((m) => m[1]);
  const problems = [];
  for (const expression of expressions) {
    if (!EXPRESSION.test(expression)) {
      problems.push(`${where}: "${expression}" is not a runtime expression`);
      continue;
    }
    const body = /^\$(request|response)\.body#(\/.*)$/.exec(expression);
    if (!body) continue;
    const schema = sources[body[1]];
    if (!schema) problems.push(`${where}: "${expression}": the ${body[1]} has no JSON body`);
    else {
      const problem = pointerProblem(schema, body[2]);
      if (problem) problems.push(`${where}: "${expression}": ${problem}`);
    }
  }
  return problems;
}

export default function linkResolves(operation, _options, context) {
  // The resolved document: split path files and $refs followed.
  const document = context.documentInventory?.resolved ?? context.document.data;
  const results = [];
  for (const [status, response] of Object.entries(operation?.responses ?? {})) {
    for (const [name, link] of Object.entries(response?.links ?? {})) {
      const at = [...context.path, "responses", status, "links", name];
      const report = (message, ...path) => results.push({ message: `Link "${name}" (${status}): ${message}`, path: [...at, ...path] });
      if (!isObject(link)) continue;
      if ((link.operationId === undefined) === (link.operationRef === undefined)) {
        report("give exactly one of operationId and operationRef");
        continue;
      }
      const target =
        link.operationId !== undefined
          ? operations(document).find((o) => o.operation.operationId === link.operationId)
          : byRef(document, link.operationRef);
      if (!target) {
        const known = operations(document)
          .map((o) => o.operation.operationId)
          .filter(Boolean);
        if (link.operationId !== undefined) report(`no operation has operationId "${link.operationId}" (known: ${known.join(", ")})`, "operationId");
        else report(`operationRef "${link.operationRef}" points at no operation of this document (use #/paths/<path, / as ~1>/<method>)`, "operationRef");
        continue;
      }
      const sources = { request: jsonSchema(operation.requestBody), response: jsonSchema(response) };
      const parameters = parametersOf(target);
      for (const [key, value] of Object.entries(link.parameters ?? {})) {
        const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(key);
        const matches = parameters.filter((p) => (qualified ? p.in === qualified[1] && p.name === qualified[2] : p.name === key));
        if (matches.length === 0) {
          const names = parameters.map((p) => `${p.in}.${p.name}`);
          report(`"${key}" is not a parameter of ${target.operation.operationId ?? target.path.join(" ")} (its parameters: ${names.join(", ") || "none"})`, "parameters", key);
        }
        for (const problem of expressionProblems(value, sources, `parameters.${key}`)) report(problem, "parameters", key);
      }
      if (link.requestBody !== undefined) {
        const targetBody = jsonSchema(target.operation.requestBody);
        if (!targetBody) report(`${target.operation.operationId} takes no JSON request body`, "requestBody");
        else if (isObject(link.requestBody) && !Array.isArray(link.requestBody)) {
          const { names, open } = declared(targetBody);
          for (const key of Object.keys(link.requestBody)) {
            if (!names.has(key) && !open)
              report(`requestBody sets "${key}", which ${target.operation.operationId}'s request body does not declare`, "requestBody", key);
          }
        }
        if (typeof link.requestBody === "object" && link.requestBody !== null)
          for (const where of nestedExpressions(link.requestBody, "requestBody"))
            report(
              `${where} holds a runtime expression inside a literal body, which OpenAPI 3.1 sends as its text; give the whole body as one expression (requestBody: $response.body) or pass the value as a parameter`,
              "requestBody",
            );
        for (const problem of expressionProblems(link.requestBody, sources, "requestBody")) report(problem, "requestBody");
      }
    }
  }
  return results;
}
