/**
 * The durable store (`file:<dir>`, `postgres://...`): a StateStore (./store.ts) over a
 * DurableBackend (./backend.ts), one API's namespace of it.
 *
 * - `run(key, work)` queues the work behind the credential's earlier ones (a credential's requests
 *   in this process run one after another, in order), then runs it inside `backend.transact` on the
 *   credential's tracked state, and resolves once its changes are durable: only then is the answer
 *   sent. The state in memory is current when the stored version is the one it was read at (on the
 *   file store, always: one process writes it); otherwise the transaction hands the stored rows and
 *   the state is rebuilt from them (`CredentialState.load`, another instance changed it) and taken
 *   into this process's schedulers (`onLoad`). Postgres serialises every instance's transactions on
 *   a credential.
 * - When the work throws, or the write fails, nothing is written and the state in memory is
 *   dropped: the next request reads it back as stored (the change undone). A failure of the store
 *   itself rejects with a StoreUnavailable (answered 503), never an acknowledgement.
 * - States stay in memory while used: a bounded cache (`cacheCredentials`, and the memory budget's
 *   bytes, the budget of ./limits.ts counted but never refusing a write here) gives way, least
 *   recently used first, only with states that are idle and have nothing due (no queued delivery,
 *   no delayed move); one left is read back on its next request.
 * - Work due without a request (a delivery's next attempt, a delayed move) is taken into this
 *   process's schedulers when a state is loaded; what this process has not loaded (another
 *   instance's, a stopped instance's, this store's last run's) is found by polling
 *   `backend.claimDue` every `pollMs` (a claim leases a credential to one instance for
 *   `claimLeaseMs`), and at start on a store of one process (`file:`), every credential with work
 *   ahead (`backend.scheduled`).
 * - `close` stops polling, waits for the transactions queued and keeps everything stored.
 *
 * The bounds of the memory store (credentials per mock, the eviction of an idle state for a new
 * one, the memory budget refusing a write) are memory's: a durable store bounds each credential as
 * the memory store does (records, bytes, events, queued callbacks) and what it keeps in memory.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { type ChangeSet, type DurableBackend, STORE_LIMITS } from "./backend.js";
import { type CredentialBounds, DEFAULT_BUDGET, LIMITS, SandboxBudget } from "./limits.js";
import { CredentialState } from "./state.js";
import { type StateStore, type StateStoreOptions, type StateSummary, type StateWork, StoreUnavailable, summaryOf } from "./store.js";

export interface DurableStoreOptions extends StateStoreOptions {
  /** How often due work is looked for, ms (default DURABLE_DEFAULTS.pollMs). */
  pollMs?: number;
  /** How long a claim holds a credential for this instance, ms (default DURABLE_DEFAULTS.claimLeaseMs). */
  claimLeaseMs?: number;
  /** Credentials kept in memory at most (default LIMITS.credentials). */
  cacheCredentials?: number;
  /** Works waiting on one credential at most (default DURABLE_DEFAULTS.queuePerCredential). */
  queuePerCredential?: number;
  /** Where a failed poll is told (one line); default: standard error. */
  log?: (line: string) => void;
}

export const DURABLE_DEFAULTS = {
  /** Due work of other instances (or of a stopped one) is found within this. */
  pollMs: 250,
  /** Long enough for the work found to be taken into this instance's schedulers and leased there. */
  claimLeaseMs: 5_000,
  /** Works waiting on one credential at most (its requests in flight in this process); beyond, 503. */
  queuePerCredential: 1000,
} as const;

/**
 * The budget of a durable store's states in memory: counted in the sandbox's budget (shared with the
 * other mocks of the process) to bound the cache, but never refusing a write, which the store
 * keeps on disk or in its database.
 */
class CacheBudget extends SandboxBudget {
  constructor(readonly shared: SandboxBudget) {
    super(shared.limit);
  }
  override fits(): boolean {
    return true;
  }
  override add(bytes: number): void {
    super.add(bytes);
    this.shared.add(bytes);
  }
  get over(): boolean {
    return this.shared.used > this.shared.limit;
  }
  /** Each credential's bounds are the sandbox's budget's (a hosted sandbox's partner's quotas). */
  override boundsOf(key: string): CredentialBounds {
    return this.shared.boundsOf(key);
  }
}

interface Entry {
  /** The state in memory; undefined when it is to be read from the store. */
  state: CredentialState | undefined;
  /** The stored version `state` is at. */
  version: number;
  /** The last work queued on the credential (never rejects). */
  tail: Promise<unknown>;
  /** Works queued or running. */
  queued: number;
}

const NOTHING: ChangeSet = { puts: [], deletes: [] };
/** The result of `runExisting` for a credential nothing is stored for. */
const MISSING = Symbol("missing");

