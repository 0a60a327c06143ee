/**
 * src/mock/operations-cache.ts keeps Prism's reading of a bundled spec between starts: what it reads
 * back must equal what Prism gives, and it must read the spec again whenever the bytes change, never
 * keep a spec with external $refs, and ignore a cache folder others can write or a damaged file; a
 * parsed document kept (cachedDocument) reads back equal to the YAML parser's.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deserialize } from "node:v8";
import { afterAll, expect, it, vi } from "vitest";
import { loadRegistry } from "../../../../src/registry.js";
import { parseDocument } from "../../../../src/document/index.js";
import { cachedDocument, cachedOperations, mark, marked, versionAbove } from "../../../../src/mock/operations-cache.js";
import { freshModule } from "../../../helpers/fresh-module.js";
import { loadOperations, type Operation } from "../../../../src/mock/server.js";

const work = mkdtempSync(join(tmpdir(), "operations-cache-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let folders = 0;
const freshDir = () => join(work, `cache-${folders++}`);

/** Prism's reader, counting its calls. */
function counted() {
  const calls: string[] = [];
  const read = (path: string) => {
    calls.push(path);
    return loadOperations(path);
  };
  return { calls, read };
}

it("reads back, for every API of the registry, exactly the operations Prism gives, without asking Prism again", async () => {
  const entries = loadRegistry();
  expect(entries.length).toBeGreaterThan(0);
  const dir = freshDir();
  const { calls, read } = counted();
  for (const entry of entries) {
    const prism = await loadOperations(entry.bundlePath);
    const first = await cachedOperations<Operation>(entry.bundlePath, read, dir);
    const second = await cachedOperations<Operation>(entry.bundlePath, read, dir);
    expect(first, entry.alias).toStrictEqual(prism);
    expect(second, entry.alias).toStrictEqual(prism);
    expect(second.length, entry.alias).toBeGreaterThan(0);
  }
  expect(calls).toEqual(entries.map((e) => e.bundlePath));
  expect(readdirSync(dir)).toHaveLength(entries.length);
});

it("reads the spec again when its bytes change, and keeps one file per spec", async () => {
  const [entry] = loadRegistry();
  const spec = join(work, "changed.yaml");
  copyFileSync(entry.bundlePath, spec);
  const dir = freshDir();
  const { calls, read } = counted();
  const before = await cachedOperations<Operation>(spec, read, dir);
  const text = readFileSync(spec, "utf8");
  const summary = before[0].summary;
  expect(summary && text.includes(`summary: ${summary}`), "a plain summary to edit").toBe(true);
  writeFileSync(spec, text.replace(`summary: ${summary}`, "summary: Changed for the cache test"));
  const after = await cachedOperations<Operation>(spec, read, dir);
  expect(calls).toEqual([spec, spec]);
  expect(after.find((op) => op.id === before[0].id)?.summary).toBe("Changed for the cache test");
  expect(await cachedOperations<Operation>(spec, read, dir)).toStrictEqual(after);
  expect(calls).toHaveLength(2);
  expect(readdirSync(dir)).toHaveLength(1);
});

it("never keeps a spec with an external $ref", async () => {
  const folder = join(work, "external");
  mkdirSync(folder);
  writeFileSync(join(folder, "Thing.yaml"), "type: object\nproperties:\n  id: { type: string }\n");
  const spec = join(folder, "openapi.yaml");
  writeFileSync(
    spec,
    [
      "openapi: 3.1.0",
      "info: { title: external, version: 1.0.0 }",
      "paths:",
      "  /thing:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: A thing",
      "          content:",
      "            application/json:",
      "              schema:",
      "                $ref: ./Thing.yaml",
      "",
    ].join("\n"),
  );
  const dir = freshDir();
  mkdirSync(dir, { mode: 0o700 });
  const { calls, read } = counted();
  await cachedOperations(spec, read, dir);
  await cachedOperations(spec, read, dir);
  expect(calls).toEqual([spec, spec]);
  expect(readdirSync(dir)).toEqual([]);
});

