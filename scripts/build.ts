/**
 * Builds the published package from the registry (redocly.yaml `apis:`):
 *
 *   npm run build            write package.json's exports/main/types/bin/files when they are stale,
 *                            then compile src/ and generated/ (tsconfig.build.json) into dist/
 *   npm run check:package    exit 1, naming the fields, when package.json's exports and the rest
 *                            differ from what the registry gives (nothing is written)
 *
 * `npm pack` runs the build first (prepack). The compiler writes into a fresh folder, and dist/ is
 * then made to hold exactly its files (changed ones replaced by a rename, extra ones removed), so no
 * file of an API that left the registry remains, and builds running side by side (the package
 * tests pack in parallel) never see a missing or half-written dist/.
 * Exit 1 on a failure (a stale package.json with --check, a compiler error), 2 on bad arguments.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { type ApiEntry, loadRegistry, repoRoot } from "../src/registry.js";
import { runCommand, runProgram, script } from "./lib/cli.js";

/** Subpaths the package itself uses; a service of the same name would shadow them. */
const RESERVED = new Set(["testing", "callbacks", "specs", "workflows", "package.json"]);

const conditions = (file: string) => ({ types: `./dist/${file}.d.ts`, default: `./dist/${file}.js` });

/** The package.json fields derived from the registry, in the order they are written. */
export function manifestFields(registry: ApiEntry[]) {
  for (const entry of registry) {
    if (RESERVED.has(entry.service))
      throw new Error(`${entry.alias}: the service name "${entry.service}" would shadow the package's own ./${entry.service} subpath`);
  }
  // Per service, in registry order: `./<service>` (its newest release), then `./<service>/<release>`.
  const clients: Record<string, ReturnType<typeof conditions>> = {};
  for (const service of new Set(registry.map((e) => e.service))) {
    const releases = registry.filter((e) => e.service === service);
    const latest = releases.find((e) => e.latest)!;
    clients[`./${service}`] = conditions(`${latest.generatedDir}/client`);
    for (const entry of releases) clients[`./${service}/${entry.release}`] = conditions(`${entry.generatedDir}/client`);
  }
  const specs = Object.fromEntries(
    registry.map((entry) => [`./specs/${entry.service}/${entry.release}/openapi.yaml`, `./${entry.generatedDir}/openapi.yaml`]),
  );
  return {
    main: "./dist/src/client/index.js",
    types: "./dist/src/client/index.d.ts",
    exports: {
      ".": conditions("src/client/index"),
      "./testing": conditions("src/testing/index"),
      "./callbacks": conditions("src/callbacks/index"),
      ...clients,
      ...specs,
      "./package.json": "./package.json",
    },
    bin: { "bank-api-contracts": "dist/src/cli/bin.js" },
    // The Arazzo workflows (`bank-api-contracts workflows`) point at the bundles by relative path; the
    // sandbox (`mock --sandbox`) reads each API's declaration beside its root spec and serves its
    // control API's document from src/sandbox/. The README links the guides (docs/guides/), which ship
    // beside it so that every link of the packed README resolves.
    files: [
      "dist/src",
      "dist/generated",
      "generated/*/*/openapi.yaml",
      "redocly.yaml",
      "workflows/*.yaml",
      "workflows/sandbox/*.yaml",
      "specs/*/CHANGELOG.md",
      "specs/*/*/sandbox.yaml",
      "src/sandbox/openapi.yaml",
      "docs/guides/*.md",
    ],
  };
}

type Manifest = Record<string, unknown>;
const packagePath = join(repoRoot, "package.json");
const readManifest = (): Manifest => JSON.parse(readFileSync(packagePath, "utf8"));

/** The fields of package.json that differ from the registry's. */
export function staleFields(manifest: Manifest, registry: ApiEntry[]): string[] {
  const expected = manifestFields(registry);
  return (
    Object.entries(expected)
      // Compared as JSON text: key order matters in exports (conditions are tried in order).
      .filter(([key, value]) => JSON.stringify(manifest[key]) !== JSON.stringify(value))
      .map(([key]) => key)
  );
}

/** Writes the registry's fields into package.json (keeping every other field and the key order). */
function writeManifest(manifest: Manifest, registry: ApiEntry[]): void {
  const next = { ...manifest, ...manifestFields(registry) };
  writeFileSync(packagePath, `${JSON.stringify(next, null, 2)}\n`);
}

const run = promisify(execFile);

async function compile(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
  const out = mkdtempSync(join(repoRoot, ".tmp", "build-"));
  try {
    await run(process.execPath, [tsc, "-p", join(repoRoot, "tsconfig.build.json"), "--outDir", out], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -p tsconfig.build.json failed:\n${stdout ?? ""}${stderr ?? ""}`.trim());
  }
  chmodSync(join(out, "src/cli/bin.js"), 0o755);
  try {
    syncInto(out, join(repoRoot, "dist"));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Makes `dist` hold exactly the files of `built`: a file whose content or mode differs is replaced
 * by a rename (atomic), one that is missing is added, one `built` lacks is removed; an unchanged
 * file is left alone. So a build that changes nothing changes nothing, and a second build (or an
 * `npm pack` reading dist/) running at the same time never sees dist/ missing or half-written.
 */
function syncInto(built: string, dist: string): void {
  const files = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((d) => d.isFile())
          .map((d) => relative(dir, join(d.parentPath, d.name)))
      : [];
  const wanted = new Set(files(built));
  for (const file of wanted) {
    const from = join(built, file);
    const to = join(dist, file);
    if (existsSync(to) && statSync(to).mode === statSync(from).mode && readFileSync(to).equals(readFileSync(from))) continue;
    mkdirSync(dirname(to), { recursive: true });
    const staged = `${to}.${process.pid}.tmp`;
    copyFileSync(from, staged);
    chmodSync(staged, statSync(from).mode);
    renameSync(staged, to);
  }
  for (const file of files(dist)) if (!wanted.has(file)) rmSync(join(dist, file), { force: true });
}

/** `npm run build` (or `--check`: `npm run check:package`); the exit code. */
async function build(check: boolean): Promise<number> {
  const registry = loadRegistry();
  const manifest = readManifest();
  const stale = staleFields(manifest, registry);
  if (check) {
    if (stale.length > 0) {
      console.error(`package.json is out of date with the registry: ${stale.join(", ")}.\nRun \`npm run build\` and commit package.json.`);
      return 1;
    }
    console.log(`package.json is up to date (${registry.length} APIs).`);
    return 0;
  }
  if (stale.length > 0) {
    writeManifest(manifest, registry);
    console.error(`package.json: wrote ${stale.join(", ")}`);
  }
  const started = Date.now();
  await compile();
  // Progress on stderr: `npm pack --json` (prepack) keeps stdout for its own report.
  console.error(
    `dist/: compiled ${registry.length} APIs, the client runtime, the testing entry and the CLI in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}

function program() {
  return script("build")
    .description(
      "Write package.json's exports, main, types, bin and files from the registry (when stale), then compile the package into dist/",
    )
    .option("--check", "only compare package.json with the registry; exit 1 naming what is stale (nothing is written)")
    .action((options: { check?: boolean }) => build(options.check === true));
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
