/**
 * What one partner of a hosted sandbox may hold and spend: the defaults in one table (QUOTAS), the
 * bounds an operator's override must keep (per quota), the name each has in the control API (its
 * `field`, snake_case as every member of that API), and the check of an override as the operator
 * sends it (`POST /_sandbox/partners`, `PATCH /_sandbox/partners/{id}`: a JSON merge patch, where
 * `null` puts a quota back to its default). One partner at its quota is refused (507 for what it
 * holds, 429 for its rate); the others go on working, which is what the defaults are for: dozens of
 * partners at their defaults fit the sandbox's default memory budget.
 */

/** One quota: its default, the bounds an override must keep (inclusive), and what it counts. */
export interface QuotaSpec {
  default: number;
  min: number;
  max: number;
  what: string;
  /** Its name in the control API's bodies. */
  field: string;
}

/**
 * The quotas of a partner, with their defaults and bounds. Records, bytes and events are what the
 * partner's state holds (all the APIs of the sandbox together); queued callbacks are deliveries
 * waiting for an attempt; the rate is requests per second, with a burst of more over any 10 s.
 */
export const QUOTAS = {
  records: { default: 1000, min: 1, max: 100_000, what: "records kept, per API", field: "records" },
  bytes: {
    default: 4 * 1024 * 1024,
    min: 1024,
    max: 1024 * 1024 * 1024,
    what: "bytes of records and events kept (their JSON size), per API",
    field: "bytes",
  },
  events: { default: 200, min: 1, max: 10_000, what: "status-change events kept, per API", field: "events" },
  queuedCallbacks: {
    default: 20,
    min: 1,
    max: 10_000,
    what: "callbacks waiting to be delivered, per API",
    field: "queued_callbacks",
  },
  requestsPerSecond: {
    default: 10,
    min: 1,
    max: 10_000,
    what: "requests per second, every API together",
    field: "requests_per_second",
  },
  burst: {
    default: 50,
    min: 0,
    max: 100_000,
    what: "requests over the per-second rate allowed within any 10 s",
    field: "burst",
  },
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

/** A quota by its name in the control API. */
const BY_FIELD = new Map<string, QuotaName>(QUOTA_NAMES.map((name) => [QUOTAS[name].field, name]));
const FIELDS = QUOTA_NAMES.map((name) => QUOTAS[name].field);

/** One quota's value as sent: an integer within its bounds, else a QuotaError naming it. */
function quotaValue(name: QuotaName, value: unknown, field: string): number {
  const { min, max } = QUOTAS[name];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new QuotaError(`${field}.${QUOTAS[name].field}`, `must be an integer from ${min} to ${max}`);
  return value;
}

/** The quota a member of the control API names, else a QuotaError listing them. */
function quotaNamed(member: string, field: string): QuotaName {
  const name = BY_FIELD.get(member);
  if (name === undefined) throw new QuotaError(`${field}.${member.slice(0, 64)}`, `not a quota; the quotas are ${FIELDS.join(", ")}`);
  return name;
}

/**
 * An operator's override as sent (JSON): an object whose members are quotas by their control API
 * names (`requests_per_second`), each an integer within its bounds. Throws QuotaError naming the
 * first member that is not (under `field`).
 */
export function parseQuotas(input: unknown, field = "quotas"): Partial<Quotas> {
  if (!isPlainObject(input)) throw new QuotaError(field, "must be an object of quota names and integers");
  const parsed: Partial<Quotas> = {};
  for (const [member, value] of Object.entries(input)) {
    const name = quotaNamed(member, field);
    parsed[name] = quotaValue(name, value, field);
  }
  return parsed;
}

/**
 * The overrides `current` with an operator's merge patch applied (RFC 7396, as sent: control API
 * names): a quota given is set, a quota given as `null` is back to its default, the others are kept;
 * `null` for the whole object puts every quota back to its default. Throws QuotaError naming the
 * member at fault.
 */
export function patchQuotas(current: Readonly<Partial<Quotas>> | undefined, patch: unknown, field = "quotas"): Partial<Quotas> {
  if (patch === null) return {};
  if (!isPlainObject(patch)) throw new QuotaError(field, "must be an object of quota names and integers (null: back to a default)");
  const patched: Partial<Quotas> = { ...current };
  for (const [member, value] of Object.entries(patch)) {
    const name = quotaNamed(member, field);
    if (value === null) delete patched[name];
    else patched[name] = quotaValue(name, value, field);
  }
  return patched;
}

/** Quotas as the control API shows them: by their names there. */
export function quotasView(quotas: Readonly<Partial<Quotas>>): Record<string, number> {
  const view: Record<string, number> = {};
  for (const name of QUOTA_NAMES) {
    const value = quotas[name];
    if (value !== undefined) view[QUOTAS[name].field] = value;
  }
  return view;
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
