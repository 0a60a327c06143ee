/**
 * Derives generated/<service>/<release>/{openapi.yaml,schema.ts,client.ts} from every API in the
 * registry (redocly.yaml `apis:`), generated/registry-types.ts (the aliases and each API's
 * operationIds as literal types, for the testing entry), and generated/sandbox/schema.ts (the types
 * of the sandbox's control API, src/sandbox/openapi.yaml, when the config's folder has it). `--check` regenerates in
 * memory and fails when generated/ differs.
 *
 *   npm run generate            write the files (only those whose content changed)
 *   npm run check:generated     compare, exit 1 when stale, missing or extra files exist
 *
 * `--config <redocly.yaml>` reads another registry and writes generated/ beside it (the tests use a
 * fixture registry). Exit 2 on bad arguments.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, rmdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { redoclyCli, withoutRedoclyBanner } from "../src/redocly.js";
import { type ApiEntry, clientNames, loadRegistry, repoRoot } from "../src/registry.js";
import { type Doc, operations, parseDocument } from "../src/document/index.js";
import { runCommand, runProgram, script } from "./lib/cli.js";
import { FIELD_TESTS, renderFieldTests } from "./lib/field-tests.js";
import { generateSandboxDeclarationTypes } from "./lib/sandbox-declarations.js";

const REGENERATE = "npm run generate";
const CLIENT_RUNTIME = join(repoRoot, "src/client/index.js");
const run = promisify(execFile);

/** One generated file: path relative to the config's folder, and its content. */
export interface GeneratedFile {
  path: string;
  content: string;
}

const header = (comment: string, entry: ApiEntry) =>
  `${comment} Generated from ${entry.root} (${entry.alias}) by \`${REGENERATE}\` (scripts/generate.ts). Do not edit.\n`;

const bundleEnv = () => ({ ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_NOTIFICATIONS: "true", NO_COLOR: "1" });

/**
 * Bundles one API with the Redocly CLI (the declared dependency; it exports no library), by alias so
 * that the API's settings in redocly.yaml apply. References stay references; x- extensions stay.
 */
async function bundle(entry: ApiEntry, configPath: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [redoclyCli(), "bundle", entry.alias, "--config", configPath], {
      cwd: dirname(configPath),
      env: bundleEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const stderr = withoutRedoclyBanner(String((error as { stderr?: string }).stderr ?? error));
    throw new Error(`${entry.alias}: bundling ${entry.root} failed:\n${stderr}`);
  }
}

/** The first key of a YAML mapping file (`openapi` for an OpenAPI root), or undefined. */
function firstKey(file: string): string | undefined {
  try {
    const doc = parse(readFileSync(file, "utf8")) as unknown;
    return doc && typeof doc === "object" && !Array.isArray(doc) ? Object.keys(doc)[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bundles every API with one Redocly CLI run (starting the CLI costs more than a bundle). Given
 * several aliases the CLI writes the bundles to stdout one after the other, in the order it names
 * them on stderr, each starting with its root's first key at the start of a line (top-level keys
 * are unique in a document, so that line opens the next bundle). When that run fails or its output
 * does not split that way, each API is bundled on its own, so that an error names its API.
 */
async function bundleAll(entries: ApiEntry[], configPath: string): Promise<Map<ApiEntry, Promise<string>>> {
  const single = () =>
    new Map(
      entries.map((entry) => {
        const bundling = bundle(entry, configPath);
        bundling.catch(() => {}); // handled where it is awaited (generateApi); not unhandled meanwhile
        return [entry, bundling] as const;
      }),
    );
  if (entries.length < 2 || entries.some((entry) => !existsSync(entry.rootPath))) return single(); // a missing root fails the run
  const result = await run(process.execPath, [redoclyCli(), "bundle", ...entries.map((e) => e.alias), "--config", configPath], {
    cwd: dirname(configPath),
    env: bundleEnv(),
    maxBuffer: 256 * 1024 * 1024,
  }).catch(() => undefined);
  if (!result) return single();
  const order = [...result.stderr.matchAll(/using configuration for api '([^']+)'/g)].map(([, alias]) => alias);
  if (order.join(" ") !== entries.map((e) => e.alias).join(" ")) return single();
  const { stdout } = result;
  const starts: number[] = [];
  for (const entry of entries) {
    const key = firstKey(entry.rootPath);
    const previous = starts.at(-1);
    const at = previous === undefined ? (stdout.startsWith(`${key}:`) ? 0 : -1) : stdout.indexOf(`\n${key}:`, previous) + 1 || -1;
    if (!key || at < 0) return single();
    starts.push(at);
  }
  return new Map(entries.map((entry, i) => [entry, Promise.resolve(stdout.slice(starts[i], starts[i + 1] ?? stdout.length))] as const));
}

interface OpenApiDoc {
  servers?: { url: string; "x-environment"?: string; variables?: Record<string, { default: string; enum?: string[] }> }[];
  security?: Record<string, string[]>[];
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string; in?: string; name?: string }> };
}

