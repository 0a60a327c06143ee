/**
 * Writes tests/apis/fields.test-d.ts (by `npm run generate`, checked by `check:generated`): for
 * every operation of every API of the registry, a call through its generated client that compiles,
 * and beside it the same call with one field misspelt, marked `@ts-expect-error`: a field of the
 * init itself, of the request body, of a nested object of the body (or of an array's items), of the
 * path parameters and of the query parameters, each where the operation has one. `npm run
 * typecheck` then proves that every such misspelling is a compile error, operation by operation.
 *
 * The calls are built from the operation's types (`declare`d values, spread into fresh object
 * literals), never from example values, so each rejected call differs from its accepted twin only by
 * the misspelt name, whose value is the real field's. An object whose schema accepts members it
 * does not list (`additionalProperties` other than false) takes any name by contract: it gets no
 * misspelt-field line, and a comment says why.
 */
import { relative } from "node:path";
import { child, type Doc, deref, type Json, jsonRequest, type Located, type Operation, operations } from "../../src/document/index.js";
import { type ApiEntry, clientNames } from "../../src/registry.js";

/** Where the file is written, relative to the registry's folder. */
export const FIELD_TESTS = "tests/apis/fields.test-d.ts";

/** A realistic misspelling of `name` that the object does not declare: underscores dropped (item_id: itemid), else the first letter's case changed. */
export function misspell(name: string, declared: ReadonlySet<string>): string {
  const candidates = [
    name.replaceAll("_", ""),
    name[0] === name[0]!.toUpperCase() ? name[0]!.toLowerCase() + name.slice(1) : name[0]!.toUpperCase() + name.slice(1),
    `${name}s`,
    `${name}_`,
  ];
  return candidates.find((c) => c !== name && !declared.has(c))!;
}

interface Shape {
  /** The declared member names (allOf members merged). */
  names: string[];
  /** True when the schema accepts members it does not list. */
  open: boolean;
  /** Per member, its schema. */
  members: Map<string, Located>;
}

/** The members of an object schema, `allOf` parts merged; undefined when it is not an object with listed members. */
function shapeOf(doc: Doc, schema: Located | undefined, depth = 0): Shape | undefined {
  if (!schema || typeof schema.value !== "object" || schema.value === null || depth > 8) return undefined;
  const value: Json = schema.value;
  const members = new Map<string, Located>();
  let open = value.additionalProperties !== undefined && value.additionalProperties !== false;
  if (value.patternProperties) open = true;
  for (const name of Object.keys(value.properties ?? {})) members.set(name, child(doc, schema, "properties", name)!);
  (value.allOf ?? []).forEach((_: Json, i: number) => {
    const part = shapeOf(doc, child(doc, schema, "allOf", i), depth + 1);
    if (!part) return;
    open ||= part.open;
    for (const [name, located] of part.members) if (!members.has(name)) members.set(name, located);
  });
  if (value.oneOf || value.anyOf) return undefined;
  if (members.size === 0) return undefined;
  return { names: [...members.keys()], open, members };
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));
const access = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);

/** The nested object (or array of objects) of the body whose fields are misspelt: the first member that is one. */
function nestedOf(doc: Doc, shape: Shape): { name: string; array: boolean; shape: Shape } | undefined {
  for (const [name, located] of shape.members) {
    let schema = located;
    let array = false;
    if (schema.value?.type === "array" && schema.value.items) {
      schema = deref(doc, schema.value.items, `${schema.at}/items`);
      array = true;
    }
    const inner = shapeOf(doc, schema);
    if (inner && !inner.open) return { name, array, shape: inner };
  }
  return undefined;
}

