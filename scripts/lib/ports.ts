/** Free TCP ports on 127.0.0.1, for what must be told fixed port numbers (`--port-base`). */
import { createServer } from "node:net";

export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * The first port of `count` consecutive free ports, searched from a random start in 20000-32767:
 * below Linux's ephemeral range (32768-60999), from which the OS hands out port 0 listeners and
 * outgoing connections, so that a process running at the same time (a test, a load generator's
 * connections) cannot be given one of them between this search and the moment the caller binds them.
 */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * (32768 - 20000 - count));
    const ports = Array.from({ length: count }, (_, i) => base + i);
    if ((await Promise.all(ports.map((p) => isPortFree(p)))).every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}
