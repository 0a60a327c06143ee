/**
 * Options npm kept for itself. `npm start --port 4090` (without `--`) does not pass `--port` to the
 * script: npm takes it as its own configuration, sets `npm_config_port=true` in the script's
 * environment and passes only `4090`, as an argument. (`--port=4090` gives `npm_config_port=4090`
 * and no argument.) Such a run would start on the default ports as if nothing had been asked, so a
 * command that sees its own option names there says how to pass them.
 */
import type { Command } from "commander";

/** Options of ours that are also npm's own settings: npm uses them, and an npmrc may set them. */
const NPM_OWN = new Set(["json", "key", "verbose", "help", "version"]);

export interface NpmOption {
  /** Long name without dashes, e.g. `port-base`. */
  name: string;
  /** Whether it takes a value (`--port <n>`), or is a flag. */
  takesValue: boolean;
}

/** How the user invoked the script: `npm start`, `npm run mock`. */
function npmCommand(env: NodeJS.ProcessEnv): string {
  const event = env.npm_lifecycle_event ?? "";
  return ["start", "test", "stop", "restart"].includes(event) ? `npm ${event}` : `npm run ${event}`;
}

/**
 * The message for options of `options` that npm took from a script's command line, or undefined
 * when there are none (or npm did not start the process, or npx did, which passes them on).
 * `args` are the arguments the script received: a value npm left behind is one of them.
 */
export function optionsTakenByNpm(
  options: readonly NpmOption[],
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const event = env.npm_lifecycle_event;
  if (!event || event === "npx") return undefined;
  const given = new Set(args.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=")[0]));
  const taken = options.filter(
    (o) => !NPM_OWN.has(o.name) && !given.has(o.name) && env[`npm_config_${o.name.replaceAll("-", "_")}`] !== undefined,
  );
  if (taken.length === 0) return undefined;
  const leftOver = args.filter((a) => !a.startsWith("-"));
  const rebuilt = taken.map((o) => {
    const value = env[`npm_config_${o.name.replaceAll("-", "_")}`];
    if (!o.takesValue) return `--${o.name}`;
    // `--port 4090`: npm set "true" and passed 4090 on; with one such option the value is certain.
    const shown =
      value !== "true" ? value : taken.filter((t) => t.takesValue).length === 1 && leftOver.length === 1 ? leftOver[0] : "<value>";
    return `--${o.name} ${shown}`;
  });
  const names = taken.map((o) => `--${o.name}`).join(", ");
  return `npm took ${names} for itself; put the options after --, as in: ${npmCommand(env)} -- ${rebuilt.join(" ")}`;
}

/** The (sub)command `argv` selects: `workflows run ...` is the `run` command of `workflows`. */
function selected(command: Command, argv: readonly string[]): Command {
  let current = command;
  for (const arg of argv) {
    const sub = current.commands.find((c) => c.name() === arg);
    if (!sub) break;
    current = sub;
  }
  return current;
}

/** optionsTakenByNpm for a commander program: the long options of the (sub)command `argv` selects. */
export function optionsTakenFrom(program: Command, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const options = selected(program, argv).options.flatMap((o) =>
    o.long ? [{ name: o.long.slice(2), takesValue: o.required || o.optional }] : [],
  );
  return optionsTakenByNpm(options, argv, env);
}
