/**
 * Where the sandbox's states live, behind one interface: `StateStore`. Every request to a
 * credential's state goes through `run` (the one path): an API request the sandbox answers, a
 * control call, and the work the scheduler finds due (a delivery attempt, a scheduled move). The
 * work itself is synchronous and runs on one CredentialState (./state.ts); a store decides what
 * happens around it:
 *
 * - ./memory.ts `MemoryStore` (the default): the states in memory are the whole truth; `run` calls
 *   the work at once and returns its result, no promise added.
 * - ./durable.ts `DurableStore` (`file:<dir>`, `postgres://...`, over ./backend.ts `DurableBackend`):
 *   `run` calls the work inside `DurableBackend.transact` on a tracked state (CredentialState `track`,
 *   rebuilt by `CredentialState.load` when the stored version is another), writes what
 *   `takeChanges` gives, and resolves once that is durable: only then is the answer sent. A store
 *   that cannot write rejects with a `StoreUnavailable` (answered 503, never 500), the state in
 *   memory put back as stored.
 */
import type { DurableBackend } from "./backend.js";
import type { SandboxBudget } from "./limits.js";
import type { CredentialState } from "./state.js";

/** Work on one credential's state: synchronous; what it returns is the request's result. */
export type StateWork<T> = (state: CredentialState) => T;

/** What a store is made with (../engine/context.ts makes it from the sandbox's options). */
export interface StateStoreOptions {
  /** The memory budget (default: the process's, ./limits.ts DEFAULT_BUDGET). */
  budget?: SandboxBudget;
  /** Called for every state dropped (reset, eviction, close): what was queued for it is cancelled there. */
  onDrop?: (state: CredentialState) => void;
  /** The real clock, ms (tests). */
  now?: () => number;
  /** A credential idle this long (seconds) may give way to a new one (default LIMITS.evictIdleSeconds). */
  evictIdleSeconds?: number;
  /**
   * Called for every state a durable store brought in from elsewhere (loaded, refreshed because
   * another instance changed it, found with work due): its work is taken into this process's
   * schedulers (../engine/resume.ts).
   */
  onLoad?: (state: CredentialState) => void;
}

/** One credential's state in a listing (the operator's GET /_sandbox/state/all). */
export interface StateSummary {
  /** The first 12 hex digits of the credential's key. */
  label: string;
  records: number;
  clockOffsetMs: number;
  errors: number;
  deliveries: number;
}

/** A state's line in a listing. */
export const summaryOf = (state: CredentialState): StateSummary => ({
  label: state.label,
  records: state.count,
  clockOffsetMs: state.clockOffsetMs,
  errors: state.errors.length,
  deliveries: state.deliveries.length,
});

/** A durable store could not read or write (its database down, its disk full): answered 503, the request changed nothing. */
export class StoreUnavailable extends Error {
  override readonly name = "StoreUnavailable";
}

export interface StateStore {
  /** The memory budget (a durable store: what its states in memory take, beyond which idle ones leave memory). */
  readonly budget: SandboxBudget;
  readonly evictIdleSeconds: number;
  /** The number of credentials with state in memory. */
  readonly size: number;
  /** True for a durable store: what waits (deliveries, delayed moves) outlives the process. */
  readonly durable: boolean;
  /** A durable store's backend (this sandbox's namespace of it), where partners are kept too. */
  readonly backend?: DurableBackend;
  /**
   * The one path to a credential's state: runs `work` on the state of credential `key` (SHA-256 of
   * the credential, ./state.ts `credentialKey`), made on first use; throws a CapacityError when
   * there is no room for a new credential. A synchronous result from the memory store; a durable
   * store's resolves once the work's changes are durable (nothing is written when it throws).
   */
  run<T>(key: string, work: StateWork<T>): T | Promise<T>;
  /** As `run`, for a credential that has state: undefined (the work not run) when it has none. */
  runExisting<T>(key: string, work: StateWork<T>): T | undefined | Promise<T | undefined>;
  /** The states in memory, least recently used first. */
  states(): CredentialState[];
  /** Every credential's state, summed up (the operator's listing): a durable store's stored ones too. */
  summaries(): StateSummary[] | Promise<StateSummary[]>;
  /** Drops one credential's state (its callbacks cancelled); the number dropped (0 or 1). */
  resetState(key: string): number | Promise<number>;
  /** Drops every state; the number dropped. */
  resetAll(): number | Promise<number>;
  /** Starts what a store does on its own (a durable store: the work left due, then looking for more). */
  start(): void;
  /** Stops: the memory store drops every state; a durable store finishes its writes and keeps everything. */
  close(): void | Promise<void>;
}
