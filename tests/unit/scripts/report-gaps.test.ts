/**
 * The gap report (`npm run report:gaps`): counts every x-unspecified per API, and the README's status
 * table carries the same counts, so a count only changes with a README change someone reviews.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { collectRegistryGaps } from "../../../scripts/lib/gaps.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { currentStatus, README, readmeWithStatus } from "../../../scripts/report-gaps.js";

const run = promisify(execFile);
const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
const script = join(repoRoot, "scripts", "report-gaps.ts");

describe("report:gaps", () => {
  it("the README status table is current (run `npm run report:gaps -- --write-readme` after a spec change)", () => {
    const readme = readFileSync(README, "utf8");
    expect(readmeWithStatus(readme, currentStatus().table)).toBe(readme);
  });

  it("the table has one row per registered API with its gap count, and the total", () => {
    const entries = loadRegistry();
    const gaps = collectRegistryGaps(entries);
    const { table } = currentStatus(entries);
    for (const api of gaps) {
      expect(table).toMatch(
        new RegExp(`^\\| \`${api.alias.replace(/[.@]/g, "\\$&")}\` \\|.*\\| ${api.gaps.length} \\| http://127\\.0\\.0\\.1:\\d+ \\|$`, "m"),
      );
    }
    const total = gaps.reduce((n, g) => n + g.gaps.length, 0);
    expect(total).toBeGreaterThan(0);
    expect(table).toContain(`| **${total}** |`);
  });

  it("prints the count per API and the total; --list names each entry; misuse exits 2", async () => {
    const gaps = collectRegistryGaps(loadRegistry());
    const { stdout } = await run(tsx, [script, "--list", gaps[0].alias]);
    expect(stdout).toMatch(new RegExp(`^${gaps[0].alias.replace(/[.@]/g, "\\$&")}\\s+${gaps[0].gaps.length}$`, "m"));
    expect(stdout).toContain(`  ${gaps[0].gaps[0].where}: ${gaps[0].gaps[0].text}`);
    expect(stdout).toMatch(new RegExp(`^total\\s+${gaps[0].gaps.length}$`, "m"));
    const misuse = await run(tsx, [script, "--bogus"]).catch((e) => e);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain("Usage: report:gaps");
    const unknown = await run(tsx, [script, "nope@1.0.0"]).catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      `known: ${loadRegistry()
        .map((e) => e.alias)
        .join(", ")}`,
    );
  }, 30_000);
});