/**
 * The client's credential: the first scheme of the root `security` requirement (or the only scheme
 * declared, when there is no root requirement). Bearer-style schemes (http bearer, oauth2,
 * openIdConnect) send `Authorization: Bearer`; apiKey schemes send their header.
 */
function authOf(entry: ApiEntry, doc: OpenApiDoc) {
  const schemes = doc.components?.securitySchemes ?? {};
  const declared = Object.keys(schemes);
  const name =
    Object.keys(doc.security?.find((r) => Object.keys(r).length > 0) ?? {})[0] ?? (declared.length === 1 ? declared[0] : undefined);
  if (!name) return { kind: "none" } as const;
  const scheme = schemes[name];
  if (!scheme) throw new Error(`${entry.alias}: security requirement names "${name}", which components.securitySchemes does not declare`);
  if (
    (scheme.type === "http" && scheme.scheme?.toLowerCase() === "bearer") ||
    scheme.type === "oauth2" ||
    scheme.type === "openIdConnect"
  ) {
    return { kind: "bearer", scheme: name, header: "Authorization", option: "accessToken" } as const;
  }
  if (scheme.type === "apiKey" && scheme.in === "header" && scheme.name) {
    return { kind: "apiKey", scheme: name, header: scheme.name, option: "apiKey" } as const;
  }
  throw new Error(
    `${entry.alias}: security scheme "${name}" (type ${scheme.type}) is not supported by the client; use http bearer or an apiKey in a header`,
  );
}

function serversOf(doc: OpenApiDoc) {
  return (doc.servers ?? []).map((server) => ({
    ...(server["x-environment"] ? { environment: server["x-environment"] } : {}),
    url: server.url,
    variables: Object.fromEntries(
      Object.entries(server.variables ?? {}).map(([name, v]) => [name, { default: v.default, ...(v.enum ? { enum: v.enum } : {}) }]),
    ),
  }));
}

/**
 * The operations whose contract declares an `Idempotency-Key` request header (`METHOD /path`): the
 * provider deduplicates them, so the client may retry a POST or PATCH of one that sends the key.
 */
export function deduplicatedOperations(model: Doc): string[] {
  return operations(model)
    .filter((op) => op.parameters.some((p) => p.value?.in === "header" && String(p.value?.name).toLowerCase() === "idempotency-key"))
    .map((op) => `${op.method.toUpperCase()} ${op.path}`);
}

function renderClient(entry: ApiEntry, doc: OpenApiDoc, model: Doc, outDir: string): string {
  const { versioned, names } = clientNames(entry);
  let runtime = relative(outDir, CLIENT_RUNTIME).replaceAll("\\", "/");
  if (!runtime.startsWith(".")) runtime = `./${runtime}`;
  const data = (value: unknown) => JSON.stringify(value, null, 2);
  const factories = names.map((name) =>
    [
      ``,
      name === versioned
        ? `export type ${name}ClientOptions = ClientOptions<typeof servers, typeof auth>;\nexport type ${name}Client = ApiClient<paths>;`
        : `export type ${name}ClientOptions = ${versioned}ClientOptions;\nexport type ${name}Client = ${versioned}Client;`,
      ``,
      `/** Creates a typed client for ${entry.alias}${name === versioned ? "" : ` (the newest ${entry.service} release in the registry)`}. */`,
      `export function create${name}Client(options: ${name}ClientOptions): ${name}Client {`,
      `  return createApiClient<paths>({ name: "create${name}Client", servers, auth, deduplicated }, options);`,
      `}`,
    ].join("\n"),
  );
  return [
    header("//", entry),
    `import { createApiClient, type ApiClient, type ClientOptions } from "${runtime}";`,
    `import type { paths } from "./schema.js";`,
    ``,
    `export type { components, operations, paths, webhooks } from "./schema.js";`,
    ``,
    `export const api = ${data({ alias: entry.alias, service: entry.service, release: entry.release })} as const;`,
    ``,
    `/** The spec's servers; \`environment\` is each server's x-environment. */`,
    `export const servers = ${data(serversOf(doc))} as const;`,
    ``,
    `/** The credential the client sends, from the spec's security scheme. */`,
    `export const auth = ${data(authOf(entry, doc))} as const;`,
    ``,
    `/**`,
    ` * The operations whose contract declares an \`Idempotency-Key\` request header: the provider deduplicates`,
    ` * them, so a POST or PATCH of one that sends the key is retried; no other POST or PATCH ever is.`,
    ` */`,
    `export const deduplicated: readonly string[] = ${JSON.stringify(deduplicatedOperations(model))};`,
    ...factories,
    ``,
  ].join("\n");
}

