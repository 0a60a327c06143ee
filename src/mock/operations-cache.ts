/**
 * Start-up: Prism's reading of a spec (getHttpOperationsFromSpec: parsing the YAML, dereferencing
 * the $refs, converting with @stoplight/http-spec, bundling each operation), with the modules it
 * loads, was about a third of the mock's start-up. Its result for a registry API's bundled spec is
 * kept on disk and read back on the next start instead:
 * - serialised with `v8.serialize`, which keeps what JSON would lose (undefined values, objects
 *   shared between operations): the operations read back are deep-equal to Prism's, shared alike;
 * - valid only for the same spec bytes, the same versions of Prism's spec-reading packages and of
 *   V8 (the key, stored in the file and compared on reading); otherwise Prism reads the spec and
 *   the file is replaced. One file per spec path, so the cache never grows beyond the registry;
 * - only for a spec without external `$ref`s (a bundle), whose bytes are then all it depends on;
 * - in `<tmpdir>/bank-api-contracts-<uid>/` (mode 0700, used only when it is a directory of this
 *   user that nobody else can write), written to a temporary file and renamed into place. A cache
 *   that cannot be read, written or trusted is ignored: Prism reads the spec as before.
 * The same folder keeps marks (`mark`, `marked`): a check that passed, for the bytes it read (the
 * sandbox's declaration check, src/sandbox/start.ts).
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deserialize, serialize } from "node:v8";

/** A `$ref` whose value does not start with `#` (another file or a URL). */
const EXTERNAL_REF = /\$ref["']?[ \t]*:[ \t]*(?![ \t]|["']?#)/;

/** The default cache folder: `<tmpdir>/bank-api-contracts-<uid>`. */
export const defaultCacheDir = () => join(tmpdir(), `bank-api-contracts-${process.getuid?.() ?? "user"}`);

/** The version in the package.json of `name` above its entry point `entry` (exports may hide `<name>/package.json`). */
export function versionAbove(name: string, entry: string): string {
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === name) return `${name}@${pkg.version}`;
    } catch {
      // no package.json here: look further up
    }
  }
  throw new Error(`${name}: no package.json above ${entry}`);
}

let versions: string | null | undefined;
/**
 * The versions of the packages whose code turns a spec into Prism's operations (each resolved as
 * its user resolves it) and of V8; null when one cannot be found (nothing is then cached).
 */
function readerVersions(): string | null {
  if (versions === undefined) {
    try {
      const prism = createRequire(import.meta.url).resolve("@stoplight/prism-http");
      const fromPrism = createRequire(prism);
      const refParser = fromPrism.resolve("@stoplight/json-schema-ref-parser");
      versions = [
        versionAbove("@stoplight/prism-http", prism),
        versionAbove("@stoplight/http-spec", fromPrism.resolve("@stoplight/http-spec")),
        versionAbove("@stoplight/json", fromPrism.resolve("@stoplight/json")),
        versionAbove("@stoplight/json-schema-ref-parser", refParser),
        versionAbove("@stoplight/yaml", createRequire(refParser).resolve("@stoplight/yaml")),
        `v8@${process.versions.v8}`,
      ].join("\n");
    } catch {
      versions = null;
    }
  }
  return versions;
}

