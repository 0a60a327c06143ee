/**
 * release:lock — keeps releases.lock.yaml, the frozen contract of every released API.
 *
 *   tsx scripts/release-lock.ts check                     (default) exit 1 when a released contract changed
 *   tsx scripts/release-lock.ts release <alias...>        lock new releases
 *   tsx scripts/release-lock.ts correct <alias> --reason "<why>" [--date YYYY-MM-DD]
 *
 * `--config <redocly.yaml>` and `--lock <file>` point at another registry or lock (tests use them).
 */
import { Command } from "commander";
import { runProgram } from "./lib/cli.js";
import { checkLock, correct, LOCK_PATH, readLock, release, writeLock } from "./lib/release-lock.js";
import { findApi, loadRegistry } from "../src/registry.js";

const program = new Command("release:lock")
  .description("Frozen releases: check or update releases.lock.yaml")
  .option("--config <file>", "registry (redocly.yaml)")
  .option("--lock <file>", "lock file", LOCK_PATH)
  .exitOverride()
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

const registry = () => loadRegistry(program.opts().config);

program
  .command("check", { isDefault: true })
  .description("fail when a released API's bundled contract differs from its locked hash")
  .action(() => {
    const problems = checkLock(registry(), readLock(program.opts().lock));
    for (const problem of problems) console.error(problem.message);
    if (problems.length > 0) process.exitCode = 1;
    else console.log(`releases.lock.yaml: ${registry().length} released APIs unchanged`);
  });

program
  .command("release")
  .description("lock the current contract of new releases")
  .argument("<alias...>", "registry aliases, e.g. pay@1.4.0")
  .action((aliases: string[]) => {
    const entries = registry();
    const lockPath = program.opts().lock;
    writeLock(
      release(
        readLock(lockPath),
        aliases.map((a) => findApi(a, entries)),
      ),
      lockPath,
    );
    console.log(`locked ${aliases.join(", ")}`);
  });

program
  .command("correct")
  .description("record a deliberate correction to a released API (then run `npm run changelog`)")
  .argument("<alias>", "registry alias")
  .requiredOption("--reason <text>", "why the released contract had to change")
  .option("--date <YYYY-MM-DD>", "date of the correction", new Date().toISOString().slice(0, 10))
  .action((alias: string, options: { reason: string; date: string }) => {
    const lockPath = program.opts().lock;
    writeLock(correct(readLock(lockPath), findApi(alias, registry()), options.reason, options.date), lockPath);
    console.log(`recorded a correction to ${alias}; run \`npm run changelog\` to list it in the changelog`);
  });

await runProgram(program, import.meta.url);
