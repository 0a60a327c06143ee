/**
 * The quick tier's guard (tests/setup/no-processes.ts), from inside the quick tier: every way Node
 * starts a process throws SpawnInQuickTier naming the command and the rule, whether the function is
 * reached through the module object or a named import, and no process is started.
 */
import * as childProcess from "node:child_process";
import { exec, execFile, execFileSync, execSync, fork, spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { RULE, SpawnInQuickTier } from "../../setup/no-processes.js";

const marker = `quick-tier-guard-${process.pid}`;

describe("in a quick-tier file", () => {
  it.each([
    ["spawn", () => spawn("echo", [marker])],
    ["execFile", () => execFile("echo", [marker])],
    ["exec", () => exec(`echo ${marker}`)],
    ["fork", () => fork("/dev/null", [marker])],
    ["spawnSync", () => spawnSync("echo", [marker])],
    ["execSync", () => execSync(`echo ${marker}`)],
    ["execFileSync", () => execFileSync("echo", [marker])],
    ["child_process.spawn (the module object)", () => childProcess.spawn("echo", [marker])],
    ["child_process.execFileSync (the module object)", () => childProcess.execFileSync("echo", [marker])],
  ])("%s throws, naming the command and the rule", (_, start) => {
    let error: unknown;
    try {
      start();
    } catch (caught) {
      error = caught;
    }
    // By name: the setup file and this file may each hold their own instance of the module.
    expect((error as Error).name).toBe(SpawnInQuickTier.name);
    expect((error as Error).message).toContain(marker);
    expect((error as Error).message).toContain(RULE);
  });

  it("the rule names the way out: *.spawn.test.ts or tests/e2e/", () => {
    expect(RULE).toContain("*.spawn.test.ts");
    expect(RULE).toContain("tests/e2e/");
  });
});
