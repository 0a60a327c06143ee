/**
 * What one partner of a hosted sandbox may hold and spend: the defaults in one table (QUOTAS), the
 * bounds an operator's override must keep (per quota), and the check of an override as the operator
 * sends it (`POST /_sandbox/partners`, a partner's quotas). One partner at its quota is refused
 * (507 for what it holds, 429 for its rate); the others go on working, which is what the defaults
 * are for: a handful of partners at their defaults fit the sandbox's default memory budget.
 */

/** One quota: its default, the bounds an override must keep (inclusive), and what it counts. */
export interface QuotaSpec {
  default: number;
  min: number;
  max: number;
  what: string;
}

/**
 * The quotas of a partner, with their defaults and bounds. Records, bytes and events are what the
 * partner's state holds (all the APIs of the sandbox together); queued callbacks are deliveries
 * waiting for an attempt; the rate is requests per second, with a burst of more over any 10 s.
 */
export const QUOTAS = {
  records: { default: 1000, min: 1, max: 100_000, what: "records kept, every resource and API together" },
  bytes: { default: 4 * 1024 * 1024, min: 1024, max: 1024 * 1024 * 1024, what: "bytes of records kept (their JSON size)" },
  events: { default: 200, min: 1, max: 10_000, what: "status-change events kept" },
  queuedCallbacks: { default: 20, min: 1, max: 10_000, what: "callbacks waiting to be delivered" },
  requestsPerSecond: { default: 10, min: 1, max: 10_000, what: "requests per second, every API together" },
  burst: { default: 50, min: 0, max: 100_000, what: "requests over the per-second rate allowed within any 10 s" },
} as const satisfies Record<string, QuotaSpec>;

export type QuotaName = keyof typeof QUOTAS;
export type Quotas = Record<QuotaName, number>;

export const QUOTA_NAMES = Object.keys(QUOTAS) as QuotaName[];

/** The defaults, as one object. */
export const DEFAULT_QUOTAS: Readonly<Quotas> = Object.freeze(
  Object.fromEntries(QUOTA_NAMES.map((name) => [name, QUOTAS[name].default])) as Quotas,
);

/** An override that is not one: `field` names the member (`quotas.records`), the message says what is wrong. */
export class QuotaError extends Error {
  override readonly name = "QuotaError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/**
 * An operator's override as sent (JSON): an object whose members are quota names, each an integer
 * within its bounds. Throws QuotaError naming the first member that is not (under `field`).
 */
export function parseQuotas(input: unknown, field = "quotas"): Partial<Quotas> {
  if (!isPlainObject(input)) throw new QuotaError(field, "must be an object of quota names and integers");
  const parsed: Partial<Quotas> = {};
  for (const [name, value] of Object.entries(input)) {
    if (!Object.hasOwn(QUOTAS, name))
      throw new QuotaError(`${field}.${name.slice(0, 64)}`, `not a quota; the quotas are ${QUOTA_NAMES.join(", ")}`);
    const { min, max } = QUOTAS[name as QuotaName];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
      throw new QuotaError(`${field}.${name}`, `must be an integer from ${min} to ${max}`);
    parsed[name as QuotaName] = value;
  }
  return parsed;
}

/** The quotas in force for a partner: its overrides over the defaults (overrides as stored: only known names count). */
export function effectiveQuotas(overrides: Readonly<Record<string, number>> | undefined): Quotas {
  if (overrides === undefined) return { ...DEFAULT_QUOTAS };
  const quotas = { ...DEFAULT_QUOTAS };
  for (const name of QUOTA_NAMES) {
    const value = overrides[name];
    if (typeof value === "number") quotas[name] = value;
  }
  return quotas;
}
