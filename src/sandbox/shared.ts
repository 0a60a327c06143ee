/**
 * The sandbox as a shared service (documented in docs/guides/hosting.md): the options that decide it
 * and their environment variables, read in one place. Bound to loopback (the default) the sandbox
 * serves one developer; bound to another interface it is shared: callbacks reach only what the
 * operator allows (./targets.ts), the operations over every credential need the operator's token
 * (./operator.ts), and one memory budget (./store/limits.ts SandboxBudget) bounds every credential's
 * records together. Hosted mode (`hosted`, ./hosting.ts) is said explicitly: shared whatever the
 * interface, the operator's token its service's, and each partner's state bounded by its quotas (the
 * budget hands them out). The eviction rule's idle window and the delivery queue's bounds are
 * options too (SHARED_BOUNDS), checked here; a local sandbox lets more callbacks of a credential wait
 * by default.
 */
import { OperatorToken } from "./operator.js";
import type { QueueBounds } from "./delivery/deliverer.js";
import type { HostedOption, HostedSandbox } from "./hosting.js";
import { DEFAULT_BUDGET, LIMITS, SandboxBudget } from "./store/limits.js";
import { CALLBACK_ALLOW_ENV, parseCallbackAllow, TargetPolicy } from "./targets.js";

export interface SharedSandboxOptions {
  /** The interface the mock listens on (set by startMock from its `host`): loopback means local. */
  binding?: string;
  /**
   * Shared mode: the callback targets allowed (host names, `*.domain`, IP addresses, CIDR networks).
   * Default: the BANK_API_CONTRACTS_CALLBACK_ALLOW environment variable (comma separated), else none.
   */
  callbackAllow?: string | string[];
  /**
   * The operator's token, which `GET`/`DELETE /_sandbox/state/all` need (sent as
   * `X-Sandbox-Operator-Token`). Default: the BANK_API_CONTRACTS_OPERATOR_TOKEN environment
   * variable; without either, those operations do not exist.
   */
  operatorToken?: string;
  /** The memory budget, shared by every sandbox given the same one. Default: one for the whole process. */
  budget?: SandboxBudget;
  /**
   * At the credential limit, a credential idle this long (seconds) gives way to a new one; one used
   * more recently never does (the newcomer gets 507). Default LIMITS.evictIdleSeconds (600).
   */
  evictIdleSeconds?: number;
  /**
   * Callbacks waiting to be delivered per credential. Default: on a loopback binding
   * LIMITS.deliveryQueueLocal (200, at most the total), otherwise LIMITS.deliveryQueue (20).
   */
  deliveryQueue?: number;
  /** Callbacks waiting to be delivered per mock, every credential together. Default LIMITS.deliveryQueueTotal (500). */
  deliveryQueueTotal?: number;
  /**
   * Hosted mode (./hosting.ts): the sandbox run by a provider for its partners, its service made
   * when the mock starts (src/mock/index.ts: `true`, or hosted mode's options, src/hosted/index.ts).
   * Shared whatever the binding; only issued credentials are served. Default: not hosted.
   */
  hosted?: HostedOption;
}

/** The bounds of the numeric options, inclusive (the CLI's flags check the same). */
export const SHARED_BOUNDS = {
  evictIdleSeconds: { min: 1, max: 7 * 24 * 3600 },
  deliveryQueue: { min: 1, max: 10_000 },
  deliveryQueueTotal: { min: 1, max: 100_000 },
} as const;

export interface SharedSettings {
  targets: TargetPolicy;
  operator?: OperatorToken;
  /** Hosted mode's service, once made (the option given without one: undefined, hosted mode still said by `targets`). */
  hosted?: HostedSandbox;
  budget: SandboxBudget;
  evictIdleSeconds: number;
  queue: QueueBounds;
}

/** `value` (default `fallback`) within its SHARED_BOUNDS, else a RangeError naming the option. */
function bounded(name: keyof typeof SHARED_BOUNDS, value: number | undefined, fallback: number): number {
  const { min, max } = SHARED_BOUNDS[name];
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new RangeError(`the sandbox's ${name} must be an integer from ${min} to ${max}, got ${n}`);
  return n;
}

/**
 * The settings of a sandbox: the options, else the environment's. Throws a TypeError on a bad
 * allow-list or token, a RangeError on a bound out of SHARED_BOUNDS (or a per-credential queue
 * longer than the total).
 */
export function sharedSettings(options: SharedSandboxOptions, env: NodeJS.ProcessEnv = process.env): SharedSettings {
  const hosted = typeof options.hosted === "object" ? options.hosted.service : undefined;
  const targets = new TargetPolicy({
    binding: options.binding,
    shared: Boolean(options.hosted),
    callbackAllow: parseCallbackAllow(options.callbackAllow ?? env[CALLBACK_ALLOW_ENV]),
  });
  const total = bounded("deliveryQueueTotal", options.deliveryQueueTotal, LIMITS.deliveryQueueTotal);
  // A local sandbox serves one developer: a longer queue by default, never longer than the total.
  const perCredential = targets.mode === "local" ? Math.min(LIMITS.deliveryQueueLocal, total) : LIMITS.deliveryQueue;
  const queue = { perCredential: bounded("deliveryQueue", options.deliveryQueue, perCredential), total };
  if (queue.perCredential > queue.total)
    throw new RangeError(`the sandbox's deliveryQueue (${queue.perCredential}) must not exceed its deliveryQueueTotal (${queue.total})`);
  const budget = options.budget ?? DEFAULT_BUDGET;
  return {
    targets,
    // Hosted mode's token is its service's (given by the option or the environment when it was made).
    operator: hosted?.operator ?? OperatorToken.from(options.operatorToken, env),
    ...(hosted ? { hosted } : {}),
    // Each partner's state is bounded by its quotas, counted in the same budget.
    budget: hosted ? budget.withBounds((key) => hosted.boundsOf(key)) : budget,
    evictIdleSeconds: bounded("evictIdleSeconds", options.evictIdleSeconds, LIMITS.evictIdleSeconds),
    queue,
  };
}

export { SandboxBudget };
