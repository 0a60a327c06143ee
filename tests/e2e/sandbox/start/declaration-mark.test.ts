/**
 * The mark that remembers a declaration's check (src/sandbox/start.ts `checkDeclaration`): kept only
 * for the exact bytes checked, the checking code's among them. When a file of the checking code
 * cannot be read (an installation missing one), there is nothing to sum the code up with, so nothing
 * is remembered and every start checks the declaration again. A declaration that cannot be read
 * fails with the system's error as its cause.
 *
 * The hash of the checking code is computed once per module instance: each test imports a fresh
 * instance of start.ts (a query of its own), so that the code summing it up runs in the test.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { bytesHash, checkDeclaration } from "../../../../src/sandbox/start.js";

type Start = typeof import("../../../../src/sandbox/start.js");

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const declaration = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-declaration-mark-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let made = 0;
/** A new cache folder. */
const cache = () => {
  const dir = join(work, `cache-${made++}`);
  mkdirSync(dir, { mode: 0o700 }); // a cache folder only its owner can read, as the cache requires
  return dir;
};
/** The marks kept in a cache folder (it also keeps the parsed documents). */
const marks = (dir: string) => readdirSync(dir).filter((file) => file.startsWith("mark-"));
/** A new instance of start.ts: its checking code's hash not computed yet. */
const freshStart = async (): Promise<Start> =>
  import(/* @vite-ignore */ new URL(`../../../../src/sandbox/start.ts?instance=${randomUUID()}`, import.meta.url).href);

describe("a declaration that passed its check", () => {
  it("is remembered for the declaration's bytes, the document's and the checking code's", async () => {
    const start = await freshStart();
    const dir = cache();
    const passed = await start.checkDeclaration(declaration, shop.bundlePath, dir);
    expect(passed).toEqual({
      declaration: bytesHash(readFileSync(declaration)),
      document: bytesHash(readFileSync(shop.bundlePath)),
    });
    expect(marks(dir)).toHaveLength(1);
    // What the mark holds sums up the three: the code's hash beside the two files'.
    const [code, ...files] = readFileSync(join(dir, marks(dir)[0]), "utf8").split("\n");
    expect(files).toEqual([passed!.declaration, passed!.document]);
    expect(code).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is not remembered when a file of the checking code cannot be read: each start checks it again", async () => {
    const start = await freshStart();
    start.CHECKER_MODULES.push("./no-such-module");
    const dir = cache();
    for (let check = 0; check < 2; check++) {
      expect(await start.checkDeclaration(declaration, shop.bundlePath, dir)).toEqual({
        declaration: bytesHash(readFileSync(declaration)),
        document: bytesHash(readFileSync(shop.bundlePath)),
      });
      expect(marks(dir)).toEqual([]);
    }
  });
});

describe("a declaration that cannot be read", () => {
  it("fails with the system's error as its cause", async () => {
    let failure: (Error & { code?: string }) | undefined;
    try {
      await checkDeclaration(work, shop.bundlePath, cache());
    } catch (error) {
      failure = error as Error & { code?: string };
    }
    expect(failure?.code).toBe("EISDIR");
    expect((failure?.cause as NodeJS.ErrnoException | undefined)?.code).toBe("EISDIR");
    expect((failure?.cause as Error | undefined)?.message).toBe("EISDIR: illegal operation on a directory, read");
  });
});
