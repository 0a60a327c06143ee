/**
 * `npm run report:gaps` as a process: the count per API and the total, `--list`, misuse exit 2.
 * The report's content and the README's table are tested in report-gaps.test.ts.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { collectRegistryGaps } from "../../../scripts/lib/gaps.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";

const run = promisify(execFile);
const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
const script = join(repoRoot, "scripts", "report-gaps.ts");

describe("report:gaps", () => {
  it("prints the count per API and the total; --list names each entry; misuse exits 2", async () => {
    const gaps = collectRegistryGaps(loadRegistry());
    const { stdout } = await run(tsx, [script, "--list", gaps[0].alias]);
    expect(stdout).toMatch(new RegExp(`^${gaps[0].alias.replace(/[.@]/g, "\\$&")}\\s+${gaps[0].gaps.length}$`, "m"));
    expect(stdout).toContain(`  ${gaps[0].gaps[0].where}: ${gaps[0].gaps[0].text}`);
    expect(stdout).toMatch(new RegExp(`^total\\s+${gaps[0].gaps.length}$`, "m"));
    const misuse = await run(tsx, [script, "--bogus"]).catch((e) => e);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toBe("error: unknown option '--bogus'\n(add --help for usage)\n");
    const unknown = await run(tsx, [script, "nope@1.0.0"]).catch((e) => e);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `error: unknown API "nope@1.0.0"; known: ${loadRegistry()
        .map((e) => e.alias)
        .join(", ")}\n(add --help for usage)\n`,
    );
  });
});
