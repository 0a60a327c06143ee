/**
 * The Arazzo workflows in workflows/: one file per API of the registry (generic: an API without a
 * file fails here), each pointing at its API's bundled spec, linting clean, and every one green
 * under `redocly respect` against the API's contract mock (Prism, on a free port). Also: a failing
 * workflow is reported as failed, credentials are really sent, and `workflows run|list`.
 *
 * Respect runs several files at once, so the files run in as few Respect processes as their source
 * names allow (a `--server` maps a source name to one URL: two files whose sources share a name, such
 * as two releases of one API, go to different runs); each file's results are read from the run's JSON
 * log, independently of src/cli/workflows.ts, which the single-file tests below exercise.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  type WorkflowFile,
  loadWorkflowFile,
  mockInputs,
  runWorkflows,
  withoutBanner,
  workflowFilePath,
  workflowsDir,
} from "../../../src/workflows/index.js";
import { redoclyCli } from "../../../src/redocly.js";
import { type MockServer, startMocks } from "../../../src/mock/index.js";
import { loadRegistry } from "../../../src/registry.js";
import { cliInProcess } from "../../helpers/cli.js";

const registry = loadRegistry();
const fixture = (name: string) => join(import.meta.dirname, "../../fixtures/workflows", name);

/** What one Respect run (`--json-output`) reports for each file: its workflows and their steps' checks. */
interface RespectLog {
  files?: Record<
    string,
    {
      executedWorkflows?: Array<{
        workflowId: string;
        status?: string;
        executedSteps?: Array<{ stepId?: string; checks?: Array<{ name: string; passed: boolean; message?: string }> }>;
      }>;
    }
  >;
}

/** Splits workflow files into groups whose source names and inputs do not clash, for one Respect run each. */
function respectGroups(files: Array<{ file: WorkflowFile; server: string; inputs: Record<string, unknown> }>) {
  const groups: Array<{ paths: string[]; servers: Record<string, string>; inputs: Record<string, unknown> }> = [];
  for (const { file, server, inputs } of files) {
    const fits = (g: (typeof groups)[number]) =>
      file.sources.every((s) => g.servers[s.name] === undefined) &&
      Object.entries(inputs).every(([name, value]) => g.inputs[name] === undefined || g.inputs[name] === value);
    let group = groups.find(fits);
    if (!group) groups.push((group = { paths: [], servers: {}, inputs: {} }));
    group.paths.push(file.path);
    for (const s of file.sources) group.servers[s.name] = server;
    Object.assign(group.inputs, inputs);
  }
  return groups;
}

/** One `redocly respect` process over several files; resolves to its exit code, output and JSON log. */
async function respect(paths: string[], servers: Record<string, string>, inputs: Record<string, unknown>) {
  const tmp = mkdtempSync(join(tmpdir(), "respect-all-"));
  const log = join(tmp, "result.json");
  const args = [redoclyCli(), "respect", ...paths, "--server", JSON.stringify(servers), "--input", JSON.stringify(inputs)];
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((done, fail) => {
      const child = spawn(process.execPath, [...args, "--json-output", log], {
        cwd: workflowsDir,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_UPDATE_NOTIFIER: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      child.once("error", fail);
      child.once("close", (exitCode) => done({ code: exitCode, output: withoutBanner(output) }));
    });
    let json: RespectLog = {};
    try {
      json = JSON.parse(readFileSync(log, "utf8")) as RespectLog;
    } catch {
      // no log: Respect stopped before running; the output says why
    }
    return { code, output, files: json.files ?? {} };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
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

  /** Each file's Respect results, from as few Respect runs as the files allow (started once, for every API's test). */
  let runs: Promise<Map<string, { code: number | null; output: string; workflows: NonNullable<RespectLog["files"]>[string] }>>;
  const resultOf = async (path: string) => {
    runs ??= (async () => {
      const files = registry.map((entry) => {
        const file = loadWorkflowFile(workflowFilePath(entry));
        return { file, server: urlOf(entry.alias), inputs: mockInputs(file) };
      });
      const groups = respectGroups(files);
      // Two releases of pay share the source name "pay": at least two runs, never one per file.
      expect(groups.length).toBeGreaterThanOrEqual(2);
      expect(groups.length).toBeLessThan(files.length);
      const results = new Map();
      await Promise.all(
        groups.map(async (group) => {
          const run = await respect(group.paths, group.servers, group.inputs);
          for (const p of group.paths) results.set(p, { code: run.code, output: run.output, workflows: run.files[p] ?? {} });
        }),
      );
      return results;
    })();
    return (await runs).get(path)!;
  };

  it.concurrent.each(registry.map((e) => [e.alias, e] as const))(
    "every workflow of %s passes",
    async (_alias, entry) => {
      const path = workflowFilePath(entry);
      const file = loadWorkflowFile(path);
      const { code, output, workflows } = await resultOf(path);
      const executed = workflows.executedWorkflows ?? [];
      const failures = executed.flatMap((w) =>
        (w.executedSteps ?? []).flatMap((step) =>
          (step.checks ?? []).filter((c) => !c.passed).map((c) => `${w.workflowId}/${step.stepId}: ${c.name}: ${c.message ?? ""}`),
        ),
      );
      const explanation = `${path}: exit ${code}\n${failures.join("\n")}\n${output.slice(-4000)}`;
      expect(executed.map((w) => w.workflowId).sort(), explanation).toEqual(file.workflows.map((w) => w.workflowId).sort());
      expect(
        executed.filter((w) => w.status !== "success").map((w) => w.workflowId),
        explanation,
      ).toEqual([]);
      expect(failures, explanation).toEqual([]);
      expect(code, explanation).toBe(0);
    },
    180_000,
  );

  it.concurrent("reports a failing workflow as failed, naming the step and the check", async () => {
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

  it.concurrent("sends the credential input: without it the run fails before the first request", async () => {
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

  it("exits 2 naming the missing inputs, then the hint (not the whole usage), when a --server run lacks them", async () => {
    const { code, stderr } = await cli("workflows", "run", "payment-initiation@1.0.0", "--server", "http://127.0.0.1:9");
    expect(code).toBe(2);
    expect(stderr).toContain("running against http://127.0.0.1:9 needs these inputs:");
    expect(stderr).toContain("--input apiKey=<secret>");
    expect(stderr.trimEnd().split("\n").at(-1)).toBe("(add --help for usage)");
    expect(stderr).not.toContain("Usage: bank-api-contracts workflows run");
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