export class DurableStore implements StateStore {
  readonly durable = true;
  readonly budget: SandboxBudget;
  readonly evictIdleSeconds: number;
  /** The name this instance claims due work under. */
  readonly owner = `${hostname().slice(0, 100)}/${process.pid}/${randomUUID()}`;
  private readonly cache: CacheBudget;
  /** Every credential in memory or with work queued, least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private readonly onDrop?: (state: CredentialState) => void;
  private readonly onLoad?: (state: CredentialState) => void;
  private readonly pollMs: number;
  private readonly claimLeaseMs: number;
  private readonly cacheCredentials: number;
  private readonly queuePerCredential: number;
  private readonly log: (line: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly backend: DurableBackend,
    options: DurableStoreOptions = {},
  ) {
    this.cache = new CacheBudget(options.budget ?? DEFAULT_BUDGET);
    this.budget = this.cache;
    this.evictIdleSeconds = options.evictIdleSeconds ?? LIMITS.evictIdleSeconds;
    this.onDrop = options.onDrop;
    this.onLoad = options.onLoad;
    this.pollMs = options.pollMs ?? DURABLE_DEFAULTS.pollMs;
    this.claimLeaseMs = options.claimLeaseMs ?? DURABLE_DEFAULTS.claimLeaseMs;
    this.cacheCredentials = options.cacheCredentials ?? LIMITS.credentials;
    this.queuePerCredential = options.queuePerCredential ?? DURABLE_DEFAULTS.queuePerCredential;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  get size(): number {
    let size = 0;
    for (const entry of this.entries.values()) if (entry.state && entry.version > 0) size++;
    return size;
  }

  run<T>(key: string, work: StateWork<T>): Promise<T> {
    return this.queue(key, (entry) => this.transact(entry, key, work, false)) as Promise<T>;
  }

  async runExisting<T>(key: string, work: StateWork<T>): Promise<T | undefined> {
    const result = await this.queue(key, (entry) => this.transact(entry, key, work, true));
    return result === MISSING ? undefined : (result as T);
  }

  /** Queues `step` behind the credential's earlier work. */
  private queue<T>(key: string, step: (entry: Entry) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StoreUnavailable("the sandbox is stopping: its store is closed"));
    if ((this.entries.get(key)?.queued ?? 0) >= this.queuePerCredential)
      return Promise.reject(
        new StoreUnavailable(
          `${this.queuePerCredential} requests of this credential are already waiting for the store, the sandbox's limit; retry later`,
        ),
      );
    let entry = this.entries.get(key);
    if (entry)
      this.entries.delete(key); // to the young end
    else entry = { state: undefined, version: 0, tail: Promise.resolve(), queued: 0 };
    this.entries.set(key, entry);
    const current = entry;
    current.queued++;
    const run = current.tail.then(() => step(current));
    const done = () => {
      current.queued--;
      this.trim(key, current);
    };
    current.tail = run.then(done, done);
    return run;
  }

  /** One work in one transaction (see the module header); `existing`: MISSING, and the work not run, when nothing is stored. */
  private async transact<T>(
    entry: Entry,
    key: string,
    work: StateWork<T>,
    existing: boolean,
    refresh = false,
  ): Promise<T | typeof MISSING> {
    let fresh: CredentialState | undefined;
    let failed: { error: unknown } | undefined;
    let outcome: { result: T | typeof MISSING; version: number };
    try {
      outcome = await this.backend.transact<T | typeof MISSING>(key, entry.state ? entry.version : undefined, (stored) => {
        let state = entry.state;
        if (stored) {
          if (existing && stored.rows.length === 0) return { changes: NOTHING, result: MISSING };
          fresh = stored.rows.length > 0 ? CredentialState.load(stored, this.cache) : new CredentialState(key, this.cache);
          fresh.track();
          state = fresh;
        } else if (existing && entry.version === 0) return { changes: NOTHING, result: MISSING };
        const current = state!;
        current.lastUsed = Date.now();
        try {
          const result = work(current);
          const changes = current.takeChanges();
          // A look at what is due writes when it is due again, should the stored time be stale.
          if (refresh && changes.wakeAt === undefined) changes.wakeAt = current.nextWork();
          return { changes, result };
        } catch (error) {
          failed = { error };
          throw error;
        }
      });
    } catch (error) {
      // Nothing was written: what the work changed in memory goes, the state is read back as stored.
      fresh?.release();
      this.forget(entry);
      if (failed?.error === error) throw error;
      throw new StoreUnavailable(
        `the sandbox's store could not keep this request's changes (${(error as Error).message}); nothing was changed`,
      );
    }
    if (outcome.result === MISSING) {
      fresh?.release();
      // Reset through another instance since this one read it: what this process had of it goes.
      const gone = entry.state;
      if (gone && outcome.version !== entry.version) {
        this.forget(entry);
        this.onDrop?.(gone);
      }
      return MISSING;
    }
    if (fresh) {
      if (entry.state !== fresh) entry.state?.release();
      entry.state = fresh;
    }
    entry.version = outcome.version;
    if (fresh) this.onLoad?.(fresh);
    return outcome.result;
  }

  /** Drops the state in memory of an entry (its budget given back); the store still holds it. */
  private forget(entry: Entry): void {
    entry.state?.release();
    entry.state = undefined;
    entry.version = 0;
  }

  /**
   * After a work: a credential never stored leaves memory at once; then, beyond the cache's bounds,
   * the least recently used states that are idle and have nothing due.
   */
  private trim(key: string, entry: Entry): void {
    if (entry.queued === 0 && entry.version === 0 && this.entries.get(key) === entry) {
      this.forget(entry);
      this.entries.delete(key);
    }
    if (this.entries.size <= this.cacheCredentials && !this.cache.over) return;
    for (const [at, candidate] of this.entries) {
      if (this.entries.size <= this.cacheCredentials && !this.cache.over) return;
      if (candidate.queued > 0 || (candidate.state !== undefined && candidate.state.nextWork() !== null)) continue;
      this.forget(candidate);
      this.entries.delete(at);
    }
  }

  states(): CredentialState[] {
    const states: CredentialState[] = [];
    for (const entry of this.entries.values()) if (entry.state && entry.version > 0) states.push(entry.state);
    return states;
  }

  /** Every stored credential of this namespace, summed up (read page by page, not kept). */
  async summaries(): Promise<StateSummary[]> {
    const summaries: StateSummary[] = [];
    const scratch = new SandboxBudget(Number.MAX_SAFE_INTEGER);
    for await (const stored of this.backend.loadAll()) {
      const entry = this.entries.get(stored.key);
      if (entry?.state && entry.version === stored.version) summaries.push(summaryOf(entry.state));
      else {
        const state = CredentialState.load(stored, scratch);
        summaries.push(summaryOf(state));
        state.release();
      }
    }
    return summaries;
  }

  resetState(key: string): Promise<number> {
    return this.queue(key, async (entry) => {
      try {
        await this.backend.remove(key);
      } catch (error) {
        this.forget(entry);
        throw new StoreUnavailable(`the sandbox's store could not reset this state (${(error as Error).message})`);
      }
      const dropped = entry.state;
      entry.state = undefined;
      entry.version = 0;
      if (dropped) {
        dropped.release();
        this.onDrop?.(dropped);
      }
      return 1;
    });
  }

  async resetAll(): Promise<number> {
    const keys = new Set<string>();
    for (const [key, entry] of this.entries) if (entry.version > 0) keys.add(key);
    for await (const stored of this.backend.loadAll()) keys.add(stored.key);
    for (const key of keys) await this.resetState(key);
    return keys.size;
  }

  /**
   * Takes in what was left due: on a store of one process, every credential with work ahead (the
   * leases in it are those of a process that stopped); then polls for due work.
   */
  start(): void {
    if (this.closed || this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
    const first = this.backend.shared
      ? Promise.resolve()
      : this.backend.scheduled(STORE_LIMITS.claim).then((keys) => Promise.all(keys.map((key) => this.refresh(key))));
    this.polling = first.then(
      () => this.claim(),
      (error) => this.log(`sandbox store: the work left due could not be read: ${(error as Error).message}`),
    );
    void this.polling.finally(() => {
      this.polling = undefined;
    });
  }

  /** One poll, unless one runs. */
  private poll(): Promise<void> {
    this.polling ??= this.claim().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  /** Claims the credentials due now, and takes each in. */
  private async claim(): Promise<void> {
    if (this.closed) return;
    let keys: string[];
    try {
      keys = await this.backend.claimDue(Date.now(), this.owner, this.claimLeaseMs, STORE_LIMITS.claim);
    } catch (error) {
      if (!this.closed) this.log(`sandbox store: looking for due work failed: ${(error as Error).message}`);
      return;
    }
    await Promise.all(keys.map((key) => this.refresh(key)));
  }

  /** Reads a credential's state as stored and takes its due work into this process's schedulers. */
  private async refresh(key: string): Promise<void> {
    if (this.closed) return;
    try {
      const state = await this.queue(key, (entry) =>
        this.transact(entry, key, (current) => current, true, true).then((found) => (found === MISSING ? undefined : found)),
      );
      if (state) this.onLoad?.(state);
    } catch (error) {
      if (!this.closed)
        this.log(`sandbox store: credential ${key.slice(0, 12)}: its due work could not be read: ${(error as Error).message}`);
    }
  }

  /** Stops polling, waits for the work queued, and leaves memory; everything stays stored. Closes this namespace's view of the backend. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.polling;
    await Promise.all([...this.entries.values()].map((entry) => entry.tail));
    for (const entry of this.entries.values()) this.forget(entry);
    this.entries.clear();
    await this.backend.close();
  }
}