/** Generates the three files of one API in memory (from its bundle, when already made). */
export async function generateApi(entry: ApiEntry, configPath: string, bundling?: Promise<string>): Promise<GeneratedFile[]> {
  const base = dirname(configPath);
  // openapi-typescript (with TypeScript) takes about as long to load as the bundler takes to run.
  const [bundled, { default: openapiTS, astToString }] = await Promise.all([
    bundling ?? bundle(entry, configPath),
    import("openapi-typescript"),
  ]);
  const model = parseDocument(bundled, entry.alias);
  const doc = model as OpenApiDoc;
  // defaultNonNullable: false: a property with a `default` stays optional (the server fills it in).
  const ast = await openapiTS(bundled, { silent: true, defaultNonNullable: false });
  return [
    { path: join(entry.generatedDir, "openapi.yaml"), content: header("#", entry) + bundled },
    { path: join(entry.generatedDir, "schema.ts"), content: header("//", entry) + astToString(ast) },
    { path: join(entry.generatedDir, "client.ts"), content: renderClient(entry, doc, model, resolve(base, entry.generatedDir)) },
  ];
}

/** The sandbox control API's document, beside the config (the package's own has it; fixture registries do not). */
export const sandboxDocument = (base: string) => join(base, "src/sandbox/openapi.yaml");

/** generated/sandbox/schema.ts: openapi-typescript types of the control API, for the testing entry's control client. */
export async function generateSandboxTypes(base: string): Promise<GeneratedFile[]> {
  const source = sandboxDocument(base);
  if (!existsSync(source)) return [];
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const ast = await openapiTS(readFileSync(source, "utf8"), { silent: true, defaultNonNullable: false });
  const banner = `// Generated from src/sandbox/openapi.yaml (the sandbox control API) by \`${REGENERATE}\` (scripts/generate.ts). Do not edit.\n`;
  return [{ path: join("generated", "sandbox", "schema.ts"), content: banner + astToString(ast) }];
}

/** Where generateRegistryTypes writes, relative to the config's folder. */
export const REGISTRY_TYPES = join("generated", "registry-types.ts");

/**
 * generated/registry-types.ts: every alias of the registry and, for each, its operationIds (the keys
 * of its generated `operations`, webhooks included), so that the testing entry's `startMock`,
 * `createValidator` and `toMatchContract` reject a misspelt alias or operationId at compile time.
 */
export function generateRegistryTypes(registry: ApiEntry[]): GeneratedFile {
  const imported = (entry: ApiEntry) => `${clientNames(entry).versioned}Operations`;
  const lines = [
    `// Generated from the registry (redocly.yaml \`apis:\`) by \`${REGENERATE}\` (scripts/generate.ts). Do not edit.`,
    ``,
    ...registry.map(
      (entry) =>
        `import type { operations as ${imported(entry)} } from "./${relative("generated", entry.generatedDir).replaceAll("\\", "/")}/schema.js";`,
    ),
    ``,
    `/** Each API of the registry, by alias, with its operationIds (webhooks included). */`,
    `export interface RegistryOperations {`,
    ...registry.map((entry) => `  ${JSON.stringify(entry.alias)}: keyof ${imported(entry)} & string;`),
    `}`,
    ``,
    `/** An API alias of the registry, e.g. \`${registry[0]?.alias ?? "service@1.0.0"}\`. */`,
    `export type ApiAlias = keyof RegistryOperations;`,
    ``,
    `/** The operationIds of the API \`A\` (webhooks included). */`,
    `export type OperationId<A extends ApiAlias> = RegistryOperations[A];`,
    ``,
  ];
  return { path: REGISTRY_TYPES, content: lines.join("\n") };
}

/** tests/apis/fields.test-d.ts: a misspelt field is a compile error on every operation (scripts/lib/field-tests.ts). */
export function generateFieldTests(generated: Array<{ entry: ApiEntry; files: GeneratedFile[] }>): GeneratedFile {
  const apis = generated.map(({ entry, files }) => {
    const bundled = files.find((f) => f.path === join(entry.generatedDir, "openapi.yaml"))!;
    return { entry, doc: parseDocument(bundled.content, bundled.path) };
  });
  return { path: FIELD_TESTS, content: renderFieldTests(apis) };
}

