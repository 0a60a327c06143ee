/**
 * The definitions the sandbox's start modules make when they load, each module loaded as a new
 * instance by the test (tests/helpers/fresh-module.ts) and its exports called:
 *
 * - src/sandbox/index.ts `createSandbox` and src/sandbox/start.ts `startSandbox`: their
 *   `mayIntercept` asks the control API about a target naming `_sandbox` however it is written (a
 *   backslash for its slash), and passes an API's own path straight on (src/sandbox/README.md).
 * - src/sandbox/start.ts `CHECKER_MODULES`: the code whose bytes decide whether a declaration is
 *   checked again names ./declaration.ts, every module of the sandbox it imports, and start.ts itself;
 *   `CHECKER_PACKAGES`, whose versions decide too, every package those modules import.
 * - src/sandbox/values.ts `isPlainObject`: true for an object that is neither a list nor an Instant.
 * - src/sandbox/scheduler.ts: a due time beyond setTimeout's range (2^31 - 1 ms, Node's timers
 *   documentation: a longer delay runs after 1 ms) is waited for in steps of exactly that bound.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { dirname, join, posix } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Doc } from "../../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import type * as IndexModule from "../../../../src/sandbox/index.js";
import type * as SchedulerModule from "../../../../src/sandbox/scheduler.js";
import type * as StartModule from "../../../../src/sandbox/start.js";
import type * as ValuesModule from "../../../../src/sandbox/values.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const registryPath = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registryPath);
const work = mkdtempSync(join(repoRoot, ".tmp", "start-definitions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Targets and whether the control API is asked about each while no transport rule is queued. */
const TARGETS: Array<[string, boolean]> = [
  ["/_sandbox/state", true],
  ["\\_sandbox", true],
  ["/v1/../_sandbox/errors", true],
  ["/v1/order", false],
  ["/", false],
];
const asks = (mayIntercept: ((request: IncomingMessage) => boolean) | undefined) =>
  TARGETS.map(([url]) => mayIntercept!({ url } as IncomingMessage));

describe("which requests the control API is asked about", () => {
  it("a sandbox made at once (createSandbox): a target naming _sandbox however written, no other", async () => {
    const { createSandbox } = await freshModule<typeof IndexModule>("src/sandbox/index.ts");
    const doc: Doc = {
      openapi: "3.1.0",
      info: { title: "Start definitions (test)", version: "1.0.0" },
      paths: { "/v1/order": { get: { operationId: "getOrder", responses: { "204": { description: "none" } } } } },
    };
    const sandbox = createSandbox({ ...shop, alias: "start-definitions@1.0.0" }, doc, { store: "memory" }, "inline");
    try {
      expect(asks(sandbox.hooks.mayIntercept)).toEqual(TARGETS.map(([, asked]) => asked));
    } finally {
      await sandbox.close();
    }
  });

  it("a sandbox started and made on first use (startSandbox): the same, before it is made", async () => {
    const { startSandbox } = await freshModule<typeof StartModule>("src/sandbox/start.ts");
    const cache = join(work, "cache");
    mkdirSync(cache, { mode: 0o700 }); // a cache folder only its owner can read, as the cache requires
    // No declaration (a sandbox that keeps no resources): the hook does not depend on one.
    const declarationPath = join(work, "none.sandbox.yaml");
    const started = await startSandbox(shop, { declarationPath, registry: registryPath, store: "memory" }, shop.bundlePath, cache);
    try {
      expect(asks(started.hooks.mayIntercept)).toEqual(TARGETS.map(([, asked]) => asked));
      expect(started.made()).toBeUndefined();
    } finally {
      await started.close();
    }
  });
});

describe("the code that decides whether a declaration is checked again", () => {
  it("names declaration.ts, every module of the sandbox it imports, and start.ts", async () => {
    const { CHECKER_MODULES } = await freshModule<typeof StartModule>("src/sandbox/start.ts");
    const sandbox = join(repoRoot, "src/sandbox");
    // declaration.ts's imports within src/sandbox (`from "./x.js"`, type-only ones included, and
    // `import("./x.js")`), followed to the end; paths relative to src/sandbox. The sandbox's modules
    // write every import so (tests/unit/src/sandbox/structure.test.ts parses them with TypeScript).
    const needed = new Set(["declaration.ts", "start.ts"]);
    const waiting = ["declaration.ts"];
    for (let name = waiting.pop(); name !== undefined; name = waiting.pop())
      for (const [, specifier] of readFileSync(join(sandbox, name), "utf8").matchAll(
        /(?:\bfrom\s+|\bimport\s*\(\s*)"(\.\.?\/[^"]+)\.js"/g,
      )) {
        const target = posix.normalize(posix.join(dirname(name), `${specifier}.ts`));
        if (!target.startsWith("../") && !needed.has(target)) {
          needed.add(target);
          waiting.push(target);
        }
      }
    const named = CHECKER_MODULES.filter((m) => m.startsWith("./")).map((m) => `${m.slice(2)}.ts`);
    expect(named.toSorted()).toEqual([...needed].toSorted());
  });

  it("names the version of every package the checking modules import", async () => {
    const { CHECKER_MODULES, CHECKER_PACKAGES } = await freshModule<typeof StartModule>("src/sandbox/start.ts");
    const imported = new Set<string>();
    for (const module of CHECKER_MODULES)
      for (const [, specifier] of readFileSync(join(repoRoot, "src/sandbox", `${module}.ts`), "utf8").matchAll(
        /(?:\bfrom\s+|\bimport\s*\(\s*)"([^".][^"]*)"/g,
      ))
        if (!specifier.startsWith("node:"))
          imported.add(
            specifier
              .split("/")
              .slice(0, specifier.startsWith("@") ? 2 : 1)
              .join("/"),
          );
    expect(imported.size).toBeGreaterThan(0);
    expect(CHECKER_PACKAGES.toSorted()).toEqual([...imported].toSorted());
  });
});

describe("a plain object", () => {
  it("is an object that is neither a list, nor null, nor an Instant", async () => {
    const { isPlainObject, Instant } = await freshModule<typeof ValuesModule>("src/sandbox/values.ts");
    expect([{}, { a: 1 }, Object.create(null)].map(isPlainObject)).toEqual([true, true, true]);
    expect([[], null, undefined, "text", 1, new Instant(0)].map(isPlainObject)).toEqual([false, false, false, false, false, false]);
  });
});

describe("a due time beyond setTimeout's range", () => {
  it("is waited for in steps of 2^31 - 1 ms, never fired early", async () => {
    const { Scheduler } = await freshModule<typeof SchedulerModule>("src/sandbox/scheduler.ts");
    const start = 1_000_000;
    const longest = 2_147_483_647; // setTimeout's largest delay, ms (Node's timers documentation)
    vi.useFakeTimers({ now: start });
    try {
      const due: string[] = [];
      const scheduler = new Scheduler((key) => due.push(key));
      scheduler.at("a", start + longest + 1);
      vi.advanceTimersToNextTimer();
      expect([Date.now(), due]).toEqual([start + longest, []]);
      vi.advanceTimersToNextTimer();
      expect([Date.now(), due]).toEqual([start + longest + 1, ["a"]]);
      scheduler.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
