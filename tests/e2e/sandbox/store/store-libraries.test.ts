/**
 * Loading a durable store's module (src/sandbox/store/open.ts `loadStoreModule`): when the store's
 * library, an optional peer dependency, is not installed (Node's ERR_MODULE_NOT_FOUND naming it),
 * the error names the store and the line that installs the library at the version package.json
 * pins; any other failure (another package missing, a library that is there but fails to load)
 * reaches the caller as it is. `STORE_LIBRARIES` names, for each store, the library its module
 * imports, an optional peer dependency pinned in package.json.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../../src/registry.js";
import type * as OpenModule from "../../../../src/sandbox/store/open.js";
import { loadStoreModule } from "../../../../src/sandbox/store/open.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const peers = pkg.peerDependencies;

/** The error Node's loader gives for a package it cannot find. */
const notFound = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from ${join(repoRoot, "src/sandbox/store/file.ts")}`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
const failing = (error: Error) => () => Promise.reject(error);

describe("loadStoreModule", () => {
  it("gives the module when it loads", async () => {
    const module = { FileBackend: class {} };
    expect(await loadStoreModule(() => Promise.resolve(module), "lmdb", "file:/srv/sandbox")).toBe(module);
  });

  it("names the store and the line that installs its missing library, at the version package.json pins", async () => {
    for (const [library, address] of [
      ["lmdb", "file:/srv/sandbox"],
      ["pg", "postgres://sandbox:***@db/sandbox"],
    ] as const) {
      await expect(loadStoreModule(failing(notFound(library)), library, address)).rejects.toThrow(
        new Error(
          `${address}: this store needs ${library} (an optional peer dependency of bank-api-contracts), which is not installed: npm install --save-dev ${library}@${peers[library]}`,
        ),
      );
    }
    expect([peers.lmdb, peers.pg].every((version) => /^\d+\.\d+\.\d+$/.test(version))).toBe(true);
  });

  it("passes on as it is any other failure: another package missing, or the library there but failing to load", async () => {
    const otherPackage = notFound("msgpackr");
    const broken = Object.assign(new Error("The module 'lmdb' could not load its native binding"), { code: "ERR_DLOPEN_FAILED" });
    const plain = new Error("'lmdb' failed");
    for (const error of [otherPackage, broken, plain]) {
      await expect(loadStoreModule(failing(error), "lmdb", "file:/srv/sandbox")).rejects.toBe(error);
    }
  });
});

describe("STORE_LIBRARIES, from a module loaded anew", () => {
  it("names for each durable store the library its module imports, an optional peer dependency pinned in package.json", async () => {
    const { STORE_LIBRARIES } = await freshModule<typeof OpenModule>("src/sandbox/store/open.ts");
    expect(Object.keys(STORE_LIBRARIES).toSorted()).toEqual(["file", "postgres"]);
    for (const [kind, library] of Object.entries(STORE_LIBRARIES)) {
      const source = readFileSync(join(repoRoot, "src/sandbox/store", `${kind}.ts`), "utf8");
      expect(source, `src/sandbox/store/${kind}.ts imports ${library}`).toMatch(new RegExp(`\\bfrom "${library}";`));
      expect(peers[library], `${library}'s pinned version`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(pkg.peerDependenciesMeta[library]?.optional, `${library} optional`).toBe(true);
    }
  });
});
