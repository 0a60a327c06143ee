/**
 * `npm run mock [-- [--port-base N] [--host H] [--sandbox] [alias...]]`: the package CLI's `mock`
 * command (src/cli), under this name. Starts the Prism mock of every API of the registry (or of the
 * aliases given; `--sandbox`: the stateful sandbox) on its default port, prints a table and runs
 * until SIGINT/SIGTERM, then closes the servers
 * and exits 0. Bad arguments: usage on stderr, exit 2. A port in use or a missing bundle: the error
 * on stderr, exit 1.
 */
import { runMock } from "../src/cli/index.js";

process.exit(await runMock(process.argv.slice(2), "npm run mock --"));
