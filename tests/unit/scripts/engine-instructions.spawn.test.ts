/**
 * `npm run bench:instructions` (scripts/engine-instructions.ts): the run valgrind counts (requests
 * through the sandbox's engine, each answered with the operation's status), and the one line it
 * prints when valgrind is missing. The counting itself needs valgrind and minutes; it is a developer's
 * measure (CONTRIBUTING.md), not run here.
 */
import { describe, expect, it } from "vitest";
import { main } from "../../../scripts/engine-instructions.js";
import { scriptInProcess as run } from "../../helpers/cli.js";

describe("bench:instructions", () => {
  it("runs the counted requests through the engine: every request answered with the operation's success status", async () => {
    const result = await run(main, ["--run", "balance@1.0.0", "retrieveBalance", "100"]);
    expect(result).toEqual({ code: 0, stdout: [], stderr: [] });
  });

  it("names an operation the API does not have", async () => {
    const result = await run(main, ["--run", "balance@1.0.0", "noSuchOperation", "100"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual(["bench:instructions: balance@1.0.0 has no operation noSuchOperation"]);
  });

  it("--time: times the same requests without valgrind, a process per run, and prints CPU µs per request", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent"; // no valgrind needed (each run is this node, by its path)
    try {
      const result = await run(main, ["balance@1.0.0", "--time", "1", "--requests", "100"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toEqual([]);
      expect(result.stdout).toHaveLength(1);
      expect(result.stdout[0]).toMatch(
        /^balance@1\.0\.0 retrieveBalance: (\d+\.\d) µs per request, lower quartile of 1 runs \(lowest \1, median \1, highest \1\)$/,
      );
    } finally {
      process.env.PATH = path;
    }
  }, 60_000);

  it("says in one line that valgrind is missing, exit 1", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const result = await run(main, ["balance@1.0.0"]);
      expect(result).toEqual({
        code: 1,
        stdout: [],
        stderr: ["bench:instructions: valgrind is not installed (it counts the instructions)"],
      });
    } finally {
      process.env.PATH = path;
    }
  });
});
