/**
 * Secrets never travel on the Respect child's command line (`ps` shows any process's argv to every
 * local user) nor in its environment: `runWorkflows` hands the inputs and servers to the child on
 * its standard input. Checked on the live child: a local server on port 0 holds Respect's first
 * request until the test has read /proc/<child>/cmdline and /proc/<child>/environ, and the request
 * itself proves the secret reached Respect. Also through `bank-api-contracts workflows run`, with the
 * secret taken from an environment variable (`--input-env`), so that it is on no command line at all.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadWorkflowFile, runWorkflows, workflowFilePath } from "../../../../src/workflows/index.js";
import { findApi, repoRoot } from "../../../../src/registry.js";
import { capture } from "../../../helpers/processes.js";

/** `bank-api-contracts <args>` from the sources, as a process, with extra environment variables. */
function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(`${repoRoot}/node_modules/.bin/tsx`, [`${repoRoot}/src/cli/bin.ts`, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, ...capture(child) };
}

/** Processes whose parent is `parent`, from /proc (independent of the code under test). */
function descendants(parent: number): number[] {
  const found: number[] = [];
  const queue = [parent];
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent pid (after the parenthesised command, which may contain spaces).
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        return { pid: Number(name), ppid: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) };
      } catch {
        return undefined; // exited meanwhile
      }
    })
    .filter((p) => p !== undefined);
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of all.filter((p) => p.ppid === pid)) {
      found.push(child.pid);
      queue.push(child.pid);
    }
  }
  return found;
}

const readProc = (pid: number, what: "cmdline" | "environ") => readFileSync(`/proc/${pid}/${what}`, "utf8").split("\0").join(" ");

/**
 * What `readProc` reads, or "" for a process that has exited since it was listed (another test's
 * child, in this shared worker, ending): a process that is gone holds no secret.
 */
function readLive(pid: number, what: "cmdline" | "environ"): string {
  try {
    return readProc(pid, what);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH" || (error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}

/** A server that holds the first request until `release()`, and records what it carried. */
interface Holding {
  server: Server;
  url: string;
  first: Promise<IncomingHttpHeaders>;
  release(): void;
}

async function holding(): Promise<Holding> {
  let arrived!: (headers: IncomingHttpHeaders) => void;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const first = new Promise<IncomingHttpHeaders>((resolve) => (arrived = resolve));
  const server = createServer((request, response) => {
    request.resume();
    arrived(request.headers);
    released.then(() => {
      response.writeHead(503, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, first, release };
}

const entry = findApi("pay@1.3.0");
const file = loadWorkflowFile(workflowFilePath(entry));
const secretInput = file.workflows[0].inputs.find((i) => i.secret);

let hold: Holding;
beforeEach(async () => {
  hold = await holding();
});
afterEach(async () => {
  hold.release();
  hold.server.closeAllConnections();
  await new Promise((resolve) => hold.server.close(resolve));
});

describe("the Respect child process", () => {
  it("the workflow file declares a secret input (format: password) to pass", () => {
    expect(secretInput).toMatchObject({ name: "token", secret: true, required: true });
  });

  it("gets the secret input and the server on standard input: neither is in its command line nor its environment", async () => {
    const secret = `tok-${randomUUID()}`;
    const run = runWorkflows(file.path, {
      server: hold.url,
      inputs: { [secretInput!.name]: secret },
      workflowIds: [file.workflows[0].workflowId],
    });
    const headers = await hold.first; // Respect is running and has read its inputs
    const children = descendants(process.pid);
    expect(children.length).toBeGreaterThan(0);
    const respect = children.filter((pid) => readLive(pid, "cmdline").includes("respect"));
    expect(respect).toHaveLength(1);
    // Respect holds the request, so it is alive: its environment is read (an exited process would throw here).
    expect(readProc(respect[0], "environ")).not.toContain(secret);
    for (const pid of children) {
      expect(readLive(pid, "cmdline"), `cmdline of ${pid}`).not.toContain(secret);
      expect(readLive(pid, "cmdline"), `cmdline of ${pid}`).not.toContain(hold.url);
      expect(readLive(pid, "environ"), `environment of ${pid}`).not.toContain(secret);
    }
    expect(headers.authorization).toBe(`Bearer ${secret}`);
    hold.release();
    const result = await run;
    expect(result.workflows.map((w) => w.workflowId)).toEqual([file.workflows[0].workflowId]);
    expect(result.output).not.toContain(secret);
  });
});

describe("bank-api-contracts workflows run --input-env", () => {
  it("reads the secret from the named environment variable: it is on no command line", async () => {
    const secret = `tok-${randomUUID()}`;
    const run = cli(
      [
        "workflows",
        "run",
        entry.alias,
        "--server",
        hold.url,
        "--input-env",
        `${secretInput!.name}=I17A_TEST_TOKEN`,
        "--workflow",
        file.workflows[0].workflowId,
      ],
      { I17A_TEST_TOKEN: secret },
    );
    try {
      const headers = await hold.first;
      const tree = [run.child.pid!, ...descendants(run.child.pid!)];
      expect(tree.length).toBeGreaterThan(1);
      for (const pid of tree) expect(readProc(pid, "cmdline"), `cmdline of ${pid}`).not.toContain(secret);
      expect(headers.authorization).toBe(`Bearer ${secret}`);
      hold.release();
      expect(await run.exit).toBe(1); // the held request was answered 503: the workflow fails
      expect(run.stdout() + run.stderr()).not.toContain(secret);
    } finally {
      if (run.child.exitCode === null) run.child.kill("SIGTERM");
    }
  });

  it("names a variable that is not set, and exits 2", async () => {
    const run = cli(["workflows", "run", entry.alias, "--server", hold.url, "--input-env", "token=I17A_NOT_SET_ANYWHERE"]);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(/--input-env token=I17A_NOT_SET_ANYWHERE: the environment variable I17A_NOT_SET_ANYWHERE is not set/);
  });
});
