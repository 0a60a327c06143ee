/**
 * `bank-api-contracts mock [alias...] [--sandbox]` (also `npm run mock`): every API's contract mock on
 * its default port; with `--sandbox`, the stateful sandbox (src/sandbox/) on the same ports, sharing
 * one memory budget; `--callback-allow`, `--operator-token-file`, `--sandbox-memory`,
 * `--sandbox-evict-idle`, `--sandbox-queue` and `--sandbox-queue-total` set how it is shared
 * (docs/guides/hosting.md); `--sandbox-store` where its state lives (docs/guides/sandbox-state.md).
 *
 * `--sandbox --hosted`: the sandbox as a provider hosts it for its partners (src/hosted/). It needs
 * the operator's token (its file or the environment; without one: one line, exit 2), says which
 * store it runs on, guards the connections (`--headers-timeout`, `--request-timeout`,
 * `--keep-alive-timeout`, `--max-connections`, `--max-connections-per-address`), and writes one JSON
 * log line per request to standard output: its own messages go to standard error then. On SIGTERM its
 * health state goes to draining (what the health check answers, 503) before the mocks close.
 */
import { readFileSync } from "node:fs";
import { type Command, CommanderError, InvalidArgumentError } from "commander";
import { DEFAULT_PORT_BASE } from "../registry.js";
import { type CliContext, CliFailure, closeAll, lookup, needs, table, untilSignal, withPortOption } from "./common.js";
import { integer, seconds } from "./options.js";
import { OPERATOR_TOKEN_ENV, OperatorToken } from "../sandbox/operator.js";
import { SHARED_BOUNDS } from "../sandbox/shared.js";
import { LIMITS, SandboxBudget } from "../sandbox/store/limits.js";
import { CONNECTION_SETTINGS } from "../hosted/connections.js";
import { STORE_ENV, storeAddressFrom, urlSecrets } from "../sandbox/store/open.js";
import { CALLBACK_ALLOW_ENV, parseCallbackAllow } from "../sandbox/targets.js";

/**
 * How long stopping waits in sandbox mode: its requests in flight answered (src/sandbox/start.ts
 * DRAIN_MS), the callback attempts in flight recorded, a durable store closed, the connections ended.
 */
const SANDBOX_STOP_MS = 20_000;

/** `--callback-allow`: entries separated by commas, the option repeatable. */
const callbackTargets = (value: string, previous: string[] = []): string[] => {
  try {
    return [...previous, ...parseCallbackAllow(value)];
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};

interface MockCliOptions {
  portBase: number;
  host: string;
  sandbox?: boolean;
  callbackAllow?: string[];
  operatorTokenFile?: string;
  sandboxMemory?: number;
  sandboxEvictIdle?: number;
  sandboxQueue?: number;
  sandboxQueueTotal?: number;
  hosted?: boolean;
  headersTimeout?: number;
  requestTimeout?: number;
  keepAliveTimeout?: number;
  maxConnections?: number;
  maxConnectionsPerAddress?: number;
  sandboxStore?: string;
}

const SHARED_FLAGS = [
  "callbackAllow",
  "operatorTokenFile",
  "sandboxMemory",
  "sandboxEvictIdle",
  "sandboxQueue",
  "sandboxQueueTotal",
  "hosted",
  "sandboxStore",
] as const;

/** Hosted mode's flags: each needs --hosted. */
const HOSTED_FLAGS = ["headersTimeout", "requestTimeout", "keepAliveTimeout", "maxConnections", "maxConnectionsPerAddress"] as const;

const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Hosted mode's options from its flags: the connection guards given (ms), each checked against its bounds by the flag's parser. */
function hostedOptions(options: MockCliOptions, cmd: Command) {
  const given = HOSTED_FLAGS.filter((k) => options[k] !== undefined);
  if (!options.hosted) {
    if (given.length > 0) cmd.error(`error: ${flag(given[0])} needs --hosted`);
    return undefined;
  }
  const connections = {
    ...(options.headersTimeout === undefined ? {} : { headersTimeoutMs: options.headersTimeout * 1000 }),
    ...(options.requestTimeout === undefined ? {} : { requestTimeoutMs: options.requestTimeout * 1000 }),
    ...(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeoutMs: options.keepAliveTimeout * 1000 }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.maxConnectionsPerAddress === undefined ? {} : { maxConnectionsPerAddress: options.maxConnectionsPerAddress }),
  };
  const headers = connections.headersTimeoutMs ?? CONNECTION_SETTINGS.headersTimeoutMs.default;
  const request = connections.requestTimeoutMs ?? CONNECTION_SETTINGS.requestTimeoutMs.default;
  if (headers > request) cmd.error(`error: --headers-timeout (${headers / 1000}) must not exceed --request-timeout (${request / 1000})`);
  return { connections };
}