it.skipIf(process.platform === "win32")("ignores a cache folder that others can write", async () => {
  const [entry] = loadRegistry();
  const dir = freshDir();
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o777);
  const { calls, read } = counted();
  await cachedOperations(entry.bundlePath, read, dir);
  await cachedOperations(entry.bundlePath, read, dir);
  expect(calls).toEqual([entry.bundlePath, entry.bundlePath]);
  expect(readdirSync(dir)).toEqual([]);
});

it("reads the spec again over a damaged cache file, and replaces the file", async () => {
  const [entry] = loadRegistry();
  const dir = freshDir();
  const { calls, read } = counted();
  const prism = await cachedOperations<Operation>(entry.bundlePath, read, dir);
  const [file] = readdirSync(dir);
  writeFileSync(join(dir, file), "not a serialised value");
  expect(await cachedOperations<Operation>(entry.bundlePath, read, dir)).toStrictEqual(prism);
  expect(await cachedOperations<Operation>(entry.bundlePath, read, dir)).toStrictEqual(prism);
  expect(calls).toHaveLength(2);
});

it("keeps a parsed document: read back equal to what the YAML parser gives, parsed again only when the text changes", () => {
  const dir = freshDir();
  let parsed = 0;
  const read = (path: string, text: string) =>
    cachedDocument(
      path,
      text,
      () => {
        parsed++;
        return parseDocument(text, path);
      },
      dir,
    );
  for (const entry of loadRegistry()) {
    const text = readFileSync(entry.bundlePath, "utf8");
    const first = read(entry.bundlePath, text);
    const second = read(entry.bundlePath, text);
    expect(first, entry.alias).toStrictEqual(parseDocument(text, entry.bundlePath));
    expect(second, entry.alias).toStrictEqual(first);
    expect(second, entry.alias).not.toBe(first); // read back from the file, not kept in memory
  }
  expect(parsed).toBe(loadRegistry().length);
  const [entry] = loadRegistry();
  const changed = readFileSync(entry.bundlePath, "utf8").replace("title:", "title: Changed\n  x-was:");
  expect(read(entry.bundlePath, changed).info["x-was"]).toBeDefined();
  expect(parsed).toBe(loadRegistry().length + 1);
});

/**
 * A new instance of the module, evaluated in the test that asks for it: its readers' versions are
 * read again, not taken from the instance another test file loaded first.
 */
const freshCache = () => freshModule<typeof import("../../../../src/mock/operations-cache.js")>("src/mock/operations-cache.ts");

/** Whether a spec of this text is kept: asked twice, Prism's reader is called once. */
async function kept(fresh: typeof cachedOperations, text: string): Promise<boolean> {
  const spec = join(work, `refs-${folders}.yaml`);
  writeFileSync(spec, text);
  const dir = freshDir();
  let reads = 0;
  const read = async () => {
    reads++;
    return [{ id: "op" }];
  };
  expect(await fresh(spec, read, dir)).toEqual([{ id: "op" }]);
  expect(await fresh(spec, read, dir)).toEqual([{ id: "op" }]);
  return reads === 1;
}

it("keeps a spec whose every $ref starts with #, however it is quoted and spaced, and no spec with another $ref", async () => {
  // [text, kept]: YAML block and flow styles, JSON with and without spaces.
  const table: Array<[string, boolean]> = [
    ["schema:\n  $ref: ./Thing.yaml\n", false],
    ['{"schema": {"$ref": "./Thing.yaml"}}', false],
    ["schema:\n  $ref : ./Thing.yaml\n", false],
    ['{"schema":{"$ref":"https://schemas.example.test/thing.json"}}', false],
    ["schema:\n  '$ref':\t'other.yaml#/Thing'\n", false],
    ["schema:\n  $ref: '#/components/schemas/Thing'\n", true],
    ['{"schema": {"$ref": "#/components/schemas/Thing"}}', true],
    ['{"schema":{"$ref":"#/components/schemas/Thing"}}', true],
    ["description: |\n  Written as $ref: #/components/schemas/Thing in the bundle.\n", true],
    ['schema: { $ref:  "#/components/schemas/Thing" }\n', true],
  ];
  const { cachedOperations: fresh } = await freshCache();
  const found: Array<[string, boolean]> = [];
  for (const [text] of table) found.push([text, await kept(fresh, text)]);
  expect(found).toEqual(table);
});

