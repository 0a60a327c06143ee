/**
 * A shared sandbox's failed attempts in src/sandbox/delivery/deliverer.ts (the callback policy's
 * `opaque`): an attempt that got no answer takes its whole timeout before anything else happens,
 * the last one included (the delivery is failed only then), so the log cannot tell a closed port
 * from a filtered one; an attempt that got an answer is not held. Receivers: a closed port, and
 * one answering a list of statuses. No sleeps: each test waits for `idle()`.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { orderPaidEvent } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { TargetPolicy } from "../../../../src/sandbox/targets.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const servers: Server[] = [];
const deliverers: Deliverer[] = [];
afterEach(() => {
  for (const d of deliverers.splice(0)) d.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function listening(statuses: number[]) {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(statuses[Math.min(n++, statuses.length - 1)]).end());
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** A URL of a port nothing listens on (a server's, closed). */
async function closedPort() {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  server.close();
  await once(server, "close");
  return url;
}

const event = (url: string) => orderPaidEvent(url);

function shared(attempts: number, timeoutMs: number) {
  const d = new Deliverer({
    alias: shop.alias,
    registry,
    retry: { attempts, baseDelayMs: 1, maxDelayMs: 2, timeoutMs },
    targets: new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["127.0.0.1"] }),
  });
  deliverers.push(d);
  return d;
}

describe("a shared sandbox's attempt that got no answer", () => {
  it("holds even the last attempt's failure for the whole timeout: the delivery is failed only then", async () => {
    const url = await closedPort();
    const d = shared(1, 300);
    const entry = d.enqueue(new CredentialState("k"), event(url));
    await d.idle();
    const ended = Date.now();
    expect(entry).toMatchObject({ state: "failed", note: "no 2xx answer after 1 attempt(s)" });
    expect(entry.attempts).toEqual([{ at: expect.any(String), status: 0 }]);
    expect(ended - Date.parse(entry.attempts[0].at)).toBeGreaterThanOrEqual(300 - 2);
  });
});

describe("a shared sandbox's attempt that got an answer", () => {
  it("is not held: a 500 is retried after the backoff, not after the timeout", async () => {
    const url = await listening([500, 200]);
    const d = shared(2, 30_000);
    const entry = d.enqueue(new CredentialState("k"), event(url));
    await d.idle();
    expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
    expect(entry.attempts.map((a) => a.status)).toEqual([500, 200]);
    // An answered attempt shows its duration; no error text on a shared sandbox.
    expect(entry.attempts[0]).toEqual({ at: expect.any(String), status: 500, durationMs: expect.any(Number) });
  }, 5_000);
});
