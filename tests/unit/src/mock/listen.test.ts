/**
 * The connection guards of the mock's servers (src/mock/listen.ts `guardConnections`), on a real
 * server in this process: the cap per client address and the cap on every connection together
 * (refused connections closed at once and reported with their address), a client at its cap leaving
 * others answered, the caps freed when connections close, and a malformed request answered as Node
 * answers it without the guards. The timeouts, which take real seconds, are in listen.slow.test.ts.
 */
import { EventEmitter } from "node:events";
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ConnectionGuards,
  guardConnections,
  guardedServerOptions,
  listenOrExplain,
  PortInUseError,
} from "../../../../src/mock/listen.js";

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

/** A socket's stand-in: its client address, what is written to it, whether it was destroyed and with what. */
class StandInSocket extends EventEmitter {
  written: string[] = [];
  destroyed = false;
  error: Error | undefined;
  constructor(
    readonly remoteAddress: string | undefined,
    public writable = true,
    readonly _httpMessage?: { headersSent: boolean },
  ) {
    super();
  }
  write(text: string) {
    this.written.push(text);
    return true;
  }
  destroy(error?: Error) {
    this.destroyed = true;
    this.error = error;
  }
}

/** A server's stand-in guarded by guardConnections, with the refusals reported (none recorded when `report` is false: no onRefused). */
function standIn(settings: Partial<ConnectionGuards>, report = true) {
  const refusals: Refusal[] = [];
  const server = new EventEmitter() as EventEmitter & { maxConnections?: number };
  guardConnections(server as unknown as Server, {
    headersTimeoutMs: 1,
    requestTimeoutMs: 1,
    keepAliveTimeoutMs: 1,
    checkIntervalMs: 1,
    maxConnections: 7,
    maxConnectionsPerAddress: 0,
    ...settings,
    ...(report ? { onRefused: (refusal: Refusal) => refusals.push(refusal) } : {}),
  });
  const connect = (address: string | undefined) => {
    const socket = new StandInSocket(address);
    server.emit("connection", socket);
    return socket;
  };
  const clientError = (code: string | undefined, socket = new StandInSocket("10.0.0.9")) => {
    server.emit("clientError", Object.assign(new Error(code ?? "no code"), { code }), socket);
    return socket;
  };
  return { server, refusals, connect, clientError };
}

