/**
 * Copies the generator fixture (tests/fixtures/generate: a small registry of three APIs) to a fresh
 * folder under .tmp/ and runs the generator there, so tests never touch the repository's generated/.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { vi } from "vitest";
import { main } from "../../../scripts/generate.js";
import { repoRoot } from "../../../src/registry.js";

export const fixtureDir = join(repoRoot, "tests/fixtures/generate");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the generator in this process, capturing what it prints. */
export async function runGenerate(args: string[]): Promise<RunResult> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  try {
    const code = await main(args);
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

export interface Fixture {
  dir: string;
  config: string;
  /** Imports a generated file of the fixture, e.g. `load("shop/1.1.0/client.ts")`. */
  load<T = Record<string, any>>(file: string): Promise<T>;
  remove(): void;
}

export async function generateFixture(): Promise<Fixture> {
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
  const dir = mkdtempSync(join(repoRoot, ".tmp", "generate-"));
  cpSync(fixtureDir, dir, { recursive: true });
  const config = join(dir, "redocly.yaml");
  const result = await runGenerate(["--config", config]);
  if (result.code !== 0) throw new Error(`generating the fixture failed:\n${result.stderr}`);
  return {
    dir,
    config,
    load: (file) => import(pathToFileURL(join(dir, "generated", file)).href),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
