/**
 * `bank-api-contracts callback <alias> <webhook> --to <url>`: plays the provider and sends one of an
 * API's webhooks to your endpoint, with a schema-valid payload from the spec's examples and a fresh
 * Idempotency-Key; `--repeat N` delivers it N more times with the same key. Exits 0 when every
 * delivery got a 2xx answer, 1 otherwise, 2 on misuse.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { webhooksOf } from "../callbacks/webhooks.js";
import type { ApiEntry } from "../registry.js";
import { httpUrl, integer } from "./options.js";
import type { CliContext } from "./common.js";

/** The webhooks of every API, for the help text (read when the help is shown). */
function webhookHelp(registry: ApiEntry[]): string {
  const lines: string[] = [];
  for (const entry of registry) {
    let webhooks;
    try {
      webhooks = webhooksOf(entry);
    } catch {
      continue; // a missing bundle: the command itself reports it
    }
    for (const w of webhooks) {
      const statuses = w.statuses.length > 0 ? `; --status ${w.statuses.map((s) => `${s.code}|${s.status}`).join(", ")}` : "";
      const examples = w.examples.length > 0 ? `; examples ${w.examples.map((e) => e.name).join(", ")}` : "; no example in the spec";
      lines.push(`  ${entry.alias} ${w.name} (${w.method}${w.idempotencyKey ? `, ${w.idempotencyKey.name}` : ""}${examples}${statuses})`);
    }
  }
  return lines.length > 0 ? `\nWebhooks:\n${lines.join("\n")}` : "\nNo API of the registry declares a webhook.";
}

export function defineCallback(command: Command, ctx: CliContext): Command {
  return command
    .description(
      "Send one of an API's webhooks to your endpoint as the provider would: a schema-valid payload from the spec's examples, with a fresh Idempotency-Key",
    )
    .argument("<alias>", "API, e.g. payment-initiation@1.0.0")
    .argument("<webhook>", "webhook name (under `webhooks:` in the spec) or its operationId, e.g. transactionCompleted")
    .requiredOption("--to <url>", "your endpoint", httpUrl)
    .option("--status <status>", "status variant: a code or name of the webhook's status list (e.g. 12 or FLAGGED), or an example name")
    .option("--example <name>", "named example of the webhook to send (default: the first)")
    .option("--data <file>", "send this JSON payload instead of an example (- reads standard input); it must match the webhook's schema")
    .option("--key <value>", "Idempotency-Key to send (default: a fresh UUID when the spec names the header)")
    .option("--repeat <n>", "deliver the same callback, with the same key, n more times after the first", integer("--repeat", 0, 1000), 0)
    .addHelpText("after", () => webhookHelp(ctx.registry))
    .action(
      async (
        alias: string,
        webhook: string,
        options: { to: string; status?: string; example?: string; data?: string; key?: string; repeat: number },
        cmd: Command,
      ) => {
        const entry = ctx.registry.find((e) => e.alias === alias);
        if (!entry)
          cmd.error(`error: unknown API "${alias}"; known: ${ctx.registry.map((e) => e.alias).join(", ")}`, {
            exitCode: 2,
            code: "bank-api-contracts.unknownApi",
          });
        if (options.data !== undefined && (options.example !== undefined || options.status !== undefined)) {
          cmd.error("error: --data replaces the example: use it without --example and --status", {
            exitCode: 2,
            code: "bank-api-contracts.conflict",
          });
        }
        const known = webhooksOf(entry);
        if (!known.some((w) => w.name === webhook || w.operationId === webhook)) {
          const list = known.length > 0 ? `known: ${known.map((w) => w.name).join(", ")}` : "it declares no webhooks";
          cmd.error(`error: ${entry.alias} has no webhook "${webhook}"; ${list}`, {
            exitCode: 2,
            code: "bank-api-contracts.unknownWebhook",
          });
        }
        let payload: unknown;
        if (options.data !== undefined) {
          const name = options.data === "-" ? "standard input" : options.data;
          let text: string;
          try {
            text = readFileSync(options.data === "-" ? 0 : options.data, "utf8");
          } catch (error) {
            cmd.error(`error: cannot read ${name}: ${(error as Error).message}`, { exitCode: 2, code: "bank-api-contracts.input" });
          }
          try {
            payload = JSON.parse(text);
          } catch (error) {
            cmd.error(`error: ${name} is not JSON: ${(error as Error).message}`, { exitCode: 2, code: "bank-api-contracts.input" });
          }
        }
        // Validation needs Ajv (an optional peer dependency): loaded only by this command.
        const { buildCallbackPayload, sendCallback, CallbackPayloadError } = await import("../callbacks/send.js");
        let built;
        try {
          built = buildCallbackPayload(entry.alias, webhook, { status: options.status, example: options.example, payload });
        } catch (error) {
          if (error instanceof CallbackPayloadError)
            cmd.error(`error: ${error.message}`, { exitCode: 2, code: "bank-api-contracts.payload" });
          throw error;
        }
        process.stdout.write(`${entry.alias} ${built.webhook.name}: sending ${built.source} to ${options.to}\n`);
        const result = await sendCallback(entry.alias, webhook, {
          to: options.to,
          payload: built.payload,
          idempotencyKey: options.key,
          repeat: options.repeat,
          onDelivery(d) {
            const key = d.idempotencyKey
              ? ` Idempotency-Key: ${d.idempotencyKey}`
              : " (no Idempotency-Key: the spec does not name the header)";
            const outcome = d.error ? `failed: ${d.error}` : `${d.status} (${d.durationMs} ms)`;
            const body = d.status >= 200 && d.status < 300 ? "" : d.body ? `\n    ${d.body.slice(0, 2000).replace(/\n/g, "\n    ")}` : "";
            process.stdout.write(`  #${d.attempt} ${built.webhook.method}${key} -> ${outcome}${body}\n`);
          },
        });
        const count = `${result.deliveries.length} deliver${result.deliveries.length === 1 ? "y" : "ies"}`;
        process.stdout.write(
          `${entry.alias} ${built.webhook.name}: ${count}, ${result.ok ? "every one answered 2xx" : "not every one answered 2xx"}\n`,
        );
        if (!result.ok) ctx.exitCode = 1;
      },
    );
}
