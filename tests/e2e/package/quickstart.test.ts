/**
 * README's quick start, followed as a partner follows it: in an empty folder holding the release
 * tarball (`npm run release`), the README's lines run as written (`npm init -y`, the two installs,
 * against the run's offline registry serving the repository's locked packages), its mock line run
 * with the port moved to a free one, then the quick start's file written as README names it and run
 * with `node`: it prints what the README says it prints, the contract's example. Every other ```js
 * block of the README and the guides runs the same way, in the same project.
 *
 * This file installs on its own rather than in the run's partner project (tests/helpers/package.ts):
 * the quick start is another partner's path than the install guide's, from `npm init -y` (a
 * CommonJS project: why the file is .mjs) to the test tools without the Redocly CLI, and what is
 * checked is that path, as written.
 *
 * The packed README: at most 15 KB, and every relative link in it names a file of the tarball.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOperation, loadDocument } from "../../../src/document/index.js";
import { loadRegistry } from "../../../src/registry.js";
import { fencedBlocks, markedBlock } from "../../helpers/doc-blocks.js";
import { exec, ok, partnerEnv, type Released, type Result, released, scratchFolder } from "../../helpers/package.js";
import { freePortRange } from "../../helpers/ports.js";
import { waitUntil } from "../../helpers/processes.js";

const SLOW = 300_000;
const registry = loadRegistry();
const MARKER = "tests/e2e/package/quickstart.test.ts";

/** The README's lines, comments dropped; the mock's line is the one that ends with `&`. */
const lines = markedBlock(MARKER, "runs these lines", "sh")
  .code.split("\n")
  .map((line) => line.replace(/\s+#.*$/, "").trim())
  .filter((line) => line !== "" && !line.startsWith("#"));
const mockLine = lines.find((line) => line.endsWith("&"));
const installLines = lines.filter((line) => line !== mockLine);
const quickStart = markedBlock(MARKER, "writes this file", "js");
/** Every ```js block of the docs, named by its first line (`// <name>.mjs ...`). */
const jsBlocks = fencedBlocks("js").map((block) => ({
  ...block,
  file: /^\/\/ ([\w.-]+\.mjs)\b/.exec(block.code)?.[1] ?? `${block.path.replace(/\W+/g, "-")}-${block.index}.mjs`,
}));

const work = scratchFolder("quickstart");
const project = join(work, "project");
let release: Released;
const installs: Array<{ line: string; result: Result }> = [];
let initType: unknown;
let mock: ChildProcess | undefined;
let mockOutput = "";
let portBase = 0;

/** A block as it runs here: the default mock ports (4010-4016, in registry order) moved to the test's. */
const runnable = (code: string) => code.replace(/127\.0\.0\.1:40(1\d)\b/g, (_, n: string) => `127.0.0.1:${portBase + Number(n) - 10}`);

beforeAll(async () => {
  release = await released();
  ok(release.run, "npm run release");
  mkdirSync(project);
  copyFileSync(release.tarball, join(project, release.filename));
  for (const line of installLines) {
    const result = await exec("sh", ["-c", line], { cwd: project, env: partnerEnv(), timeoutMs: SLOW });
    installs.push({ line, result });
    if (line === "npm init -y") initType = JSON.parse(readFileSync(join(project, "package.json"), "utf8")).type ?? "(none)";
    if (result.code !== 0) return;
  }
  // The mock line as written, on free ports: `npx ... mock pay@1.3.0 --port-base N`, in its own process group.
  portBase = await freePortRange(registry.length);
  const command = `exec ${mockLine!.replace(/\s*&$/, "")} --port-base ${portBase}`;
  mock = spawn("sh", ["-c", command], { cwd: project, env: partnerEnv(), stdio: ["pipe", "pipe", "pipe"], detached: true });
  mock.stdout!.on("data", (chunk) => (mockOutput += chunk));
  mock.stderr!.on("data", (chunk) => (mockOutput += chunk));
  await waitUntil(() => mockOutput.includes("ready") || mock!.exitCode !== null, "the quick start's mock answers", 120_000);
  if (mock.exitCode !== null) throw new Error(`the quick start's mock exited ${mock.exitCode}: ${mockOutput}`);
  for (const block of jsBlocks) writeFileSync(join(project, block.file), runnable(block.code));
}, 900_000);

afterAll(async () => {
  if (mock?.pid && mock.exitCode === null) {
    const exited = new Promise((resolve) => mock!.once("exit", resolve));
    process.kill(-mock.pid, "SIGTERM");
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe("README's quick start, in a fresh `npm init -y` project", () => {
  it("is npm init -y, the package, the test tools, and the mock of one API", () => {
    expect(installLines[0]).toBe("npm init -y");
    expect(installLines[1]).toBe(`npm install ./${release.filename}`);
    expect(installLines[2]).toMatch(/^npm install --save-dev /);
    expect(mockLine).toMatch(/^npx bank-api-contracts mock pay@1\.3\.0 &$/);
  });

  it("each line exits 0; npm init -y makes a CommonJS project (no top-level await in a .js file)", () => {
    expect(installs.map((i) => i.line)).toEqual(installLines);
    for (const { line, result } of installs) expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
    // npm 10.9+ writes "type": "commonjs"; older npm writes no type, which Node reads the same way.
    expect(["commonjs", "(none)"]).toContain(initType);
  });

  it(
    "the quick start file prints what the README says: the invoice of the contract's createInvoice example",
    async () => {
      expect(quickStart.path).toBe("README.md");
      const file = jsBlocks.find((b) => b.path === quickStart.path && b.code === quickStart.code)!.file;
      expect(file).toBe("quick-start.mjs");
      const result = await exec("node", [file], { cwd: project, env: partnerEnv(), timeoutMs: SLOW });
      expect(result.code, result.stderr).toBe(0);

      // Independently of the README: the first example of createInvoice's 200 in the bundled spec.
      const pay = registry.find((e) => e.alias === "pay@1.3.0")!;
      const doc = loadDocument(pay.bundlePath);
      const content = findOperation(doc, "createInvoice")!.value.responses["200"].content["application/json"];
      const example = Object.values(content.examples as Record<string, { value: { invoice_id: string; url: string } }>)[0].value;
      expect(result.stdout.trim()).toBe(`${example.invoice_id} ${example.url}`);

      const readme = readFileSync(join(project, "node_modules/bank-api-contracts/README.md"), "utf8");
      expect(readme).toContain(`\`node quick-start.mjs\` prints \`${example.invoice_id} ${example.url}\``);
    },
    SLOW,
  );

  it(
    "every other ```js block of the README and the guides runs to its end against the same mock",
    async () => {
      expect(jsBlocks.length).toBeGreaterThan(0);
      for (const block of jsBlocks) {
        const result = await exec("node", [block.file], { cwd: project, env: partnerEnv(), timeoutMs: SLOW });
        expect(result.code, `${block.path} block ${block.index} (${block.file}): ${result.stderr}`).toBe(0);
      }
    },
    SLOW,
  );
});

describe("the README in the tarball", () => {
  it("is at most 15 KB, and each of its relative links names a file the tarball holds", async () => {
    const listing = ok(await exec("tar", ["-tzf", release.tarball], { cwd: work }), "tar -tzf").stdout;
    const files = new Set(listing.split("\n").map((f) => f.replace(/^package\//, "")));
    const readme = readFileSync(join(project, "node_modules/bank-api-contracts/README.md"), "utf8");
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? m[2]);
    const relative = links.filter((href) => !/^[a-z][a-z0-9+.-]*:|^#|^\/\//i.test(href)).map((href) => href.split("#")[0]);
    expect(relative.length).toBeGreaterThan(0);
    const missing = relative.filter((href) => !files.has(posix.normalize(href)));
    expect(missing, "README links to files the tarball does not hold").toEqual([]);
  });
});
