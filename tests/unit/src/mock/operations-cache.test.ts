/**
 * src/mock/operations-cache.ts keeps Prism's reading of a bundled spec between starts: what it reads
 * back must equal what Prism gives, and it must read the spec again whenever the bytes change, never
 * keep a spec with external $refs, and ignore a cache folder others can write or a damaged file; a
 * parsed document kept (cachedDocument) reads back equal to the YAML parser's.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { loadRegistry } from "../../../../src/registry.js";
import { parseDocument } from "../../../../src/document/index.js";
import { cachedDocument, cachedOperations } from "../../../../src/mock/operations-cache.js";
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
