/**
 * Shared by the durable store's end-to-end tests (./file.test.ts, ./postgres.test.ts): sandbox
 * processes of the package CLI (`mock pay@1.3.0 --sandbox --sandbox-store <address>`, from source
 * through tsx) on free ports, a callback receiver that can hold an attempt unanswered, the process a
 * receiver's connection comes from (read from /proc), and the scenario both stores go through: a
 * SIGKILL during a burst of creates, then SIGTERM with a callback attempt in flight and a delayed
 * move ahead, each carried out by the next start.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../../../src/registry.js";
import { sandboxControl } from "../../../src/testing/index.js";
import { type Run, waitFor } from "../../helpers/cli.js";
import { freePortRange } from "../../helpers/ports.js";
import { capture, waitUntil } from "../../helpers/processes.js";
import { registry } from "../../helpers/registry.js";
import { api, exampleBody, send } from "../sandbox/cases.js";

export const ALIAS = "pay@1.3.0";
const bin = join(repoRoot, "src/cli/bin.ts");

export interface Instance {
  run: Run;
  /** The mock's base URL. */
  url: string;
  pid: number;
}

/**
 * Starts `bank-api-contracts <args> --port-base <free>` in `cwd` (the CLI from source, `node --import
 * tsx`, no standard input) and waits until it is ready.
 */
export async function startInstance(args: string[], cwd = repoRoot): Promise<Instance> {
  const base = await freePortRange(registry.length);
  const all = [...args, "--port-base", String(base)];
  const child = spawn(process.execPath, ["--import", "tsx", bin, ...all], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const run: Run = { child, args: all, ...capture(child) };
  await waitFor(run, "ready");
  const index = registry.findIndex((entry) => entry.alias === ALIAS);
  return { run, url: `http://127.0.0.1:${base + index}`, pid: run.child.pid! };
}

/** `mock pay@1.3.0 --sandbox --sandbox-store <address>`. */
export const sandboxArgs = (address: string) => ["mock", ALIAS, "--sandbox", "--sandbox-store", address];

/** Ends an instance: SIGKILL, or SIGTERM (then its exit code, once it has stopped). */
export async function stop(instance: Instance, signal: "SIGKILL" | "SIGTERM" = "SIGTERM"): Promise<number | null> {
  if (instance.run.child.exitCode === null && instance.run.child.signalCode === null) instance.run.child.kill(signal);
  return instance.run.exit;
}

/** An API call of pay@1.3.0 through an instance, the spec's example as the body unless given. */
export function payCall(
  instance: Instance,
  credential: string,
  operationId: string,
  options: { body?: unknown; path?: Record<string, string> } = {},
) {
  const { doc, op } = api(ALIAS);
  const body = options.body ?? exampleBody(doc, op(operationId));
  return send(instance.url, ALIAS, operationId, { credential, body, path: options.path });
}

export const control = (instance: Instance, credential: string) => sandboxControl(instance.url, credential, { api: ALIAS });

/** What a receiver got: the Idempotency-Key, the body, where the connection came from. */
export interface Received {
  key: string | undefined;
  body: any;
  remotePort: number;
}

/**
 * A callback receiver on a free port: each request is answered with the status `answer` gives for
 * its place (from 0), or held unanswered (`"hold"`: `release(n, status)` answers it later).
 */
export async function receiver(answer: (n: number) => number | "hold" = () => 200) {
  const received: Received[] = [];
  const held = new Map<number, ServerResponse>();
  const waiters: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const n = received.length;
      received.push({
        key: req.headers["idempotency-key"] as string | undefined,
        body: JSON.parse(text || "null"),
        remotePort: req.socket.remotePort!,
      });
      const status = answer(n);
      if (status === "hold") held.set(n, res);
      else res.writeHead(status, { "content-type": "application/json" }).end("{}");
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/callbacks`,
    received,
    /** Resolves once `n` requests have arrived. */
    count: (n: number) =>
      new Promise<Received[]>((resolve) => {
        const check = () => (received.length >= n ? resolve(received) : waiters.push(check));
        check();
      }),
    release: (n: number, status: number) => held.get(n)?.writeHead(status).end("{}"),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Of `pids`, the process holding the TCP connection whose local port is `port` on this host (read from /proc). */
export function processOfConnection(port: number, pids: number[]): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let lines: string[] = [];
    try {
      lines = readFileSync(table, "utf8").split("\n").slice(1);
    } catch {}
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hex}`)) inodes.add(fields[9]!);
    }
  }
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? "");
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

