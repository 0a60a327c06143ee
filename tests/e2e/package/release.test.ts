/**
 * `npm run release` (scripts/release.ts) and what it makes: the release checks, the build and the
 * pack, the tarball's own checks; then `npm publish --dry-run` of that tarball, as CI would publish
 * it, offline. The release runs once per content of the repository, shared with install.test.ts
 * (tests/helpers/package.ts).
 */
import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../scripts/release.js";
import { repoRoot } from "../../../src/registry.js";
import { scriptInProcess } from "../../helpers/cli.js";
import { cleanEnv, exec, type Released, released, scratchFolder } from "../../helpers/package.js";

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const work = scratchFolder("release");
let release: Released;

beforeAll(async () => {
  release = await released();
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm run release", () => {
  it("runs the release checks, builds, packs, checks the tarball, and exits 0 naming it", () => {
    const { code, stdout, stderr } = release.run;
    expect(code, stdout + stderr).toBe(0);
    for (const script of ["check:package", "check:generated", "release:lock", "check:changelog", "build"]) {
      expect(stdout).toMatch(new RegExp(`^  ok  .*npm run ${script}`, "m"));
    }
    for (const check of ["npm pack", "every export and bin target is in it", "publint --strict", "npm publish --dry-run"]) {
      expect(stdout).toMatch(new RegExp(`^  ok  ${check}`, "m"));
    }
    expect(release.filename).toBe(`${manifest.name}-${manifest.version}.tgz`);
    expect(stdout.split("\n")).toContain(`release: ${relative(repoRoot, release.tarball)}`);
    expect(stdout).toMatch(/^ {2}sha512-[A-Za-z0-9+/]+=*$/m);
  });

  // In this process: the release above is the script's run as a process (its exit code included).
  it("a misuse prints one line and the hint, exit 2", async () => {
    const result = await scriptInProcess(main, ["--bogus"]);
    expect(result.stderr).toEqual(["error: unknown option '--bogus'", "(add --help for usage)"]);
    expect(result.stdout).toEqual([]);
    expect(result.code).toBe(2);
  });
});

describe("npm publish --dry-run of the release tarball", () => {
  it("accepts it, for public access, with the licence text and no source in it", async () => {
    const result = await exec("npm", ["publish", release.tarball, "--dry-run", "--offline"], { cwd: work, env: cleanEnv() });
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(0);
    expect(output).toContain(`+ ${manifest.name}@${manifest.version}`);
    expect(output).toMatch(/with tag latest and public access \(dry-run\)/);
    expect(output).toMatch(/\bLICENSE\b/);
    expect(output).not.toMatch(/ (src|scripts|tests)\/\S+\.ts\b/);
  });

  it("is allowed by the manifest: not private, an SPDX licence whose text ships, a repository, provenance asked for", () => {
    // `private: true` makes npm refuse to publish at all.
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe("Apache-2.0");
    expect(readFileSync(join(repoRoot, "LICENSE"), "utf8")).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(manifest.publishConfig).toEqual({ access: "public", provenance: true });
    expect(manifest.keywords.length).toBeGreaterThan(0);
  });
});
