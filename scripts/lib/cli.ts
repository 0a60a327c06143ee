/**
 * Running a script's commander program: only when the module is the entry point (tests import the
 * scripts' functions), with the exit codes every script uses: 0 done (or --help), 1 a failure, 2 a
 * usage error (commander already printed the usage with it; an unknown API alias counts as one).
 */
import { pathToFileURL } from "node:url";
import { type Command, CommanderError } from "commander";

export async function runProgram(program: Command, moduleUrl: string): Promise<void> {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  try {
    await program.parseAsync();
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    const message = error instanceof Error ? error.message : String(error);
    console.error(message);
    process.exit(message.startsWith("unknown API") ? 2 : 1);
  }
}
