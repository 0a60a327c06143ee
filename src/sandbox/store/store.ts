/**
 * Where the sandbox's states live, behind one interface: `StateStore`. Every request to a
 * credential's state goes through `run` (the one path): an API request the sandbox answers, a
 * control call, and the work the scheduler finds due (a delivery attempt, a scheduled move). The
 * work itself is synchronous and runs on one CredentialState (./state.ts); a store decides what
 * happens around it:
 *
 * - ./memory.ts `MemoryStore` (the default): the states in memory are the whole truth; `run` calls
 *   the work at once and returns its result, no promise added.
 * - a durable store (`file:<dir>`, `postgres://...`, over ./backend.ts `DurableBackend`): `run` calls
 *   the work inside `DurableBackend.transact` on a tracked state (CredentialState `track`, rebuilt by
 *   `CredentialState.load` when the stored version is another), writes what `takeChanges` gives,
 *   and resolves once that is durable: only then is the answer sent.
 */
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
}

export interface StateStore {
  readonly budget: SandboxBudget;
  readonly evictIdleSeconds: number;
  /** The number of credentials with state. */
  readonly size: number;
  /**
   * The one path to a credential's state: runs `work` on the state of credential `key` (SHA-256 of
   * the credential, ./state.ts `credentialKey`), made on first use; throws a CapacityError when
   * there is no room for a new credential. A synchronous result from the memory store; a durable
   * store's resolves once the work's changes are durable (nothing is written when it throws).
   */
  run<T>(key: string, work: StateWork<T>): T | Promise<T>;
  /** As `run`, for a credential that has state: undefined (the work not run) when it has none. */
  runExisting<T>(key: string, work: StateWork<T>): T | undefined | Promise<T | undefined>;
  /** Every credential's state, least recently used first (the operator's listing). */
  states(): CredentialState[];
  /** Drops one credential's state (its callbacks cancelled); the number dropped (0 or 1). */
  resetState(key: string): number | Promise<number>;
  /** Drops every state; the number dropped. */
  resetAll(): number | Promise<number>;
}