/**
 * The sandbox options of the command line: one budget for every mock started; the token read from
 * its file (or the environment), never from argv. A problem is misuse: one line and the hint, exit 2.
 */
function sandboxOptions(options: MockCliOptions, cmd: Command) {
  const given = SHARED_FLAGS.filter((k) => options[k] !== undefined);
  if (!options.sandbox) {
    if (given.length > 0) cmd.error(`error: ${flag(given[0])} needs --sandbox`);
    hostedOptions(options, cmd);
    return false;
  }
  const hosted = hostedOptions(options, cmd);
  let operatorToken: string | undefined;
  if (options.operatorTokenFile !== undefined) {
    try {
      operatorToken = readFileSync(options.operatorTokenFile, "utf8").trim();
    } catch (error) {
      cmd.error(`error: cannot read --operator-token-file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (operatorToken === "") cmd.error("error: --operator-token-file is empty");
  }
  try {
    const token = OperatorToken.from(operatorToken);
    if (hosted && !token)
      cmd.error(`error: --hosted needs an operator token: set $${OPERATOR_TOKEN_ENV} or give --operator-token-file <path>`);
    parseCallbackAllow(process.env[CALLBACK_ALLOW_ENV]);
  } catch (error) {
    if (error instanceof CommanderError) throw error;
    cmd.error(`error: ${(error as Error).message}`);
  }
  // Where the state lives: checked now (a password is never repeated), opened when the mocks start.
  if (options.sandboxStore !== undefined && urlSecrets(options.sandboxStore).length > 0)
    cmd.error(
      `error: --sandbox-store: a password on the command line is visible to every user of the machine; put the address in $${STORE_ENV}, or the password in PGPASSWORD`,
    );
  try {
    storeAddressFrom(options.sandboxStore);
  } catch (error) {
    cmd.error(`error: ${(error as Error).message}`);
  }
  const queue = options.sandboxQueue ?? LIMITS.deliveryQueue;
  const total = options.sandboxQueueTotal ?? LIMITS.deliveryQueueTotal;
  if (queue > total) cmd.error(`error: --sandbox-queue (${queue}) must not exceed --sandbox-queue-total (${total})`);
  return {
    ...(options.callbackAllow ? { callbackAllow: options.callbackAllow } : {}),
    ...(operatorToken ? { operatorToken } : {}),
    budget: new SandboxBudget(options.sandboxMemory === undefined ? undefined : options.sandboxMemory * 1024 * 1024),
    ...(options.sandboxEvictIdle === undefined ? {} : { evictIdleSeconds: options.sandboxEvictIdle }),
    ...(options.sandboxQueue === undefined ? {} : { deliveryQueue: options.sandboxQueue }),
    ...(options.sandboxQueueTotal === undefined ? {} : { deliveryQueueTotal: options.sandboxQueueTotal }),
    ...(hosted ? { hosted } : {}),
    ...(options.sandboxStore === undefined ? {} : { store: options.sandboxStore }),
  };
}

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
    .option(
      "--callback-allow <targets>",
      `sandbox bound to a non-loopback --host: the hosts, *.domains, addresses and CIDR networks callbacks may reach, comma separated (default: $${CALLBACK_ALLOW_ENV}, else none)`,
      callbackTargets,
    )
    .option(
      "--operator-token-file <path>",
      `sandbox: a file holding the operator token that GET/DELETE /_sandbox/state/all need (or set $${OPERATOR_TOKEN_ENV}; never the token itself on the command line)`,
    )
    .option(
      "--sandbox-memory <MiB>",
      "sandbox: the memory budget of every credential's records together (default 256)",
      integer("--sandbox-memory", 1, 65536),
    )
    .option(
      "--sandbox-evict-idle <seconds>",
      `sandbox: at its ${LIMITS.credentials} credentials, one idle this long gives way to a new one; none used more recently ever does (default ${LIMITS.evictIdleSeconds})`,
      integer("--sandbox-evict-idle", SHARED_BOUNDS.evictIdleSeconds.min, SHARED_BOUNDS.evictIdleSeconds.max),
    )
    .option(
      "--sandbox-queue <n>",
      `sandbox: callbacks waiting to be delivered per credential (default ${LIMITS.deliveryQueueLocal} on a loopback binding, ${LIMITS.deliveryQueue} otherwise)`,
      integer("--sandbox-queue", SHARED_BOUNDS.deliveryQueue.min, SHARED_BOUNDS.deliveryQueue.max),
    )
    .option(
      "--sandbox-queue-total <n>",
      `sandbox: callbacks waiting to be delivered per mock, every credential together (default ${LIMITS.deliveryQueueTotal})`,
      integer("--sandbox-queue-total", SHARED_BOUNDS.deliveryQueueTotal.min, SHARED_BOUNDS.deliveryQueueTotal.max),
    )
    .option(
      "--hosted",
      `sandbox run for partners: needs the operator token ($${OPERATOR_TOKEN_ENV} or --operator-token-file), shared callback policy on any interface, connection guards, JSON request log on stdout`,
    )
    .option(
      "--headers-timeout <seconds>",
      `hosted: a request's headers must arrive within this (default ${CONNECTION_SETTINGS.headersTimeoutMs.default / 1000})`,
      seconds("--headers-timeout", CONNECTION_SETTINGS.headersTimeoutMs),
    )
    .option(
      "--request-timeout <seconds>",
      `hosted: a whole request, body included, must arrive within this (default ${CONNECTION_SETTINGS.requestTimeoutMs.default / 1000})`,
      seconds("--request-timeout", CONNECTION_SETTINGS.requestTimeoutMs),
    )
    .option(
      "--keep-alive-timeout <seconds>",
      `hosted: an idle kept-alive connection is closed after this (default ${CONNECTION_SETTINGS.keepAliveTimeoutMs.default / 1000})`,
      seconds("--keep-alive-timeout", CONNECTION_SETTINGS.keepAliveTimeoutMs),
    )
    .option(
      "--max-connections <n>",
      `hosted: connections open at once per API, every client together (default ${CONNECTION_SETTINGS.maxConnections.default})`,
      integer("--max-connections", CONNECTION_SETTINGS.maxConnections.min, CONNECTION_SETTINGS.maxConnections.max),
    )
    .option(
      "--max-connections-per-address <n>",
      `hosted: connections open at once per API from one client address, 0 for no cap (default ${CONNECTION_SETTINGS.maxConnectionsPerAddress.default}; behind a proxy every client has its address)`,
      integer(
        "--max-connections-per-address",
        CONNECTION_SETTINGS.maxConnectionsPerAddress.min,
        CONNECTION_SETTINGS.maxConnectionsPerAddress.max,
      ),
    )
    .option(
      "--sandbox-store <address>",
      `sandbox: where the state lives, kept between runs: memory (the default), file:<dir> or postgres://user@host:port/database (several instances; the password in PGPASSWORD); default $${STORE_ENV}, else memory`,
    )
    .action(async (aliases: string[], options: MockCliOptions, cmd: Command) => {
      const entries = aliases.length > 0 ? lookup(cmd, ctx, aliases) : ctx.registry;
      const sandbox = sandboxOptions(options, cmd);
      // Handlers first, so that a signal during start-up also ends the run cleanly.
      const { signal, dispose } = untilSignal();
      const { startMocks } = await needs("prism", () => import("../mock/index.js"));
      if (options.hosted) await needs("hosted", () => import("../hosted/index.js"));
      const started = Date.now();
      let mocks;
      try {
        mocks = await startMocks(entries, { portBase: options.portBase, host: options.host, sandbox });
      } catch (error) {
        dispose();
        throw new CliFailure(withPortOption(error, "move the mocks with --port-base <n> (they take n, n+1, ... in registry order)"));
      }
      // Hosted: standard output carries the JSON log alone; what is said to the operator goes to standard error.
      const hosted = mocks[0]?.hosted;
      const say = (text: string) => (hosted ? process.stderr : process.stdout).write(text);
      say(
        table([
          ["API", "URL", "OPERATIONS", "AUTH"],
          ...mocks.map((m) => [m.alias, m.url, String(m.operations), m.auth.join(", ") || "none"]),
        ]) +
          `\n${mocks.length} mock(s) ready${hosted ? " in hosted sandbox mode" : options.sandbox ? " in sandbox mode" : ""}${options.sandbox && mocks[0]?.store && mocks[0].store !== "memory" ? ` (state kept in ${mocks[0].store})` : ""} in ${Date.now() - started} ms. Request violations are in the sl-violations response header.` +
          `${options.sandbox ? " Sandbox control API: <url>/_sandbox (described at <url>/_sandbox/openapi.yaml)." : ""} Ctrl+C stops.\n`,
      );
      if (hosted) say(`Hosted mode, ${hosted.storeNotice()}. One JSON log line per request on standard output.\n`);
      const received = await signal;
      dispose();
      // Draining first: the health state says so while the requests in flight finish.
      hosted?.health.drain();
      say(`\n${received}: stopping the mocks\n`);
      // The sandbox answers its requests in flight and leaves a durable store closed (each within its bounds).
      if (!sandbox) await closeAll(mocks);
      else {
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise((resolve) => (timer = setTimeout(resolve, SANDBOX_STOP_MS)));
        await Promise.race([Promise.allSettled(mocks.map((m) => m.close())), bound]);
        clearTimeout(timer);
      }
      await hosted?.close();
    });
}
