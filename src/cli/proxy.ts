/** `bank-api-contracts proxy <alias> --upstream <url>`: Prism's validating proxy in front of a real server. */
import type { Command } from "commander";
import { defaultPort } from "../registry.js";
import { type CliContext, CliFailure, closeAll, lookup, needs, untilSignal, withPortOption } from "./common.js";
import { httpUrl, integer } from "./options.js";

export function defineProxy(command: Command, ctx: CliContext): Command {
  return command
    .description(
      "Validating proxy (Prism) in front of a real server: forwards every request to the upstream and reports each request or response that breaks the contract; Ctrl-C stops",
    )
    .argument("<alias>", "API whose contract applies, e.g. pay@1.3.0")
    .requiredOption("--upstream <url>", "base URL of the real server (the sandbox); request paths are appended to it", httpUrl)
    .option("--port <n>", "port to listen on (default: the API's default mock port)", integer("--port", 0, 65535))
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .addHelpText(
      "after",
      "\nEach exchange prints one line, then one line per finding:\n  GET /v1/merchant -> 200: 1 violation(s)\n    response.body.name: Response body property name must be string\n" +
        "The findings also reach the client in the sl-violations response header (a JSON array).",
    )
    .action(async (alias: string, options: { upstream: string; port?: number; host: string }, cmd: Command) => {
      const [entry] = lookup(cmd, ctx, [alias]);
      const { signal, dispose } = untilSignal();
      const { startProxy } = await needs("prism", () => import("../proxy/index.js"));
      let proxy;
      try {
        proxy = await startProxy(entry, {
          upstream: options.upstream,
          port: options.port ?? defaultPort(entry),
          host: options.host,
          onExchange(exchange) {
            const outcome = exchange.error
              ? `failed: ${exchange.error}`
              : exchange.violations.length === 0
                ? "ok"
                : `${exchange.violations.length} violation(s)`;
            const lines = [`${exchange.method} ${exchange.url} -> ${exchange.status ?? "-"}: ${outcome}`];
            for (const v of exchange.violations)
              lines.push(`    ${v.location.join(".")}: ${v.message}${v.severity === "Error" ? "" : ` (${v.severity.toLowerCase()})`}`);
            process.stdout.write(`${lines.join("\n")}\n`);
          },
        });
      } catch (error) {
        dispose();
        throw new CliFailure(withPortOption(error, "choose another port with --port <n>"));
      }
      process.stdout.write(
        `${entry.alias} proxy ready: ${proxy.url} -> ${proxy.upstream}. Violations are printed below and sent in the sl-violations response header. Ctrl+C stops.\n`,
      );
      const received = await signal;
      dispose();
      process.stdout.write(`\n${received}: stopping the proxy\n`);
      await closeAll([proxy]);
    });
}