/** The cache folder when it is safe to use (a directory of this user, closed to others), else undefined. */
function usableDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    if (process.getuid && (stat.uid !== process.getuid() || (stat.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The operations of the spec at `specPath`: from the cache when it holds them for these bytes and
 * versions, else from `read` (Prism's getHttpOperationsFromSpec), then kept.
 */
export async function cachedOperations<T>(
  specPath: string,
  read: (specPath: string) => Promise<T[]>,
  dir = defaultCacheDir(),
): Promise<T[]> {
  let text: Buffer;
  try {
    text = readFileSync(specPath);
  } catch {
    return read(specPath); // Prism reports the missing file as it always has
  }
  if (EXTERNAL_REF.test(text.toString("utf8"))) return read(specPath);
  const readers = readerVersions();
  const folder = readers === null ? undefined : usableDir(dir);
  if (!folder) return read(specPath);
  const { file, key, value } = readKept(folder, "operations", specPath, readers!, text);
  if (Array.isArray(value)) return value as T[];
  const operations = await read(specPath);
  writeKept(file, serialize({ key, value: operations }));
  return operations;
}

let yamlVersions: string | null | undefined;
/** The versions of the `yaml` package and of V8, which decide what a document's text is read as; null when unknown. */
function documentReaderVersions(): string | null {
  if (yamlVersions === undefined) {
    try {
      yamlVersions = `${versionAbove("yaml", createRequire(import.meta.url).resolve("yaml"))}\nv8@${process.versions.v8}`;
    } catch {
      yamlVersions = null;
    }
  }
  return yamlVersions;
}

/**
 * A document read from its text (`parse`: the YAML parser of src/document), kept between starts as
 * the operations are (`v8.serialize`: the same values, shared alike), for the same text and versions
 * of `yaml` and V8: reading it back costs a fraction of parsing the YAML. The sandbox reads each
 * bundled document on its first request (src/sandbox/start.ts).
 */
export function cachedDocument<T>(specPath: string, text: string, parse: () => T, dir = defaultCacheDir()): T {
  const readers = documentReaderVersions();
  const folder = readers === null ? undefined : usableDir(dir);
  if (!folder) return parse();
  const { file, key, value } = readKept(folder, "document", specPath, readers!, text);
  if (value !== undefined) return value as T;
  const doc = parse();
  writeKept(file, serialize({ key, value: doc }));
  return doc;
}

/**
 * The file in `folder` that keeps what was read from `specPath` (`kind`: operations or document), the
 * key that sums up its text and the readers' versions, and the value kept there under that key
 * (undefined when the file is missing, unreadable or kept for another key).
 */
function readKept(folder: string, kind: string, specPath: string, readers: string, text: string | Buffer) {
  const key = createHash("sha256").update(readers).update("\n").update(text).digest("hex");
  const file = join(folder, `${kind}-${createHash("sha256").update(specPath).digest("hex").slice(0, 32)}.v8`);
  let value: unknown;
  try {
    const kept = deserialize(readFileSync(file)) as { key?: unknown; value?: unknown };
    if (kept.key === key) value = kept.value;
  } catch {
    // missing or unreadable: read the spec again
  }
  return { file, key, value };
}

/** Writes `bytes` to `file` through a temporary file renamed into place; a failure leaves nothing but is ignored. */
function writeKept(file: string, bytes: Uint8Array): void {
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(temporary, bytes, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // left behind: harmless, and only readable by this user
    }
  }
}

/** The file of the mark named `name` (any text: a path, an alias) in the cache folder, when the folder can be used. */
const markFile = (name: string, dir: string) => {
  const folder = usableDir(dir);
  return folder && join(folder, `mark-${createHash("sha256").update(name).digest("hex").slice(0, 32)}`);
};

/**
 * Marks kept between starts, in the same folder and on the same terms: `mark(name, key)` records
 * that a check named `name` passed on what `key` sums up (a hash of every byte the check read and of
 * the code that checked); `marked(name, key)` is then true until the mark is replaced by another key.
 * A folder that cannot be used or trusted keeps no mark: `marked` is then always false.
 */
export function marked(name: string, key: string, dir = defaultCacheDir()): boolean {
  const file = markFile(name, dir);
  if (!file) return false;
  try {
    return readFileSync(file, "utf8") === key;
  } catch {
    return false;
  }
}

/** Records the mark `name` for `key` (see `marked`). */
export function mark(name: string, key: string, dir = defaultCacheDir()): void {
  const file = markFile(name, dir);
  if (file) writeKept(file, Buffer.from(key));
}
