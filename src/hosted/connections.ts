/**
 * The connection guards of a hosted sandbox's servers (applied by src/mock/listen.ts
 * `guardConnections`): their defaults and the bounds an operator's setting must keep.
 *
 * The defaults keep thousands of slow connections from one or a few addresses from taking the
 * others offline: one address holds at most 64 connections (the rest are closed as soon as they are
 * accepted), every client together 4096 (well under the process's file descriptors, so that
 * accepting never fails for want of one); a request's headers must arrive within 10 s and the whole
 * request within 30 s (a body of the mock's largest size, 10 MiB, at about 3 Mbit/s); an idle
 * kept-alive connection is closed after 5 s. Node checks the timeouts every second.
 *
 * Behind a proxy every client has the proxy's address: the per-address cap then bounds everyone
 * together, so raise it (or set 0) there and let the proxy bound each client.
 */
import type { ConnectionGuards } from "../mock/listen.js";

export type ConnectionSettings = Omit<ConnectionGuards, "onRefused">;

/** Each setting: its default and bounds (inclusive), and its unit. */
export const CONNECTION_SETTINGS = {
  headersTimeoutMs: { default: 10_000, min: 1000, max: 600_000 },
  requestTimeoutMs: { default: 30_000, min: 1000, max: 3_600_000 },
  keepAliveTimeoutMs: { default: 5000, min: 1000, max: 600_000 },
  checkIntervalMs: { default: 1000, min: 100, max: 30_000 },
  maxConnections: { default: 4096, min: 1, max: 1_000_000 },
  maxConnectionsPerAddress: { default: 64, min: 0, max: 1_000_000 },
} as const satisfies Record<keyof ConnectionSettings, { default: number; min: number; max: number }>;

export const DEFAULT_CONNECTIONS: Readonly<ConnectionSettings> = Object.freeze(
  Object.fromEntries(Object.entries(CONNECTION_SETTINGS).map(([name, spec]) => [name, spec.default])) as ConnectionSettings,
);

/**
 * The settings in force: `given` over the defaults. Throws a RangeError naming the setting out of its
 * bounds, or a request timeout shorter than the headers' (Node needs the headers' within the request's).
 */
export function connectionSettings(given: Partial<ConnectionSettings> = {}): ConnectionSettings {
  const settings = { ...DEFAULT_CONNECTIONS };
  for (const name of Object.keys(CONNECTION_SETTINGS) as Array<keyof ConnectionSettings>) {
    const value = given[name];
    if (value === undefined) continue;
    const { min, max } = CONNECTION_SETTINGS[name];
    if (!Number.isInteger(value) || value < min || value > max)
      throw new RangeError(`the hosted sandbox's ${name} must be an integer from ${min} to ${max}, got ${value}`);
    settings[name] = value;
  }
  if (settings.headersTimeoutMs > settings.requestTimeoutMs)
    throw new RangeError(
      `the hosted sandbox's headersTimeoutMs (${settings.headersTimeoutMs}) must not exceed its requestTimeoutMs (${settings.requestTimeoutMs})`,
    );
  return settings;
}
