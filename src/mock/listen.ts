/** Binding a Prism server (the mock's or the proxy's) with an error that names the API and the port. */

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