it("keys what it keeps by the versions of Prism's spec readers and of V8, and by the spec's bytes", async () => {
  const { cachedOperations: fresh } = await freshCache();
  const [entry] = loadRegistry();
  const dir = freshDir();
  await fresh(entry.bundlePath, async () => [{ id: "op" }], dir);
  const [file] = readdirSync(dir);
  const { key, value } = deserialize(readFileSync(join(dir, file))) as { key: string; value: unknown };
  expect(value).toEqual([{ id: "op" }]);
  // Each package as Prism resolves it (the table of readers the module's comment names).
  const require = createRequire(import.meta.url);
  const prism = require.resolve("@stoplight/prism-http");
  const fromPrism = createRequire(prism);
  const refParser = fromPrism.resolve("@stoplight/json-schema-ref-parser");
  const readers = [
    versionAbove("@stoplight/prism-http", prism),
    versionAbove("@stoplight/http-spec", fromPrism.resolve("@stoplight/http-spec")),
    versionAbove("@stoplight/json", fromPrism.resolve("@stoplight/json")),
    versionAbove("@stoplight/json-schema-ref-parser", refParser),
    versionAbove("@stoplight/yaml", createRequire(refParser).resolve("@stoplight/yaml")),
    `v8@${process.versions.v8}`,
  ];
  expect(readers[0]).toMatch(/^@stoplight\/prism-http@\d+\.\d+\.\d+/);
  const sum = createHash("sha256")
    .update(`${readers.join("\n")}\n`)
    .update(readFileSync(entry.bundlePath))
    .digest("hex");
  expect(key).toBe(sum);
});

it("keys a kept document by the versions of yaml and V8 and by its text", async () => {
  const { cachedDocument: fresh } = await freshCache();
  const dir = freshDir();
  const text = "openapi: 3.1.0\n";
  expect(fresh(join(work, "doc.yaml"), text, () => ({ openapi: "3.1.0" }), dir)).toEqual({ openapi: "3.1.0" });
  const [file] = readdirSync(dir);
  const { key } = deserialize(readFileSync(join(dir, file))) as { key: string };
  const yaml = versionAbove("yaml", createRequire(import.meta.url).resolve("yaml"));
  expect(key).toBe(createHash("sha256").update(`${yaml}\nv8@${process.versions.v8}\n${text}`).digest("hex"));
});

it.skipIf(process.platform === "win32")("parses a document every time over a cache folder that others can write", () => {
  const dir = freshDir();
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o777);
  let parsed = 0;
  const parse = () => ({ parsed: ++parsed });
  expect(cachedDocument(join(work, "open.yaml"), "a: 1\n", parse, dir)).toEqual({ parsed: 1 });
  expect(cachedDocument(join(work, "open.yaml"), "a: 1\n", parse, dir)).toEqual({ parsed: 2 });
  expect(readdirSync(dir)).toEqual([]);
});

it("hands a spec that cannot be read to Prism's reader, which reports it", async () => {
  const missing = join(work, "no-such-spec.yaml");
  const seen: string[] = [];
  const read = async (path: string): Promise<never[]> => {
    seen.push(path);
    throw new Error(`Prism: ${path} not found`);
  };
  await expect(cachedOperations(missing, read, freshDir())).rejects.toThrow(`Prism: ${missing} not found`);
  expect(seen).toEqual([missing]);
});

it("finds a package's version in the package.json of that name above its entry point, and names both when there is none", () => {
  const root = join(work, "packages");
  const dist = join(root, "node_modules", "reader", "dist", "esm");
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(root, "node_modules", "reader", "package.json"), JSON.stringify({ name: "reader", version: "2.3.4" }));
  // Nearer package.json files: one without a name (a module-type marker), one unreadable, one of another package.
  writeFileSync(join(dist, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(root, "node_modules", "reader", "dist", "package.json"), "{ not json");
  const entry = join(dist, "index.js");
  expect(versionAbove("reader", entry)).toBe("reader@2.3.4");
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "app", version: "1.0.0" }));
  expect(versionAbove("app", entry)).toBe("app@1.0.0");
  expect(() => versionAbove("absent", entry)).toThrow(`absent: no package.json above ${entry}`);
});

