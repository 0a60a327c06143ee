/**
 * The lint configuration: Spectral extends the OWASP API security ruleset, and every rule turned off
 * (in .spectral.yaml, at the top or in an override, and in redocly.yaml) carries a stated reason, a
 * comment right above it or above the run of `off` lines it belongs to.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "../../../src/registry.js";

/** `file:line rule` of each `<rule>: off` line with no comment above it or its run of off lines. */
function unjustified(file: string, text = readFileSync(join(repoRoot, file), "utf8")): string[] {
  const lines = text.split("\n");
  const missing: string[] = [];
  lines.forEach((line, i) => {
    const off = /^\s*([\w:.-]+):\s*off\b/.exec(line);
    if (!off) return;
    let j = i - 1;
    // Walk up over the other off lines of the same run and the `rules:`/`files:` lines of an override.
    while (
      j >= 0 &&
      (/^\s*[\w:.-]+:\s*off\b/.test(lines[j]) ||
        /^\s*(rules|files):\s*$/.test(lines[j]) ||
        /^\s*- "/.test(lines[j]) ||
        /^\s*- files:\s*$/.test(lines[j]))
    )
      j--;
    const comment = /^\s*#/.test(lines[j] ?? "") || /#\s*\S/.test(line);
    if (!comment) missing.push(`${file}:${i + 1} ${off[1]}`);
  });
  return missing;
}

describe("lint configuration", () => {
  it("Spectral extends the OWASP API Security Top 10 ruleset from node_modules", () => {
    const config = parse(readFileSync(join(repoRoot, ".spectral.yaml"), "utf8"));
    expect(config.extends).toContain("@stoplight/spectral-owasp-ruleset");
  });

  it.each([".spectral.yaml", "redocly.yaml"])("every rule %s turns off has a stated reason", (file) => {
    expect(unjustified(file)).toEqual([]);
  });

  it("the check finds an off rule without a reason", () => {
    const text =
      'rules:\n  # reason\n  a: off\n  b: off\n\noverrides:\n  - files:\n      - "x"\n    rules:\n      c: off\n      d: off # inline reason\n';
    expect(unjustified("fixture.yaml", text)).toEqual(["fixture.yaml:10 c"]);
  });
});
