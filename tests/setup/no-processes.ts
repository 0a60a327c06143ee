/**
 * The quick tier's guard (vitest.config.ts, project `quick`): in its files, starting a child process
 * (a CLI, npm, npx, a shell, a browser) throws, naming the command and the rule. A test that needs
 * one is named `*.spawn.test.ts` (or lives in tests/e2e/) and runs in `npm test` only.
 *
 * Every way Node starts a process ends in `ChildProcess.prototype.spawn` (spawn, exec, execFile,
 * fork) or in the module's `spawnSync` (spawnSync, execSync, execFileSync): both are replaced, and
 * the ES module bindings of node:child_process are synced with them.
 */
import childProcess, { ChildProcess } from "node:child_process";
import { syncBuiltinESMExports } from "node:module";

export const RULE =
  "the quick tier starts no process: name the test file *.spawn.test.ts (or put it under tests/e2e/) so it runs in `npm test` only (tests/README.md)";

export class SpawnInQuickTier extends Error {
  constructor(command: string) {
    super(`started \`${command}\` in a quick-tier test file; ${RULE}`);
    this.name = "SpawnInQuickTier";
  }
}

const describeCommand = (file: unknown, args: unknown) => [file, ...(Array.isArray(args) ? args : [])].map(String).join(" ").slice(0, 200);

const GUARDED = "__quickTierGuard";
const cp = childProcess as unknown as Record<string, unknown>;
if (!cp[GUARDED]) {
  cp[GUARDED] = true;
  // Not in Node's typings: the method spawn, exec, execFile and fork call on the ChildProcess they make.
  (ChildProcess.prototype as unknown as { spawn: (options: { file?: string; args?: string[] }) => never }).spawn = (options) => {
    throw new SpawnInQuickTier(describeCommand(options?.file, options?.args?.slice(1)));
  };
  for (const name of ["spawnSync", "execSync", "execFileSync"] as const) {
    cp[name] = (file: unknown, args: unknown) => {
      throw new SpawnInQuickTier(describeCommand(file, args));
    };
  }
  syncBuiltinESMExports();
}
