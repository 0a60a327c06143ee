/**
 * src/mock/operations-cache.ts trusts a cache folder only when this process's user owns it: a folder
 * of another user, even closed to everyone else (mode 0700), keeps no mark and no kept reading (its
 * owner could put there what the mock would read back). Another owner is stood in for by the user id
 * the process reports (process.getuid), so the test needs no second account.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { mark, marked } from "../../../../src/mock/operations-cache.js";

const work = mkdtempSync(join(tmpdir(), "operations-cache-owner-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

it.skipIf(typeof process.getuid !== "function")("keeps no mark in a closed folder of another user, and one in its own", () => {
  const mine = join(work, "mine");
  const theirs = join(work, "theirs");
  mkdirSync(mine, { mode: 0o700 });
  mkdirSync(theirs, { mode: 0o700 });
  mark("check", "key-1", mine);
  expect(marked("check", "key-1", mine)).toBe(true);

  const owner = process.getuid!();
  vi.spyOn(process, "getuid").mockReturnValue(owner + 1);
  mark("check", "key-1", theirs);
  expect(readdirSync(theirs)).toEqual([]);
  expect(marked("check", "key-1", mine)).toBe(false);
});
