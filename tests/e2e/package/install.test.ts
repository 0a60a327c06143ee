/**
 * The install guide's lines (docs/guides/installing.md, the README's "Install"), followed as a
 * partner follows them: the release tarball (`npm run release`) in an empty folder, then each line
 * run as written (`sh -c <line>`), against the run's offline registry that serves the repository's
 * locked packages (tests/helpers/package.ts). That project is made once per run
 * (`partnerProject()`, shared with consumer.test.ts); this file checks how the lines ran and what
 * they left: the package is a dependency and the test tools are devDependencies (npm moved
 * nothing), a production install keeps the clients, and `npx bank-api-contracts workflows run`
 * works with what the lines installed (and, in the copy taken between the lines, names what it
 * still needs).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import {
  exec,
  installLines,
  ok,
  type PartnerProject,
  packageRun,
  partnerEnv,
  partnerProject,
  type Result,
  registrySeen,
  scratchFolder,
} from "../../helpers/package.js";

/** Top-level package names in a node_modules folder (scopes expanded). */
function topLevel(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(nodeModules, name)).map((sub) => `${name}/${sub}`) : [name]))
    .sort();
}

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const SLOW = 300_000;
const lines = installLines();

const work = scratchFolder("install");
let partner: PartnerProject;
let project = "";
let beforeTestTools: Result | undefined;

/** README's `npx bank-api-contracts workflows run pay@1.3.0`, in a folder of the partner's. */
const workflowsRun = (cwd: string) =>
  exec("npx", ["bank-api-contracts", "workflows", "run", "pay@1.3.0"], { cwd, env: partnerEnv(), timeoutMs: SLOW });

beforeAll(async () => {
  partner = await partnerProject();
  ok(partner.release.run, "npm run release");
  project = partner.dir;
  // Between the two lines (the copy taken then): the clients are installed, the test tools are not yet.
  if (partner.runs[0]?.result.code === 0) beforeTestTools = await workflowsRun(partner.clientOnly);
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("README's install lines, run as written in an empty folder holding the release tarball", () => {
  it("are two lines: the tarball `npm run release` makes, then the test tools without the package", () => {
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`npm install ./${partner.release.filename}`);
    expect(lines[1]).toMatch(/^npm install --save-dev /);
    expect(lines[1]).not.toContain("bank-api-contracts");
  });

  it("each exits 0, and npm moves nothing between dependencies and devDependencies", () => {
    expect(partner.runs.map((r) => r.line)).toEqual(lines);
    for (const { line, result } of partner.runs) {
      expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stderr, line).not.toMatch(/Removing dependencies|in favor of devDependencies/);
    }
  });

  it("leaves the package in dependencies (the tarball) and every optional peer a partner's tests use in devDependencies", () => {
    const installed = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(installed.dependencies).toEqual({ "bank-api-contracts": `file:${partner.release.filename}` });
    // Hosted mode's peers are the provider's, who runs the sandbox for its partners, and the durable
    // stores' are whoever keeps a sandbox's state between runs (docs/guides/sandbox-state.md names the
    // line): neither is in a partner's test install.
    const notForTests = ["pino", "prom-client", "rate-limiter-flexible", "lmdb", "pg"];
    expect(Object.keys(installed.devDependencies).sort()).toEqual(
      Object.keys(manifest.peerDependencies)
        .filter((name) => !notForTests.includes(name))
        .sort(),
    );
  });

  it(
    "npm ls finds no missing or invalid dependency (the peers satisfy the ranges the package declares)",
    async () => {
      const result = await exec("npm", ["ls"], { cwd: project, env: partnerEnv() });
      expect(result.stdout).toContain(`bank-api-contracts@${manifest.version}`);
      expect(result.code, result.stdout + result.stderr).toBe(0);
    },
    SLOW,
  );

  it(
    "a production install keeps the package: npm ci --omit=dev installs it, --omit=optional too leaves the test tools out",
    async () => {
      // `npm ci` from the project's lockfile, as a partner's CI installs: each needs a folder of its
      // own (it deletes node_modules first), so these two installs stay. Independent: side by side.
      const omits = [["--omit=dev"], ["--omit=dev", "--omit=optional"]];
      const installs: Record<string, string[]> = {};
      await Promise.all(
        omits.map(async (omit) => {
          const production = join(work, `production${omit.length}`);
          mkdirSync(production);
          for (const file of ["package.json", "package-lock.json", partner.release.filename])
            copyFileSync(join(project, file), join(production, file));
          ok(await exec("npm", ["ci", ...omit], { cwd: production, env: partnerEnv(), timeoutMs: SLOW }), `npm ci ${omit.join(" ")}`);
          installs[omit.join(" ")] = topLevel(join(production, "node_modules"));
        }),
      );
      // Without --omit=optional npm installs the optional peers as well (it marks them devOptional).
      expect(installs["--omit=dev"]).toEqual(expect.arrayContaining(["bank-api-contracts", ...Object.keys(manifest.dependencies)]));
      expect(installs["--omit=dev --omit=optional"]).toEqual(
        ["bank-api-contracts", ...Object.keys(manifest.dependencies), "openapi-typescript-helpers"].sort(),
      );
    },
    SLOW,
  );

  it(
    "then README's `npx bank-api-contracts workflows run pay@1.3.0` passes every workflow against the mock",
    async () => {
      const result = await workflowsRun(project);
      expect(result.stdout, `${result.stdout}\n${result.stderr}`).toMatch(/^pay@1\.3\.0: (\d+) of \1 workflow\(s\) passed/m);
      expect(result.code).toBe(0);
    },
    SLOW,
  );

  it("before the test tools, `workflows run` exits 1 naming what it needs and the line that installs it", () => {
    expect(beforeTestTools).toBeDefined();
    const { code, stderr } = beforeTestTools!;
    const needed = ["@stoplight/prism-http", "@stoplight/prism-http-server", "@stoplight/prism-core", "@redocly/cli"];
    const line = `npm install --save-dev ${needed.map((name) => `${name}@${manifest.peerDependencies[name]}`).join(" ")}`;
    expect(stderr).toContain(`workflows run needs ${needed.join(", ")} (optional peer dependencies of bank-api-contracts)`);
    expect(stderr).toContain(`\n  ${line}\n`);
    expect(code).toBe(1);
  });

  it("asked the offline registry only for what the repository's lock holds (and for optional peers it need not install)", async () => {
    // The run's one registry: what every package test's npm asked it so far, the lines' installs included.
    const seen = await registrySeen(packageRun().registryUrl);
    expect(seen.requests).toBeGreaterThan(0);
    const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as {
      packages: Record<string, { peerDependenciesMeta?: Record<string, { optional?: boolean }> }>;
    };
    const optionalPeers = new Set(
      Object.values(lock.packages).flatMap((p) =>
        Object.keys(p.peerDependenciesMeta ?? {}).filter((n) => p.peerDependenciesMeta![n].optional),
      ),
    );
    expect(seen.misses.filter((miss) => !optionalPeers.has(miss.replace(/^GET \//, "")))).toEqual([]);
  });
});
