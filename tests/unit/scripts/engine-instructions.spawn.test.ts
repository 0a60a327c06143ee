/**
 * `npm run bench:instructions` (scripts/engine-instructions.ts): the runs valgrind counts (requests
 * through the sandbox's engine, each answered with the operation's status; with --client, calls of
 * the generated client or of plain openapi-fetch against a stub fetch), and the one line it prints
 * when valgrind is missing or --client meets --time. The counting itself needs valgrind and minutes;
 * it is a developer's measure (CONTRIBUTING.md), not run here.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  describe("--client's counted run: calls against a stub fetch, one after another", () => {
    /** Runs `--run-client` on a cells file holding one cell of balance@1.0.0's `operationId`; the URLs of the requests built meanwhile. */
    async function runClient(operationId: string, variant: string, calls: number) {
      const folder = mkdtempSync(join(tmpdir(), "instructions-test-"));
      const file = join(folder, "cells.json");
      const recorded = { status: 200, headers: [["content-type", "application/json"]], body: '{"balances":[]}' };
      writeFileSync(file, JSON.stringify([{ alias: "balance@1.0.0", operationId, recorded }]));
      const urls: string[] = [];
      const RealRequest = globalThis.Request;
      globalThis.Request = class extends RealRequest {
        constructor(input: RequestInfo | URL, init?: RequestInit) {
          super(input, init);
          urls.push(this.url);
        }
      };
      const fetch = globalThis.fetch;
      try {
        return { ...(await run(main, ["--run-client", file, "0", variant, String(calls)])), urls, fetchKept: globalThis.fetch === fetch };
      } finally {
        globalThis.Request = RealRequest;
        rmSync(folder, { recursive: true, force: true });
      }
    }

    for (const variant of ["client", "openapi-fetch"]) {
      it(`${variant}: the warm-up's calls and the counted ones, each to the operation's URL; the global fetch put back`, async () => {
        const result = await runClient("listBalances", variant, 100);
        expect(result).toMatchObject({ code: 0, stdout: [], stderr: [], fetchKept: true });
        // openapi-fetch builds a Request and the stub builds the one fetch would: at least one per call.
        expect(result.urls.length).toBeGreaterThanOrEqual(2000 + 100);
        expect(new Set(result.urls.map((url) => new URL(url).pathname))).toEqual(new Set(["/v1/get_balance"]));
      }, 60_000);
    }

    it("names a variant it does not know, exit 1", async () => {
      const result = await runClient("listBalances", "fetch", 100);
      expect(result.code).toBe(1);
      expect(result.stderr).toEqual(["bench:instructions: no variant fetch: client or openapi-fetch"]);
    });
  });

  it("--client with --time: one line and a hint, exit 2", async () => {
    const result = await run(main, ["--client", "--time", "1"]);
    expect(result).toEqual({
      code: 2,
      stdout: [],
      stderr: ["error: --time times the engine's requests; with --client, the counts only", "(add --help for usage)"],
    });
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