it("keeps the cache in <tmpdir>/bank-api-contracts-<uid>, or -user where there are no user ids", async () => {
  const { defaultCacheDir } = await freshCache();
  const getuid = vi.spyOn(process, "getuid").mockReturnValue(4321);
  try {
    expect(defaultCacheDir()).toBe(join(tmpdir(), "bank-api-contracts-4321"));
  } finally {
    getuid.mockRestore();
  }
  const own = Object.getOwnPropertyDescriptor(process, "getuid");
  Object.defineProperty(process, "getuid", { value: undefined, configurable: true, writable: true });
  try {
    expect(defaultCacheDir()).toBe(join(tmpdir(), "bank-api-contracts-user"));
  } finally {
    if (own) Object.defineProperty(process, "getuid", own);
    else delete (process as { getuid?: unknown }).getuid;
  }
});

it("keeps a mark for its key only, until another key replaces it, in a file only this user can read", () => {
  const dir = freshDir();
  expect(marked("check", "key-1", dir)).toBe(false);
  mark("check", "key-1", dir);
  expect(marked("check", "key-1", dir)).toBe(true);
  expect(marked("check", "key-2", dir)).toBe(false);
  expect(marked("other check", "key-1", dir)).toBe(false);
  mark("check", "key-2", dir);
  expect(marked("check", "key-1", dir)).toBe(false);
  expect(marked("check", "key-2", dir)).toBe(true);
  const files = readdirSync(dir);
  expect(files).toHaveLength(1);
  if (process.platform !== "win32") expect(statSync(join(dir, files[0])).mode & 0o777).toBe(0o600);
});

it.skipIf(process.platform === "win32")("keeps no mark in a folder others can write, nor through a symbolic link", () => {
  const open = freshDir();
  mkdirSync(open, { mode: 0o700 });
  chmodSync(open, 0o777);
  mark("check", "key", open);
  expect(marked("check", "key", open)).toBe(false);
  expect(readdirSync(open)).toEqual([]);

  const target = freshDir();
  mkdirSync(target, { mode: 0o700 });
  const link = join(work, `link-${folders}`);
  symlinkSync(target, link);
  mark("check", "key", link);
  expect(marked("check", "key", link)).toBe(false);
  expect(readdirSync(target)).toEqual([]);
});

it("leaves nothing behind when a mark cannot be written, and keeps none", () => {
  const dir = freshDir();
  mark("check", "key", dir);
  const [file] = readdirSync(dir);
  rmSync(join(dir, file));
  // A folder where the mark's file would be: the rename into place fails.
  mkdirSync(join(dir, file, "inside"), { recursive: true });
  mark("check", "key", dir);
  expect(readdirSync(dir)).toEqual([file]);
  expect(marked("check", "key", dir)).toBe(false);
});

it("keeps nothing when the versions of the spec's readers cannot be found", async () => {
  vi.doMock("node:module", async (original) => ({
    ...(await original<typeof import("node:module")>()),
    createRequire: () => ({
      resolve: (name: string) => {
        throw new Error(`Cannot find module '${name}'`);
      },
    }),
  }));
  try {
    const { cachedOperations: fresh, cachedDocument: freshDocument } = await freshCache();
    const [entry] = loadRegistry();
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    let reads = 0;
    const read = async () => [{ id: `op-${++reads}` }];
    expect(await fresh(entry.bundlePath, read, dir)).toEqual([{ id: "op-1" }]);
    expect(await fresh(entry.bundlePath, read, dir)).toEqual([{ id: "op-2" }]);
    let parsed = 0;
    freshDocument(entry.bundlePath, "a: 1\n", () => ++parsed, dir);
    freshDocument(entry.bundlePath, "a: 1\n", () => ++parsed, dir);
    expect(parsed).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    vi.doUnmock("node:module");
  }
});

it("keeps a mark of any name: paths, aliases, any text", () => {
  const dir = freshDir();
  const names = [
    ...loadRegistry().flatMap((entry) => [entry.alias, entry.bundlePath]),
    "sandbox declaration",
    "../../etc/passwd",
    "a/b\\c",
    "",
    "ünïcödé name",
  ];
  for (const name of names) mark(name, `key of ${name}`, dir);
  expect(names.filter((name) => !marked(name, `key of ${name}`, dir))).toEqual([]);
  expect(readdirSync(dir)).toHaveLength(new Set(names).size);
});
