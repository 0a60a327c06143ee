/**
 * scripts/lib/cli.ts, the one way a script reads its command line: the exit codes (0 done or --help,
 * 1 failed, 2 misused), a misuse as one error line and the hint, subcommands that inherit it, the
 * option and alias checks, and a program that runs only when its module is the entry point.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { HINT, integer, isEntryPoint, misuse, runCommand, runProgram, script, selectApis } from "../../../../scripts/lib/cli.js";
import type { ApiEntry } from "../../../../src/registry.js";

/** A program printing into arrays, and a run of it. */
function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const io = { log: (text: string) => void out.push(text), error: (text: string) => void err.push(text) };
  return { out, err, io };
}

describe("runCommand", () => {
  it("returns the exit code the action returns; nothing returned is 0", async () => {
    for (const [returned, code] of [
      [undefined, 0],
      [0, 0],
      [1, 1],
      [2, 2],
    ] as const) {
      const { out, err, io } = capture();
      const program = script("demo", io).action(() => returned);
      expect(await runCommand(program, [])).toBe(code);
      expect([...out, ...err]).toEqual([]);
    }
  });

  it("passes the arguments and options to the action; an async action is awaited", async () => {
    const seen: unknown[] = [];
    const program = script("demo", capture().io)
      .argument("[item...]")
      .option("--flag")
      .option("--value <v>")
      .action(async (items: string[], options: object) => {
        await Promise.resolve();
        seen.push(items, options);
        return 1;
      });
    expect(await runCommand(program, ["a", "--flag", "b", "--value", "x"])).toBe(1);
    expect(seen).toEqual([["a", "b"], { flag: true, value: "x" }]);
  });

  it("prints an error the action throws as `<name>: <message>` and exits 1", async () => {
    const { out, err, io } = capture();
    const program = script("demo", io).action(() => {
      throw new Error("the bundle is missing");
    });
    expect(await runCommand(program, [])).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual(["demo: the bundle is missing"]);
  });

  it("--help prints the usage to the output and exits 0 without running the action", async () => {
    const { out, err, io } = capture();
    let ran = false;
    const program = script("demo", io)
      .description("A demonstration")
      .option("--value <v>", "a value")
      .action(() => {
        ran = true;
      });
    expect(await runCommand(program, ["--help"])).toBe(0);
    expect(ran).toBe(false);
    expect(out.join("\n")).toMatch(/^Usage: demo \[options\]\n\nA demonstration\n\nOptions:\n {2}--value <v> +a value\n/);
    expect(err).toEqual([]);
  });

  const misuses: Array<[string, string[], string]> = [
    ["an unknown option", ["--bogus"], "error: unknown option '--bogus'"],
    ["a missing option value", ["--value"], "error: option '--value <v>' argument missing"],
    ["an argument too many", ["extra"], "error: too many arguments. Expected 0 arguments but got 1."],
  ];
  it.each(misuses)("%s: one error line and the hint, exit 2, the action not run", async (_, argv, line) => {
    const { out, err, io } = capture();
    let ran = false;
    const program = script("demo", io)
      .option("--value <v>")
      .action(() => {
        ran = true;
      });
    expect(await runCommand(program, argv)).toBe(2);
    expect(ran).toBe(false);
    expect(out).toEqual([]);
    expect(err).toEqual([line, HINT]);
  });

  it("a misuse the action finds: one error line and the hint, exit 2", async () => {
    const { out, err, io } = capture();
    const program = script("demo", io).action(function () {
      misuse(this, "--write-readme covers the whole registry");
    });
    expect(await runCommand(program, [])).toBe(2);
    expect(out).toEqual([]);
    expect(err).toEqual(["error: --write-readme covers the whole registry", HINT]);
  });

  it("a fresh program per run: options of one run do not leak into the next", async () => {
    const values: unknown[] = [];
    const make = () =>
      script("demo", capture().io)
        .option("--flag")
        .action((options: { flag?: boolean }) => void values.push(options.flag));
    await runCommand(make(), ["--flag"]);
    await runCommand(make(), []);
    expect(values).toEqual([true, undefined]);
  });
});

describe("options npm kept for itself", () => {
  const env = { ...process.env };
  afterEach(() => {
    for (const key of ["npm_lifecycle_event", "npm_config_out", "npm_config_only"]) {
      if (env[key] === undefined) delete process.env[key];
      else process.env[key] = env[key];
    }
  });

  it("`npm run demo --out dir` (without --): one line naming the option and the line to type, exit 2, the action not run", async () => {
    process.env.npm_lifecycle_event = "demo";
    process.env.npm_config_out = "true";
    const { out, err, io } = capture();
    let ran = false;
    const program = script("demo", io)
      .option("--out <dir>")
      .action(() => {
        ran = true;
      });
    expect(await runCommand(program, ["dir"])).toBe(2);
    expect(err).toEqual(["error: npm took --out for itself; put the options after --, as in: npm run demo -- --out dir", HINT]);
    expect(out).toEqual([]);
    expect(ran).toBe(false);
  });

  it("an option given after -- is the script's own, whatever npm's settings say", async () => {
    process.env.npm_lifecycle_event = "demo";
    process.env.npm_config_only = "prod"; // an npm setting of the same name, from an npmrc
    let seen: unknown;
    const program = script("demo", capture().io)
      .option("--only <parts>")
      .action((options: { only?: string }) => {
        seen = options.only;
      });
    expect(await runCommand(program, ["--only", "a"])).toBe(0);
    expect(seen).toBe("a");
  });
});