/** Resolves at `time` (ms since the epoch): the moment a delayed move is due. */
export const untilTime = (time: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

/** An invoice's body: the example with an item (a test value such as `sandbox_paid`, or a plain one). */
export const invoiceBody = (item = "SKU-1") => ({ amount: { cur: "IDR", amt: "150000" }, item_id: item });

/**
 * The scenario of a store that outlives its process, as tests of the file that calls it (they run in
 * order and share its instances): `start()` starts an instance on the store (each is pushed on
 * `instances`, for the file to stop); `whileStopped()` runs once every instance has stopped, before
 * the last start (a backup and its restore: that start then reads the restored store).
 */
export function restartScenario(start: () => Promise<Instance>, instances: Instance[], whileStopped: () => Promise<void>) {
  let current: Instance;

  it("keeps every acknowledged create through a SIGKILL during a burst of creates, and a restart", async () => {
    current = await start();
    instances.push(current);
    const credentials = ["burst-a", "burst-b", "burst-c", "burst-d"];
    const acknowledged: Array<{ credential: string; id: string }> = [];
    let killed = false;
    const creates = credentials.flatMap((credential) =>
      Array.from({ length: 100 }, () =>
        payCall(current, credential, "createInvoice", { body: invoiceBody() }).then((answer) => {
          if (answer.status !== 200) return;
          acknowledged.push({ credential, id: answer.body.invoice_id });
          // Killed while the burst goes on: after 30 acknowledgements of its 400 creates (many, so
          // that answers read late on a busy machine still leave creates unanswered at the kill).
          if (acknowledged.length === 30 && !killed) {
            killed = true;
            current.run.child.kill("SIGKILL");
          }
        }),
      ),
    );
    await Promise.allSettled(creates);
    expect(await current.run.exit).toBe(null);
    // Killed during the burst: creates answered before the kill, others never.
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    expect(acknowledged.length).toBeLessThan(credentials.length * 100);

    current = await start();
    instances.push(current);
    for (const credential of credentials) {
      const listed = await payCall(current, credential, "listInvoices");
      const ids = new Set(listed.body.urls.map((u: { invoice_id: string }) => u.invoice_id));
      const mine = acknowledged.filter((a) => a.credential === credential).map((a) => a.id);
      expect(
        mine.filter((id) => !ids.has(id)),
        `${credential}: acknowledged creates missing after the restart`,
      ).toEqual([]);
    }
  });

  it("answers on SIGTERM what is in flight, and leaves a callback to retry and a delayed move to the next start, which makes them (overdue at once)", async () => {
    // The first delivery is held until the instance is stopping, then answered 503: its retry is left queued.
    const hook = await receiver((n) => (n === 0 ? "hold" : 200));
    try {
      const credential = "restart";
      expect((await payCall(current, credential, "createMerchant", { body: { name: "Shop", webhook_url: hook.url } })).status).toBe(200);
      const now = (await payCall(current, credential, "createInvoice", { body: invoiceBody() })).body.invoice_id;
      const later = (await payCall(current, credential, "createInvoice", { body: invoiceBody("sandbox_paid") })).body.invoice_id;
      // Created by the time it was answered: its move is due 5 s after, at the latest.
      const created = Date.now();
      await control(current, credential).act("invoice", now, "pay");
      const [first] = await hook.count(1);
      expect(first!.body).toMatchObject({ invoice_id: now, status: "Success" });

      current.run.child.kill("SIGTERM");
      await waitFor(current.run, "SIGTERM: stopping the mocks");
      hook.release(0, 503);
      expect(await current.run.exit).toBe(0);
      await whileStopped();
      // The test value pays `later` 5 seconds after its creation: the next start finds it overdue.
      await untilTime(created + 5_000 + 500);

      current = await start();
      instances.push(current);
      const [, retried, paid] = await hook.count(3);
      // The same callback again, with its event's key; and the delayed move's, made at start.
      expect(retried).toMatchObject({ key: first!.key, body: { invoice_id: now, status: "Success" } });
      expect(paid).toMatchObject({ body: { invoice_id: later, status: "Success" } });
      expect(paid!.key).not.toBe(first!.key);
      const events = await control(current, credential).events();
      expect(events.map((e) => [e.resource_id, e.type, e.cause])).toEqual([
        [now, "invoice.pay", "control"],
        [later, "invoice.pay", "test value invoice_paid"],
      ]);
      // The receiver has answered; the instance records the answer once it reads it.
      const retriedDelivery = async () => (await control(current, credential).deliveries()).find((d) => d.resource_id === now)!;
      await waitUntil(async () => (await retriedDelivery()).state === "delivered", "the retried delivery recorded as delivered");
      expect((await retriedDelivery()).state).toBe("delivered");
      expect((await retriedDelivery()).attempts.map((a) => a.status)).toEqual([503, 200]);
    } finally {
      await hook.close();
    }
  });

  return { current: () => current };
}
