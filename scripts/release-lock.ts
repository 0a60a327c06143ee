/**
 * release:lock — keeps releases.lock.yaml, the frozen contract of every released API.
 *
 *   tsx scripts/release-lock.ts check                     (default) exit 1 when a released contract changed
 *   tsx scripts/release-lock.ts release <alias...>        lock new releases
 *   tsx scripts/release-lock.ts correct <alias> --reason "<why>" [--date YYYY-MM-DD]
 *
 * `--config <redocly.yaml>` and `--lock <file>` point at another registry or lock (tests use them).
 * Exit 1 when the check fails, 2 on bad arguments (an unknown alias among them).
 */
import type { Command } from "commander";
import { runCommand, runProgram, script, selectApis } from "./lib/cli.js";
import { checkLock, correct, LOCK_PATH, readLock, release, writeLock } from "./lib/release-lock.js";
import { loadRegistry } from "../src/registry.js";

function program(): Command {
  const command = script("release:lock")
    .description("Frozen releases: check or update releases.lock.yaml")
    .option("--config <file>", "registry (default: redocly.yaml at the repository root)")
    .option("--lock <file>", "lock file (default: releases.lock.yaml at the repository root)");
  const registry = () => loadRegistry(command.opts().config);
  const lockPath = (): string => command.opts().lock ?? LOCK_PATH;

  command
    .command("check", { isDefault: true })
    .description("fail when a released API's bundled contract differs from its locked hash")
    .action(() => {
      const problems = checkLock(registry(), readLock(lockPath()));
      for (const problem of problems) console.error(problem.message);
      if (problems.length > 0) return 1;
      console.log(`releases.lock.yaml: ${registry().length} released APIs unchanged`);
      return 0;
    });

  command
    .command("release")
    .description("lock the current contract of new releases")
    .argument("<alias...>", "registry aliases, e.g. pay@1.4.0")
    .action(function (this: Command, aliases: string[]) {
      writeLock(release(readLock(lockPath()), selectApis(this, registry(), aliases)), lockPath());
      console.log(`locked ${aliases.join(", ")}`);
    });

  command
    .command("correct")
    .description("record a deliberate correction to a released API (then run `npm run changelog`)")
    .argument("<alias>", "registry alias")
    .requiredOption("--reason <text>", "why the released contract had to change")
    .option("--date <YYYY-MM-DD>", "date of the correction (default: today)")
    .action(function (this: Command, alias: string, options: { reason: string; date?: string }) {
      const [entry] = selectApis(this, registry(), [alias]);
      const date = options.date ?? new Date().toISOString().slice(0, 10);
      writeLock(correct(readLock(lockPath()), entry, options.reason, date), lockPath());
      console.log(`recorded a correction to ${alias}; run \`npm run changelog\` to list it in the changelog`);
    });
  return command;
}

/** Runs the script on `argv` (the arguments after it); the exit code. */
export const main = (argv: string[]) => runCommand(program(), argv);

await runProgram(program, import.meta.url);
