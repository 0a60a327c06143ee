/**
 * An attempt whose delivery another instance took over while it was in flight (shared leases, a
 * Postgres store: src/sandbox/delivery/deliverer.ts `record`): its outcome is logged on the
 * delivery, but the delivery stays the other instance's, queued under its lease, neither delivered
 * nor given its next step by this process. The receiver holds its answer until told: no sleeps.
 */
import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { orderPaidEvent } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
let server: Server | undefined;
let d: Deliverer | undefined;
afterEach(() => {
  d?.close();
  server?.closeAllConnections();
  server?.close();
});

describe("an attempt whose delivery another instance took over", () => {
  for (const status of [200, 503]) {
    it(`answered ${status}: logged, the delivery left queued under the other instance's lease`, async () => {
      const held: ServerResponse[] = [];
      let arrived!: () => void;
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      server = createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          held.push(res);
          arrived();
        });
      });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      d = new Deliverer({
        alias: shop.alias,
        registry,
        retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 30_000 },
        leases: "shared",
      });
      const state = new CredentialState("k");
      const entry = d.enqueue(state, orderPaidEvent(url));
      await reached;
      // The store read back the delivery under another instance's lease (this one's ran out for it).
      const theirs = Date.now() + 3_600_000;
      Object.assign(state.queue[0], { lease: theirs, attempts: 2 });
      const drained = d.drain(10_000);
      held[0].writeHead(status).end();
      await drained;
      expect(entry.attempts.map((a) => a.status)).toEqual([status]);
      expect(entry).toMatchObject({ state: "pending", deliveredCount: 0 });
      expect(state.queue).toHaveLength(1);
      expect(state.queue[0]).toMatchObject({ lease: theirs, attempts: 2, next: "attempt" });
    });
  }
});
