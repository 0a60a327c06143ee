/**
 * Vitest global setup of the `package` project (tests/e2e/package/): what every package test of
 * one run shares, whichever files and workers run.
 *
 * - One offline npm registry (`startOfflineRegistry` in tests/helpers/package.ts), serving the
 *   repository's locked packages, for the whole run: the tarball URLs a lockfile of one file's
 *   install names stay valid for every later `npm ci` of the run, and one log of what npm asked.
 * - One scratch folder for the run, outside the repository (npm would take the repository's
 *   package.json for the partner's): the partner project made once from the install guide's lines
 *   (`partnerProject()`) and its lock live there.
 *
 * Both go at teardown, after every file's own `afterAll`. The files read them with
 * `packageRun()` (vitest's `inject("packageRun")`).
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startOfflineRegistry } from "../helpers/package.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-package-"));
  const registry = await startOfflineRegistry();
  project.provide("packageRun", { registryUrl: registry.url, dir });
  return async () => {
    await registry.close();
    // Not rmSync: the partner's node_modules takes seconds to delete, and vitest's main process is
    // then still stopping the workers.
    await rm(dir, { recursive: true, force: true });
  };
}