function renderOperation(doc: Doc, op: Operation, api: string, lines: string[]): void {
  const method = op.method.toUpperCase();
  const path = JSON.stringify(op.path);
  const id = op.operationId;
  const paramNames = (where: string) => op.parameters.filter((p) => p.value?.in === where).map((p) => String(p.value.name));
  const pathParams = paramNames("path");
  const queryParams = paramNames("query");
  const body = jsonRequest(doc, op);
  const bodyShape = body ? shapeOf(doc, body.schema) : undefined;
  const nested = bodyShape && !bodyShape.open ? nestedOf(doc, bodyShape) : undefined;
  const O = `${api}Operations[${JSON.stringify(id)}]`;
  const fn = `${api}_${id.replace(/[^\w$]/g, "_")}`;
  lines.push(``, `/** ${id}: ${method} ${op.path} */`, `export async function ${fn}(client: ${api}Client) {`);
  // The declared values the calls are built from.
  if (pathParams.length > 0) lines.push(`  const path = {} as NonNullable<${O}["parameters"]["path"]>;`);
  if (queryParams.length > 0) lines.push(`  const query = {} as NonNullable<${O}["parameters"]["query"]>;`);
  if (body) lines.push(`  const body = {} as JsonBody<${O}>;`);
  if (nested) {
    const type = `NonNullable<JsonBody<${O}>[${JSON.stringify(nested.name)}]>${nested.array ? "[number]" : ""}`;
    lines.push(`  const nested = {} as ${type};`);
  }
  const params = (p: string, q: string) => {
    const parts = [...(pathParams.length > 0 ? [`path: ${p}`] : []), ...(queryParams.length > 0 ? [`query: ${q}`] : [])];
    return parts.length > 0 ? `params: { ${parts.join(", ")} }` : undefined;
  };
  const init = (overrides: { params?: string; body?: string; extra?: string }) => {
    const parts = [
      overrides.params ?? params("{ ...path }", "{ ...query }"),
      body ? `body: ${overrides.body ?? "{ ...body }"}` : undefined,
      overrides.extra,
    ].filter((p): p is string => p !== undefined);
    return parts.length > 0 ? `{ ${parts.join(", ")} }` : "{}";
  };
  const call = (initText: string) => `  await client.${method}(${path}, ${initText});`;
  lines.push(call(init({})));
  const wrong = (what: string, initText: string) => lines.push(`  // @ts-expect-error: ${what}`, call(initText));
  wrong(`"parms" for "params" (the init's own fields are checked too)`, init({ extra: "parms: {}" }));
  if (pathParams.length > 0) {
    const name = pathParams[0]!;
    const typo = misspell(name, new Set(pathParams));
    wrong(
      `path parameter "${typo}" for "${name}"`,
      init({ params: params(`{ ...path, ${key(typo)}: path${access(name)} }`, "{ ...query }") }),
    );
  }
  if (queryParams.length > 0) {
    const name = queryParams[0]!;
    const typo = misspell(name, new Set(queryParams));
    wrong(
      `query parameter "${typo}" for "${name}"`,
      init({ params: params("{ ...path }", `{ ...query, ${key(typo)}: query${access(name)} }`) }),
    );
  }
  if (body && !bodyShape) {
    lines.push(`  // The request body is not an object with listed members: no body field to misspell.`);
  } else if (bodyShape?.open) {
    lines.push(`  // The request body's schema accepts members it does not list (additionalProperties): any name is valid by contract.`);
  } else if (bodyShape) {
    const name = bodyShape.names[0]!;
    const typo = misspell(name, new Set(bodyShape.names));
    wrong(`body field "${typo}" for "${name}"`, init({ body: `{ ...body, ${key(typo)}: body${access(name)} }` }));
    if (nested) {
      const inner = nested.shape.names[0]!;
      const innerTypo = misspell(inner, new Set(nested.shape.names));
      const value = `{ ...nested, ${key(innerTypo)}: nested${access(inner)} }`;
      lines.push(call(init({ body: `{ ...body, ${key(nested.name)}: ${nested.array ? "[{ ...nested }]" : "{ ...nested }"} }` })));
      wrong(
        `nested field ${nested.name}${nested.array ? "[]" : ""}.${innerTypo} for ${inner}`,
        init({ body: `{ ...body, ${key(nested.name)}: ${nested.array ? `[${value}]` : value} }` }),
      );
    } else {
      lines.push(`  // No member of the body is an object with listed members (closed): no nested field to misspell.`);
    }
  }
  lines.push(`}`);
}

/** The file's text, from each API's bundled document (`docs`, in registry order). */
export function renderFieldTests(apis: Array<{ entry: ApiEntry; doc: Doc }>): string {
  const lines = [
    `// Generated from the registry (redocly.yaml \`apis:\`) and each API's bundled spec by \`npm run generate\` (scripts/lib/field-tests.ts). Do not edit.`,
    `/**`,
    ` * Every operation of every API: a call that compiles, and the same call with one misspelt field, which`,
    ` * must not (the init's own field, a body field, a nested body field, a path and a query parameter, each`,
    ` * where the operation has one). Checked by \`npm run typecheck\`: a \`@ts-expect-error\` line that compiles fails it.`,
    ` */`,
    `import type { FetchOptions } from "openapi-fetch";`,
  ];
  for (const { entry } of apis) {
    const name = clientNames(entry).versioned;
    const from = relative("tests/apis", `${entry.generatedDir}/client.js`).replaceAll("\\", "/");
    lines.push(`import type { ${name}Client, operations as ${name}Operations } from "${from}";`);
  }
  lines.push(
    ``,
    `/** The JSON request body of an operation, as the client takes it. */`,
    `type JsonBody<O> = NonNullable<FetchOptions<O>["body"]>;`,
  );
  for (const { entry, doc } of apis) {
    const name = clientNames(entry).versioned;
    lines.push(``, `/* ${entry.alias} */`);
    for (const op of operations(doc)) renderOperation(doc, op, name, lines);
  }
  return `${lines.join("\n")}\n`;
}
