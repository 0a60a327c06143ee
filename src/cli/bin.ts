#!/usr/bin/env node
/** `bank-api-contracts`: the package's command line (see ./index.ts, or `bank-api-contracts --help`). */
import { run } from "./index.js";

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bank-api-contracts: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
