/**
 * Local receivers of callback deliveries, for the deliverer's tests: each records what arrives (its
 * Idempotency-Key, body and time) and either answers from a list of statuses or holds each request
 * until the test answers it, so a test waits on arrivals, never on sleeps.
 *
 * `useHookReceivers()`, called once at a test file's top level, registers the cleanup after each
 * test: the deliverers handed to `closeAfter` are closed, then every receiver's server.
 */
import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface Arrival {
  key?: string;
  body: string;
  /** `Date.now()` when the request's body ended. */
  at: number;
}

export interface HookReceiver {
  url: string;
  server: Server;
  seen: Arrival[];
  /** Resolves once `n` requests have arrived. */
  arrived(n: number): Promise<void>;
  /** Answers the oldest held request (a receiver made without statuses holds each one). */
  answer(status: number): void;
  /** Closes the server, as a receiver that is down. */
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export function useHookReceivers() {
  const servers: Server[] = [];
  const closers: Array<{ close(): void }> = [];
  afterEach(async () => {
    for (const closer of closers.splice(0)) closer.close();
    await Promise.all(servers.splice(0).map(closeServer));
  });

  /**
   * A receiver at `http://127.0.0.1:<free port>/hook`: with `statuses`, answers each request with the
   * next one (the last repeats) and `headers`; without, holds each request until `answer(status)`.
   */
  async function receiver(statuses?: number[], headers: Record<string, string> = {}): Promise<HookReceiver> {
    const seen: Arrival[] = [];
    const held: ServerResponse[] = [];
    const waiters: Array<() => void> = [];
    const server = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        seen.push({ key: req.headers["idempotency-key"] as string | undefined, body, at: Date.now() });
        if (statuses) res.writeHead(statuses[Math.min(seen.length - 1, statuses.length - 1)], headers).end("{}");
        else held.push(res);
        for (const wake of waiters.splice(0)) wake();
      });
    });
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const arrived = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (seen.length >= n ? resolve() : waiters.push(check));
        check();
      });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
      server,
      seen,
      arrived,
      answer: (status) => void held.shift()?.writeHead(status).end(),
      close: async () => {
        servers.splice(servers.indexOf(server), 1);
        await closeServer(server);
      },
    };
  }

  /** Closes `thing` (a deliverer) after the test, before the receivers. */
  const closeAfter = <T extends { close(): void }>(thing: T): T => {
    closers.push(thing);
    return thing;
  };

  return { receiver, closeAfter };
}
