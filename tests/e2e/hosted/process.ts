/**
 * Shared by hosted mode's end-to-end tests: `mock --sandbox --hosted` as a process (the CLI from
 * source through tsx) on free ports, the operator's token in its environment; the operator's calls
 * (issuing, revoking, changing a partner); an API request with a credential in the scheme its
 * operation names; the JSON log lines the process wrote on standard output.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { jsonRequest, loadDocument, type Operation, operations } from "../../../src/document/index.js";
import { repoRoot } from "../../../src/registry.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../src/testing/requests.js";
import type { Run } from "../../helpers/cli.js";
import { freePortRange } from "../../helpers/ports.js";
import { capture, waitForOutput } from "../../helpers/processes.js";
import { registry } from "../../helpers/registry.js";

const bin = join(repoRoot, "src/cli/bin.ts");

export interface Hosted {
  run: Run;
  base: number;
  token: string;
  /** The base URL of API `alias`'s mock. */
  url(alias: string): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
  /** The JSON lines written on standard output so far. */
  lines(): Array<Record<string, unknown>>;
}

/**
 * Starts `mock <aliases> --sandbox --hosted <args> --port-base <free>` with the operator's token in
 * BANK_API_CONTRACTS_OPERATOR_TOKEN, and waits until it is ready (what it says goes to standard
 * error: standard output is the log's).
 */
export async function startHosted(token: string, aliases: string[], args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Hosted> {
  const base = await freePortRange(registry.length);
  const all = ["mock", ...aliases, "--sandbox", "--hosted", ...args, "--port-base", String(base)];
  const { BANK_API_CONTRACTS_OPERATOR_TOKEN: _, BANK_API_CONTRACTS_SANDBOX_STORE: __, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", bin, ...all], {
    cwd: repoRoot,
    env: { ...inherited, ...env, BANK_API_CONTRACTS_OPERATOR_TOKEN: token },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: Run = { child, args: all, ...capture(child) };
  // The last line it says on start: which store, and where the log goes.
  await waitForOutput(child, run.stderr, "One JSON log line per request on standard output.", `bank-api-contracts ${all.join(" ")}`, {
    timeoutMs: 100_000,
    streams: ["stderr"],
  });
  return {
    run,
    base,
    token,
    url: (alias) => `http://127.0.0.1:${base + registry.findIndex((entry) => entry.alias === alias)}`,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return run.exit;
    },
    lines: () =>
      run
        .stdout()
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

export interface Partner {
  id: string;
  name: string;
  credential: string;
  quotas: Record<string, number>;
}

/** The operator's call to a control route of `base`, its JSON answer. */
export async function operator(
  hosted: Hosted,
  method: string,
  path: string,
  body?: unknown,
  base = hosted.url("pay@1.3.0"),
): Promise<{ status: number; body: any }> {
  const response = await fetch(base + path, {
    method,
    headers: { "x-sandbox-operator-token": hosted.token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** Issues a credential to a new partner (201, or it throws naming the answer). */
export async function issue(hosted: Hosted, name: string, quotas?: Record<string, number>): Promise<Partner> {
  const answer = await operator(hosted, "POST", "/_sandbox/partners", { name, ...(quotas ? { quotas } : {}) });
  if (answer.status !== 201) throw new Error(`issuing ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** An API and its operations, from its bundled document. */
export function apiOf(alias: string) {
  const entry = registry.find((e) => e.alias === alias)!;
  const doc = loadDocument(entry.bundlePath);
  return { entry, doc, ops: operations(doc), op: (operationId: string) => operations(doc).find((o) => o.operationId === operationId)! };
}

/**
 * Sends `op`'s example request (its parameters, its first JSON example as the body unless `body`)
 * to `base`, carrying `credential` as its scheme asks (bearer token or API key), none when undefined.
 */
export async function send(
  base: string,
  api: ReturnType<typeof apiOf>,
  op: Operation,
  credential: string | undefined,
  body?: unknown,
): Promise<{ status: number; headers: Headers; text: string }> {
  const params = requestParams(api.doc, op);
  const payload = body ?? jsonRequest(api.doc, op)?.examples[0]?.value;
  const response = await fetch(base + requestUrl(op, params), {
    method: op.method.toUpperCase(),
    headers: {
      ...(params.header as Record<string, string>),
      ...(credential === undefined ? {} : credentialHeaders(api.doc, op, { token: credential, apiKey: credential })),
      ...(payload === undefined ? {} : { "content-type": "application/json" }),
    },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
