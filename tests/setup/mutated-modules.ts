/**
 * StrykerJS's vitest setup (stryker.vitest.config.ts): every module of the mutated folders loads
 * before the first test, so the code at a module's top (a constant table, a regular expression, an
 * arrow bound to a name) runs outside any test. StrykerJS counts what runs there as static and
 * ignores it (`ignoreStatic`, decision 16). Without it, a module first loaded by a test (the sandbox
 * loads its engine on the first request) had its top-level mutants counted as covered by that one
 * test: in a runner that keeps its modules between mutants, they can never be switched on, and they
 * read as survivors no test could kill.
 *
 * `judge-worker.ts` is a worker thread's entry: loaded on the main thread it would wait for messages
 * that never come.
 */
import { readdirSync } from "node:fs";

const FOLDERS = ["mock", "sandbox", "client"];
const ENTRY_OF_A_WORKER = "mock/judge-worker.ts";
const src = new URL("../../src/", import.meta.url);

await Promise.all(
  FOLDERS.flatMap((folder) =>
    readdirSync(new URL(`${folder}/`, src), { recursive: true, encoding: "utf8" })
      .map((file) => `${folder}/${file.replaceAll("\\", "/")}`)
      .filter((file) => file.endsWith(".ts") && file !== ENTRY_OF_A_WORKER)
      .map((file) => import(new URL(file, src).href)),
  ),
);
