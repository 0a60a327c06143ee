/** `bank-api-contracts list [--json]`: every API of the registry with its operation count and default port. */
import type { Command } from "commander";
import { operations, loadDocument } from "../document/index.js";
import { type ApiEntry, defaultPort } from "../registry.js";
import { type CliContext, CliFailure, table } from "./common.js";

/** Operations the mock serves: paths x methods of the bundled spec (webhooks are not served). */
function countOperations(entry: ApiEntry): number {
  try {
    return operations(loadDocument(entry.bundlePath)).length;
  } catch (error) {
    throw new CliFailure(`${entry.alias}: ${(error as Error).message}`);
  }
}

export function defineList(command: Command, ctx: CliContext): Command {
  return command
    .description("List every API: alias, service, release, operation count and default mock port")
    .option("--json", "print JSON instead of a table")
    .action((options: { json?: boolean }) => {
      const rows = ctx.registry.map((entry) => ({
        alias: entry.alias,
        api: entry.service,
        release: entry.release,
        latest: entry.latest,
        operations: countOperations(entry),
        port: defaultPort(entry),
      }));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        table([
          ["ALIAS", "API", "RELEASE", "OPERATIONS", "PORT"],
          ...rows.map((r) => [r.alias, r.api, r.release + (r.latest ? "" : " (older)"), String(r.operations), String(r.port)]),
        ]),
      );
    });
}
