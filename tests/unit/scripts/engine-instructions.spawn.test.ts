/**
 * `npm run bench:instructions` (scripts/engine-instructions.ts): the runs valgrind counts (requests
 * through the sandbox's engine, each answered with the operation's status; with --client, calls of
 * the generated client or of plain openapi-fetch against a stub fetch; with --server, a mock server
 * process in static or sandbox mode), and the one line it prints when valgrind is missing or options
 * conflict. The counting itself needs valgrind and minutes; it is a developer's measure
 * (CONTRIBUTING.md), not run here.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { distinctRequest } from "../../../scripts/bench-measure.js";
import { benchRequest, main, sendDistinct, startServing } from "../../../scripts/engine-instructions.js";
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

  describe("--server's counted process: a mock server that stops when its input ends", () => {
    for (const mode of ["static", "sandbox"]) {
      it(`${mode}: says its port, answers the bench's request with the operation's status, then exits 0 at the end of its input`, async () => {
        const { request, header } = benchRequest("balance@1.0.0", "retrieveBalance");
        const server = await startServing([process.execPath], "balance@1.0.0", mode);
        try {
          const answer = await sendDistinct(server.url, request, header, 0);
          expect(answer.status).toBe(request.expected);
          expect(answer.headers.get("sl-violations")).toBeNull();
          // The sandbox kept what the request created (its control API shows the credential's records); the static mock has no state.
          const credential = distinctRequest(request.body, 0, header === "authorization").credential;
          const state = await fetch(`${server.url}/_sandbox/state`, { headers: { [header]: credential } });
          const text = await state.text();
          if (mode === "sandbox") {
            expect(state.status).toBe(200);
            const { resources } = JSON.parse(text) as { resources: Record<string, unknown[]> };
            expect(Object.values(resources).flat()).toHaveLength(1);
          } else expect(state.status).toBe(404);
        } finally {
          server.child.stdin.end();
        }
        expect(await server.exited).toBe(0);
      }, 60_000);
    }

    it("names a mode it does not know, exit 1", async () => {
      const result = await run(main, ["--serve", "balance@1.0.0", "dynamic"]);
      expect(result).toEqual({ code: 1, stdout: [], stderr: ["bench:instructions: no mode dynamic: static or sandbox"] });
    });
  });

  for (const [options, message] of [
    [["--server", "--client"], "--client counts the client, --server the servers: one at a time"],
    [["--server", "--time", "1"], "--time times the engine's requests; with --server, the counts only"],
  ] as const) {
    it(`${options.join(" ")}: one line and a hint, exit 2`, async () => {
      const result = await run(main, [...options]);
      expect(result).toEqual({ code: 2, stdout: [], stderr: [`error: ${message}`, "(add --help for usage)"] });
    });
  }

  for (const options of [[], ["--server"]]) {
    it(`${options.length === 0 ? "the engine count" : options.join(" ")}: says in one line that valgrind is missing, exit 1`, async () => {
      const path = process.env.PATH;
      process.env.PATH = "/nonexistent";
      try {
        const result = await run(main, ["balance@1.0.0", ...options]);
        expect(result).toEqual({
          code: 1,
          stdout: [],
          stderr: ["bench:instructions: valgrind is not installed (it counts the instructions)"],
        });
      } finally {
        process.env.PATH = path;
      }
    });
  }
});
