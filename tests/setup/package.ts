/**
 * Vitest global setup of the `package` project (tests/e2e/package/): what every package test of
 * one run shares, whichever files and workers run.
 *
 * - One offline npm registry (`startOfflineRegistry` in tests/helpers/package.ts), serving the
 *   repository's locked packages, for the whole run: the tarball URLs a lockfile of one file's
 *   install names stay valid for every later `npm ci` of the run, and one log of what npm asked.
 * - One scratch folder for the run, outside the repository (npm would take the repository's
 *   package.json for the partner's): the partner project made once from the install guide's lines
 *   (`partnerProject()`) and its lock, and every file's own folders (`scratchFolder()`). In memory
 *   (/dev/shm) when that is a file system with room that runs programs: an install writes tens of
 *   thousands of small files, and on a disk the file system's work was about a third of `npm ci`'s
 *   CPU (the repository's `npm ci`, measured here: 89 s on disk, 58 s in memory); else the system's
 *   temporary directory.
 *
 * Both go at teardown, after every file's own `afterAll`. The files read them with
 * `packageRun()` (vitest's `inject("packageRun")`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startOfflineRegistry } from "../helpers/package.js";

const SHM = "/dev/shm";
/** What the run's installs need at most, with room to spare (the partner's project, two production installs, the quick start's). */
const ROOM = 2 * 1024 ** 3;

/** /dev/shm if it has room and runs what is installed there (npm's bin links), else the system's temporary directory. */
function scratchParent(): string {
  try {
    const { bavail, bsize } = statfsSync(SHM);
    if (bavail * bsize < ROOM) return tmpdir();
    const probe = mkdtempSync(join(SHM, "bank-api-contracts-probe-"));
    try {
      writeFileSync(join(probe, "run"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      return spawnSync(join(probe, "run")).status === 0 ? SHM : tmpdir();
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  } catch {
    return tmpdir();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(scratchParent(), "bank-api-contracts-package-"));
  const registry = await startOfflineRegistry();
  project.provide("packageRun", { registryUrl: registry.url, dir });
  return async () => {
    await registry.close();
    // Not rmSync: the partner's node_modules takes seconds to delete, and vitest's main process is
    // then still stopping the workers.
    await rm(dir, { recursive: true, force: true });
  };
}
