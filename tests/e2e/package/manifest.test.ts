/**
 * package.json against the registry and the sources, without building: the exports map, bin and
 * files are what scripts/build.ts derives from redocly.yaml (run `npm run build` when this fails),
 * every subpath leads to a source that exists, and the shipped code imports nothing that a partner
 * would not get: the client entries only openapi-fetch, everything else dependencies, optional
 * peers or Node's own modules.
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { manifestFields, staleFields } from "../../../scripts/build.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
const registry = loadRegistry();

describe("package.json", () => {
  it("holds the exports, bin and files the registry gives (else: npm run build, and commit package.json)", () => {
    expect(staleFields(manifest, registry)).toEqual([]);
  });

  it("exports every API release, each service's newest release, and each bundled spec", () => {
    for (const entry of registry) {
      expect(manifest.exports[`./${entry.service}/${entry.release}`]).toEqual({
        types: `./dist/generated/${entry.service}/${entry.release}/client.d.ts`,
        default: `./dist/generated/${entry.service}/${entry.release}/client.js`,
      });
      expect(manifest.exports[`./specs/${entry.service}/${entry.release}/openapi.yaml`]).toBe(
        `./generated/${entry.service}/${entry.release}/openapi.yaml`,
      );
      if (entry.latest) expect(manifest.exports[`./${entry.service}`]).toEqual(manifest.exports[`./${entry.service}/${entry.release}`]);
    }
  });

  it("points every export at a file the build makes from an existing source, or at a shipped file", () => {
    const targets = Object.values(manifest.exports as Record<string, string | Record<string, string>>).flatMap((t) =>
      typeof t === "string" ? [t] : Object.values(t),
    );
    for (const target of [...targets, manifest.main, manifest.types, ...Object.values(manifest.bin as Record<string, string>)]) {
      const source = target.replace(/^\.?\/?dist\//, "").replace(/\.d\.ts$|\.js$/, ".ts");
      expect(existsSync(join(repoRoot, source)), `${target} (from ${source})`).toBe(true);
    }
  });

  it("refuses a service whose name is one of the package's own subpaths", () => {
    const [first] = registry;
    expect(() => manifestFields([{ ...first, alias: "testing@1.0.0", service: "testing" }])).toThrow(
      'the service name "testing" would shadow',
    );
  });
});

/** Bare module specifiers imported (statically, dynamically or by require) by `entry` and what it imports, transitively. */
function bareImports(entries: string[]): Map<string, string> {
  const found = new Map<string, string>(); // package -> first file importing it
  const seen = new Set<string>();
  const queue = entries.map((e) => resolve(repoRoot, e));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (fileName.startsWith(".")) {
        queue.push(resolve(dirname(file), fileName.replace(/\.js$/, ".ts")));
      } else {
        const name = fileName.startsWith("@") ? fileName.split("/").slice(0, 2).join("/") : fileName.split("/")[0];
        if (!found.has(name)) found.set(name, file.slice(repoRoot.length + 1));
      }
    }
  }
  return found;
}

const isBuiltin = (name: string) => name.startsWith("node:") || builtinModules.includes(name);

describe("what the shipped code imports", () => {
  it("the client entries (the runtime and every generated client) import only openapi-fetch", () => {
    const clients = registry.map((e) => `${e.generatedDir}/client.ts`);
    const imports = [...bareImports(["src/client/index.ts", ...clients]).keys()];
    expect(imports).toEqual(["openapi-fetch"]);
  });

  it("everything else imports only dependencies, optional peer dependencies and Node's modules", () => {
    const allowed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies ?? {})]);
    const imports = bareImports(["src/testing/index.ts", "src/cli/bin.ts", "src/callbacks/index.ts"]);
    const undeclared = [...imports]
      .filter(([name]) => !isBuiltin(name) && !allowed.has(name))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared).toEqual([]);
  });

  it("declares Prism, Ajv and Redocly as optional peers, so that a client-only install leaves them out", () => {
    for (const name of [
      "@stoplight/prism-http",
      "@stoplight/prism-http-server",
      "@stoplight/prism-core",
      "ajv",
      "ajv-formats",
      "@redocly/cli",
    ]) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
    }
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["commander", "openapi-fetch", "yaml"]);
  });

  it("pins the optional peers to the versions the repository tests with", () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8"));
    for (const [name, range] of Object.entries(manifest.peerDependencies as Record<string, string>)) {
      const installed = lock.packages[`node_modules/${name}`]?.version;
      expect(installed, name).toBeDefined();
      if (/^\d/.test(range)) expect(installed, name).toBe(range);
    }
  });
});