describe("subcommands", () => {
  function program(io: ReturnType<typeof capture>["io"]) {
    const root = script("tool", io).option("--config <file>");
    root.command("check", { isDefault: true }).action(() => (root.opts().config === "bad.yaml" ? 1 : 0));
    root
      .command("release")
      .argument("<alias...>")
      .action(function (aliases: string[]) {
        if (aliases.includes("nope")) misuse(this, "unknown API nope");
      });
    return root;
  }

  it("the subcommand's action gives the exit code; the default subcommand runs without a name", async () => {
    expect(await runCommand(program(capture().io), ["--config", "bad.yaml"])).toBe(1);
    expect(await runCommand(program(capture().io), ["check"])).toBe(0);
    expect(await runCommand(program(capture().io), ["release", "a"])).toBe(0);
  });

  it.each([
    [["release"], "error: missing required argument 'alias'"],
    [["release", "nope"], "error: unknown API nope"],
    [["check", "--bogus"], "error: unknown option '--bogus'"],
    [["check", "extra"], "error: too many arguments for 'check'. Expected 0 arguments but got 1."],
  ])("%j: a subcommand's misuse is one error line and the hint, exit 2", async (argv, line) => {
    const { out, err, io } = capture();
    expect(await runCommand(program(io), argv)).toBe(2);
    expect(out).toEqual([]);
    expect(err).toEqual([line, HINT]);
  });
});

describe("integer", () => {
  const program = (io: ReturnType<typeof capture>["io"], seen: unknown[]) =>
    script("demo", io)
      .option("--runs <N>", "runs", integer(1), 5)
      .action((options: { runs: number }) => void seen.push(options.runs));

  it("parses a whole number of at least the minimum; the default stays when the option is absent", async () => {
    const seen: unknown[] = [];
    expect(await runCommand(program(capture().io, seen), ["--runs", "12"])).toBe(0);
    expect(await runCommand(program(capture().io, seen), ["--runs", "1"])).toBe(0);
    expect(await runCommand(program(capture().io, seen), [])).toBe(0);
    expect(seen).toEqual([12, 1, 5]);
  });

  it.each(["0", "-3", "2.5", "ten", ""])("rejects %j as a misuse naming the option and the rule", async (value) => {
    const { err, io } = capture();
    const seen: unknown[] = [];
    expect(await runCommand(program(io, seen), ["--runs", value])).toBe(2);
    expect(seen).toEqual([]);
    expect(err).toEqual([`error: option '--runs <N>' argument '${value}' is invalid. Expected an integer of at least 1.`, HINT]);
  });
});

describe("selectApis", () => {
  const registry = ["shop@1.0.0", "shop@1.1.0", "vault@1.0.0"].map((alias) => ({ alias }) as ApiEntry);
  const program = (io: ReturnType<typeof capture>["io"], seen: string[][]) =>
    script("demo", io)
      .argument("[alias...]")
      .action(function (aliases: string[]) {
        seen.push(selectApis(this, registry, aliases).map((e) => e.alias));
      });

  it("every API when none is named; the named ones in registry order, once each", async () => {
    const seen: string[][] = [];
    await runCommand(program(capture().io, seen), []);
    await runCommand(program(capture().io, seen), ["vault@1.0.0", "shop@1.0.0", "vault@1.0.0"]);
    expect(seen).toEqual([
      ["shop@1.0.0", "shop@1.1.0", "vault@1.0.0"],
      ["shop@1.0.0", "vault@1.0.0"],
    ]);
  });

  it("an unknown alias is a misuse naming it and the known ones", async () => {
    const { out, err, io } = capture();
    const seen: string[][] = [];
    expect(await runCommand(program(io, seen), ["shop@1.0.0", "nope@1.0.0", "gone@2.0.0"])).toBe(2);
    expect(seen).toEqual([]);
    expect(out).toEqual([]);
    expect(err).toEqual(['error: unknown API "nope@1.0.0", "gone@2.0.0"; known: shop@1.0.0, shop@1.1.0, vault@1.0.0', HINT]);
  });
});

describe("runProgram", () => {
  const argv = [...process.argv];
  const exitCode = process.exitCode;
  afterEach(() => {
    process.argv.splice(0, process.argv.length, ...argv);
    process.exitCode = exitCode;
  });
  const entryUrl = () => pathToFileURL(realpathSync(process.argv[1])).href;

  it("does not build the program when the module is not the entry point (it is imported)", async () => {
    let built = false;
    await runProgram(() => {
      built = true;
      return script("demo", capture().io);
    }, pathToFileURL("/somewhere/else.ts").href);
    expect(built).toBe(false);
    expect(process.exitCode).toBe(exitCode);
  });

  it("runs the program on the process's arguments and sets the exit code when the module is the entry point", async () => {
    process.argv.splice(2, process.argv.length, "--value", "x", "rest");
    const seen: unknown[] = [];
    await runProgram(
      () =>
        script("demo", capture().io)
          .argument("[rest...]")
          .option("--value <v>")
          .action((rest: string[], options: object) => {
            seen.push(rest, options);
            return 1;
          }),
      entryUrl(),
    );
    expect(seen).toEqual([["rest"], { value: "x" }]);
    expect(process.exitCode).toBe(1);
  });

  it("isEntryPoint: the module node runs, by its real path; never when there is none", () => {
    const url = entryUrl();
    expect(isEntryPoint(url)).toBe(true);
    expect(isEntryPoint(pathToFileURL("/somewhere/else.ts").href)).toBe(false);
    process.argv.splice(1);
    expect(isEntryPoint(url)).toBe(false);
  });
});
