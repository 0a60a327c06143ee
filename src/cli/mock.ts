/**
 * `bank-api-contracts mock [alias...] [--sandbox]` (also `npm run mock`): every API's contract mock on
 * its default port; with `--sandbox`, the stateful sandbox (src/sandbox/) on the same ports.
 */
import type { Command } from "commander";
import { DEFAULT_PORT_BASE } from "../registry.js";
import { type CliContext, CliFailure, closeAll, lookup, needs, table, untilSignal } from "./common.js";
import { integer } from "./options.js";

/** `mock [alias...]`: also what `npm run mock` runs. */
export function defineMock(command: Command, ctx: CliContext): Command {
  const maxBase = 65536 - ctx.registry.length;
  return command
    .description(
      "Serve the contract mock (Prism, the spec's examples) of each API given, default all, each on its default port; Ctrl-C stops",
    )
    .argument("[alias...]", "APIs to serve (default: all)")
    .option(
      "--port-base <n>",
      `first port; the APIs take N, N+1, ... in registry order`,
      integer("--port-base", 1, maxBase),
      DEFAULT_PORT_BASE,
    )
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option(
      "--sandbox",
      "stateful sandbox: keep what each credential creates, move statuses, send callbacks; control API under /_sandbox/ on each port",
    )
    .action(async (aliases: string[], options: { portBase: number; host: string; sandbox?: boolean }, cmd: Command) => {
      const entries = aliases.length > 0 ? lookup(cmd, ctx, aliases) : ctx.registry;
      // Handlers first, so that a signal during start-up also ends the run cleanly.
      const { signal, dispose } = untilSignal();
      const { startMocks } = await needs("prism", () => import("../mock/index.js"));
      const started = Date.now();
      let mocks;
      try {
        mocks = await startMocks(entries, { portBase: options.portBase, host: options.host, sandbox: options.sandbox === true });
      } catch (error) {
        dispose();
        throw new CliFailure((error as Error).message);
      }
      process.stdout.write(
        table([
          ["API", "URL", "OPERATIONS", "AUTH"],
          ...mocks.map((m) => [m.alias, m.url, String(m.operations), m.auth.join(", ") || "none"]),
        ]) +
          `\n${mocks.length} mock(s) ready${options.sandbox ? " in sandbox mode" : ""} in ${Date.now() - started} ms. Request violations are in the sl-violations response header.` +
          `${options.sandbox ? " Sandbox control API: <url>/_sandbox (described at <url>/_sandbox/openapi.yaml)." : ""} Ctrl+C stops.\n`,
      );
      const received = await signal;
      dispose();
      process.stdout.write(`\n${received}: stopping the mocks\n`);
      await closeAll(mocks);
    });
}
