/**
 * Every module under scripts/ (lib/ aside, the table in entry-points.ts) can be imported by a test
 * without running: importing it writes nothing to stdout or stderr, sets no exit code, writes no
 * file, starts no process and leaves no handle open (tests/unit/scripts/import-probe.ts looks, in
 * a process of its own; a canary module that does each of these shows it sees them).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { probed } from "./entry-points.js";
import type { ImportEffects } from "./import-probe.js";

describe("importing a module of scripts/", () => {
  const canary = "tests/fixtures/import-probe/runs-on-import.ts";
  let effects: Map<string, ImportEffects>;

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "tests/unit/scripts/import-probe.ts", ...probed, canary],
      // tsx's disk cache would write under the system's temporary directory (a refused effect).
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, TSX_DISABLE_CACHE: "1" } },
    );
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(probed.length + 1);
    effects = new Map(lines.map((line) => JSON.parse(line) as ImportEffects).map((e) => [e.module, e]));
  });

  it("the probe sees a module that runs at import", () => {
    const seen = effects.get(canary)!;
    expect(seen.output).toEqual(["stdout: running at import\n", "stderr: an unawaited main, a turn later\n"]);
    expect(seen.exitCode).toBe(3);
    expect(seen.tried).toEqual([
      `child_process.spawn(${process.execPath})`,
      expect.stringMatching(/^fs\.writeFileSync\(.*import-probe-never-written\.txt\)$/),
    ]);
    expect(seen.handles).toEqual(["TCPServerWrap"]);
    expect(seen.error).toMatch(/fs\.writeFileSync\(.*\) refused/);
  });

  it.each(probed)("%s runs nothing", (file) => {
    expect(effects.get(file)).toEqual({ module: file, output: [], tried: [], handles: [] });
  });
});
