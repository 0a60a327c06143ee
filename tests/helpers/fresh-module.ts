/**
 * A new instance of one module of the repository, evaluated when asked for, beside the instance the
 * test files of a worker share (the quick and full projects run with `isolate: false`). What the
 * module computes as it loads then runs in the test that asks, so a mutation tester sees that test
 * cover it. Only that module is evaluated again: its imports stay the shared ones (vi.resetModules
 * would empty the worker's whole registry, and every later file would load Prism again).
 */
import { join } from "node:path";
import { repoRoot } from "../../src/registry.js";

let instances = 0;

/** `path` from the repository's root (`src/mock/limits.ts`), typed by the caller. */
export function freshModule<T>(path: string): Promise<T> {
  return import(/* @vite-ignore */ `${join(repoRoot, path)}?instance=${instances++}`) as Promise<T>;
}
