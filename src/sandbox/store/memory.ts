/**
 * The memory store (the default StateStore, ./store.ts): one CredentialState per credential, in this
 * process, nothing written anywhere. `run` is the work called at once on the state.
 *
 * Everything is bounded (./limits.ts LIMITS): records and bytes per credential, one memory budget
 * for every store that shares it (SandboxBudget: by default one for the whole process), credentials
 * per store. At the credential limit a new credential takes the place of the least recently used one
 * only when that one has been idle for `evictIdleSeconds`; otherwise the newcomer is refused
 * (CapacityError, answered 507), so a flood of made-up credentials never pushes out a partner who is
 * working.
 */
import { CapacityError, DEFAULT_BUDGET, LIMITS, type SandboxBudget } from "./limits.js";
import { CredentialState, credentialKey } from "./state.js";
import { type StateStore, type StateStoreOptions, type StateSummary, type StateWork, summaryOf } from "./store.js";

export class MemoryStore implements StateStore {
  readonly durable = false;
  private readonly byKey = new Map<string, CredentialState>();
  readonly budget: SandboxBudget;
  onDrop?: (state: CredentialState) => void;
  private readonly now: () => number;
  readonly evictIdleSeconds: number;

  constructor(options: StateStoreOptions = {}) {
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.evictIdleSeconds = options.evictIdleSeconds ?? LIMITS.evictIdleSeconds;
    this.onDrop = options.onDrop;
    this.now = options.now ?? Date.now;
  }

  run<T>(key: string, work: StateWork<T>): T {
    return work(this.forKey(key));
  }

  runExisting<T>(key: string, work: StateWork<T>): T | undefined {
    const state = this.byKey.get(key);
    return state === undefined ? undefined : work(state);
  }

  /** The state of a credential value (created on first use; see forKey). */
  forCredential(value: string): CredentialState {
    return this.forKey(credentialKey(value));
  }

  /**
   * The state of a key, created on first use. At the credential limit, the least recently used
   * state is dropped for a new one only when it has been idle for `evictIdleSeconds`; otherwise
   * the new credential is refused with a CapacityError.
   */
  forKey(key: string): CredentialState {
    const now = this.now();
    let state = this.byKey.get(key);
    if (state) {
      // Map order is insertion order: move it to the young end.
      this.byKey.delete(key);
    } else {
      if (this.byKey.size >= LIMITS.credentials) {
        const oldest = this.byKey.values().next().value;
        if (oldest === undefined || now - oldest.lastUsed < this.evictIdleSeconds * 1000) {
          throw new CapacityError(
            `the sandbox holds state for ${this.byKey.size} credentials, its limit, and every one was used in the last ${this.evictIdleSeconds} seconds: a new credential is refused rather than pushing out one in use; retry later, or reset states you no longer need (DELETE /_sandbox/state)`,
          );
        }
        this.drop(oldest);
      }
      state = new CredentialState(key, this.budget);
    }
    state.lastUsed = now;
    this.byKey.set(key, state);
    return state;
  }

  private drop(state: CredentialState): void {
    this.byKey.delete(state.key);
    state.release();
    this.onDrop?.(state);
  }

  /** The state of a credential value, if it has one; does not create it. */
  peek(value: string): CredentialState | undefined {
    return this.byKey.get(credentialKey(value));
  }

  states(): CredentialState[] {
    return [...this.byKey.values()];
  }

  /** Every state, least recently used first. */
  all(): CredentialState[] {
    return this.states();
  }

  summaries(): StateSummary[] {
    return this.states().map(summaryOf);
  }

  /** Nothing runs on its own here: the engine's schedulers hold what is due. */
  start(): void {}

  /** Drops every state (the memory budget given back). */
  close(): void {
    this.resetAll();
  }

  get size(): number {
    return this.byKey.size;
  }

  resetState(key: string): number {
    const state = this.byKey.get(key);
    if (!state) return 0;
    this.drop(state);
    return 1;
  }

  resetAll(): number {
    const states = this.states();
    for (const state of states) this.drop(state);
    return states.length;
  }

  /** Drops the state of one credential value, or every state: the number dropped. */
  reset(value?: string): number {
    return value === undefined ? this.resetAll() : this.resetState(credentialKey(value));
  }
}
