/**
 * `npm run mock [-- [--port-base N] [--host H] [--sandbox] [alias...]]`: the package CLI's `mock`
 * command (src/cli), under this name. Starts the Prism mock of every API of the registry (or of the
 * aliases given; `--sandbox`: the stateful sandbox) on its default port, prints a table and runs
 * until SIGINT/SIGTERM (or until npm, which started it, is stopped: src/cli/stop.ts), then closes
 * the servers and exits 0. Bad arguments: one line and a hint on stderr, exit 2. A port in use or
 * a missing bundle: the error on stderr, exit 1.
 */
import { runMock } from "../src/cli/index.js";
import { isEntryPoint } from "./lib/cli.js";

/** Runs the script on `argv` (the arguments after it); the exit code (it returns once the mocks are stopped). */
export const main = (argv: string[]) => runMock(argv, "npm run mock --");

if (isEntryPoint(import.meta.url)) process.exit(await main(process.argv.slice(2)));
