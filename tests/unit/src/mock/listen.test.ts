/**
 * The connection guards of the mock's servers (src/mock/listen.ts `guardConnections`), on a real
 * server in this process: the cap per client address and the cap on every connection together
 * (refused connections closed at once and reported with their address), a client at its cap leaving
 * others answered, the caps freed when connections close, and a malformed request answered as Node
 * answers it without the guards. The timeouts, which take real seconds, are in listen.slow.test.ts.
 */
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectionGuards, guardConnections, guardedServerOptions } from "../../../../src/mock/listen.js";

type Refusal = Parameters<NonNullable<ConnectionGuards["onRefused"]>>[0];

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A guarded server answering 200 "ok" on port 0, with the refusals it reports. */
async function guarded(settings: Partial<ConnectionGuards>) {
  const refusals: Refusal[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const guards: ConnectionGuards = {
    headersTimeoutMs: 60_000,
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5000,
    checkIntervalMs: 1000,
    maxConnections: 1000,
    maxConnectionsPerAddress: 0,
    ...settings,
    onRefused: (refusal) => {
      refusals.push(refusal);
      for (const waiter of waiters) if (refusals.length >= waiter.count) waiter.resolve();
    },
  };
  const server = createServer(guardedServerOptions(guards), (_, response) => response.end("ok"));
  /** The server's side of each connection, in order of arrival. */
  const accepted: Socket[] = [];
  server.on("connection", (socket: Socket) => accepted.push(socket));
  guardConnections(server, guards);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  /** Resolves once `count` refusals were reported. */
  const refused = (count: number) =>
    new Promise<void>((resolve) => {
      if (refusals.length >= count) resolve();
      else waiters.push({ count, resolve });
    });
  return { server, port, refusals, refused, accepted };
}

/** A connection from `from` (a loopback address of its own), once connected. */
function open(port: number, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress: from });
    sockets.push(socket);
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Sends a GET on `socket` and resolves the first bytes of the answer; rejects if the connection closes without one. */
function ask(socket: Socket, request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
      if (received.includes("\r\n\r\n")) resolve(received);
    });
    socket.once("close", () => (received ? resolve(received) : reject(new Error("closed without an answer"))));
    socket.on("error", () => {});
    socket.write(request);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once("close", () => resolve())));

describe("the cap per client address", () => {
  it("closes every connection of an address past it at once, reports each, and leaves other addresses answered", async () => {
    const { port, refusals, refused } = await guarded({ maxConnectionsPerAddress: 3 });
    const from2 = await Promise.all(Array.from({ length: 10 }, () => open(port, "127.0.0.2")));
    // The seven refused are closed by the server; three stay open.
    const sevenClosed = new Promise<void>((resolve) => {
      let count = 0;
      for (const s of from2) {
        s.on("error", () => {});
        s.once("close", () => ++count === 7 && resolve());
      }
    });
    await refused(7);
    await sevenClosed;
    expect(refusals).toEqual(Array.from({ length: 7 }, () => ({ reason: "max-connections-per-address", address: "127.0.0.2" })));
    const other = await open(port, "127.0.0.3");
    expect(await ask(other)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // While the three held connections are open, they are still answered too.
    const held = from2.filter((s) => !s.closed);
    expect(held).toHaveLength(3);
    for (const answer of await Promise.all(held.map((s) => ask(s)))) expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it("frees a place when one of the address's connections closes", async () => {
    const { port, refused, accepted } = await guarded({ maxConnectionsPerAddress: 1 });
    const first = await open(port, "127.0.0.4");
    expect(await ask(first, "GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 OK/);
    const second = await open(port, "127.0.0.4");
    second.on("error", () => {});
    await refused(1);
    await closed(second);
    first.destroy();
    await closed(accepted[0]); // the server's side of the first connection
    const again = await open(port, "127.0.0.4");
    expect(await ask(again)).toMatch(/^HTTP\/1\.1 200 OK/);
  });
});

describe("the cap on every connection together", () => {
  it("closes a connection past it at once and reports it with its address", async () => {
    const { port, refusals, refused } = await guarded({ maxConnections: 4 });
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port, "127.0.0.5")));
    // Served: the server has accepted all four (an answer on each).
    for (const s of held) expect(await ask(s, "GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")).toMatch(/^HTTP\/1\.1 200/);
    const late = await open(port, "127.0.0.6");
    late.on("error", () => {});
    await refused(1);
    await closed(late);
    expect(refusals).toEqual([{ reason: "max-connections", address: "127.0.0.6" }]);
  });
});

describe("a malformed request", () => {
  it("gets the bytes Node sends without the guards", async () => {
    const plain = createServer((_, response) => response.end("ok"));
    servers.push(plain);
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    const { port } = await guarded({});
    const garbage = "NOT HTTP AT ALL\r\n\r\n";
    const stock = await ask(await open((plain.address() as { port: number }).port, "127.0.0.1"), garbage);
    const mine = await ask(await open(port, "127.0.0.1"), garbage);
    expect(stock).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    expect(mine).toBe(stock);
  });
});

describe("the server options", () => {
  it("are Node's defaults without guards, and carry the timeouts and the check interval with them", () => {
    expect(guardedServerOptions(undefined)).toEqual({});
    expect(
      guardedServerOptions({
        headersTimeoutMs: 1,
        requestTimeoutMs: 2,
        keepAliveTimeoutMs: 3,
        checkIntervalMs: 4,
        maxConnections: 5,
        maxConnectionsPerAddress: 6,
      }),
    ).toEqual({ headersTimeout: 1, requestTimeout: 2, keepAliveTimeout: 3, connectionsCheckingInterval: 4 });
  });
});
