/**
 * The timeouts of the mock's connection guards (src/mock/listen.ts), on a real server in this
 * process, in real time (Node's own timers, checked every 100 ms here): headers never finished and a
 * body never finished get Node's 408 and are closed, each reported as a timeout with its address; an
 * idle kept-alive connection is closed. Each test waits for the connection's close, not for a time.
 */
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectionGuards, guardConnections, guardedServerOptions } from "../../../../src/mock/listen.js";

type Refusal = Parameters<NonNullable<ConnectionGuards["onRefused"]>>[0];

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function guarded() {
  const refusals: Refusal[] = [];
  const guards: ConnectionGuards = {
    headersTimeoutMs: 1000,
    requestTimeoutMs: 1500,
    keepAliveTimeoutMs: 1000,
    checkIntervalMs: 100,
    maxConnections: 100,
    maxConnectionsPerAddress: 10,
    onRefused: (refusal) => refusals.push(refusal),
  };
  // The handler reads the body before it answers, as the mock does.
  const server = createServer(guardedServerOptions(guards), (request, response) => {
    request.resume();
    request.on("end", () => response.end("ok"));
  });
  guardConnections(server, guards);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, refusals };
}

/** Writes `bytes` from 127.0.0.7 and resolves everything received once the server closes the connection. */
function sendAndWaitForClose(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: "127.0.0.1", port, localAddress: "127.0.0.7" });
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk;
    });
    socket.on("error", () => {});
    socket.once("close", () => resolve(received));
    socket.write(bytes);
  });
}

describe("the timeouts", () => {
  it("close a connection whose headers never finish, with Node's 408, reported as a timeout", async () => {
    const { port, refusals } = await guarded();
    const received = await sendAndWaitForClose(port, "POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Le");
    expect(received).toBe("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    expect(refusals).toEqual([{ reason: "timeout", address: "127.0.0.7" }]);
  });

  it("close a connection whose body never finishes, with Node's 408, reported as a timeout", async () => {
    const { port, refusals } = await guarded();
    const received = await sendAndWaitForClose(port, 'POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"partial":');
    expect(received).toBe("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    expect(refusals).toEqual([{ reason: "timeout", address: "127.0.0.7" }]);
  });

  it("close an idle kept-alive connection after its answer, without reporting it", async () => {
    const { port, refusals } = await guarded();
    const received = await sendAndWaitForClose(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Keep-Alive: timeout=1\r\n[\s\S]*\r\n\r\nok$/);
    expect(refusals).toEqual([]);
  });
});