export async function generateAll(configPath: string) {
  const registry = loadRegistry(configPath);
  const seen = new Map<string, string>();
  for (const entry of registry) {
    const name = clientNames(entry).versioned;
    const other = seen.get(name);
    if (other) throw new Error(`${entry.alias} and ${other} would both generate create${name}Client`);
    seen.set(name, entry.alias);
  }
  const [bundles] = await Promise.all([bundleAll(registry, configPath), import("openapi-typescript")]);
  const results = await Promise.allSettled(registry.map((entry) => generateApi(entry, configPath, bundles.get(entry))));
  const errors = results.flatMap((r) => (r.status === "rejected" ? [String((r.reason as Error).message ?? r.reason)] : []));
  if (errors.length > 0) throw new Error(errors.join("\n\n"));
  return registry.map((entry, i) => ({ entry, files: (results[i] as PromiseFulfilledResult<GeneratedFile[]>).value }));
}

/** Every file under generated/, relative to the config's folder. */
function filesOnDisk(base: string): string[] {
  const root = join(base, "generated");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(base, join(d.parentPath, d.name)))
    .sort();
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

function removeEmptyDirs(dir: string): void {
  for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isDirectory()) removeEmptyDirs(join(dir, d.name));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/** Writes generated/ from the registry at `configPath` (or, with `check`, compares); the exit code. */
export async function generate(configPath: string, check: boolean): Promise<number> {
  const base = dirname(configPath);
  const generated = await generateAll(configPath);
  let sandboxFiles: GeneratedFile[];
  try {
    sandboxFiles = await generateSandboxTypes(base);
    if (sandboxFiles.length > 0)
      sandboxFiles.push(
        generateSandboxDeclarationTypes(
          generated.map((g) => g.entry),
          REGENERATE,
        ),
      );
  } catch (error) {
    throw new Error(`src/sandbox/openapi.yaml: ${(error as Error).message}`);
  }
  const registryTypes = generateRegistryTypes(generated.map((g) => g.entry));
  const fieldTests = generateFieldTests(generated);
  const expected = new Set([
    ...generated.flatMap((g) => g.files.map((f) => f.path)),
    ...sandboxFiles.map((f) => f.path),
    registryTypes.path,
  ]);
  const extra = filesOnDisk(base).filter((path) => !expected.has(path));

  if (check) {
    const problems: string[] = [];
    for (const { files } of [...generated, { files: sandboxFiles }, { files: [registryTypes, fieldTests] }]) {
      for (const file of files) {
        const current = read(join(base, file.path));
        if (current === undefined) problems.push(`  missing  ${file.path}`);
        else if (current !== file.content) problems.push(`  stale    ${file.path}`);
      }
    }
    problems.push(...extra.map((path) => `  extra    ${path} (no API in the registry produces it)`));
    if (problems.length > 0) {
      console.error(`generated/ is out of date with the specs:\n${problems.join("\n")}\nRun \`${REGENERATE}\` and commit the result.`);
      return 1;
    }
    console.log(
      `generated/ is up to date (${generated.length} APIs${sandboxFiles.length > 0 ? ", the sandbox control API" : ""} and the registry types, ${expected.size} files), and ${FIELD_TESTS}.`,
    );
    return 0;
  }

  for (const { entry, files } of generated) {
    const written: string[] = [];
    for (const file of files) {
      const path = join(base, file.path);
      if (read(path) === file.content) continue;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
      written.push(file.path.slice(entry.generatedDir.length + 1));
    }
    const what = written.length > 0 ? `wrote ${written.join(", ")}` : "unchanged";
    console.log(`${entry.alias.padEnd(28)} ${entry.generatedDir}: ${what}`);
  }
  for (const [label, file] of [
    ...sandboxFiles.map((f) => ["sandbox control API", f] as const),
    ["registry types", registryTypes] as const,
    ["misspelt-field type tests", fieldTests] as const,
  ]) {
    const path = join(base, file.path);
    const changed = read(path) !== file.content;
    if (changed) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content);
    }
    console.log(`${label.padEnd(28)} ${file.path}: ${changed ? "wrote" : "unchanged"}`);
  }
  for (const path of extra) {
    rmSync(join(base, path));
    console.log(`removed ${path} (no API in the registry produces it)`);
  }
  if (extra.length > 0) removeEmptyDirs(join(base, "generated"));
  return 0;
}

function program() {
  return script("generate")
    .description("Write generated/<service>/<release>/{openapi.yaml,schema.ts,client.ts} for every API in the registry")
    .option("--check", "regenerate in memory and compare with generated/; exit 1 when anything is stale, missing or extra")
    .option("--config <file>", "registry to read (default: redocly.yaml at the repository root); the output goes to generated/ beside it")
    .action((options: { check?: boolean; config?: string }) =>
      generate(resolve(options.config ?? join(repoRoot, "redocly.yaml")), options.check === true),
    );
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
