/**
 * The `bank-api-contracts` bin as a process (src/cli/bin.ts): its help, and `mock` serving the
 * aliases given, on the interface given, stopping on SIGINT with its ports freed. The in-process
 * cases are in index.test.ts.
 */
import { describe, expect, it } from "vitest";
import { operations, successResponse } from "../../../../src/document/index.js";
import { sendExample } from "../../../../src/testing/requests.js";
import { freePortRange, isPortFree } from "../../../helpers/ports.js";
import { bundled, registry } from "../../../helpers/registry.js";
import { cli, cliDone, escapeRegExp, waitFor } from "../../../helpers/cli.js";

const known = registry.map((e) => e.alias).join(", ");
const knownLine = `Known APIs (registry order, default ports from 4010): ${known}`;

describe("help", () => {
  it("the bin lists the commands and the known APIs, exit 0", async () => {
    const { code, stdout } = await cliDone(["--help"]);
    expect(code).toBe(0);
    for (const command of ["mock [options] [alias...]", "proxy [options] <alias>", "validate [options] <alias> <file>", "list [options]"]) {
      expect(stdout).toContain(command);
    }
    expect(stdout).toContain(knownLine);
  });
});

describe("mock", () => {
  it("serves the aliases given on --port-base + registry index, answers, and exits 0 on SIGINT with the ports freed", async () => {
    const picked = bundled.slice(0, 2);
    const base = await freePortRange(registry.length);
    const run = cli(["mock", ...picked.map((b) => b.entry.alias), "--port-base", String(base)]);
    try {
      await waitFor(run, "ready");
      expect(run.stdout()).toContain(`${picked.length} mock(s) ready`);
      for (const { entry, doc } of picked) {
        const url = `http://127.0.0.1:${base + entry.index}`;
        expect(run.stdout()).toMatch(
          new RegExp(`^${escapeRegExp(entry.alias)}\\s+${escapeRegExp(url)}\\s+${operations(doc).length}\\s+\\S`, "m"),
        );
        const op = operations(doc)[0];
        const response = await sendExample(url, doc, op);
        expect(response.status, `${entry.alias} ${op.operationId}`).toBe(successResponse(op).status);
      }
      run.child.kill("SIGINT");
      expect(await run.exit).toBe(0);
      expect(run.stdout()).toContain("SIGINT: stopping the mocks");
      for (const { entry } of picked) expect(await isPortFree(base + entry.index)).toBe(true);
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGTERM");
    }
  });
});

describe("--host", () => {
  it("mock --host binds the given interface", async () => {
    const base = await freePortRange(1);
    const run = cli(["mock", "balance@1.0.0", "--host", "127.0.0.2", "--port-base", String(base - 4)]);
    try {
      await waitFor(run, "ready in");
      expect(run.stdout()).toMatch(new RegExp(`^balance@1\\.0\\.0\\s+http://127\\.0\\.0\\.2:${base}\\s`, "m"));
      const response = await fetch(`http://127.0.0.2:${base}/v1/get_balance`, { headers: { authorization: "Bearer t" } });
      expect(response.status).toBe(200);
      await expect(fetch(`http://127.0.0.1:${base}/v1/get_balance`)).rejects.toThrow();
    } finally {
      run.child.kill("SIGINT");
      await run.exit;
    }
  });
});
