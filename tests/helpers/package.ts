/**
 * What the package tests (tests/e2e/package/) share:
 *
 * - `released()`: `npm run release -- --out <dir>` run once for the repository's current content,
 *   whichever test file asks first; the others wait for it and read its result (a lock folder, a
 *   result file keyed by a hash of every input of the package). Its tarball is what partners get.
 * - `startOfflineRegistry()`: an npm registry on 127.0.0.1 that serves, offline, every package of
 *   the repository's package-lock.json: the packuments built from the lock (versions, dependencies,
 *   integrity) and the tarballs from npm's cache, which installing this repository filled. With it a
 *   partner's install line runs exactly as written (`npm install ...`, `npx --package ...`): npm
 *   resolves versions and builds the tree itself, and nothing leaves the machine. One per run, which
 *   the `package` project's global setup starts.
 * - `npmEnv()`: an environment for such runs: npm pointed at that registry and at a cache, no
 *   audit, fund or update notices, and none of the npm_* variables of the `npm test` running us.
 * - `sharedNpmCache()`: the one npm cache every package test's installs and npx runs share (npm's
 *   cache is content-addressed and safe for concurrent npm processes): a tarball fetched by one
 *   install is not fetched again by the next, whichever file runs it.
 * - `readmeBlock()`: the code block after a marker comment naming a test, in README.md or a guide
 *   (tests/helpers/doc-blocks.ts).
 * - `packageRun()`: what the `package` project's global setup (tests/setup/package.ts) made for the
 *   run: the offline registry and one scratch folder, where `scratchFolder()` makes a file's own;
 *   `partnerEnv()`: `npmEnv()` for that registry and the shared cache.
 * - `partnerProject()`: the partner's project, made once per run by whichever file asks first (a
 *   lock in the run's folder): the install guide's lines run as written in an empty folder holding
 *   the tarball, and a copy of the folder taken between the two lines (the clients alone).
 *   install.test.ts checks how the lines ran and what they left; consumer.test.ts builds on both
 *   folders instead of installing again.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import {
  copyFileSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, get } from "node:http";
import { join } from "node:path";
import { inject } from "vitest";
import { repoRoot } from "../../src/registry.js";
import { markedBlock } from "./doc-blocks.js";
import { takeLock } from "./lock.js";

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `file args` to its end; never rejects (the exit code says how it went). */
export function exec(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string },
): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 0,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr), ms: Date.now() - started });
      },
    );
    child.stdin?.end(options.input ?? "");
  });
}

export function ok(result: Result, what: string): Result {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The environment of this process without what `npm test` and vitest set for themselves. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^VITEST/.test(key) && !/^npm_/i.test(key)));
}

/**
 * The npm cache the package tests share: `.tmp/package-npm-cache`, kept between runs (its tarballs
 * are addressed by integrity, so a stale entry is never used for other content; the packuments of
 * the offline registry are keyed by its URL, on a new port each run).
 */
export function sharedNpmCache(): string {
  const cache = join(repoRoot, ".tmp", "package-npm-cache");
  mkdirSync(cache, { recursive: true });
  return cache;
}

/** For npm run by a partner: the offline registry, the given cache, no audit, fund or update notice. */
export function npmEnv(registryUrl: string, cache: string): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    npm_config_registry: registryUrl,
    npm_config_cache: cache,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    NO_UPDATE_NOTIFIER: "1",
    REDOCLY_TELEMETRY: "off",
  };
}

/** The fenced block (```lang) after the marker comment that starts with `<!-- <test>` and holds `what`, in README.md or a guide. */
export const readmeBlock = (test: string, what: string, lang = "sh"): string => markedBlock(test, what, lang).code;

// ---------------------------------------------------------------------------------------------
// The release, once per content of the repository

export interface Released {
  /** The release command's result. */
  run: Result;
  /** Absolute path of the tarball it made. */
  tarball: string;
  filename: string;
}

/** Everything the release reads: the tracked and new files outside tests/, by content; node and npm. */
function inputsHash(): string {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.startsWith("tests/") && existsSync(join(repoRoot, f)))
    .sort();
  const hash = createHash("sha256").update(`${process.version}\n${execFileSync("npm", ["--version"], { encoding: "utf8" })}`);
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(repoRoot, file)));
  return hash.digest("hex").slice(0, 16);
}