/** What node:_http_server writes for a client error when no one listens for it (its socketOnError), by the error's code. */
const NODE_ANSWERS: Array<[string | undefined, string]> = [
  ["ERR_HTTP_REQUEST_TIMEOUT", "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"],
  ["HPE_HEADER_OVERFLOW", "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n"],
  ["HPE_CHUNK_EXTENSIONS_OVERFLOW", "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n"],
  ["HPE_INVALID_METHOD", "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"],
  [undefined, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"],
];

describe("the guards on a stand-in server", () => {
  it("set the cap on every connection, and report a dropped connection with its address, or unknown without one", () => {
    const { server, refusals } = standIn({ maxConnections: 7 });
    expect(server.maxConnections).toBe(7);
    server.emit("drop", { remoteAddress: "10.0.0.1" });
    server.emit("drop", {});
    server.emit("drop");
    expect(refusals).toEqual([
      { reason: "max-connections", address: "10.0.0.1" },
      { reason: "max-connections", address: "unknown" },
      { reason: "max-connections", address: "unknown" },
    ]);
  });

  it("count an address's connections until each closes: a place is freed per connection closed, not all of them", () => {
    const { connect, refusals } = standIn({ maxConnectionsPerAddress: 2 });
    const [a, b] = [connect("10.0.0.2"), connect("10.0.0.2")];
    expect(connect("10.0.0.2").destroyed).toBe(true);
    a.emit("close");
    const c = connect("10.0.0.2");
    expect(c.destroyed).toBe(false);
    expect(connect("10.0.0.2").destroyed).toBe(true);
    b.emit("close");
    c.emit("close");
    expect([connect("10.0.0.2"), connect("10.0.0.2")].map((s) => s.destroyed)).toEqual([false, false]);
    expect(connect("10.0.0.2").destroyed).toBe(true);
    // A socket without an address counts as "unknown".
    expect([connect(undefined), connect(undefined), connect(undefined)].map((s) => s.destroyed)).toEqual([false, false, true]);
    expect(refusals).toEqual([
      ...Array.from({ length: 3 }, () => ({ reason: "max-connections-per-address", address: "10.0.0.2" })),
      { reason: "max-connections-per-address", address: "unknown" },
    ]);
  });

  it("refuse, answer and close without anyone told when no onRefused is given", () => {
    const { server, connect, clientError } = standIn({ maxConnectionsPerAddress: 1 }, false);
    server.emit("drop", { remoteAddress: "10.0.0.1" });
    connect("10.0.0.3");
    expect(connect("10.0.0.3").destroyed).toBe(true);
    const timedOut = clientError("ERR_HTTP_REQUEST_TIMEOUT");
    expect(timedOut.written).toEqual([NODE_ANSWERS[0][1]]);
    expect(timedOut.destroyed).toBe(true);
  });

  it.each(NODE_ANSWERS)(
    "answer a client error %s as Node does, close the connection with it, and report only a timeout",
    (code, answer) => {
      const { clientError, refusals } = standIn({});
      const socket = clientError(code);
      expect(socket.written).toEqual([answer]);
      expect(socket.destroyed).toBe(true);
      expect(socket.error).toMatchObject({ code });
      expect(refusals).toEqual(code === "ERR_HTTP_REQUEST_TIMEOUT" ? [{ reason: "timeout", address: "10.0.0.9" }] : []);
    },
  );

  it("report a timeout of a socket without an address as unknown", () => {
    const { clientError, refusals } = standIn({});
    clientError("ERR_HTTP_REQUEST_TIMEOUT", new StandInSocket(undefined));
    expect(refusals).toEqual([{ reason: "timeout", address: "unknown" }]);
  });

  it("write nothing on a connection that can no longer be written, or whose answer has begun", () => {
    const { clientError } = standIn({});
    for (const socket of [new StandInSocket("10.0.0.9", false), new StandInSocket("10.0.0.9", true, { headersSent: true })]) {
      clientError("ERR_HTTP_REQUEST_TIMEOUT", socket);
      expect(socket.written).toEqual([]);
      expect(socket.destroyed).toBe(true);
    }
    const begun = clientError("HPE_INVALID_METHOD", new StandInSocket("10.0.0.9", true, { headersSent: false }));
    expect(begun.written).toHaveLength(1);
  });
});

describe("listenOrExplain", () => {
  const failing = (reason: unknown) => ({ listen: () => Promise.reject(reason) });

  it("names the API, port and host of a port in use, with the code EADDRINUSE (Prism rejects with the message, a string)", async () => {
    for (const reason of ["listen EADDRINUSE: address already in use 127.0.0.1:5555", new Error("listen EADDRINUSE: in use")]) {
      const error = await listenOrExplain(failing(reason), "pay-1.3.0", 5555, "127.0.0.1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PortInUseError);
      expect(error).toMatchObject({ code: "EADDRINUSE", alias: "pay-1.3.0", port: 5555, host: "127.0.0.1" });
      expect((error as Error).message).toBe(
        "pay-1.3.0: port 5555 on 127.0.0.1 is already in use; stop what holds it or choose another port",
      );
    }
  });

  it("names the API, host and port of any other failure, with its message", async () => {
    const error = await listenOrExplain(failing(new Error("listen EACCES: permission denied")), "balance", 80, "0.0.0.0").catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(PortInUseError);
    expect((error as Error).message).toBe("balance: cannot listen on 0.0.0.0:80: listen EACCES: permission denied");
    await expect(listenOrExplain({ listen: () => Promise.resolve("http://127.0.0.1:1") }, "x", 0, "127.0.0.1")).resolves.toBe(
      "http://127.0.0.1:1",
    );
  });
});
