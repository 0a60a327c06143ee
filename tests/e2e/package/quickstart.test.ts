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
 * Then the quick start guide (docs/guides/quick-start.md), whose first two steps are the README's
 * lines (checked: the same lines), on to its step 3 as written: step 2's mock stopped (`kill %1`),
 * the sandbox started from the package on the same ports, and the documentation portal served from
 * this repository (a clone: its own install stands for `npm ci`) by `npm start -- --no-mocks`, with
 * `--port 0`, the sandbox's `--port-base`, a scratch `--docs-dir` and `--skip-generate` added (the
 * repository's generated files are checked elsewhere and never rewritten by a test). The portal,
 * started on its own against the running sandbox, names the sandbox's ports in what it prints, on
 * its home page and in every console; in Chromium (./docs drives the same browser), Pay 1.3.0's
 * console sends *Create an invoice* to the sandbox without any `?port=` and *List invoices* shows it;
 * the control API moves it to Success.
 *
 * The packed README: at most 15 KB, and every relative link in it names a file of the tarball.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_FLAGS } from "../../../scripts/lib/chromium.js";
import { findOperation, jsonRequest, loadDocument } from "../../../src/document/index.js";
import { loadRegistry, repoRoot } from "../../../src/registry.js";
import { fencedBlocks, markedBlock } from "../../helpers/doc-blocks.js";
import { cleanEnv, exec, ok, partnerEnv, type Released, type Result, released, scratchFolder } from "../../helpers/package.js";
import { freePortRange } from "../../helpers/ports.js";
import { capture, type Captured, portsFree, waitForOutput, waitUntil } from "../../helpers/processes.js";
import { requireChromium } from "../docs/browser.js";
import { openConsole, send, typeCredential } from "../docs/console.js";

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
/** A block's lines, comments dropped. */
const commands = (code: string) =>
  code
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
/** The quick start guide's ```sh blocks: steps 1 and 2 (the README's lines), then step 3's two. */
const GUIDE = "docs/guides/quick-start.md";
const guideBlocks = fencedBlocks("sh").filter((block) => block.path === GUIDE);
const sandboxLines = commands(markedBlock(MARKER, "runs the sandbox's lines").code);
const portalLines = commands(markedBlock(MARKER, "runs the portal's lines").code);
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
/** Step 3: the sandbox (started from the package) and the portal (`npm start` in this repository). */
let sandbox: { child: ChildProcess; run: Captured } | undefined;
let portal: { child: ChildProcess; run: Captured } | undefined;
/** The portal's URL, as `npm start` printed it. */
let docsUrl = "";

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

/** Stops a process group this file started (`detached`), and waits for its end. */
async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  await exited;
}

