/**
 * Vitest global setup (every project): creates `.tmp/`, the git-ignored scratch folder inside the
 * repository that tests make their folders in (`mkdtempSync(join(repoRoot, ".tmp", ...))`, where
 * the repository's node_modules resolve). A fresh clone has none, so a test file run alone would
 * otherwise fail with ENOENT.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../src/registry.js";

export default function setup(): void {
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
}
