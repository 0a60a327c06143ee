/**
 * Binding a Prism server (the mock's or the proxy's) with an error that names the API and the port,
 * and the guards of its connections (caps and timeouts, on in hosted mode).
 */
import type { Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

/** The port is taken: `code` is EADDRINUSE, so that a command can name its own option that moves the port. */
export class PortInUseError extends Error {
  readonly code = "EADDRINUSE";
  constructor(
    readonly alias: string,
    readonly port: number,
    readonly host: string,
  ) {
    super(`${alias}: port ${port} on ${host} is already in use; stop what holds it or choose another port`);
  }
}

export async function listenOrExplain(
  server: { listen(port: number, host: string): Promise<string> },
  alias: string,
  port: number,
  host: string,
): Promise<string> {
  try {
    return await server.listen(port, host);
  } catch (error) {
    // Prism rejects with the error's message (a string), not the Error.
    const message = String(error instanceof Error ? error.message : error);
    if (message.includes("EADDRINUSE")) throw new PortInUseError(alias, port, host);
    throw new Error(`${alias}: cannot listen on ${host}:${port}: ${message}`);
  }
}

/**
 * Bounds on a server's connections, so that slow or many clients cannot take it from the others (on
 * in hosted mode, src/hosted/connections.ts; a local mock keeps Node's defaults):
 * - `headersTimeoutMs`: a request's headers must arrive within this; `requestTimeoutMs`: the whole
 *   request, body included. Past either the connection gets Node's 408 and is closed. Node checks
 *   them every `checkIntervalMs`.
 * - `keepAliveTimeoutMs`: an idle kept-alive connection is closed after this.
 * - `maxConnections`: connections open at once, every client together; `maxConnectionsPerAddress`:
 *   from one client address (0: no such cap). A connection over either is closed at once.
 * - `onRefused`: told of each connection refused or timed out, with its reason and client address.
 */
export interface ConnectionGuards {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  checkIntervalMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  onRefused?(refusal: { reason: "max-connections" | "max-connections-per-address" | "timeout"; address: string }): void;
}

/** The options of `http.createServer` for these guards (the check interval can only be given there). */
export function guardedServerOptions(guards: ConnectionGuards | undefined): ServerOptions {
  if (!guards) return {};
  return {
    headersTimeout: guards.headersTimeoutMs,
    requestTimeout: guards.requestTimeoutMs,
    keepAliveTimeout: guards.keepAliveTimeoutMs,
    connectionsCheckingInterval: guards.checkIntervalMs,
  };
}

/** What Node's HTTP server answers a client error with when no one listens for it (node:_http_server), by the error's code. */
const CLIENT_ERROR_ANSWERS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
  HPE_HEADER_OVERFLOW: "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
};
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

/**
 * Applies the connection caps to a server made with `guardedServerOptions(guards)`, and reports what
 * they refuse. Node closes a connection over `maxConnections` itself (its `drop` event); one over
 * the cap of its address is closed here as soon as it is accepted. A timed-out request is answered
 * as Node answers it without a listener (the 408, or the 400 family for a malformed request).
 */
export function guardConnections(server: Server, guards: ConnectionGuards): void {
  const { onRefused } = guards;
  server.maxConnections = guards.maxConnections;
  server.on("drop", (data?: { remoteAddress?: string }) =>
    onRefused?.({ reason: "max-connections", address: data?.remoteAddress ?? "unknown" }),
  );
  if (guards.maxConnectionsPerAddress > 0) {
    const open = new Map<string, number>();
    server.on("connection", (socket: Socket) => {
      const address = socket.remoteAddress ?? "unknown";
      const count = open.get(address) ?? 0;
      if (count >= guards.maxConnectionsPerAddress) {
        socket.destroy();
        onRefused?.({ reason: "max-connections-per-address", address });
        return;
      }
      open.set(address, count + 1);
      socket.once("close", () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left <= 0) open.delete(address);
        else open.set(address, left);
      });
    });
  }
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
      onRefused?.({ reason: "timeout", address: (socket as Socket).remoteAddress ?? "unknown" });
    // As node:_http_server does: answer only when no byte of an answer was sent on the connection yet.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !answering?.headersSent) socket.write(CLIENT_ERROR_ANSWERS[error.code ?? ""] ?? BAD_REQUEST);
    socket.destroy(error);
  });
}
