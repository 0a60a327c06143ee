/**
 * The Arazzo workflows against the sandbox (`workflows run <alias> --sandbox`): for each API of the
 * registry its sandbox file (workflows/sandbox/, whose steps also call the sandbox's control API) or,
 * where it has none, its own file, run by `redocly respect` against a sandbox mock, every workflow
 * green. There the flows assert real chaining: the invoice created is the one listed, the
 * checkout's transaction is found by its id and its status changes after the control call.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  loadWorkflowFile,
  mockInputs,
  runWorkflows,
  type RespectRun,
  sandboxWorkflowFilePath,
  withoutBanner,
  workflowFilePath,
  workflowsDir,
} from "../../../src/workflows/index.js";
import { findOperation, loadDocument } from "../../../src/document/index.js";
import { startMock } from "../../../src/mock/index.js";
import { redoclyCli } from "../../../src/redocly.js";
import { loadRegistry } from "../../../src/registry.js";
import { CONTROL_DOCUMENT } from "../../../src/sandbox/control/index.js";
import { cliInProcess } from "../../helpers/cli.js";

const registry = loadRegistry();
const sandboxDir = join(workflowsDir, "sandbox");
const sandboxFiles = readdirSync(sandboxDir)
  .filter((name) => name.endsWith(".arazzo.yaml"))
  .sort();

/** The APIs whose flows need the control API (statuses moved, time advanced); the others' own files chain against the sandbox as they are. */
const WITH_SANDBOX_FILE = [
  "pay-1.2.0.arazzo.yaml",
  "pay-1.3.0.arazzo.yaml",
  "payment-initiation-1.0.0.arazzo.yaml",
  "statement-1.0.0.arazzo.yaml",
];

const explain = (result: RespectRun) =>
  `${result.file}: exit ${result.exitCode}\n${result.workflows.flatMap((w) => w.failures.map((f) => `${w.workflowId}/${f.stepId}: ${f.message}`)).join("\n")}\n${result.output.slice(-3000)}`;

describe("workflows/sandbox", () => {
  it("holds a file for the APIs whose flows need the control API, each named after an API of the registry", () => {
    expect(sandboxFiles).toEqual(WITH_SANDBOX_FILE);
    for (const name of sandboxFiles) expect(registry.map((e) => `${e.service}-${e.release}.arazzo.yaml`)).toContain(name);
  });

  it.each(sandboxFiles)("%s points at its API's bundle and the control API, and names only their operations", (name) => {
    const entry = registry.find((e) => `${e.service}-${e.release}.arazzo.yaml` === name)!;
    const file = loadWorkflowFile(join(sandboxDir, name));
    expect(file.sources.map((s) => s.url)).toEqual([entry.bundlePath, CONTROL_DOCUMENT]);
    const docs = [loadDocument(entry.bundlePath), loadDocument(CONTROL_DOCUMENT)];
    for (const workflow of file.workflows) {
      for (const id of workflow.operationIds)
        expect(
          docs.some((doc) => findOperation(doc, id)),
          `${workflow.workflowId}: ${id}`,
        ).toBe(true);
    }
    // At least one flow drives the control API.
    expect(file.workflows.some((w) => w.operationIds.some((id) => findOperation(docs[1], id)))).toBe(true);
  });

  it("lint clean with the rules Respect applies", async () => {
    const files = sandboxFiles.map((name) => join(sandboxDir, name));
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [redoclyCli(), "lint", "--config", join(workflowsDir, "redocly.yaml"), ...files],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
    ).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${error.stdout}\n${withoutBanner(error.stderr)}`);
    });
    expect(withoutBanner(stderr + stdout)).toContain("valid");
  }, 60_000);
});

describe("redocly respect against the sandbox", () => {
  it.each(registry.map((e) => [e.alias, e] as const))(
    "every workflow of %s passes",
    async (alias, entry) => {
      const path = sandboxWorkflowFilePath(entry);
      expect(path).toBe(
        WITH_SANDBOX_FILE.includes(`${entry.service}-${entry.release}.arazzo.yaml`)
          ? join(sandboxDir, `${entry.service}-${entry.release}.arazzo.yaml`)
          : workflowFilePath(entry),
      );
      const file = loadWorkflowFile(path);
      const mock = await startMock(alias, { port: 0, sandbox: true });
      try {
        const result = await runWorkflows(path, { server: mock.url, inputs: mockInputs(file) });
        expect(result.ok, explain(result)).toBe(true);
        expect(result.workflows.map((w) => w.workflowId).sort()).toEqual(file.workflows.map((w) => w.workflowId).sort());
      } finally {
        await mock.close();
      }
    },
    180_000,
  );

  it("bank-api-contracts workflows run <alias> --sandbox starts a sandbox mock and runs the sandbox file", async () => {
    const { code, stdout } = await cliInProcess(["workflows", "run", "statement@1.0.0", "--sandbox"]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(
      /^statement@1\.0\.0: running workflows\/sandbox\/statement-1\.0\.0\.arazzo\.yaml against http:\/\/127\.0\.0\.1:\d+ \(sandbox mock\)$/m,
    );
    expect(stdout).toMatch(/statement@1\.0\.0: 2 of 2 workflow\(s\) passed/);
  }, 120_000);
});
