/**
 * `bank-api-contracts workflows list`, `workflows run --verbose`, and the cause of a step that could not
 * reach its server, run in-process. What `list`
 * must print is read from the Arazzo files with a plain YAML parser (not the module under test).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { cliInProcess } from "../../../helpers/cli.js";
import { occupyPort } from "../../../helpers/ports.js";

const dir = join(repoRoot, "workflows");
const files = readdirSync(dir).filter((f) => f.endsWith(".arazzo.yaml"));

describe("workflows list", () => {
  it("there is one workflow file per API of the registry", () => {
    expect(files.sort()).toEqual(
      loadRegistry()
        .map((e) => `${e.service}-${e.release}.arazzo.yaml`)
        .sort(),
    );
  });

  it("prints every API with its file, and every workflow with its inputs, secrets marked", async () => {
    const { code, stdout } = await cliInProcess(["workflows", "list"]);
    expect(code).toBe(0);
    for (const entry of loadRegistry()) {
      const doc = parse(readFileSync(join(dir, `${entry.service}-${entry.release}.arazzo.yaml`), "utf8"));
      expect(stdout).toContain(`${entry.alias} (workflows/${entry.service}-${entry.release}.arazzo.yaml, source `);
      for (const workflow of doc.workflows) {
        expect(stdout).toMatch(new RegExp(`^  ${workflow.workflowId}(: |$)`, "m"));
        for (const [name, schema] of Object.entries<Record<string, unknown>>(workflow.inputs?.properties ?? {})) {
          const line = stdout.split("\n").find((l) => l.startsWith(`    --input ${name}  (`));
          expect(line, `input ${name} of ${workflow.workflowId}`).toBeDefined();
          expect(line!.includes("secret")).toBe(schema.format === "password");
        }
      }
    }
  });

  it("takes aliases, and refuses an unknown one with exit 2", async () => {
    const one = await cliInProcess(["workflows", "list", "balance@1.0.0"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("balance@1.0.0 (workflows/balance-1.0.0.arazzo.yaml");
    expect(one.stdout).not.toContain("pay@1.3.0");
    const unknown = await cliInProcess(["workflows", "list", "nope@1.0.0"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown API "nope@1.0.0"');
  });
});

describe("workflows run --verbose", () => {
  it("prints each request and response, with the API key masked", async () => {
    const { code, stdout } = await cliInProcess(["workflows", "run", "payment-initiation@1.0.0", "--verbose"]);
    expect(code, stdout).toBe(0);
    expect(stdout).toContain("Request URL: http://127.0.0.1:");
    expect(stdout).toContain("Response status code: 200");
    expect(stdout).toMatch(/x-api-key: \*+/);
    const quiet = await cliInProcess(["workflows", "run", "payment-initiation@1.0.0"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain("Request URL:");
  }, 120_000);
});

describe("workflows run against a server that cannot be reached", () => {
  // One workflow whose first step needs no earlier output; its required inputs given.
  const args = ["workflows", "run", "balance@1.0.0", "--workflow", "hostedRetrievalThenList", "--input", "token=test-token"];

  it("names the cause of the failed step: connection refused, with the address", async () => {
    const held = await occupyPort();
    const port = held.port;
    await held.close(); // nothing listens there now
    const { code, stdout } = await cliInProcess([...args, "--server", `http://127.0.0.1:${port}`]);
    expect(stdout).toMatch(
      new RegExp(
        `^  ✗ hostedRetrievalThenList, step init: failed network request .*; cannot reach http://127\\.0\\.0\\.1:${port}: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`,
        "m",
      ),
    );
    expect(code).toBe(1);
  }, 120_000);

  it("names the cause of the failed step: a host name that does not resolve", async () => {
    const { code, stdout } = await cliInProcess([...args, "--server", "http://no-such-host.invalid"]);
    expect(stdout).toMatch(
      /^ {2}✗ hostedRetrievalThenList, step init: failed network request .*; cannot reach http:\/\/no-such-host\.invalid: getaddrinfo E(NOTFOUND|AI_AGAIN) no-such-host\.invalid$/m,
    );
    expect(code).toBe(1);
  }, 120_000);
});
