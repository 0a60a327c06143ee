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
