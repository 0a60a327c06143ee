/**
 * The declaration check at a sandbox's start (src/sandbox/start.ts `checkDeclaration`) when the
 * declaration cannot be read: only a missing file means "no declaration" (the sandbox then keeps no
 * resources); any other failure to read it fails the start with an error naming the file and the
 * system's reason (EISDIR, EACCES...) rather than starting a sandbox without the declaration it was
 * given.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { checkDeclaration } from "../../../../src/sandbox/start.js";

const [shop] = loadRegistry(join(repoRoot, "tests/fixtures/mock/redocly.yaml"));
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-start-check-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("checkDeclaration of a declaration that cannot be read", () => {
  it("is undefined for a missing file", async () => {
    expect(await checkDeclaration(join(work, "none.sandbox.yaml"), shop.bundlePath, work)).toBeUndefined();
  });

  it("fails naming the file and the system's reason for a path that is a directory", async () => {
    let failure: NodeJS.ErrnoException | undefined;
    try {
      await checkDeclaration(work, shop.bundlePath, work);
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
    expect(failure?.code).toBe("EISDIR");
    expect(failure?.message).toBe(`${work}: the sandbox declaration cannot be read (EISDIR: illegal operation on a directory, read)`);
  });
});
