/**
 * Every module under scripts/ (lib/ aside) is in the table of entry-points.ts (that importing each
 * runs nothing is entry-points.spawn.test.ts, in a process of its own). Every command-line script
 * reads its arguments the one way (scripts/lib/cli.ts): `--help` prints commander's usage and exits
 * 0; a misuse prints one error line and the hint, and exits 2.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { scriptInProcess as run } from "../../helpers/cli.js";
import { commandLines, entries, probed, SCRIPTS } from "./entry-points.js";

it("the table lists every module under scripts/ outside lib/", () => {
  const onDisk = readdirSync(join(repoRoot, "scripts"), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => relative(repoRoot, join(d.parentPath, d.name)))
    .filter((file) => !file.startsWith("scripts/lib/"))
    .sort();
  expect(Object.keys(SCRIPTS).sort()).toEqual(onDisk);
  expect(entries).toHaveLength(30);
  expect(probed).toHaveLength(30);
  expect(commandLines).toHaveLength(18);
});

describe.each(commandLines)("%s", (_, { name, main, forwardsUnknownOptions }) => {
  it("--help prints the usage on stdout and exits 0", async () => {
    const result = await run(await main(), ["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout.join("\n")).toMatch(new RegExp(`^Usage: ${name} `));
    expect(result.stderr).toEqual([]);
  });

  if (forwardsUnknownOptions) return;
  it("an unknown option prints one error line and the hint, and exits 2", async () => {
    const result = await run(await main(), ["--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toEqual(["error: unknown option '--bogus'", "(add --help for usage)"]);
  });
});