afterAll(async () => {
  await Promise.all([stopGroup(mock), stopGroup(sandbox?.child), stopGroup(portal?.child)]);
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

describe("the quick start guide, step 3: the sandbox from the package, the portal on its own against it", () => {
  const pay = registry.find((e) => e.alias === "pay@1.3.0")!;

  it("steps 1 and 2 are the README's lines; step 3 stops step 2's mock, starts the sandbox, and serves the portal alone", () => {
    const [step1, step2] = guideBlocks.map((block) => commands(block.code));
    expect([...step1, ...step2]).toEqual(lines);
    expect(sandboxLines).toEqual(["kill %1", "npx bank-api-contracts mock --sandbox &"]);
    expect(portalLines).toEqual(["npm ci", "npm start -- --no-mocks"]);
  });

  it(
    "kill %1 frees step 2's ports; the sandbox starts on them, from the package",
    async () => {
      // `kill %1`: the shell's first job is step 2's mock.
      await stopGroup(mock);
      await waitUntil(() => portsFree(portBase, registry.length), "step 2's mock frees its ports", 60_000);
      const command = `exec ${sandboxLines[1].replace(/\s*&$/, "")} --port-base ${portBase}`;
      const child = spawn("sh", ["-c", command], { cwd: project, env: partnerEnv(), stdio: ["pipe", "pipe", "pipe"], detached: true });
      sandbox = { child, run: capture(child) };
      await waitForOutput(child, sandbox.run.output, "ready", "the quick start's sandbox", { timeoutMs: 120_000 });
      // A sandbox, not the static mock: its control API answers.
      expect((await fetch(`http://127.0.0.1:${portBase}/_sandbox/openapi.yaml`)).status).toBe(200);
    },
    SLOW,
  );

  it(
    "npm start -- --no-mocks serves the portal alone for those ports: it prints them, and the home page and every console name them",
    async () => {
      expect(sandbox, "the sandbox of the step before").toBeDefined();
      const docsDir = join(work, "portal-site");
      // The line as written, with the ports and the site's folder moved (see the module header).
      const line = `exec ${portalLines[1]} --port 0 --port-base ${portBase} --docs-dir ${docsDir} --skip-generate`;
      const child = spawn("sh", ["-c", line], { cwd: repoRoot, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"], detached: true });
      portal = { child, run: capture(child) };
      await waitForOutput(child, portal.run.stdout, "Ctrl+C stops", "the quick start's portal", {
        timeoutMs: 240_000,
        streams: ["stdout"],
      });
      const out = portal.run.stdout();
      docsUrl = /^Documentation\s+(http:\/\/\S+)/m.exec(out)?.[1] ?? "";
      expect(docsUrl, out).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(out).toContain(`its consoles pointed at ports ${portBase}-${portBase + registry.length - 1}`);
      const home = await (await fetch(docsUrl)).text();
      for (const entry of registry) {
        const port = portBase + entry.index;
        const page = `apis/${entry.service}/${entry.release}/index.html`;
        // Printed: the API, the port it expects its mock on, its page.
        expect(out).toMatch(
          new RegExp(`^${entry.alias.replace(/[.@]/g, "\\$&")}\\s+http://127\\.0\\.0\\.1:${port}\\s+${docsUrl}${page}$`, "m"),
        );
        expect(home).toContain(`<tr data-alias="${entry.alias}">`);
        expect(home).toMatch(
          new RegExp(
            `<tr data-alias="${entry.alias.replace(/[.@]/g, "\\$&")}">.*?<td data-field="local"><code>http://127\\.0\\.0\\.1:${port}</code>`,
          ),
        );
        const html = await (await fetch(new URL(page, docsUrl))).text();
        const settings = JSON.parse(/id="reference-config">(.*?)<\/script>/s.exec(html)![1]);
        expect(settings.servers[0].url, `${entry.alias}: the console's first server`).toBe(`http://127.0.0.1:${port}`);
      }
      if (portBase !== 4010) expect(home).not.toContain("127.0.0.1:4010<");
      // Nothing of its own on the mocks' ports: the sandbox still answers there.
      expect((await fetch(`http://127.0.0.1:${portBase}/_sandbox/openapi.yaml`)).status).toBe(200);
    },
    SLOW,
  );

  it(
    "in the browser, Pay 1.3.0's console sends Create an invoice to the sandbox and List invoices shows it; the control API moves it to Success",
    async () => {
      expect(docsUrl, "the portal of the step before").not.toBe("");
      requireChromium();
      const sandboxUrl = `http://127.0.0.1:${portBase + pay.index}`;
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        context.setDefaultTimeout(120_000);
        const page = await context.newPage();
        // Nothing leaves the machine: the portal and the sandbox only.
        const allowed = new Set([new URL(docsUrl).origin, sandboxUrl]);
        const refused: string[] = [];
        await page.route("**/*", (route) => {
          const url = route.request().url();
          if (/^(data|blob):/.test(url) || allowed.has(new URL(url).origin)) return route.continue();
          refused.push(url);
          return route.abort("blockedbyclient");
        });
        // The page as the guide opens it: no ?port=, the portal was started for the sandbox's ports.
        await page.goto(new URL(`apis/${pay.service}/${pay.release}/index.html`, docsUrl).href, { waitUntil: "load" });
        const record = { page } as Parameters<typeof openConsole>[0];
        const doc = loadDocument(pay.bundlePath);
        const create = await openConsole(record, findOperation(doc, "createInvoice")!);
        expect(await create.textContent()).toContain(`${sandboxUrl}/v1/invoice`);
        await typeCredential(create, "quick-start-token");
        const answer = await send(create, 200);
        const id = /"invoice_id":\s*"([^"]+)"/.exec(answer)?.[1];
        expect(id, "the new invoice's id in the console's answer").toBeDefined();
        // Not the contract's example: the sandbox made it.
        const example = jsonRequest(doc, findOperation(doc, "createInvoice")!);
        expect(id).not.toBe(JSON.stringify(example?.examples[0]?.value).match(/inv_\w+/)?.[0]);
        const list = await openConsole(record, findOperation(doc, "listInvoices")!);
        const field = list.locator("input[id^='scalar-client']:not([type=checkbox])").first();
        if ((await field.inputValue()) !== "quick-start-token") await typeCredential(list, "quick-start-token");
        expect(await send(list, 200)).toContain(id);
        expect(refused).toEqual([]);
        // The control API (its reference page sends the same request): the invoice moves to Success.
        const moved = await fetch(`${sandboxUrl}/_sandbox/resources/invoice/${id}/status`, {
          method: "POST",
          headers: { authorization: "Bearer quick-start-token", "content-type": "application/json" },
          body: JSON.stringify({ status: "Success" }),
        });
        expect(moved.status, await moved.clone().text()).toBe(200);
        expect(((await moved.json()) as { to: string }).to).toBe("Success");
      } finally {
        await browser.close();
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