/** `npm run release`, run (or waited for) once per content of the repository; see the module header. */
export async function released(): Promise<Released> {
  const root = join(repoRoot, ".tmp", "release-test");
  const key = inputsHash();
  const dir = join(root, key);
  const resultFile = join(dir, "result.json");
  const lock = join(root, `${key}.lock`);
  mkdirSync(root, { recursive: true });
  // Another test file releasing: wait for its result (or take over if it died).
  if (!(await takeLock(lock, () => existsSync(resultFile), 500))) return JSON.parse(readFileSync(resultFile, "utf8")) as Released;
  try {
    for (const old of readdirSync(root))
      if (old !== key && !old.endsWith(".lock")) rmSync(join(root, old), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const run = await exec(process.execPath, ["--import", "tsx", "scripts/release.ts", "--out", dir], { cwd: repoRoot, env: cleanEnv() });
    const filename = readdirSync(dir).find((f) => f.endsWith(".tgz")) ?? "";
    const result: Released = { run, tarball: join(dir, filename), filename };
    if (run.code === 0) writeFileSync(resultFile, JSON.stringify(result));
    return result;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** What `npm pack --json` says of a tarball, read from the tarball itself (no process). */
export interface TarballContents {
  /** Paths inside the package (without npm's `package/` prefix), in the tarball's order. */
  files: Array<{ path: string; size: number }>;
  size: number;
  unpackedSize: number;
  entryCount: number;
  /** `sha512-<base64>`, as in a package-lock.json. */
  integrity: string;
}

/** Reads a .tgz (ustar, with pax headers for long names) as npm pack writes it. */
export function tarballContents(tarball: string): TarballContents {
  const gz = readFileSync(tarball);
  const tar = gunzipSync(gz);
  const text = (at: number, length: number) =>
    tar
      .subarray(at, at + length)
      .toString("utf8")
      .replace(/\0.*$/s, "");
  const files: Array<{ path: string; size: number }> = [];
  let paxPath: string | undefined;
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = Number.parseInt(text(at + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(tar[at + 156] || 48);
    const prefix = text(at + 345, 155);
    const name = prefix ? `${prefix}/${text(at, 100)}` : text(at, 100);
    const body = at + 512;
    if (type === "x") paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(tar.subarray(body, body + size).toString("utf8"))?.[1];
    else {
      if (type === "0") files.push({ path: (paxPath ?? name).replace(/^package\//, ""), size });
      paxPath = undefined;
    }
    at = body + Math.ceil(size / 512) * 512;
  }
  return {
    files,
    size: gz.length,
    unpackedSize: files.reduce((total, file) => total + file.size, 0),
    entryCount: files.length,
    integrity: `sha512-${createHash("sha512").update(gz).digest("base64")}`,
  };
}

// ---------------------------------------------------------------------------------------------
// The offline registry

interface LockEntry {
  version: string;
  integrity?: string;
  link?: boolean;
  [field: string]: unknown;
}

/** Fields of a lock entry that are the package's own manifest (what a packument's version holds). */
const MANIFEST_FIELDS = [
  "dependencies",
  "optionalDependencies",
  "peerDependencies",
  "peerDependenciesMeta",
  "bin",
  "engines",
  "os",
  "cpu",
  "libc",
  "hasInstallScript",
  "license",
  "deprecated",
];

export interface OfflineRegistry {
  url: string;
  /** Every request path, in order. */
  requests: string[];
  /** Paths answered 404 (a package or version the repository's lock does not hold). */
  misses: string[];
  close(): Promise<void>;
}

/** semver order: major.minor.patch, then a release above its prereleases (which compare as text). */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => /^(\d+)\.(\d+)\.(\d+)(?:-([^+]*))?/.exec(v) ?? []);
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  if (x[4] === y[4]) return 0;
  if (x[4] === undefined) return 1;
  if (y[4] === undefined) return -1;
  return x[4] < y[4] ? -1 : 1;
}

/** Where a tarball of this integrity is in npm's cache (cacache's content-v2 layout). */
function cachedContent(cacheDir: string, integrity: string): string {
  const [algorithm, digest] = integrity.split(" ")[0].split("-");
  const hex = Buffer.from(digest, "base64").toString("hex");
  return join(cacheDir, "_cacache", "content-v2", algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
}

const SEEN_PATH = "/-/test/seen";

/** What the offline registry at `url` was asked so far: how many requests, and those it answered 404. */
export function registrySeen(url: string): Promise<{ requests: number; misses: string[] }> {
  const at = `${url}${SEEN_PATH.slice(1)}`;
  // No keep-alive agent: an idle socket to the registry would hold the test's worker open.
  return new Promise((resolve, reject) => {
    get(at, { agent: false }, (answer) => {
      let body = "";
      answer.on("data", (chunk) => (body += chunk));
      answer.on("end", () =>
        answer.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${at} answered ${answer.statusCode}`)),
      );
    }).on("error", reject);
  });
}

export async function startOfflineRegistry(): Promise<OfflineRegistry> {
  const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const cacheDir = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8", env: cleanEnv() }).trim();
  const byName = new Map<string, Map<string, LockEntry>>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key || entry.link || !entry.integrity) continue;
    const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
    if (!byName.has(name)) byName.set(name, new Map());
    byName.get(name)!.set(entry.version, entry);
  }
  const byContent = new Map<string, string>(); // hex digest -> integrity
  const requests: string[] = [];
  const misses: string[] = [];
  let url = "";

  const packument = (name: string) => {
    const versions = byName.get(name);
    if (!versions) return undefined;
    const sorted = [...versions.keys()].sort(compareVersions);
    const stable = sorted.filter((v) => !v.includes("-"));
    return {
      name,
      "dist-tags": { latest: (stable.length > 0 ? stable : sorted).at(-1) },
      versions: Object.fromEntries(
        sorted.map((version) => {
          const entry = versions.get(version)!;
          const hex = Buffer.from(entry.integrity!.split("-")[1], "base64").toString("hex");
          byContent.set(hex, entry.integrity!);
          const manifest: Record<string, unknown> = { name, version };
          for (const field of MANIFEST_FIELDS) if (entry[field] !== undefined) manifest[field] = entry[field];
          manifest.dist = { integrity: entry.integrity, tarball: `${url}-/content/${hex}.tgz` };
          return [version, manifest];
        }),
      ),
    };
  };

  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    // What it was asked so far, for a test in another process (`registrySeen`); npm never asks it.
    if (path === SEEN_PATH) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ requests: requests.length, misses }));
      return;
    }
    requests.push(path);
    const content = /^\/-\/content\/([0-9a-f]+)\.tgz$/.exec(path);
    if (content) {
      const integrity = byContent.get(content[1]);
      const file = integrity && cachedContent(cacheDir, integrity);
      if (file && existsSync(file)) {
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
        createReadStream(file).pipe(res);
        return;
      }
    } else if (req.method === "GET") {
      const doc = packument(path.slice(1));
      if (doc) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(doc));
        return;
      }
    }
    misses.push(`${req.method} ${path}`);
    res.writeHead(404, { "content-type": "application/json" });
    res.end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  return {
    url,
    requests,
    misses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// One run of the package tests: the registry, the scratch folder, the partner's project

/** What the `package` project's global setup (tests/setup/package.ts) made for the run. */
export interface PackageRun {
  /** The offline registry's URL, `http://127.0.0.1:<port>/`. */
  registryUrl: string;
  /** The run's scratch folder, outside the repository (no package.json above it), in memory where the machine allows (tests/setup/package.ts). */
  dir: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    packageRun: PackageRun;
  }
}

export function packageRun(): PackageRun {
  const run = inject("packageRun");
  if (!run?.registryUrl)
    throw new Error("no package run: tests/e2e/package runs in vitest's `package` project, whose global setup is tests/setup/package.ts");
  return run;
}

/** A new folder of a test's own in the run's scratch folder, e.g. `<run>/install-XXXXXX`; the run's teardown removes what is left. */
export const scratchFolder = (name: string): string => mkdtempSync(join(packageRun().dir, `${name}-`));

/** The environment of a partner's npm in this run: the run's registry, the shared cache. */
export const partnerEnv = (): NodeJS.ProcessEnv => npmEnv(packageRun().registryUrl, sharedNpmCache());

/** For an install or a tool run by a test: minutes when the machine is busy. */
const INSTALL_MS = 300_000;

/** The install guide's lines (docs/guides/installing.md): every line of the block that is not a comment. */
export const installLines = (): string[] =>
  readmeBlock("tests/e2e/package/install.test.ts", "runs these lines")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));

export interface PartnerProject {
  release: Released;
  /** The install guide's lines, in order, and how each ran (none after the first that failed). */
  runs: Array<{ line: string; result: Result }>;
  /** The empty folder holding the tarball that the lines ran in: the package and the test tools. */
  dir: string;
  /** A copy of `dir` taken after the first line (the tarball's): the clients alone, as a client-only partner has them. */
  clientOnly: string;
}

/**
 * The partner's project of this run, made by the first file that asks (under a lock in the run's
 * folder); the others wait and read what it made. Tests read both folders and never write into
 * them: a test that needs more (files of its own, tools) makes its own folder beside them.
 */
export async function partnerProject(): Promise<PartnerProject> {
  const run = packageRun();
  const root = join(run.dir, "partner");
  const resultFile = join(root, "result.json");
  const lock = join(run.dir, "partner.lock");
  mkdirSync(root, { recursive: true });
  if (!(await takeLock(lock, () => existsSync(resultFile), 500))) return JSON.parse(readFileSync(resultFile, "utf8")) as PartnerProject;
  try {
    const release = await released();
    const made: PartnerProject = { release, runs: [], dir: join(root, "project"), clientOnly: join(root, "client-only") };
    if (release.run.code === 0) {
      mkdirSync(made.dir, { recursive: true });
      copyFileSync(release.tarball, join(made.dir, release.filename));
      for (const [index, line] of installLines().entries()) {
        const result = await exec("sh", ["-c", line], { cwd: made.dir, env: partnerEnv(), timeoutMs: INSTALL_MS });
        made.runs.push({ line, result });
        if (result.code !== 0) break;
        // npm's bin links are relative: copied as they are, they lead into the copy.
        if (index === 0) cpSync(made.dir, made.clientOnly, { recursive: true, verbatimSymlinks: true });
      }
    }
    writeFileSync(resultFile, JSON.stringify(made));
    return made;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The partner's project, failing (with the output) if the release or any of the lines failed: for the tests that build on it. */
export async function installedPartnerProject(): Promise<PartnerProject> {
  const made = await partnerProject();
  ok(made.release.run, "npm run release");
  for (const { line, result } of made.runs) ok(result, line);
  return made;
}
