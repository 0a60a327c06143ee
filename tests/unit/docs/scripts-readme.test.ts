/**
 * scripts/README.md lists every script: each npm script of package.json and each file under
 * scripts/ (a folder of modules may be named as a whole, `lib/fuzz/`), so that a new one is not
 * left out of it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";

const readme = readFileSync(join(repoRoot, "scripts/README.md"), "utf8");
/** Every `code span` of the README. */
const named = new Set([...readme.matchAll(/`([^`]+)`/g)].map((m) => m[1]));

it("names every npm script of package.json", () => {
  const scripts = Object.keys(JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts as Record<string, string>);
  expect(scripts.length).toBeGreaterThan(30);
  expect(scripts.filter((name) => !named.has(name))).toEqual([]);
});

it("names every file under scripts/, or its folder", () => {
  const files = readdirSync(join(repoRoot, "scripts"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  expect(files.length).toBeGreaterThan(30);
  const missing = files.filter((file) => {
    const folders = file
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => `${parts.slice(0, i + 1).join("/")}/`);
    return !named.has(file) && !folders.some((folder) => named.has(folder)) && ![...named].some((span) => span.split(", ").includes(file));
  });
  expect(missing).toEqual([]);
});
