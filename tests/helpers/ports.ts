/** Free TCP ports on 127.0.0.1, for tests that need fixed port numbers. */
import { createServer } from "node:net";

export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The first port of `count` consecutive free ports, searched from a random start in 20000-59999. */
export async function freePortRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 40000);
    const ports = Array.from({ length: count }, (_, i) => base + i);
    if ((await Promise.all(ports.map((p) => isPortFree(p)))).every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/** Holds `port` (0: a free one) until the returned close() is called. */
export function occupyPort(port = 0, host = "127.0.0.1"): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
