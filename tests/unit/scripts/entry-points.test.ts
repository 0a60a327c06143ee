/**
 * Every module under scripts/ (lib/ aside) can be imported by a test without running: importing it
 * writes nothing to stdout or stderr, sets no exit code, writes no file, starts no process and leaves
 * no handle open (tests/unit/scripts/import-probe.ts looks, in a process of its own). And every
 * command-line script reads its arguments the one way (scripts/lib/cli.ts): `--help` prints
 * commander's usage and exits 0; a misuse prints one error line and the hint, and exits 2.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import type { ImportEffects } from "./import-probe.js";

type Main = (argv: string[]) => Promise<number>;

interface CommandLine {
  /** The program's name, as its usage line shows it. */
  name: string;
  main: () => Promise<Main>;
  /** scripts/test.ts: an option it does not know is vitest's, not a misuse. */
  forwardsUnknownOptions?: true;
}

/** Every module under scripts/ outside lib/, written by hand: a command line, or a module other scripts import (or fork). */
const SCRIPTS: Record<string, CommandLine | "module"> = {
  "scripts/build.ts": { name: "build", main: async () => (await import("../../../scripts/build.js")).main },
  "scripts/changelog.ts": { name: "changelog", main: async () => (await import("../../../scripts/changelog.js")).main },
  "scripts/fuzz.ts": { name: "fuzz", main: async () => (await import("../../../scripts/fuzz.js")).main },
  "scripts/generate.ts": { name: "generate", main: async () => (await import("../../../scripts/generate.js")).main },
  "scripts/lint.ts": { name: "lint:spec", main: async () => (await import("../../../scripts/lint.js")).main },
  "scripts/lint-sandbox.ts": {
    name: "lint:sandbox",
    main: async () => (await import("../../../scripts/lint-sandbox.js")).main,
  },
  "scripts/release-lock.ts": {
    name: "release:lock",
    main: async () => (await import("../../../scripts/release-lock.js")).main,
  },
  "scripts/release.ts": { name: "release", main: async () => (await import("../../../scripts/release.js")).main },
  "scripts/report-gaps.ts": {
    name: "report:gaps",
    main: async () => (await import("../../../scripts/report-gaps.js")).main,
  },
  "scripts/test.ts": { name: "test", main: async () => (await import("../../../scripts/test.js")).main, forwardsUnknownOptions: true },
  "scripts/docs/build.ts": {
    name: "docs:build",
    main: async () => (await import("../../../scripts/docs/build.js")).main,
  },
  "scripts/docs/bench.ts": {
    name: "bench:docs",
    main: async () => (await import("../../../scripts/docs/bench.js")).main,
  },
  "scripts/docs/pages.ts": "module",
  "scripts/docs/redoc.ts": "module",
  "scripts/docs/serve.ts": "module",
  "scripts/docs/summary.ts": "module",
  "scripts/bench-sandbox.ts": "module",
  "scripts/bench-measure.ts": "module",
  "scripts/bench.ts": { name: "bench", main: async () => (await import("../../../scripts/bench.js")).main },
  "scripts/bench-serve.ts": "module",
  "scripts/start.ts": { name: "start", main: async () => (await import("../../../scripts/start.js")).main },
  "scripts/mock.ts": { name: "npm run mock --", main: async () => (await import("../../../scripts/mock.js")).main },
};

const entries = Object.entries(SCRIPTS);
// Modules other scripts import go first: what a module does at import shows under the first one probed that imports it.
const probed = [
  ...entries.filter(([, kind]) => kind === "module"),
  ...entries.filter(([, kind]) => typeof kind === "object" && "main" in kind),
].map(([file]) => file);
const commandLines = entries.flatMap(([file, kind]) => (typeof kind === "object" && "main" in kind ? [[file, kind] as const] : []));

/** Runs a script's main in this process, capturing what it prints (through the console or the streams), line by line. */
async function run(main: Main, argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(...String(chunk).replace(/\n$/, "").split("\n"));
    return true;
  };
  const spies = [
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void stdout.push(a.join(" "))),
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void stderr.push(a.join(" "))),
    vi.spyOn(process.stdout, "write").mockImplementation(lines(stdout)),
    vi.spyOn(process.stderr, "write").mockImplementation(lines(stderr)),
  ];
  try {
    return { code: await main(argv), stdout, stderr };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

it("the table lists every module under scripts/ outside lib/", () => {
  const onDisk = readdirSync(join(repoRoot, "scripts"), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => relative(repoRoot, join(d.parentPath, d.name)))
    .filter((file) => !file.startsWith("scripts/lib/"))
    .sort();
  expect(Object.keys(SCRIPTS).sort()).toEqual(onDisk);
  expect(entries).toHaveLength(22);
  expect(probed).toHaveLength(22);
  expect(commandLines).toHaveLength(15);
});

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

describe.each(commandLines)("%s", (_, { name, main, forwardsUnknownOptions }) => {
  it("--help prints the usage on stdout and exits 0", async () => {
    const result = await run(await main(), ["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout.join("\n")).toMatch(new RegExp(`^Usage: ${name} `));
    expect(result.stderr).toEqual([]);
  });

  if (forwardsUnknownOptions) return;
  it("an unknown option prints one error line and the hint, and exits 2", async () => {
    const result = await run(await main(), ["--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toEqual([]);
    expect(result.stderr).toEqual(["error: unknown option '--bogus'", "(add --help for usage)"]);
  });
});
