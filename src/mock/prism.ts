/**
 * How this package runs Prism, in one place: the configuration of the contract mock (static
 * examples, security checked, request and response validated, findings reported and never turned
 * into errors) and of the validating proxy, and Prism's logging switched off.
 */

/** Prism's logger, silent: every level a no-op, and `child()` the logger itself (no per-request object). */
const noop = () => undefined;
export const silentLogger: Record<string, unknown> = {
  level: "silent",
  ...Object.fromEntries(["trace", "debug", "info", "success", "warn", "error", "fatal"].map((level) => [level, noop])),
};
silentLogger.child = () => silentLogger;

/** The mock's configuration: the spec's examples, never generated data (a request can ask for it with `Prefer`). */
export const mockConfig = {
  mock: { dynamic: false },
  checkSecurity: true,
  validateRequest: true,
  validateResponse: true,
  errors: false, // an invalid response is only reported in sl-violations, not turned into a 500
  upstreamProxy: undefined,
  isProxy: false as const,
};

/** The proxy's configuration: forward to `upstream`, report findings, never block. */
export function proxyConfig(upstream: URL) {
  return { ...mockConfig, isProxy: true as const, upstream };
}
