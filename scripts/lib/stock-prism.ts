/**
 * Stock Prism: @stoplight/prism-http-server's own server with the mock's configuration, the
 * reference the mock's HTTP layer (src/mock/server.ts) is checked against (tests/e2e/fuzz) and
 * measured against (npm run bench). Its logger is pino, silent, as Prism's CLI makes it.
 */
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createServer } from "@stoplight/prism-http-server";
import { pino } from "pino";
import { mockConfig } from "../../src/mock/prism.js";

export interface StockPrism {
  url: string;
  close(): Promise<void>;
}

/** Serves the spec at `specPath` with stock Prism on 127.0.0.1 and a free port. */
export async function startStockPrism(specPath: string): Promise<StockPrism> {
  const server = createServer(await getHttpOperationsFromSpec(specPath), {
    components: { logger: pino({ level: "silent", customLevels: { success: 31 } }) as never },
    config: mockConfig,
    cors: true,
  });
  const url = await server.listen(0, "127.0.0.1");
  return { url, close: () => server.close() };
}
