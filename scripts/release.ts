/**
 * `npm run release [-- --out DIR]`: the tarball partners install, made the same way every time.
 *
 * 1. The checks a release depends on, side by side: package.json's exports, bin and files match the
 *    registry (`check:package`), generated/ is fresh (`check:generated`), no released contract
 *    changed (`release:lock`), the changelogs are fresh (`check:changelog`). Types, lint and the
 *    tests are `npm test`'s, which CI runs on the same commit before a release.
 * 2. `npm run build` (dist/), then `npm pack` into DIR (default: the repository's root).
 * 3. The tarball itself: every target of package.json's `exports` and `bin` is in it, and nothing
 *    else of the repository than `files` names (no sources, tests or specs' sources); publint
 *    (strict) passes; `npm publish --dry-run` accepts it.
 *
 * Prints the tarball's path, size and integrity, and exits 0; the first failed step is named with
 * its output, exit 1. Bad arguments: one line and a hint, exit 2. Nothing is published: that is
 * `npm publish <tarball>` from CI (provenance, see README "Installing the package").
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { repoRoot } from "../src/registry.js";
import { runCommand, runProgram, script } from "./lib/cli.js";

interface Step {
  code: number;
  stdout: string;
  output: string;
  ms: number;
}

function exec(file: string, args: string[]): Promise<Step> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(file, args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : 1) : 0;
      done({ code, stdout, output: `${stdout}${stderr}`.trim(), ms: Date.now() - started });
    });
  });
}

class StepFailed extends Error {}

function ok(name: string, step: Step): Step {
  if (step.code !== 0) throw new StepFailed(`${name} failed (exit ${step.code}):\n${step.output}`);
  process.stdout.write(`  ok  ${name} (${(step.ms / 1000).toFixed(1)} s)\n`);
  return step;
}

const CHECKS: Array<[string, string]> = [
  ["package.json matches the registry", "check:package"],
  ["generated/ is fresh", "check:generated"],
  ["no released contract changed", "release:lock"],
  ["the changelogs are fresh", "check:changelog"],
];

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  integrity: string;
  files: Array<{ path: string }>;
}

/** Source-tree files the installed package reads at run time: each API's sandbox declaration and the sandbox's control API document. */
const RUNTIME_DATA = [/^specs\/[^/]+\/[^/]+\/sandbox\.yaml$/, /^src\/sandbox\/openapi\.yaml$/];

/** The files package.json's exports and bin point at. */
function entryFiles(manifest: { exports: Record<string, unknown>; bin: Record<string, string> }): string[] {
  const targets = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(targets) : [];
  return [...Object.values(manifest.exports).flatMap(targets), ...Object.values(manifest.bin)].map((path) => path.replace(/^\.\//, ""));
}

async function release(out: string): Promise<void> {
  process.stdout.write("release: checks\n");
  const checks = await Promise.all(CHECKS.map(([, script]) => exec("npm", ["run", "-s", script])));
  for (const [index, [name, script]] of CHECKS.entries()) ok(`${name} (npm run ${script})`, checks[index]);

  process.stdout.write("release: build and pack\n");
  ok("npm run build", await exec("npm", ["run", "-s", "build"]));
  mkdirSync(out, { recursive: true });
  const pack = ok("npm pack", await exec("npm", ["pack", "--ignore-scripts", "--json", "--loglevel", "error", "--pack-destination", out]));
  const [packed] = JSON.parse(pack.stdout) as Packed[];
  const tarball = join(out, packed.filename);

  process.stdout.write("release: the tarball\n");
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
  const files = new Set(packed.files.map((f) => f.path));
  const missing = entryFiles(manifest).filter((path) => !files.has(path));
  const stray = [...files].filter(
    (path) =>
      (/^(src|scripts|tests|spectral)\//.test(path) || /^specs\/.*\.yaml$/.test(path)) && !RUNTIME_DATA.some((data) => data.test(path)),
  );
  if (missing.length > 0 || stray.length > 0) {
    throw new StepFailed(
      `${packed.filename}: ${missing.length > 0 ? `exports or bin point at files it lacks: ${missing.join(", ")}` : ""}${missing.length > 0 && stray.length > 0 ? "; " : ""}${stray.length > 0 ? `holds files that are not the package's: ${stray.join(", ")}` : ""}`,
    );
  }
  process.stdout.write(`  ok  every export and bin target is in it, and no source (${packed.entryCount} files)\n`);
  ok("publint --strict", await exec(join(repoRoot, "node_modules/.bin/publint"), ["run", tarball, "--strict"]));
  // --offline: the dry run needs no registry (it would only look up the versions already published).
  ok("npm publish --dry-run", await exec("npm", ["publish", tarball, "--dry-run", "--offline", "--ignore-scripts"]));

  process.stdout.write(
    [
      "",
      `release: ${relative(process.cwd(), tarball) || tarball}`,
      `  ${manifest.name}@${manifest.version}, ${packed.size} bytes (${packed.unpackedSize} unpacked, ${packed.entryCount} files)`,
      `  ${packed.integrity}`,
      "  Send it to partners as it is, or publish it from CI: npm publish <tarball> (provenance needs GitHub Actions or GitLab CI).",
      "",
    ].join("\n"),
  );
}

function program() {
  return script("release")
    .description(
      "Run the release checks, build, pack bank-api-contracts-<version>.tgz into DIR and check the tarball (contents, publint, npm publish --dry-run)",
    )
    .option("--out <dir>", "where the tarball is written (default: the repository's root)")
    .action(async (options: { out?: string }) => {
      try {
        await release(resolve(options.out ?? repoRoot));
        return 0;
      } catch (error) {
        if (!(error instanceof StepFailed)) throw error;
        process.stderr.write(`release: ${error.message}\n`);
        return 1;
      }
    });
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
