/** Free TCP ports on 127.0.0.1, for tests that need fixed port numbers (scripts/lib/ports.ts), and a port held busy. */
import { createServer } from "node:net";

export { freePortRange, isPortFree } from "../../scripts/lib/ports.js";

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
