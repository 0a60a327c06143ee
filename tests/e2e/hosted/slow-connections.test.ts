/**
 * Thousands of slow connections against a hosted sandbox process (`mock --sandbox --hosted`, the
 * connection guards' defaults): 3,000 from one address and 500 from each of three others, half of
 * them never finishing their headers, half never finishing their body. Each address holds at most
 * its cap (64) open; every other connection is closed by the server as soon as it is accepted and
 * logged. A partner (its credential issued first) on another address is answered while every held slow connection is still open
 * (the event waited for is the answer, not a time). The log counts every refused connection per
 * address and holds no credential.
 *
 * The timeouts are set long here (60 s, 120 s) so that the slow connections stay open for the whole
 * test: the caps alone must keep the partner answered.
 */
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDocument, operations } from "../../../src/document/index.js";
import { repoRoot } from "../../../src/registry.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../src/testing/requests.js";
import { freePortRange } from "../../helpers/ports.js";
import { capture, waitForOutput } from "../../helpers/processes.js";
import { registry } from "../../helpers/registry.js";

const TOKEN = "operator-token-for-slow-clients-7";
const PER_ADDRESS = 64; // the default cap of connections per client address (src/hosted/connections.ts)
const SLOW: Array<[address: string, count: number]> = [
  ["127.0.0.2", 3000],
  ["127.0.0.3", 500],
  ["127.0.0.4", 500],
  ["127.0.0.5", 500],
];
const BATCH = 250;

const sockets: Socket[] = [];
afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

/** Opens `count` slow connections from `address`, `BATCH` at a time (each batch connected before the next). */
async function slowConnections(port: number, address: string, count: number, target: string): Promise<Socket[]> {
  const opened: Socket[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
      const socket = connect({ host: "127.0.0.1", port, localAddress: address });
      socket.on("error", () => {});
      sockets.push(socket);
      opened.push(socket);
      const n = start + i;
      // Half never finish their headers, half never finish their body.
      socket.once("connect", () =>
        socket.write(
          n % 2 === 0
            ? `GET ${target} HTTP/1.1\r\nHost: sandbox\r\nX-Slow: `
            : `POST /v1/balance HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"slow":`,
        ),
      );
      return new Promise<void>((resolve) => {
        socket.once("connect", () => resolve());
        socket.once("close", () => resolve());
      });
    });
    await Promise.all(batch);
  }
  return opened;
}

describe("thousands of slow connections", () => {
  it("leave a partner on another address answered while they are held, and are logged", async () => {
    const entry = registry.find((e) => e.alias === "balance@1.0.0")!;
    const doc = loadDocument(entry.bundlePath);
    const op = operations(doc).find((o) => o.method === "get" && o.path === "/v1/get_balance")!;
    const target = requestUrl(op, requestParams(doc, op));
    const base = await freePortRange(registry.length);
    const { BANK_API_CONTRACTS_OPERATOR_TOKEN: _, ...env } = process.env;
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(repoRoot, "src/cli/bin.ts"),
        "mock",
        entry.alias,
        "--sandbox",
        "--hosted",
        "--port-base",
        String(base),
        "--headers-timeout",
        "60",
        "--request-timeout",
        "120",
      ],
      { cwd: repoRoot, env: { ...env, BANK_API_CONTRACTS_OPERATOR_TOKEN: TOKEN }, stdio: ["pipe", "pipe", "pipe"] },
    );
    const run = capture(child);
    const port = base + entry.index;
    let partner = { id: "", credential: "" };
    try {
      await waitForOutput(child, run.stderr, "Ctrl+C stops.", "mock --sandbox --hosted", { streams: ["stderr"] });
      // The partner the operator issued a credential to, before the slow clients come.
      const issued = await fetch(`http://127.0.0.1:${port}/_sandbox/partners`, {
        method: "POST",
        headers: { "x-sandbox-operator-token": TOKEN, "content-type": "application/json" },
        body: JSON.stringify({ name: "On another address" }),
      });
      expect(issued.status).toBe(201);
      partner = (await issued.json()) as { id: string; credential: string };

      const opened = new Map<string, Socket[]>();
      for (const [address, count] of SLOW) opened.set(address, await slowConnections(port, address, count, target));
      // Every connection past its address's cap is closed by the server: wait for each of those closes.
      const refusedTotal = SLOW.reduce((sum, [, count]) => sum + count - PER_ADDRESS, 0);
      const all = [...opened.values()].flat();
      await new Promise<void>((resolve) => {
        let closed = all.filter((s) => s.closed).length;
        if (closed >= refusedTotal) resolve();
        for (const socket of all.filter((s) => !s.closed)) socket.once("close", () => ++closed >= refusedTotal && resolve());
      });
      for (const [address] of SLOW)
        expect(
          opened.get(address)!.filter((s) => !s.closed),
          address,
        ).toHaveLength(PER_ADDRESS);

      // A partner on another address, while every held slow connection is open.
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            localAddress: "127.0.0.10",
            path: target,
            headers: credentialHeaders(doc, op, { token: partner.credential, apiKey: partner.credential }),
            agent: false,
          },
          (res) => {
            let body = "";
            res.on("data", (chunk) => {
              body += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on("error", reject);
        req.end();
      });
      const heldWhenAnswered = all.filter((s) => !s.closed).length;
      expect(answer.status).toBe(200);
      expect(heldWhenAnswered).toBe(PER_ADDRESS * SLOW.length);
    } finally {
      for (const socket of sockets) socket.destroy();
      child.kill("SIGTERM");
    }
    expect(await run.exit).toBe(0);

    const records = run
      .stdout()
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // Per address: the first refusal at once, the others counted (the count written at the latest on close).
    for (const [address, count] of SLOW) {
      const lines = records.filter((r) => r.reason === "max-connections-per-address" && r.address === address);
      const refused = lines.reduce((sum, r) => sum + (r.msg === "connection refused" ? 1 : Number(r.count)), 0);
      expect(refused, address).toBe(count - PER_ADDRESS);
      expect(lines.length, address).toBeLessThan(10);
    }
    const partnerLine = records.find((r) => r.msg === "request" && r.status === 200 && r.operation !== null);
    expect(partnerLine).toMatchObject({ api: entry.alias, operation: op.operationId, method: "GET", partner: partner.id });
    expect(run.stdout() + run.stderr()).not.toContain(partner.credential);
    expect(run.stdout() + run.stderr()).not.toContain(TOKEN);
  });
});
