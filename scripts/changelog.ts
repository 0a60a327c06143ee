/**
 * changelog — writes specs/<service>/CHANGELOG.md for every service of the registry: consecutive
 * releases compared with Optic (scripts/lib/changelog.ts), corrections from releases.lock.yaml.
 *
 *   tsx scripts/changelog.ts [--check] [--config <redocly.yaml>] [service ...]
 *
 * `--check` writes nothing and exits 1 when a changelog is missing or stale; exit 2 on bad arguments
 * (an unknown service among them).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parse } from "yaml";
import { diffReleases, type ReleaseDiff, renderChangelog } from "./lib/changelog.js";
import { type ApiEntry, loadRegistry, repoRoot } from "../src/registry.js";
import { misuse, runCommand, runProgram, script } from "./lib/cli.js";
import { readLock } from "./lib/release-lock.js";

const byRelease = (a: ApiEntry, b: ApiEntry) => {
  const x = a.release.split(".").map(Number);
  const y = b.release.split(".").map(Number);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The changelog of every service (or of the given ones): path -> expected content. */
export async function buildChangelogs(entries: ApiEntry[], services?: string[]): Promise<Map<string, string>> {
  const lock = readLock();
  const result = new Map<string, string>();
  const wanted = [...new Set(entries.map((e) => e.service))].filter((s) => !services?.length || services.includes(s));
  for (const service of wanted) {
    const releases = entries.filter((e) => e.service === service).sort(byRelease);
    const docs = new Map(releases.map((e) => [e.alias, parse(readFileSync(e.bundlePath, "utf8"))]));
    const diffs: ReleaseDiff[] = [];
    for (let i = 1; i < releases.length; i++) diffs.push(await diffReleases(releases[i - 1], releases[i]));
    const folder = dirname(dirname(releases[0].rootPath)); // specs/<service>
    result.set(join(folder, "CHANGELOG.md"), renderChangelog(service, releases, diffs, lock, docs));
  }
  return result;
}

function program() {
  const command = script("changelog")
    .description("Write specs/<service>/CHANGELOG.md from the registry's releases")
    .argument("[service...]", "services to write (default: all)")
    .option("--check", "write nothing; exit 1 when a changelog is missing or stale")
    .option("--config <file>", "registry (default: redocly.yaml at the repository root)")
    .action(async (services: string[], options: { check?: boolean; config?: string }) => {
      const entries = loadRegistry(options.config);
      const known = new Set(entries.map((e) => e.service));
      const unknown = services.filter((s) => !known.has(s));
      if (unknown.length) misuse(command, `unknown service ${unknown.join(", ")}; known: ${[...known].join(", ")}`);
      const stale: string[] = [];
      for (const [path, content] of await buildChangelogs(entries, services)) {
        const name = relative(repoRoot, path);
        if (options.check) {
          if (!existsSync(path) || readFileSync(path, "utf8") !== content) stale.push(name);
        } else {
          writeFileSync(path, content);
          console.log(`wrote ${name}`);
        }
      }
      if (stale.length === 0) return 0;
      console.error(`stale changelogs (run \`npm run changelog\`): ${stale.join(", ")}`);
      return 1;
    });
  return command;
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
