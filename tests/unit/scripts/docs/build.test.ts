/**
 * `npm run docs:build` (scripts/docs/build.ts) over a fixture registry of two services built from
 * tests/fixtures/docs/openapi.yaml: the files it writes (assets under content-hashed names, with a
 * brotli and a gzip copy of each compressible file that decompress to it), the page's frame of
 * operations, the ports the pages name (`portBase`), the changes to Scalar's bundle, the conditional
 * changelog link, escaping, `--if-stale`, and the folders it refuses to replace. (The real
 * registry's site is tested in a browser by tests/e2e/docs/site.test.ts.)
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocs, main, MARKER } from "../../../../scripts/docs/build.js";
import { patchedScalar, scalarBundlePath } from "../../../../scripts/docs/reference.js";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/docs/openapi.yaml", import.meta.url));

let tmp: string;
let config: string;
let out: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "docs-build-"));
  config = join(tmp, "redocly.yaml");
  writeFileSync(
    config,
    [
      "apis:",
      "  alpha@1.0.0:",
      "    root: specs/alpha/1.0.0/openapi.yaml",
      "  beta@2.0.0:",
      "    root: specs/beta/2.0.0/openapi.yaml",
      "",
    ].join("\n"),
  );
  for (const dir of ["generated/alpha/1.0.0", "generated/beta/2.0.0"]) {
    mkdirSync(join(tmp, dir), { recursive: true });
    cpSync(FIXTURE, join(tmp, dir, "openapi.yaml"));
  }
  mkdirSync(join(tmp, "changelogs"));
  writeFileSync(join(tmp, "changelogs/alpha.md"), "# alpha\n\n## 1.0.0\n\n- Added <b>widgets</b>.\n");
  out = join(tmp, "site");
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const read = (path: string) => readFileSync(join(out, path), "utf8");

describe("docs:build", () => {
  it("writes the index, the open questions, one reference page and spec per API, and the changelog of the service that has one", async () => {
    const result = await buildDocs({ outDir: out, configPath: config });
    expect(result).toMatchObject({ skipped: false, apis: ["alpha@1.0.0", "beta@2.0.0"], gaps: 4 });
    for (const path of ["index.html", "open-questions.html", "guides/index.html", MARKER])
      expect(existsSync(join(out, path)), path).toBe(true);
    // Each asset once, named by the first 10 hex digits of its content's SHA-256.
    const assets = readdirSync(join(out, "assets")).filter((name) => !/\.(br|gz)$/.test(name));
    expect(assets.map((name) => name.replace(/\.[0-9a-f]{10}\./, ".*.")).sort()).toEqual(["reference.*.js", "scalar.*.js", "site.*.css"]);
    for (const name of assets) {
      const hash = createHash("sha256")
        .update(readFileSync(join(out, "assets", name)))
        .digest("hex")
        .slice(0, 10);
      expect(name, "named by its content").toContain(`.${hash}.`);
    }
    const asset = (prefix: string) => `assets/${assets.find((name) => name.startsWith(`${prefix}.`))}`;
    for (const [index, service, release] of [
      [0, "alpha", "1.0.0"],
      [1, "beta", "2.0.0"],
    ] as const) {
      const page = read(`apis/${service}/${release}/index.html`);
      // The page's script, deferred; Scalar's bundle preloaded (and named in the configuration), never a blocking script.
      expect(page).toContain(`<script src="../../../${asset("reference")}" defer></script>`);
      expect(page).toContain(`<link rel="preload" as="script" href="../../../${asset("scalar")}" />`);
      expect(page).toContain(`<link rel="stylesheet" href="../../../${asset("site")}" />`);
      expect(page).not.toMatch(/<script src="[^"]*scalar/);
      expect(page).not.toMatch(/<script>/);
      // The frame: every operation and webhook of the fixture, linking Scalar's route of it.
      expect(page).toContain(
        '<a href="#tag/widgets/GET/v1/widget" elementtiming="first-operation"><span class="frame-method" data-method="get">GET</span> <span class="frame-summary">List widgets</span>',
      );
      // Only the first one is timed by the browser's Element Timing (npm run bench:docs reads it).
      expect(page.match(/elementtiming=/g)).toHaveLength(1);
      expect(page).toContain('<a href="#tag/widgets/POST/v1/widget">');
      expect(page.match(/<li class="frame-operation"/g)).toHaveLength(3);
      expect(page).toContain("<h1>Widget API <span");
      expect(page).toContain('href="../../../index.html"');
      // The console's servers: the API's local mock first (default port by registry position), then the spec's.
      const settings = JSON.parse(/<script type="application\/json" id="reference-config">(.*?)<\/script>/s.exec(page)![1]);
      expect(settings).toMatchObject({ url: "openapi.yaml", withDefaultFonts: false, scalar: `../../../${asset("scalar")}` });
      expect(settings.proxyUrl).toBeUndefined();
      expect(settings.servers.map((s: { url: string }) => s.url)).toEqual([
        `http://127.0.0.1:${4010 + index}`,
        "https://sandbox.{widget_domain}",
        "https://{widget_domain}",
      ]);
      expect(read(`apis/${service}/${release}/openapi.yaml`)).toBe(readFileSync(FIXTURE, "utf8"));
    }

    // Every compressible file over 1 KiB has a brotli and a gzip copy holding exactly its bytes.
    const compressible = readdirSync(out, { recursive: true, withFileTypes: true }).filter(
      (d) => d.isFile() && /\.(html|js|css|yaml|md)$/.test(d.name) && readFileSync(join(d.parentPath, d.name)).length > 1024,
    );
    expect(compressible.length).toBeGreaterThan(5);
    for (const d of compressible) {
      const file = join(d.parentPath, d.name);
      expect(brotliDecompressSync(readFileSync(`${file}.br`)).equals(readFileSync(file)), `${d.name}.br`).toBe(true);
      expect(gunzipSync(readFileSync(`${file}.gz`)).equals(readFileSync(file)), `${d.name}.gz`).toBe(true);
    }
    expect(readFileSync(join(out, `${asset("scalar")}.br`)).length).toBeLessThan(readFileSync(join(out, asset("scalar"))).length / 3);

    const index = read("index.html");
    expect(index).toContain(`<link rel="stylesheet" href="${asset("site")}" />`);
    expect(index.match(/<article class="release"/g)).toHaveLength(2);
    expect(index).toContain('<a data-link="changelog" href="changelogs/alpha.html">');
    expect(index).not.toContain("changelogs/beta.html");
    expect(index).toContain("<code>https://sandbox.widget.example.com</code>");
    expect(index).toContain("API key in the x-api-key header");
    expect(index).toMatch(/data-field="operations">2</);
    expect(index).toMatch(/data-field="webhooks">1</);

    const changelog = read("changelogs/alpha.html");
    expect(changelog).toContain("<li>Added &lt;b&gt;widgets&lt;/b&gt;.</li>");
    expect(changelog).toContain("<h2>1.0.0</h2>");
    expect(read("changelogs/alpha.md")).toContain("<b>widgets</b>");

    const questions = read("open-questions.html");
    expect(questions.match(/<tr data-gap=/g)).toHaveLength(4);
    expect(questions).toContain("The &lt;script&gt;alert(&quot;widget&quot;)&lt;/script&gt; body is not shown.");
    expect(questions).not.toContain("<script>alert");
    expect(questions).toContain("POST /v1/widget (createWidget) › requestBody › content › application/json › schema");
  });

  it("--if-stale skips an unchanged build and rebuilds when an input changes", async () => {
    expect((await buildDocs({ outDir: out, configPath: config, ifStale: true })).skipped).toBe(true);
    writeFileSync(join(tmp, "specs-CHANGED"), "not an input");
    expect((await buildDocs({ outDir: out, configPath: config, ifStale: true })).skipped).toBe(true);
    mkdirSync(join(tmp, "specs/beta"), { recursive: true });
    writeFileSync(join(tmp, "specs/beta/CHANGELOG.md"), "# beta\n");
    const rebuilt = await buildDocs({ outDir: out, configPath: config, ifStale: true });
    expect(rebuilt.skipped).toBe(false);
    expect(read("index.html")).toContain('href="changelogs/beta.html"');
  });

  it("adds the sandbox control API's page and document when the registry's folder has src/sandbox/openapi.yaml", async () => {
    const control = fileURLToPath(new URL("../../../../src/sandbox/openapi.yaml", import.meta.url));
    mkdirSync(join(tmp, "src/sandbox"), { recursive: true });
    cpSync(control, join(tmp, "src/sandbox/openapi.yaml"));
    try {
      const rebuilt = await buildDocs({ outDir: out, configPath: config, ifStale: true });
      expect(rebuilt.skipped).toBe(false);
      const page = read("sandbox/index.html");
      expect(page).toMatch(/<link rel="preload" as="script" href="\.\.\/assets\/scalar\.[0-9a-f]{10}\.js" \/>/);
      expect(page).toContain("Sandbox control API");
      // The control API is served on every mock's port: each is a server of its console.
      const settings = JSON.parse(/<script type="application\/json" id="reference-config">(.*?)<\/script>/s.exec(page)![1]);
      expect(settings.servers.map((s: { url: string }) => s.url)).toEqual(["http://127.0.0.1:4010", "http://127.0.0.1:4011"]);
      expect(read("sandbox/openapi.yaml")).toBe(readFileSync(control, "utf8"));
      const index = read("index.html");
      expect(index).toContain('<a class="button primary" data-link="sandbox-page" href="sandbox/index.html">');
      expect(index).toContain('data-link="sandbox-spec" href="sandbox/openapi.yaml"');
    } finally {
      rmSync(join(tmp, "src"), { recursive: true, force: true });
    }
    await buildDocs({ outDir: out, configPath: config, ifStale: true });
    expect(existsSync(join(out, "sandbox"))).toBe(false);
  });

  it("names the ports of its port base on the home page and in every console, and rebuilds when the port base changes", async () => {
    const moved = await buildDocs({ outDir: out, configPath: config, ifStale: true, portBase: 4110 });
    expect(moved.skipped).toBe(false);
    const index = read("index.html");
    for (const port of [4110, 4111]) expect(index).toContain(`<td data-field="local"><code>http://127.0.0.1:${port}</code></td>`);
    expect(index).toContain("npx bank-api-contracts mock --port-base 4110");
    expect(index).not.toContain("127.0.0.1:4010");
    const settings = JSON.parse(/id="reference-config">(.*?)<\/script>/s.exec(read("apis/beta/2.0.0/index.html"))![1]);
    expect(settings.servers[0].url).toBe("http://127.0.0.1:4111");
    expect((await buildDocs({ outDir: out, configPath: config, ifStale: true, portBase: 4110 })).skipped).toBe(true);
    expect((await buildDocs({ outDir: out, configPath: config, ifStale: true })).skipped).toBe(false);
    expect(read("index.html")).toContain("<code>http://127.0.0.1:4010</code>");
  });

  it("changes Scalar's placeholder key and its 328 ms edit delay in the copy it carries, and fails naming a change that no longer fits", () => {
    const original = readFileSync(scalarBundlePath, "utf8");
    const carried = patchedScalar(original);
    // Base64 of a joke that reads as a real key, in the API key and access token fields.
    expect(original).toContain("QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT");
    expect(carried).not.toContain("QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT");
    expect(carried).not.toContain("VSe({delay:328})");
    expect(() => patchedScalar(original, [{ why: "a test's", find: "no such text in the bundle", replace: "", count: 1 }])).toThrow(
      /holds "no such text in the bundle" 0 time\(s\), not 1: the change for "a test's"/,
    );
  });

  it("refuses to replace a folder that is not a docs build, and leaves it as it was", async () => {
    const other = join(tmp, "not-a-site");
    mkdirSync(other);
    writeFileSync(join(other, "keep.txt"), "mine");
    await expect(buildDocs({ outDir: other, configPath: config })).rejects.toThrow(`${other} exists and is not a docs build`);
    expect(readFileSync(join(other, "keep.txt"), "utf8")).toBe("mine");
  });

  it("names the API whose bundled spec is missing", async () => {
    const broken = join(tmp, "broken.yaml");
    writeFileSync(broken, "apis:\n  gamma@1.0.0:\n    root: specs/gamma/1.0.0/openapi.yaml\n");
    await expect(buildDocs({ outDir: join(tmp, "never"), configPath: broken })).rejects.toThrow(
      "bundled spec missing for gamma@1.0.0 (generated/gamma/1.0.0/openapi.yaml); run `npm run generate` first",
    );
    expect(existsSync(join(tmp, "never"))).toBe(false);
  });

  it("prints one error line and the hint, and exits 2, on a bad argument", async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      expect(await main(["--bogus"])).toBe(2);
    } finally {
      console.error = original;
    }
    expect(errors).toEqual(["error: unknown option '--bogus'", "(add --help for usage)"]);
  });
});
