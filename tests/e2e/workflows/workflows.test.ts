/**
 * The Arazzo workflows in workflows/: one file per API of the registry (generic: an API without a
 * file fails here), each pointing at its API's bundled spec, linting clean, and every one green
 * under `redocly respect` against the API's contract mock (Prism, on a free port). Also: a failing
 * workflow is reported as failed, credentials are really sent, and `workflows run|list`.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  loadWorkflowFile,
  mockInputs,
  runWorkflows,
  type RespectRun,
  withoutBanner,
  workflowFilePath,
  workflowsDir,
} from "../../../src/cli/workflows.js";
import { redoclyCli } from "../../../src/redocly.js";
import { type MockServer, startMocks } from "../../../src/mock/index.js";
import { loadRegistry } from "../../../src/registry.js";
import { cliInProcess } from "../../helpers/cli.js";

const registry = loadRegistry();
const fixture = (name: string) => join(import.meta.dirname, "../../fixtures/workflows", name);

/** At most `limit` Respect processes at a time (each is a Node process; the machines have 2 cores). */
function limiter(limit: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
const limit = limiter(3);

function explain(result: RespectRun): string {
  const failures = result.workflows.flatMap((w) => w.failures.map((f) => `${w.workflowId}/${f.stepId}: ${f.check}: ${f.message}`));
  return `${result.file}: exit ${result.exitCode}\n${failures.join("\n")}\n${result.output.slice(-4000)}`;
}

describe("one workflow file per API of the registry", () => {
  it.each(registry.map((e) => [e.alias, e] as const))(
    "%s has workflows/<service>-<release>.arazzo.yaml on its bundled spec",
    (_alias, entry) => {
      const file = loadWorkflowFile(workflowFilePath(entry));
      expect(file.sources.map((s) => s.url)).toEqual([entry.bundlePath]);
      expect(file.workflows.length).toBeGreaterThan(0);
      // Every step's operationId exists in the bundle (Respect would only find out at run time).
      const bundle = parse(readFileSync(entry.bundlePath, "utf8")) as { paths?: Record<string, Record<string, { operationId?: string }>> };
      const known = new Set(Object.values(bundle.paths ?? {}).flatMap((item) => Object.values(item).map((op) => op?.operationId)));
      for (const workflow of file.workflows) {
        for (const id of workflow.operationIds) expect(known, `${entry.alias} ${workflow.workflowId}: ${id}`).toContain(id);
        // Credentials are inputs (masked: format password); required inputs have an example for mock runs.
        expect(
          workflow.inputs.some((i) => i.secret && i.required && /^(token|apiKey)$/.test(i.name)),
          `${workflow.workflowId}: credential input`,
        ).toBe(true);
        for (const input of workflow.inputs.filter((i) => i.required))
          expect(input.example, `${workflow.workflowId}: ${input.name} example`).toBeDefined();
      }
    },
  );

  it("every workflow file belongs to an API of the registry", () => {
    const expected = registry.map((e) => workflowFilePath(e)).sort();
    const present = readdirSync(workflowsDir)
      .filter((name) => name.endsWith(".arazzo.yaml"))
      .map((name) => join(workflowsDir, name))
      .sort();
    expect(present).toEqual(expected);
  });

  it("the workflow files lint clean (redocly lint with workflows/redocly.yaml, the rules Respect applies)", async () => {
    const files = registry.map((e) => workflowFilePath(e));
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [redoclyCli(), "lint", "--config", join(workflowsDir, "redocly.yaml"), ...files],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: "off" },
      },
    ).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout}\n${withoutBanner(error.stderr)}`);
    });
    expect(withoutBanner(stderr + stdout)).toContain("valid");
  }, 60_000);
});

describe("redocly respect against the contract mocks", () => {
  let mocks: MockServer[];
  beforeAll(async () => {
    mocks = await startMocks("all", { freePorts: true });
  }, 60_000);
  afterAll(async () => {
    await Promise.all((mocks ?? []).map((m) => m.close()));
  });
  const urlOf = (alias: string) => mocks.find((m) => m.alias === alias)!.url;

  it.concurrent.each(registry.map((e) => [e.alias, e] as const))(
    "every workflow of %s passes",
    async (alias, entry) => {
      const path = workflowFilePath(entry);
      const file = loadWorkflowFile(path);
      const result = await limit(() => runWorkflows(path, { server: urlOf(alias), inputs: mockInputs(file) }));
      expect(result.ok, explain(result)).toBe(true);
      expect(result.workflows.map((w) => w.workflowId).sort()).toEqual(file.workflows.map((w) => w.workflowId).sort());
      expect(result.workflows.every((w) => w.passed)).toBe(true);
    },
    180_000,
  );

  it("reports a failing workflow as failed, naming the step and the check", async () => {
    const result = await runWorkflows(fixture("failing.arazzo.yaml"), {
      server: urlOf("account-opening@1.0.0"),
      inputs: { apiKey: "mock-api-key" },
    });
    expect(result.ok).toBe(false);
    expect(result.exitCode).not.toBe(0);
    expect(result.workflows).toEqual([
      expect.objectContaining({
        workflowId: "expectsAnotherStatus",
        passed: false,
        failures: [expect.objectContaining({ stepId: "inquireStatus", message: expect.stringContaining("NO_SUCH_STATUS") })],
      }),
    ]);
  }, 60_000);

  it("sends the credential input: without it the run fails before the first request", async () => {
    const entry = registry.find((e) => e.alias === "account-opening@1.0.0")!;
    const result = await runWorkflows(workflowFilePath(entry), { server: urlOf(entry.alias) });
    expect(result.ok).toBe(false);
    expect(result.output).toContain("Missing required value `apiKey`");
  }, 60_000);
});

describe("bank-api-contracts workflows", () => {
  const cli = (...argv: string[]) => cliInProcess(argv);
  afterEach(() => vi.restoreAllMocks());

  it("run <alias> starts the API's mock on a free port and runs every workflow green", async () => {
    const { code, stdout } = await cli("workflows", "run", "account-opening@1.0.0");
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(
      /^account-opening@1\.0\.0: running workflows\/account-opening-1\.0\.0\.arazzo\.yaml against http:\/\/127\.0\.0\.1:\d+ \(contract mock\)$/m,
    );
    expect(stdout).toContain("openAccountThenInquireStatus");
    expect(stdout).toMatch(/account-opening@1\.0\.0: 1 of 1 workflow\(s\) passed in [\d.]+ s/);
    expect(stdout).not.toMatch(/[╔║╚]/);
  }, 120_000);

  it("run <alias> --server <url> --input ... runs against that server with the given credentials; --workflow picks one", async () => {
    const [mock] = await startMocks(["pay@1.3.0"], { freePorts: true });
    try {
      const { code, stdout } = await cli(
        "workflows",
        "run",
        "pay@1.3.0",
        "--server",
        mock.url,
        "--input",
        "token=partner-token-with=equals,and-comma",
        "--input",
        "flaggedInvoiceId=inv_01HZX8F6M",
        "--workflow",
        "updateFlaggedInvoice",
      );
      expect(code, stdout).toBe(0);
      expect(stdout).toContain(`against ${mock.url}\n`);
      expect(stdout).toContain("pay@1.3.0: 1 of 1 workflow(s) passed");
      expect(stdout).not.toContain("partner-token-with"); // masked by Respect
    } finally {
      await mock.close();
    }
  }, 120_000);

  it("exits 2 with the usage when a --server run lacks required inputs, naming them", async () => {
    const { code, stderr } = await cli("workflows", "run", "payment-initiation@1.0.0", "--server", "http://127.0.0.1:9");
    expect(code).toBe(2);
    expect(stderr).toContain("running against http://127.0.0.1:9 needs these inputs:");
    expect(stderr).toContain("--input apiKey=<secret>");
    expect(stderr).toContain("Usage: bank-api-contracts workflows run");
  });

  it("exits 2 for an unknown API, workflow or input, or a bad --server or --input", async () => {
    expect((await cli("workflows", "run", "nope@1.0.0")).stderr).toContain('unknown API "nope@1.0.0"');
    const unknownWorkflow = await cli("workflows", "run", "balance@1.0.0", "--workflow", "nope");
    expect(unknownWorkflow.code).toBe(2);
    expect(unknownWorkflow.stderr).toContain("balance@1.0.0 has no workflow nope; known: hostedRetrievalThenList, submitRetrievalThenList");
    const unknownInput = await cli("workflows", "run", "balance@1.0.0", "--input", "colour=blue");
    expect(unknownInput.code).toBe(2);
    expect(unknownInput.stderr).toContain("no workflow of balance@1.0.0 takes the input colour");
    expect((await cli("workflows", "run", "balance@1.0.0", "--server", "ftp://x")).code).toBe(2);
    expect((await cli("workflows", "run", "balance@1.0.0", "--input", "novalue")).code).toBe(2);
  });

  it("list shows every API's workflows and their inputs", async () => {
    const { code, stdout } = await cli("workflows", "list");
    expect(code).toBe(0);
    for (const entry of registry) expect(stdout).toContain(`${entry.alias} (workflows/${entry.service}-${entry.release}.arazzo.yaml`);
    expect(stdout).toContain("--input token  (required, secret)");
    expect(stdout).toContain("--input apiKey  (required, secret)");
  });
});
